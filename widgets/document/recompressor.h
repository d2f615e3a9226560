#pragma once
// Derived compression results for the studio (docs/ARCHITECTURE.md): recomputed off the GUI thread
// with QtConcurrent when the document's settings change, debounced (150 ms), results of settings the
// user moved past dropped, every result cached by its compression key so undo/redo is instant.
// The one rule for what the views show: current() is the current clip's result, stale while a newer
// one is computed, and currentChanged() fires once for each change of it.

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <atomic>
#include <list>
#include <map>
#include <memory>

#include "core/compress/compressor.h"
#include "widgets/document/clip_document.h"

namespace animpack::widgets {

struct CompressionResult {
  int clip = -1;
  std::uint64_t key = 0;  ///< ClipDocument::compressionKey when it was started
  std::shared_ptr<const core::ImportedAsset> asset;
  std::shared_ptr<const core::CompressedClip> compressed;  ///< null on failure
  QString error;
};

/// What a view shows for a clip: the result for its settings, or (stale) the newest older one.
struct ShownResult {
  std::shared_ptr<const CompressionResult> result;  ///< null when the clip has none yet
  bool stale = false;                               ///< for older settings: a new result is on its way
  /// The compressed clip, or null when there is none to show.
  const core::CompressedClip* compressed() const { return result ? result->compressed.get() : nullptr; }
};

class Recompressor : public QObject {
  Q_OBJECT
 public:
  explicit Recompressor(ClipDocument* document, QObject* parent = nullptr);
  ~Recompressor() override;

  /// Milliseconds a request waits for more edits before compressing (default 150).
  void setDebounceMs(int ms) { m_debounceMs = ms; }
  /// The result for the clip's current settings, or null while it is (re)computed.
  std::shared_ptr<const CompressionResult> result(int clip) const;
  /// The newest result delivered for the clip, even for older settings (to show while recomputing).
  std::shared_ptr<const CompressionResult> latestResult(int clip) const;
  /// result(clip) if there is one, else the newest result of this asset for the clip, marked stale.
  ShownResult shown(int clip) const;
  /// shown() of the document's current clip: what every view of the current clip draws.
  ShownResult current() const;
  /// Asks for the clip's result: from the cache at once, otherwise after the debounce.
  void request(int clip);
  /// Compresses every clip without a current result; progress() reports clips done of total.
  void compressAll();
  /// Cancels every running job (their results are dropped).
  void cancel();
  bool busy() const { return m_running > 0; }

  /// Counters for tests and the status bar.
  int jobsStarted() const { return m_jobsStarted; }
  int staleDropped() const { return m_staleDropped; }

 signals:
  /// The current clip's shown result changed (a new clip, asset or settings, or a result arrived).
  void currentChanged();
  void resultReady(int clip);
  void jobStarted(int clip);
  void failed(int clip, const QString& message);
  void progress(int done, int total);
  void busyChanged(bool busy);

 private:
  struct ClipState {
    QTimer debounce;
    bool running = false;
    bool pending = false;
    quint64 generation = 0;
    std::shared_ptr<std::atomic<bool>> cancel;
    std::shared_ptr<core::CompressorContext> context = std::make_shared<core::CompressorContext>();
    std::shared_ptr<const CompressionResult> latest;
  };
  void reset();
  /// Runs a document change that may touch the current result, then emits currentChanged() once.
  template <class F>
  void changeCurrent(F&& change);
  /// A result for `clip` is now its latest: resultReady(), and currentChanged() for the current clip.
  void announce(int clip);
  void launch(int clip);
  void deliver(int clip, quint64 generation, std::shared_ptr<const CompressionResult> result);
  std::shared_ptr<const CompressionResult> cached(std::uint64_t key) const;
  void store(const std::shared_ptr<const CompressionResult>& result);

  ClipDocument* m_document;
  int m_debounceMs = 150;
  std::vector<std::unique_ptr<ClipState>> m_clips;
  std::map<std::uint64_t, std::shared_ptr<const CompressionResult>> m_cache;
  std::list<std::uint64_t> m_lru;
  std::vector<QFutureWatcher<std::shared_ptr<const CompressionResult>>*> m_watchers;
  int m_running = 0;
  int m_jobsStarted = 0;
  int m_staleDropped = 0;
  int m_batchTotal = 0, m_batchDone = 0;
  bool m_batching = false;  ///< inside changeCurrent(): currentChanged() waits for its end
};

}  // namespace animpack::widgets
