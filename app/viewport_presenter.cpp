#include "app/viewport_presenter.h"

#include "viewport/viewport_widget.h"
#include "widgets/document/clip_document.h"
#include "widgets/document/pose_preview.h"
#include "widgets/document/recompressor.h"

namespace animpack::app {

ViewportPresenter::ViewportPresenter(widgets::ClipDocument* document, widgets::Recompressor* recompressor,
                                     widgets::PosePreview* preview, viewport::ViewportWidget* view, QObject* parent)
    : QObject(parent), m_document(document), m_recompressor(recompressor), m_preview(preview), m_view(view) {
  using widgets::ClipDocument;
  connect(document, &ClipDocument::selectedJointsChanged, this, [this] {
    const auto& selected = m_document->selectedJoints();
    m_view->setSelectedJoint(selected.empty() ? -1 : selected.front());
  });
  connect(document, &ClipDocument::assetChanged, this, [this] { showAsset(true, true); });
  // A clip of another file: the viewport shows that file (its mesh; the skeleton is the same).
  connect(document, &ClipDocument::currentClipChanged, this, [this] { showAsset(false, false); });
  connect(document, &ClipDocument::upAxisChanged, this, [this](core::UpAxis axis) {
    m_view->setUpAxis(axis);
    m_view->frameAll();
  });
  // The last hop of every edit: the preview's poses to the viewport.
  connect(preview, &widgets::PosePreview::changed, this, &ViewportPresenter::showPoses);
  connect(view, &viewport::ViewportWidget::inPlaceChanged, preview, &widgets::PosePreview::setInPlace);
  connect(recompressor, &widgets::Recompressor::currentChanged, this, &ViewportPresenter::showUpdating);
  connect(view, &viewport::ViewportWidget::jointClicked, this, [this](int joint) {
    m_document->setSelectedJoints(joint < 0 ? std::vector<int>{} : std::vector<int>{joint});
  });
}

void ViewportPresenter::showAsset(bool force, bool frame) {
  if (!force && m_document->asset() == m_shown) return;
  m_shown = m_document->asset();
  m_view->setAsset(m_shown);
  m_view->setUpAxis(m_document->upAxis());
  if (frame) m_view->frameAll();
  showPoses();
}

void ViewportPresenter::showPoses() {
  m_view->setPoses(m_preview->original(), m_preview->compressed(), m_preview->originalWeights(),
                   m_preview->compressedWeights());
  m_view->setJointErrorRatios(m_preview->errorRatios());
  m_view->setBlendPreview(m_preview->blendNaive(), m_preview->blendDecomposed());
  m_view->setRootTrajectory(m_preview->rootTrajectory());
  showUpdating();
}

void ViewportPresenter::showUpdating() {
  const widgets::ShownResult shown = m_recompressor->current();
  m_view->setUpdating(shown.stale && shown.compressed() != nullptr);
}

}  // namespace animpack::app
