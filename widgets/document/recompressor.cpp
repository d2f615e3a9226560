#include "widgets/document/recompressor.h"

#include <QtConcurrent>

#include "widgets/document/clip_job.h"

namespace animpack::widgets {

namespace {
constexpr std::size_t kCacheSize = 64;
}

Recompressor::Recompressor(ClipDocument* document, QObject* parent) : QObject(parent), m_document(document) {
  connect(document, &ClipDocument::assetChanged, this, [this] { changeCurrent([this] { reset(); }); });
  connect(document, &ClipDocument::settingsChanged, this, [this](const SettingsChange& change) {
    // A change that leaves the current clip's compression key alone leaves its result current.
    if (change.touches(m_document->currentClip())) changeCurrent([this] { request(m_document->currentClip()); });
  });
  connect(document, &ClipDocument::currentClipChanged, this,
          [this](int clip) { changeCurrent([this, clip] { request(clip); }); });
  reset();
}

template <class F>
void Recompressor::changeCurrent(F&& change) {
  m_batching = true;
  change();
  m_batching = false;
  emit currentChanged();
}

void Recompressor::announce(int clip) {
  emit resultReady(clip);
  if (clip == m_document->currentClip() && !m_batching) emit currentChanged();
}

Recompressor::~Recompressor() {
  for (auto& c : m_clips)
    if (c->cancel) c->cancel->store(true);
  for (auto* w : m_watchers) w->waitForFinished();
}

void Recompressor::reset() {
  for (auto& c : m_clips)
    if (c->cancel) c->cancel->store(true);
  m_clips.clear();
  // The cache stays: its keys are what a result depends on (settings, source bytes, clip in its
  // file), so results survive adding or removing files and undoing that.
  m_batchTotal = m_batchDone = 0;
  for (int i = 0; i < m_document->clipCount(); ++i) {
    auto state = std::make_unique<ClipState>();
    state->debounce.setSingleShot(true);
    connect(&state->debounce, &QTimer::timeout, this, [this, i] { launch(i); });
    m_clips.push_back(std::move(state));
  }
}

std::shared_ptr<const CompressionResult> Recompressor::cached(std::uint64_t key) const {
  const auto it = m_cache.find(key);
  return it == m_cache.end() ? nullptr : it->second;
}

void Recompressor::store(const std::shared_ptr<const CompressionResult>& result) {
  if (!result->compressed) return;  // failures are not cached: a retry may succeed
  if (!m_cache.count(result->key)) {
    m_lru.push_back(result->key);
    if (m_lru.size() > kCacheSize) {
      m_cache.erase(m_lru.front());
      m_lru.pop_front();
    }
  }
  m_cache[result->key] = result;
}

std::shared_ptr<const CompressionResult> Recompressor::result(int clip) const {
  if (clip < 0 || std::size_t(clip) >= m_clips.size()) return nullptr;
  return cached(m_document->compressionKey(clip));
}

std::shared_ptr<const CompressionResult> Recompressor::latestResult(int clip) const {
  if (clip < 0 || std::size_t(clip) >= m_clips.size()) return nullptr;
  return m_clips[std::size_t(clip)]->latest;
}

ShownResult Recompressor::shown(int clip) const {
  if (auto fresh = result(clip)) return {fresh, false};
  auto latest = latestResult(clip);
  if (!latest || latest->asset != m_document->assetOf(clip)) return {};
  return {latest, true};
}

ShownResult Recompressor::current() const { return shown(m_document->currentClip()); }

void Recompressor::request(int clip) {
  if (clip < 0 || std::size_t(clip) >= m_clips.size()) return;
  ClipState& state = *m_clips[std::size_t(clip)];
  ++state.generation;  // anything still running for this clip is now stale
  if (auto hit = result(clip)) {
    // Undo/redo back to settings already compressed: no work, no wait.
    state.debounce.stop();
    state.latest = hit;
    announce(clip);
    return;
  }
  state.debounce.start(m_debounceMs);
}

void Recompressor::compressAll() {
  m_batchTotal = m_batchDone = 0;
  for (int clip = 0; clip < int(m_clips.size()); ++clip) {
    if (result(clip)) continue;
    ++m_batchTotal;
    ++m_clips[std::size_t(clip)]->generation;
    launch(clip);
  }
  emit progress(0, m_batchTotal);
}

void Recompressor::cancel() {
  for (auto& c : m_clips) {
    c->debounce.stop();
    c->pending = false;
    if (c->cancel) c->cancel->store(true);
  }
}

void Recompressor::launch(int clip) {
  ClipState& state = *m_clips[std::size_t(clip)];
  if (state.running) {
    state.pending = true;  // one job per clip at a time: it shares the clip's compressor context
    return;
  }
  if (auto hit = result(clip)) {
    state.latest = hit;
    announce(clip);
    return;
  }
  state.running = true;
  state.pending = false;
  state.cancel = std::make_shared<std::atomic<bool>>(false);
  const quint64 generation = state.generation;
  const ClipJob job = clipJob(*m_document, clip);
  const core::EffectiveSettings settings = m_document->effectiveSettings(clip);
  const std::uint64_t key = m_document->compressionKey(clip);
  auto context = state.context;
  auto cancelFlag = state.cancel;
  auto* watcher = new QFutureWatcher<std::shared_ptr<const CompressionResult>>(this);
  m_watchers.push_back(watcher);
  connect(watcher, &QFutureWatcher<std::shared_ptr<const CompressionResult>>::finished, this,
          [this, watcher, clip, generation] {
            m_watchers.erase(std::remove(m_watchers.begin(), m_watchers.end(), watcher), m_watchers.end());
            watcher->deleteLater();
            --m_running;
            if (m_running == 0) emit busyChanged(false);
            deliver(clip, generation, watcher->result());
          });
  ++m_running;
  ++m_jobsStarted;
  if (m_running == 1) emit busyChanged(true);
  emit jobStarted(clip);
  watcher->setFuture(
      QtConcurrent::run([job, clip, settings, key, context, cancelFlag]() -> std::shared_ptr<const CompressionResult> {
        auto r = std::make_shared<CompressionResult>();
        r->clip = clip;
        r->key = key;
        r->asset = job.asset;
        auto compressed = job.run(settings, job.additive(cancelFlag.get()), context.get(), cancelFlag.get());
        if (compressed) r->compressed = std::make_shared<const core::CompressedClip>(std::move(compressed.value()));
        else r->error = QString::fromStdString(compressed.message());
        return r;
      }));
}

void Recompressor::deliver(int clip, quint64 generation, std::shared_ptr<const CompressionResult> result) {
  if (std::size_t(clip) >= m_clips.size() || result->asset != m_document->assetOf(clip))
    return;  // another file there now
  ClipState& state = *m_clips[std::size_t(clip)];
  state.running = false;
  const bool cancelled = state.cancel && state.cancel->load();
  if (!cancelled) store(result);
  if (m_batchTotal > 0) {
    ++m_batchDone;
    emit progress(m_batchDone, m_batchTotal);
    if (m_batchDone >= m_batchTotal) m_batchTotal = m_batchDone = 0;
  }
  if (generation != state.generation || cancelled) {
    ++m_staleDropped;  // settings moved on while it ran (it stays cached for its own key)
  } else if (result->compressed) {
    state.latest = result;
    announce(clip);
  } else {
    emit failed(clip, result->error);
  }
  if (state.pending) launch(clip);
}

}  // namespace animpack::widgets
