#pragma once
// Feeds the 3D viewport from the studio's document (docs/ARCHITECTURE.md "The studio's model"): the
// file of the current clip, the up axis, the selected joint, the poses and error colours of the pose
// preview, and whether what it shows is of older settings ("updating" while the recompressor's
// current result is stale). It sits in app/ because only app/ sees both the document's library and
// the viewport's (viewport/ takes core types, never the document); MainWindow only creates it.

#include <QObject>
#include <memory>

#include "core/anim/imported_asset.h"

namespace animpack::viewport {
class ViewportWidget;
}
namespace animpack::widgets {
class ClipDocument;
class PosePreview;
class Recompressor;
}  // namespace animpack::widgets

namespace animpack::app {

class ViewportPresenter : public QObject {
  Q_OBJECT
 public:
  /// Connects the four; none is owned, all must outlive the presenter (it is their parent's child).
  ViewportPresenter(widgets::ClipDocument* document, widgets::Recompressor* recompressor, widgets::PosePreview* preview,
                    viewport::ViewportWidget* view, QObject* parent = nullptr);

 private:
  /// Shows the current clip's file when it is not the one shown (`frame`: and fits the camera).
  void showAsset(bool force, bool frame);
  void showPoses();
  void showUpdating();

  widgets::ClipDocument* m_document;
  widgets::Recompressor* m_recompressor;
  widgets::PosePreview* m_preview;
  viewport::ViewportWidget* m_view;
  std::shared_ptr<const core::ImportedAsset> m_shown;  ///< the file the viewport shows
};

}  // namespace animpack::app
