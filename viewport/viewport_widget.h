#pragma once
// The studio's 3D view (docs/ARCHITECTURE.md): the original and the decoded compressed pose of an imported asset,
// skinned on the CPU, overlaid (ghost or wireframe) or side by side, with the skeleton (joints in
// error colours), optional vertex error colours, a blend preview, an orbit camera, a ground grid and a
// legend. Takes core types only; the studio drives time and selection.

#include <QWidget>
#include <array>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/anim/imported_asset.h"
#include "viewport/error_ramp.h"
#include "viewport/scene_transform.h"
#include "viewport/view_options.h"

namespace Qt3DCore {
class QEntity;
}
namespace Qt3DExtras {
class Qt3DWindow;
class QPhongAlphaMaterial;
class QPhongMaterial;
class QPerVertexColorMaterial;
}  // namespace Qt3DExtras

namespace animpack::viewport {

class CameraController;
class GridEntity;
class LabelEntity;
class LegendBar;
class PoseFigure;
struct Box;
class ViewportFrameGraph;
class TrajectoryEntity;

class ViewportWidget : public QWidget {
  Q_OBJECT
 public:
  explicit ViewportWidget(QWidget* parent = nullptr);
  ~ViewportWidget() override;

  /// Shows an asset (meshes, skeleton, unit, scene-root transform) at its rest pose and frames it;
  /// keeps the shared pointer. nullptr clears the view. Motion-only assets (BVH) show the skeleton.
  void setAsset(std::shared_ptr<const core::ImportedAsset> asset);
  const std::shared_ptr<const core::ImportedAsset>& asset() const { return m_asset; }
  /// Which asset axis points up on screen (the display transform); re-frames the view.
  void setUpAxis(UpAxis axis);
  UpAxis upAxis() const { return m_upAxis; }

  /// Local joint transforms of the original and the compressed pose at the current time (joint count
  /// each) and their morph weights (one per curve of the file; empty: rest shapes); morphs and skins
  /// on the CPU and uploads. A pose span of another size (e.g. empty) leaves that pose as it was.
  void setPoses(std::span<const core::Transform> original, std::span<const core::Transform> compressed,
                std::span<const float> originalWeights = {}, std::span<const float> compressedWeights = {});
  /// Per joint: current error / precision (1 = at the limit) for the joint colours (green -> red);
  /// an empty span (or a wrong size) shows neutral joints.
  void setJointErrorRatios(std::span<const float> ratios);
  /// While true the compressed pose and the error colours are of settings the user has moved past
  /// (a new result is being computed): the joint colours are dimmed and the legend says "updating".
  void setUpdating(bool updating);
  bool updating() const { return m_updating; }
  /// Highlights a joint (white, twice the size); -1 or out of range: none.
  void setSelectedJoint(int joint);
  int selectedJoint() const { return m_selectedJoint; }

  /// Overlay (compressed as a ghost over the original) or side by side; re-frames the view.
  void setCompareMode(CompareMode mode);
  /// How the ghost is drawn in Overlay mode.
  void setGhostStyle(GhostStyle style);
  void setShowOriginal(bool show);
  void setShowCompressed(bool show);
  void setShowMesh(bool show);
  void setShowSkeleton(bool show);
  void setShowGrid(bool show);
  /// Shows the root trajectory set with setRootTrajectory().
  void setShowRootTrajectory(bool show);
  /// The "in place" view option: emits inPlaceChanged (the poses themselves come from setPoses).
  void setInPlace(bool inPlace);
  /// The root-motion trajectory (object space, file units; core/runtime/root_motion.h) drawn on the
  /// ground under the figures; empty: none.
  void setRootTrajectory(std::span<const core::Vec3> objectPoints);
  /// Line segments of the trajectory drawn now (0 when hidden or empty).
  int rootTrajectorySegments() const;
  /// Colours the compressed mesh by skinned-vertex displacement in cm, with a legend.
  void setVertexErrorColoring(bool enabled);
  /// Displacement (cm) shown as red; 0 (default): the running maximum since the asset was set or the
  /// colouring turned on, rounded up to 1, 2 or 5 times a power of ten.
  void setVertexErrorScaleCm(float cm);
  /// The displacement (cm) the colouring currently shows as red.
  float vertexErrorScaleCm() const;
  const ViewOptions& options() const { return m_options; }

  /// Blend preview: the naive and the decomposed blend of clips A and B, shown side by side and
  /// labelled instead of the original and compressed poses; an empty span (or a wrong size) turns it
  /// off. Turning it on or off re-frames the view.
  void setBlendPreview(std::span<const core::Transform> naive, std::span<const core::Transform> decomposed);
  bool blendPreviewActive() const { return m_blendActive; }

  /// Fits the camera to what is shown (keeping the viewing direction) and lays the grid under it.
  void frameAll();

  /// Largest skinned-vertex displacement (cm) between original and compressed at the last setPoses.
  float maxVertexErrorCm() const { return m_maxVertexErrorCm; }
  /// Milliseconds spent in the last setPoses: skinning + upload (for the status bar and the benchmark).
  double lastUpdateMs() const { return m_lastUpdateMs; }

  /// Window position of a joint of the original (or compressed) figure, if in front of the camera.
  std::optional<QPointF> jointWindowPosition(int joint, bool compressed = false) const;
  /// The Qt 3D window (for screen grabs and synthetic input in tests).
  QWindow* renderWindow() const;
  /// The scene's root entity (for frame actions in benchmarks).
  Qt3DCore::QEntity* sceneRoot() const { return m_root; }
  /// Renders continuously instead of only when something changes (benchmarks).
  void setContinuousRendering(bool continuous);
  LegendBar* legend() const { return m_legend; }

 signals:
  /// The user clicked within about 10 px of a joint's projection (the nearest one wins).
  void jointClicked(int joint);
  /// The "in place" option changed.
  void inPlaceChanged(bool inPlace);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;

 private:
  enum Figure { Original, Compressed, NaiveBlend, DecomposedBlend, kFigureCount };

  PoseFigure* makeFigure(Figure which);
  void setFlag(bool ViewOptions::*flag, bool value);
  void clearScene();
  void applyOptions();
  void updatePlacements();
  void updateMaterials();
  void updateJointColors();
  void updateVertexErrors();
  void updateVertexColors();
  void updateLegend();
  Box updateLabels();  // returns the labels' world extent
  void frame(bool resetOrientation);
  bool figureShown(Figure which) const;
  void pickJoint(QPointF windowPosition);

  Qt3DExtras::Qt3DWindow* m_window;
  QWidget* m_container;
  LegendBar* m_legend;
  Qt3DCore::QEntity* m_root;
  ViewportFrameGraph* m_frameGraph;
  CameraController* m_camera;
  GridEntity* m_grid;
  TrajectoryEntity* m_trajectory;
  std::vector<core::Vec3> m_trajectoryPoints;  // object space
  float m_groundY = 0.f;                       // cm, where the grid lies
  void updateTrajectory();
  Qt3DExtras::QPhongMaterial* m_originalMaterial;
  Qt3DExtras::QPhongMaterial* m_compressedMaterial;
  Qt3DExtras::QPhongMaterial* m_blendMaterial;
  Qt3DExtras::QPhongMaterial* m_labelMaterial;
  Qt3DExtras::QPhongAlphaMaterial* m_ghostMaterial;
  Qt3DExtras::QPerVertexColorMaterial* m_vertexColorMaterial;

  std::shared_ptr<const core::ImportedAsset> m_asset;
  std::vector<std::size_t> m_meshIndices;
  std::array<PoseFigure*, kFigureCount> m_figures{};
  std::array<LabelEntity*, kFigureCount> m_labels{};
  float m_jointRadius = 1.f;    // skeleton units
  float m_figureWidth = 100.f;  // cm, larger horizontal extent when the layout was last set
  UpAxis m_upAxis = UpAxis::AsImported;
  ViewOptions m_options;
  bool m_blendActive = false;
  bool m_updating = false;
  int m_selectedJoint = -1;
  std::vector<float> m_jointRatios;
  std::vector<std::vector<float>> m_displacements;  // per displayed mesh, cm
  std::vector<Rgba> m_colorScratch;
  float m_maxVertexErrorCm = 0.f;
  float m_autoScaleCm = 0.f;
  double m_lastUpdateMs = 0.0;
};

}  // namespace animpack::viewport
