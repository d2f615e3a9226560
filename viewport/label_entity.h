#pragma once
// A flat 3D text label (extruded text facing +Z), placed by its baseline centre and text height in
// world units; names the figures when they stand side by side.

#include <QString>
#include <QVector3D>
#include <Qt3DCore/QEntity>
#include <utility>

namespace Qt3DCore {
class QTransform;
}
namespace Qt3DRender {
class QMaterial;
}

namespace animpack::viewport {

class LabelEntity : public Qt3DCore::QEntity {
  Q_OBJECT
 public:
  /// A label reading `text`, drawn with `material` (shared).
  LabelEntity(const QString& text, Qt3DRender::QMaterial* material, Qt3DCore::QNode* parent);
  /// Puts the label's baseline centre at `baselineCenter`, the text (descenders included) `height`
  /// world units tall; returns the world-space corners (low, high) of the text.
  std::pair<QVector3D, QVector3D> place(const QVector3D& baselineCenter, float height);
  QString text() const { return m_text; }

 private:
  QString m_text;
  QVector3D m_lo, m_hi;  // extent of the text mesh, in its own units
  Qt3DCore::QTransform* m_transform;
};

}  // namespace animpack::viewport
