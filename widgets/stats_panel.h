#pragma once
// The Stats panel: raw and compressed bytes, ratio, track kinds, keys, max and p99 error, the
// worst joint and frame (click to jump), compression time, pinned joints' drift; and a
// size-vs-error sweep (the clip compressed at several precisions in the background) where a click
// on a point applies that precision. A stale result is shown dimmed and marked "updating". When
// the skinned vertices move more than the precision while every joint passes, it says so and
// offers to derive the shell distances from the mesh.

#include <QFutureWatcher>
#include <QWidget>
#include <atomic>
#include <memory>

#include "core/compress/sweep.h"
#include "widgets/document/clip_document.h"
#include "widgets/document/recompressor.h"

class QCustomPlot;
class QLabel;
class QPushButton;

namespace animpack::widgets {

using core::SweepPoint;

class StatsPanel : public QWidget {
  Q_OBJECT
 public:
  StatsPanel(ClipDocument* document, Recompressor* recompressor, QWidget* parent = nullptr);
  ~StatsPanel() override;
  /// Compresses the current clip at precisions around the current one, off the GUI thread.
  void startSweep();
  const std::vector<SweepPoint>& sweep() const { return m_sweep; }
  /// Applies the sweep point's precision as the default precision (in the given scope).
  void applySweepPoint(int index, EditScope scope = EditScope::AllClips);
  /// Whether the warning "the skin exceeds the precision while the joints pass" is shown.
  bool skinWarningShown() const;
  /// What the warning offers: every joint's shell from its farthest influenced vertex (one step).
  void deriveShellsFromMesh();

 signals:
  void sweepFinished();

 private:
  void refresh();
  void plotSweep();
  ClipDocument* m_document;
  Recompressor* m_recompressor;
  QLabel* m_text;
  QLabel* m_worst;
  QLabel* m_skin;
  QCustomPlot* m_plot;
  QPushButton* m_sweepButton;
  std::vector<SweepPoint> m_sweep;
  QFutureWatcher<std::vector<SweepPoint>> m_watcher;
  std::shared_ptr<std::atomic<bool>> m_cancel;
};

}  // namespace animpack::widgets
