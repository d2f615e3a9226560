#include "viewport/viewport_widget.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QKeyEvent>
#include <QVBoxLayout>
#include <Qt3DExtras/QPerVertexColorMaterial>
#include <Qt3DExtras/QPhongAlphaMaterial>
#include <Qt3DExtras/QPhongMaterial>
#include <Qt3DExtras/Qt3DWindow>
#include <Qt3DRender/QCamera>
#include <Qt3DRender/QDirectionalLight>
#include <Qt3DRender/QPointLight>
#include <Qt3DRender/QRenderSettings>
#include <algorithm>
#include <cmath>

#include "viewport/camera_controller.h"
#include "viewport/drawable.h"
#include "viewport/frame_graph.h"
#include "viewport/grid_entity.h"
#include "viewport/trajectory_entity.h"
#include "viewport/joint_picking.h"
#include "viewport/label_entity.h"
#include "viewport/legend_bar.h"
#include "viewport/mesh_prep.h"
#include "viewport/pose_figure.h"
#include "viewport/scene_style.h"
#include "viewport/skeleton_entity.h"
#include "viewport/skinned_mesh_entity.h"
#include "viewport/vertex_error.h"

namespace animpack::viewport {

namespace {

Qt3DExtras::QPhongMaterial* phong(Rgba color, Qt3DCore::QNode* parent) {
  auto* m = new Qt3DExtras::QPhongMaterial(parent);
  const QColor c = toQColor(color);
  m->setDiffuse(c);
  m->setAmbient(c.darker(450));
  m->setSpecular(QColor(40, 40, 40));
  m->setShininess(20.f);
  return m;
}

}  // namespace

ViewportWidget::ViewportWidget(QWidget* parent)
    : QWidget(parent), m_window(new Qt3DExtras::Qt3DWindow), m_root(new Qt3DCore::QEntity) {
  m_container = QWidget::createWindowContainer(m_window, this);
  m_container->setMinimumSize(160, 120);
  m_container->setFocusPolicy(Qt::StrongFocus);
  m_legend = new LegendBar(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(m_container, 1);
  layout->addWidget(m_legend);

  // Render only when something changes: a still view costs no CPU (llvmpipe renders on the CPU).
  m_window->renderSettings()->setRenderPolicy(Qt3DRender::QRenderSettings::OnDemand);
  m_frameGraph = new ViewportFrameGraph(m_window, m_window->camera(), m_root);
  m_frameGraph->setClearColor(toQColor(SceneStyle::kBackground));
  m_window->setActiveFrameGraph(m_frameGraph);
  m_camera = new CameraController(m_window->camera(), m_window, this);
  connect(m_camera, &CameraController::clicked, this, &ViewportWidget::pickJoint);
  m_window->installEventFilter(this);

  // Lighting: a key light from above front-left plus a headlight on the camera, so no side is black.
  auto* sun = new Qt3DCore::QEntity(m_root);
  auto* sunLight = new Qt3DRender::QDirectionalLight(sun);
  sunLight->setWorldDirection(QVector3D(0.4f, -1.f, -0.5f).normalized());
  sunLight->setIntensity(0.6f);
  sun->addComponent(sunLight);
  auto* headlight = new Qt3DRender::QPointLight(m_window->camera());
  headlight->setIntensity(0.45f);
  m_window->camera()->addComponent(headlight);

  m_originalMaterial = phong(SceneStyle::kOriginalMesh, m_root);
  m_compressedMaterial = phong(SceneStyle::kCompressedMesh, m_root);
  m_blendMaterial = phong(SceneStyle::kBlendMesh, m_root);
  m_labelMaterial = phong({0.9f, 0.9f, 0.9f, 1.f}, m_root);
  m_labelMaterial->setAmbient(QColor(200, 200, 200));
  m_ghostMaterial = new Qt3DExtras::QPhongAlphaMaterial(m_root);
  m_ghostMaterial->setDiffuse(toQColor(SceneStyle::kCompressedMesh));
  m_ghostMaterial->setAmbient(toQColor(SceneStyle::kCompressedMesh).darker(250));
  m_ghostMaterial->setSpecular(QColor(30, 30, 30));
  m_ghostMaterial->setAlpha(SceneStyle::kGhostAlpha);
  m_vertexColorMaterial = new Qt3DExtras::QPerVertexColorMaterial(m_root);

  m_grid = new GridEntity(m_vertexColorMaterial, m_root);
  m_trajectory = new TrajectoryEntity(m_vertexColorMaterial, m_root);
  m_window->setRootEntity(m_root);
  frame(true);
  updateLegend();
}

ViewportWidget::~ViewportWidget() = default;

QWindow* ViewportWidget::renderWindow() const { return m_window; }

void ViewportWidget::setContinuousRendering(bool continuous) {
  m_window->renderSettings()->setRenderPolicy(continuous ? Qt3DRender::QRenderSettings::Always
                                                         : Qt3DRender::QRenderSettings::OnDemand);
}

// ---- asset ------------------------------------------------------------------------------------

void ViewportWidget::clearScene() {
  for (auto& f : m_figures) {
    delete f;
    f = nullptr;
  }
  for (auto& l : m_labels) {
    delete l;
    l = nullptr;
  }
  m_meshIndices.clear();
  m_displacements.clear();
  m_jointRatios.clear();
  m_selectedJoint = -1;
  m_blendActive = false;
  m_maxVertexErrorCm = 0.f;
  m_autoScaleCm = 0.f;
}

PoseFigure* ViewportWidget::makeFigure(Figure which) {
  static constexpr Rgba kMesh[kFigureCount] = {SceneStyle::kOriginalMesh, SceneStyle::kCompressedMesh,
                                               SceneStyle::kBlendMesh, SceneStyle::kBlendMesh};
  static constexpr Rgba kBones[kFigureCount] = {SceneStyle::kOriginalBones, SceneStyle::kCompressedBones,
                                                SceneStyle::kOriginalBones, SceneStyle::kOriginalBones};
  static const char* const kLabels[kFigureCount] = {"Original", "Compressed", "Naive blend", "Decomposed blend"};
  auto* f = new PoseFigure(m_asset, m_meshIndices, kMesh[which], m_jointRadius, m_vertexColorMaterial,
                           m_frameGraph->overlayLinesLayer(), m_frameGraph->overlaySolidsLayer(), m_root);
  f->skeleton()->setBoneColor(kBones[which]);
  f->skeleton()->setSelectedJoint(m_selectedJoint);
  m_figures[which] = f;
  m_labels[which] = new LabelEntity(kLabels[which], m_labelMaterial, m_root);
  return f;
}

void ViewportWidget::setAsset(std::shared_ptr<const core::ImportedAsset> asset) {
  clearScene();
  m_asset = std::move(asset);
  // A file of morph curves alone has no joint: its meshes are shown, morphed.
  if (m_asset && (m_asset->skeleton.jointCount() > 0 || !m_asset->curves.empty()) && m_asset->skeleton.validate()) {
    m_meshIndices = displayableMeshes(*m_asset);
    // Joint markers scale with the skeleton (or the meshes, for a single-joint rig).
    Box extent;
    for (const core::Mat34d& m : m_asset->skeleton.restObject())
      extent.add(QVector3D(float(m.m[9]), float(m.m[10]), float(m.m[11])));
    for (const std::size_t i : m_meshIndices)
      for (const core::Vec3& p : m_asset->meshes[i].positions) extent.add(QVector3D(p.x, p.y, p.z));
    const float size = std::max({extent.size().x(), extent.size().y(), extent.size().z()});
    m_jointRadius = size > 0.f ? size * SceneStyle::kJointRadiusOfSkeleton : 1.f;
    makeFigure(Original);
    makeFigure(Compressed);
    m_displacements.resize(m_meshIndices.size());
    for (std::size_t k = 0; k < m_meshIndices.size(); ++k)
      m_displacements[k].assign(m_asset->meshes[m_meshIndices[k]].vertexCount(), 0.f);
  } else {
    m_asset.reset();  // nothing drawable: an empty or invalid skeleton
  }
  updatePlacements();
  applyOptions();
  frame(true);
}

void ViewportWidget::setUpAxis(UpAxis axis) {
  if (axis == m_upAxis) return;
  m_upAxis = axis;
  updatePlacements();
  updateLabels();
  frame(false);
}

// ---- poses ------------------------------------------------------------------------------------

void ViewportWidget::setPoses(std::span<const core::Transform> original, std::span<const core::Transform> compressed,
                              std::span<const float> originalWeights, std::span<const float> compressedWeights) {
  if (!m_asset) return;
  QElapsedTimer timer;
  timer.start();
  m_figures[Original]->setPose(original, originalWeights);
  m_figures[Compressed]->setPose(compressed, compressedWeights);
  updateVertexErrors();
  m_lastUpdateMs = double(timer.nsecsElapsed()) * 1e-6;
  updateLegend();
}

void ViewportWidget::updateVertexErrors() {
  m_maxVertexErrorCm = 0.f;
  if (!m_asset) return;
  const auto& original = m_figures[Original]->meshes();
  const auto& compressed = m_figures[Compressed]->meshes();
  for (std::size_t k = 0; k < m_displacements.size(); ++k)
    m_maxVertexErrorCm =
        std::max(m_maxVertexErrorCm, vertexDisplacementsCm(original[k]->positions(), compressed[k]->positions(),
                                                           m_asset->lengthToCm(), m_displacements[k]));
  m_autoScaleCm = std::max(m_autoScaleCm, niceCeiling(m_maxVertexErrorCm));
  if (m_options.vertexErrorColoring) updateVertexColors();
}

void ViewportWidget::updateVertexColors() {
  if (!m_asset) return;
  const auto& meshes = m_figures[Compressed]->meshes();
  const float scale = vertexErrorScaleCm();
  for (std::size_t k = 0; k < meshes.size(); ++k) {
    if (!m_options.vertexErrorColoring) {
      meshes[k]->resetColors();
      continue;
    }
    m_colorScratch.resize(m_displacements[k].size());
    displacementColors(m_displacements[k], scale, m_colorScratch);
    meshes[k]->setColors(m_colorScratch);
  }
}

float ViewportWidget::vertexErrorScaleCm() const {
  return m_options.vertexErrorScaleCm > 0.f ? m_options.vertexErrorScaleCm : m_autoScaleCm;
}

void ViewportWidget::setJointErrorRatios(std::span<const float> ratios) {
  if (m_asset && ratios.size() == m_asset->skeleton.jointCount()) m_jointRatios.assign(ratios.begin(), ratios.end());
  else m_jointRatios.clear();
  updateJointColors();
  updateLegend();
}

void ViewportWidget::setUpdating(bool updating) {
  if (updating == m_updating) return;
  m_updating = updating;
  updateJointColors();
  updateLegend();
}

void ViewportWidget::updateJointColors() {
  std::vector<Rgba> colors;
  colors.reserve(m_jointRatios.size());
  for (const float r : m_jointRatios) {
    Rgba c = errorRampColor(r);
    // Colours of an older result: halfway to grey, as the panels dim what they show while updating.
    if (m_updating)
      for (int k = 0; k < 3; ++k) c[std::size_t(k)] = 0.5f * c[std::size_t(k)] + 0.5f * 0.55f;
    colors.push_back(c);
  }
  for (const Figure f : {Original, Compressed})
    if (m_figures[f]) m_figures[f]->skeleton()->setJointColors(colors);
}

void ViewportWidget::setSelectedJoint(int joint) {
  if (!m_asset || joint < 0 || std::size_t(joint) >= m_asset->skeleton.jointCount()) joint = -1;
  if (joint == m_selectedJoint) return;
  m_selectedJoint = joint;
  for (PoseFigure* f : m_figures)
    if (f) f->skeleton()->setSelectedJoint(joint);
}

void ViewportWidget::setBlendPreview(std::span<const core::Transform> naive,
                                     std::span<const core::Transform> decomposed) {
  // Off for a file without joints (its two empty spans are not a blend).
  const bool on = m_asset && !naive.empty() && naive.size() == m_asset->skeleton.jointCount() &&
                  decomposed.size() == m_asset->skeleton.jointCount();
  if (on) {
    if (!m_figures[NaiveBlend]) {
      makeFigure(NaiveBlend);
      makeFigure(DecomposedBlend);
    }
    m_figures[NaiveBlend]->setPose(naive);
    m_figures[DecomposedBlend]->setPose(decomposed);
  }
  if (on == m_blendActive) return;
  m_blendActive = on;
  updatePlacements();
  applyOptions();
  frame(false);
}

// ---- display options --------------------------------------------------------------------------

void ViewportWidget::setCompareMode(CompareMode mode) {
  if (mode == m_options.compareMode) return;
  m_options.compareMode = mode;
  updatePlacements();
  applyOptions();
  frame(false);
}

void ViewportWidget::setGhostStyle(GhostStyle style) {
  m_options.ghostStyle = style;
  applyOptions();
}

void ViewportWidget::setFlag(bool ViewOptions::*flag, bool value) {
  m_options.*flag = value;
  applyOptions();
}

void ViewportWidget::setShowOriginal(bool show) { setFlag(&ViewOptions::showOriginal, show); }
void ViewportWidget::setShowCompressed(bool show) { setFlag(&ViewOptions::showCompressed, show); }
void ViewportWidget::setShowMesh(bool show) { setFlag(&ViewOptions::showMesh, show); }
void ViewportWidget::setShowSkeleton(bool show) { setFlag(&ViewOptions::showSkeleton, show); }
void ViewportWidget::setShowGrid(bool show) { setFlag(&ViewOptions::showGrid, show); }
void ViewportWidget::setShowRootTrajectory(bool show) { setFlag(&ViewOptions::showRootTrajectory, show); }

void ViewportWidget::setInPlace(bool inPlace) {
  if (inPlace == m_options.inPlace) return;
  m_options.inPlace = inPlace;
  emit inPlaceChanged(inPlace);
}

void ViewportWidget::setRootTrajectory(std::span<const core::Vec3> objectPoints) {
  if (objectPoints.size() == m_trajectoryPoints.size() &&
      std::equal(objectPoints.begin(), objectPoints.end(), m_trajectoryPoints.begin(),
                 [](const core::Vec3& a, const core::Vec3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }))
    return;
  m_trajectoryPoints.assign(objectPoints.begin(), objectPoints.end());
  updateTrajectory();
}

int ViewportWidget::rootTrajectorySegments() const {
  return m_trajectory->isEnabled() ? m_trajectory->segmentCount() : 0;
}

void ViewportWidget::updateTrajectory() {
  const QMatrix4x4 display = m_asset ? displayTransform(*m_asset, m_upAxis) : QMatrix4x4();
  m_trajectory->layout(m_asset ? std::span<const core::Vec3>(m_trajectoryPoints) : std::span<const core::Vec3>(),
                       display, m_groundY);
  m_trajectory->setEnabled(m_options.showRootTrajectory && m_trajectory->segmentCount() > 0);
}

void ViewportWidget::setVertexErrorColoring(bool enabled) {
  if (enabled && !m_options.vertexErrorColoring) m_autoScaleCm = niceCeiling(m_maxVertexErrorCm);
  m_options.vertexErrorColoring = enabled;
  updateVertexColors();
  applyOptions();
}

void ViewportWidget::setVertexErrorScaleCm(float cm) {
  m_options.vertexErrorScaleCm = cm > 0.f && std::isfinite(cm) ? cm : 0.f;
  updateVertexColors();
  updateLegend();
}

bool ViewportWidget::figureShown(Figure which) const {
  if (!m_figures[which]) return false;
  switch (which) {
    case Original: return !m_blendActive && m_options.showOriginal;
    case Compressed: return !m_blendActive && m_options.showCompressed;
    default: return m_blendActive;
  }
}

void ViewportWidget::applyOptions() {
  for (int i = 0; i < kFigureCount; ++i) {
    PoseFigure* f = m_figures[i];
    if (!f) continue;
    f->setEnabled(figureShown(Figure(i)));
    f->setMeshesVisible(m_options.showMesh);
    f->setSkeletonVisible(m_options.showSkeleton);
  }
  m_grid->setEnabled(m_options.showGrid);
  updateTrajectory();
  updateMaterials();
  updateLabels();
  updateLegend();
}

void ViewportWidget::updateMaterials() {
  const bool overlay = m_options.compareMode == CompareMode::Overlay;
  const bool wire = overlay && m_options.ghostStyle == GhostStyle::Wireframe;
  Qt3DRender::QMaterial* surface = m_options.vertexErrorColoring
                                       ? static_cast<Qt3DRender::QMaterial*>(m_vertexColorMaterial)
                                   : overlay ? static_cast<Qt3DRender::QMaterial*>(m_ghostMaterial)
                                             : m_compressedMaterial;
  for (int i = 0; i < kFigureCount; ++i) {
    if (!m_figures[i]) continue;
    for (SkinnedMeshEntity* mesh : m_figures[i]->meshes()) {
      if (i != Compressed) {
        mesh->surface()->setMaterial(i == Original ? m_originalMaterial : m_blendMaterial);
        continue;
      }
      // Over the original, the compressed mesh draws in the ghost pass so it wins depth ties.
      mesh->surface()->setMaterial(wire ? nullptr : surface);
      mesh->surface()->setLayer(overlay ? m_frameGraph->ghostLayer() : nullptr);
      if (wire) {
        mesh->wireframe()->setMaterial(m_vertexColorMaterial);
        mesh->wireframe()->setLayer(m_frameGraph->ghostLayer());
      } else if (mesh->hasWireframe()) {
        mesh->wireframe()->setMaterial(nullptr);
      }
    }
  }
}

void ViewportWidget::updatePlacements() {
  if (!m_asset) return;
  const QMatrix4x4 display = displayTransform(*m_asset, m_upAxis);
  // Figure footprint at the current pose, measured without offsets: the larger horizontal extent,
  // so two figures never overlap whichever way the camera turns.
  m_figures[Original]->setPlacement(display);
  const Box box = m_figures[Original]->worldBounds();
  const float footprint = std::max(box.size().x(), box.size().z());
  m_figureWidth = box.isEmpty() || !(footprint > 0.f) ? 100.f : footprint;
  const float half = 0.5f * m_figureWidth * (1.f + SceneStyle::kSideBySideGap);
  const bool split = m_options.compareMode == CompareMode::SideBySide;
  for (int i = 0; i < kFigureCount; ++i) {
    if (!m_figures[i]) continue;
    float offset = 0.f;
    if (i == NaiveBlend || (i == Original && split)) offset = -half;
    if (i == DecomposedBlend || (i == Compressed && split)) offset = half;
    QMatrix4x4 world;
    world.translate(offset, 0.f, 0.f);
    m_figures[i]->setPlacement(world * display);
  }
}

Box ViewportWidget::updateLabels() {
  const bool split = m_options.compareMode == CompareMode::SideBySide;
  // Labels name the figures only where two stand side by side, a little above the tallest.
  Box shown, labels;
  for (int i = 0; i < kFigureCount; ++i)
    if (figureShown(Figure(i))) shown.add(m_figures[i]->worldBounds());
  const float height = std::max(shown.size().y() * 0.05f, 0.1f);
  for (int i = 0; i < kFigureCount; ++i) {
    if (!m_labels[i]) continue;
    const bool visible = figureShown(Figure(i)) && (i >= NaiveBlend || split);
    m_labels[i]->setEnabled(visible);
    if (!visible) continue;
    const QVector3D origin = m_figures[i]->placement().map(QVector3D());
    const auto [lo, hi] =
        m_labels[i]->place(QVector3D(origin.x(), shown.hi.y() + 0.6f * height, shown.center().z()), height);
    labels.add(lo);
    labels.add(hi);
  }
  return labels;
}

void ViewportWidget::updateLegend() {
  LegendState s;
  s.options = m_options;
  s.hasMesh = !m_meshIndices.empty();
  s.hasJointErrors = !m_jointRatios.empty();
  s.blendPreview = m_blendActive;
  s.vertexScaleCm = vertexErrorScaleCm();
  s.maxVertexErrorCm = m_maxVertexErrorCm;
  s.updating = m_updating;
  m_legend->setState(s);
}

// ---- camera -----------------------------------------------------------------------------------

void ViewportWidget::frameAll() { frame(false); }

void ViewportWidget::frame(bool resetOrientation) {
  Box box;
  for (int i = 0; i < kFigureCount; ++i)
    if (figureShown(Figure(i))) box.add(m_figures[i]->worldBounds());
  if (box.isEmpty()) {
    box.add(QVector3D(-50, 0, -50));
    box.add(QVector3D(50, 100, 50));
  }
  const QVector3D size = box.size();
  m_grid->layout(box.center(), 0.75f * std::max({size.x(), size.z(), size.y(), 1.f}), box.lo.y());
  m_groundY = box.lo.y();
  updateTrajectory();
  Box framed = box;
  framed.add(updateLabels());
  m_camera->frame(framed.lo, framed.hi, resetOrientation);
}

std::optional<QPointF> ViewportWidget::jointWindowPosition(int joint, bool compressed) const {
  const PoseFigure* f = m_figures[compressed ? Compressed : Original];
  if (!f || joint < 0 || std::size_t(joint) >= f->skeleton()->jointPositions().size()) return std::nullopt;
  const Qt3DRender::QCamera* camera = m_window->camera();
  return projectToWindow(f->worldJoints()[std::size_t(joint)], camera->projectionMatrix() * camera->viewMatrix(),
                         m_window->size());
}

void ViewportWidget::pickJoint(QPointF windowPosition) {
  if (!m_asset || !m_options.showSkeleton) return;
  std::vector<QVector3D> points;
  for (int i = 0; i < kFigureCount; ++i)
    if (figureShown(Figure(i))) {
      const std::vector<QVector3D> joints = m_figures[i]->worldJoints();
      points.insert(points.end(), joints.begin(), joints.end());
    }
  const Qt3DRender::QCamera* camera = m_window->camera();
  const int hit =
      pickNearest(points, camera->projectionMatrix() * camera->viewMatrix(), m_window->size(), windowPosition);
  if (hit < 0) return;
  const int joint = hit % int(m_asset->skeleton.jointCount());
  setSelectedJoint(joint);
  emit jointClicked(joint);
}

bool ViewportWidget::eventFilter(QObject* watched, QEvent* event) {
  // Keys typed into the 3D window go to this widget, so they reach the studio's handlers (Space).
  if (watched == m_window && (event->type() == QEvent::KeyPress || event->type() == QEvent::KeyRelease)) {
    QCoreApplication::sendEvent(this, event);
    return true;
  }
  return QWidget::eventFilter(watched, event);
}

void ViewportWidget::keyPressEvent(QKeyEvent* event) {
  if (event->key() == Qt::Key_F && event->modifiers() == Qt::NoModifier) {
    frameAll();
    return;
  }
  QWidget::keyPressEvent(event);
}

}  // namespace animpack::viewport
