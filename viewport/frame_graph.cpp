#include "viewport/frame_graph.h"

#include <Qt3DRender/QCamera>
#include <Qt3DRender/QCameraSelector>
#include <Qt3DRender/QClearBuffers>
#include <Qt3DRender/QCullFace>
#include <Qt3DRender/QDepthTest>
#include <Qt3DRender/QLayer>
#include <Qt3DRender/QLayerFilter>
#include <Qt3DRender/QNoDraw>
#include <Qt3DRender/QPolygonOffset>
#include <Qt3DRender/QRenderStateSet>
#include <Qt3DRender/QSortPolicy>
#include <Qt3DRender/QViewport>

namespace animpack::viewport {

namespace {

Qt3DRender::QRenderStateSet* depthStates(Qt3DRender::QDepthTest::DepthFunction function, Qt3DCore::QNode* parent) {
  auto* states = new Qt3DRender::QRenderStateSet(parent);
  auto* depth = new Qt3DRender::QDepthTest(states);
  depth->setDepthFunction(function);
  states->addRenderState(depth);
  return states;
}

}  // namespace

ViewportFrameGraph::ViewportFrameGraph(QObject* surface, Qt3DRender::QCamera* camera, Qt3DCore::QNode* parent)
    : Qt3DRender::QRenderSurfaceSelector(parent) {
  using namespace Qt3DRender;
  setSurface(surface);
  m_ghostLayer = new QLayer(this);
  m_overlayLines = new QLayer(this);
  m_overlaySolids = new QLayer(this);

  auto* viewport = new QViewport(this);
  viewport->setNormalizedRect(QRectF(0, 0, 1, 1));
  auto* cameraSelector = new QCameraSelector(viewport);
  cameraSelector->setCamera(camera);

  m_clear = new QClearBuffers(cameraSelector);
  m_clear->setBuffers(QClearBuffers::ColorDepthBuffer);
  new QNoDraw(m_clear);

  auto* opaque = new QLayerFilter(cameraSelector);
  opaque->addLayer(m_ghostLayer);
  opaque->addLayer(m_overlayLines);
  opaque->addLayer(m_overlaySolids);
  opaque->setFilterMode(QLayerFilter::DiscardAnyMatchingLayers);
  QRenderStateSet* opaqueStates = depthStates(QDepthTest::Less, opaque);
  // Pushing filled polygons back by a depth step lets ghosts and wireframes at the same depth win.
  auto* offset = new QPolygonOffset(opaqueStates);
  offset->setScaleFactor(1.f);
  offset->setDepthSteps(1.f);
  opaqueStates->addRenderState(offset);

  auto* ghost = new QLayerFilter(cameraSelector);
  ghost->addLayer(m_ghostLayer);
  auto* backToFront = new QSortPolicy(ghost);
  backToFront->setSortTypes(QList<QSortPolicy::SortType>{QSortPolicy::BackToFront});
  depthStates(QDepthTest::LessOrEqual, backToFront);

  auto* lines = new QLayerFilter(cameraSelector);
  lines->addLayer(m_overlayLines);
  depthStates(QDepthTest::Always, lines);
  auto* solids = new QLayerFilter(cameraSelector);
  solids->addLayer(m_overlaySolids);
  QRenderStateSet* solidStates = depthStates(QDepthTest::Always, solids);
  // Without a depth test, culling keeps each solid's far side from showing through its near side.
  auto* cull = new QCullFace(solidStates);
  cull->setMode(QCullFace::Back);
  solidStates->addRenderState(cull);
}

void ViewportFrameGraph::setClearColor(const QColor& color) { m_clear->setClearColor(color); }

QColor ViewportFrameGraph::clearColor() const { return m_clear->clearColor(); }

}  // namespace animpack::viewport
