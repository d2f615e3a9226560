#include "viewport/label_entity.h"

#include <QFont>
#include <QPainterPath>
#include <Qt3DCore/QTransform>
#include <Qt3DExtras/QExtrudedTextMesh>
#include <Qt3DRender/QMaterial>

namespace animpack::viewport {

LabelEntity::LabelEntity(const QString& text, Qt3DRender::QMaterial* material, Qt3DCore::QNode* parent)
    : Qt3DCore::QEntity(parent), m_text(text), m_transform(new Qt3DCore::QTransform(this)) {
  // QExtrudedTextGeometry divides the glyph outlines of QPainterPath::addText by the font's point
  // size and flips y (so a pixel-size font, point size -1, would mirror it); a larger size only
  // makes the outlines smoother. The same path gives the extent.
  QFont font("DejaVu Sans");
  font.setPointSize(32);
  QPainterPath path;
  path.addText(0, 0, font, text);
  const QRectF r = path.boundingRect();
  const float unit = 1.f / float(font.pointSizeF());
  m_lo = QVector3D(float(r.left()) * unit, -float(r.bottom()) * unit, 0.f);
  m_hi = QVector3D(float(r.right()) * unit, -float(r.top()) * unit, 0.f);
  auto* mesh = new Qt3DExtras::QExtrudedTextMesh(this);
  mesh->setFont(font);
  mesh->setDepth(0.05f * (m_hi.y() - m_lo.y()));
  mesh->setText(text);
  addComponent(mesh);
  addComponent(material);
  addComponent(m_transform);
}

std::pair<QVector3D, QVector3D> LabelEntity::place(const QVector3D& baselineCenter, float height) {
  const float glyphs = m_hi.y() - m_lo.y();
  const float scale = glyphs > 0.f ? height / glyphs : 1.f;
  const QVector3D center(0.5f * (m_lo.x() + m_hi.x()), 0.f, 0.f);
  m_transform->setScale(scale);
  m_transform->setTranslation(baselineCenter - center * scale);
  return {baselineCenter + (QVector3D(m_lo.x(), m_lo.y(), 0.f) - center) * scale,
          baselineCenter + (QVector3D(m_hi.x(), m_hi.y(), 0.f) - center) * scale};
}

}  // namespace animpack::viewport
