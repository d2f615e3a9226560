#pragma once
// What the viewport shows: the display switches the studio toggles, in one value the scene and the
// legend both read.

namespace animpack::viewport {

/// How the compressed pose is shown next to the original.
enum class CompareMode {
  Overlay,     ///< compressed drawn over the original as a ghost
  SideBySide,  ///< compressed drawn solid, offset along +X by the figure's footprint
};

/// How the ghost of the compressed pose is drawn in Overlay mode.
enum class GhostStyle { Translucent, Wireframe };

struct ViewOptions {
  CompareMode compareMode = CompareMode::Overlay;
  GhostStyle ghostStyle = GhostStyle::Translucent;
  bool showOriginal = true;
  bool showCompressed = true;
  bool showMesh = true;
  bool showSkeleton = true;
  bool showGrid = true;
  bool vertexErrorColoring = false;  ///< colour the compressed mesh by skinned-vertex displacement
  float vertexErrorScaleCm = 0;      ///< cm shown as red by the vertex colouring; 0 = automatic
  bool showRootTrajectory = true;    ///< the root-motion trajectory on the ground (clips with root motion)
  bool inPlace = false;              ///< both poses without their root motion (the studio's pose preview applies it)
};

}  // namespace animpack::viewport
