#pragma once
// Joint picking by projection: the joints are projected to the window with the camera's matrices
// and the one nearest the click wins, if it is close enough. No GL involved.

#include <QMatrix4x4>
#include <QPointF>
#include <QSizeF>
#include <QVector3D>
#include <optional>
#include <span>

namespace animpack::viewport {

/// Window position (pixels, origin at the top left) of a world point seen through `viewProjection`
/// (projection * view), or nothing when the point is behind the camera.
std::optional<QPointF> projectToWindow(const QVector3D& world, const QMatrix4x4& viewProjection, QSizeF windowSize);

/// Index of the point whose projection lies nearest to `click`, if within `radiusPx`; -1 otherwise.
int pickNearest(std::span<const QVector3D> worldPoints, const QMatrix4x4& viewProjection, QSizeF windowSize,
                QPointF click, double radiusPx = 10.0);

}  // namespace animpack::viewport
