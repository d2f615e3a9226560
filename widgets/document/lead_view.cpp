#include "widgets/document/lead_view.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QPointer>
#include <QTimer>
#include <QtConcurrent>
#include <algorithm>
#include <numeric>

#include "core/compress/clip_sizes.h"
#include "core/compress/settings_edit.h"
#include "core/io/pack_writer.h"
#include "core/runtime/hash.h"
#include "widgets/document/clip_job.h"

namespace animpack::widgets {

namespace {

/// Adds the clips' shown results to `t`; with `records`, each measured clip's pack record too.
void accumulate(PackTotals& t, const ClipDocument& document, const Recompressor& recompressor,
                const std::vector<int>& clips, std::vector<core::PackClipRecord>* records) {
  for (int c : clips) {
    const ShownResult shown = recompressor.shown(c);
    const core::ApprovalState state = document.approval(c);
    t.approved += state == core::ApprovalState::Approved;
    t.rejected += state == core::ApprovalState::Rejected;
    const core::CompressedClip* compressed = shown.compressed();
    if (!compressed) continue;
    ++t.measured;
    t.stale |= shown.stale;
    t.rawBytes += core::rawClipBytes(document.rawClip(c));
    t.compressedBytes += core::packedClipBytes(*compressed);
    t.maxErrorCm = std::max(t.maxErrorCm, compressed->stats.maxErrorCm);
    if (!compressed->stats.curves.curves.empty()) {
      ++t.morphClips;
      t.curveBytes += compressed->stats.curves.bytes;
    }
    if (!records) continue;
    const std::string file = QFileInfo(document.file(document.fileOfClip(c)).path()).fileName().toStdString();
    records->push_back(core::clipRecord(*compressed, file, document.assetOf(c)->sourceHash));
    records->back().additive = {};  // only sizes are wanted here, and a base may not be compressed yet
  }
}

}  // namespace

PackTotals packTotals(const ClipDocument& document, const Recompressor& recompressor) {
  PackTotals t;
  t.clips = document.clipCount();
  t.budgetKib = document.budgetKib();
  t.budgetKind = document.budgetKind();
  if (!document.hasAsset()) return t;
  std::vector<int> clips(std::size_t(t.clips));
  std::iota(clips.begin(), clips.end(), 0);
  std::vector<core::PackClipRecord> records;
  accumulate(t, document, recompressor, clips, &records);
  // The pack as `animpack build` would write it (skeleton block, names and tolerance tables included).
  const auto pack = document.packAsset();
  t.packBytes =
      core::buildPack(core::skeletonRecord(pack->skeleton, pack->unitToCm, pack->curves, pack->sceneScale), records)
          .size();
  t.residentBytes = core::residentPackBytes(t.packBytes, pack->skeleton.jointCount(), records.size());
  return t;
}

PackTotals fileTotals(const ClipDocument& document, const Recompressor& recompressor, int file) {
  PackTotals t;
  const std::vector<int> clips = document.clipsOfFile(file);
  t.clips = int(clips.size());
  accumulate(t, document, recompressor, clips, nullptr);
  return t;
}

BudgetAdvisor::BudgetAdvisor(ClipDocument* document, Recompressor* recompressor, QObject* parent)
    : QObject(parent), m_document(document), m_recompressor(recompressor) {
  // Every change that can move the totals or the settings; refresh() decides whether to compute.
  auto later = [this] { QTimer::singleShot(0, this, &BudgetAdvisor::refresh); };
  connect(document, &ClipDocument::assetChanged, this, later);
  connect(document, &ClipDocument::settingsChanged, this, later);
  connect(document, &ClipDocument::budgetChanged, this, later);
  connect(recompressor, &Recompressor::resultReady, this, later);
}

BudgetAdvisor::~BudgetAdvisor() {
  if (m_cancel) m_cancel->store(true);
}

std::uint64_t BudgetAdvisor::totalSaving() const {
  std::uint64_t sum = 0;
  for (const BudgetSuggestion& s : m_suggestions) sum += std::uint64_t(std::max<std::int64_t>(s.saves(), 0));
  return sum;
}

void BudgetAdvisor::apply() {
  std::vector<int> clips;
  for (const BudgetSuggestion& s : m_suggestions) clips.push_back(s.clip);
  m_document->scaleClipPrecision(clips, kFactor);
}

void BudgetAdvisor::refresh() {
  const PackTotals totals = packTotals(*m_document, *m_recompressor);
  std::uint64_t key = runtime::kFnvOffset;
  std::vector<std::shared_ptr<const CompressionResult>> results;
  for (int c = 0; c < totals.clips; ++c) {
    key = runtime::fnv1a64Value(m_document->compressionKey(c), key);
    results.push_back(m_recompressor->result(c));
  }
  const bool ready = totals.overBudget() &&
                     std::all_of(results.begin(), results.end(), [](const auto& r) { return r && r->compressed; });
  if (!ready) {
    // Within budget, or not every clip is measured for its settings yet: nothing to suggest now.
    const bool hadSomething = !m_suggestions.empty() || m_running;
    if (m_cancel) m_cancel->store(true);
    m_suggestions.clear();
    m_running = false;
    m_key = 0;
    if (hadSomething) emit changed();
    return;
  }
  if (key == m_key) return;  // already computed (or computing) for exactly this
  if (m_cancel) m_cancel->store(true);
  m_key = key;
  m_suggestions.clear();
  m_running = true;
  m_cancel = std::make_shared<std::atomic<bool>>(false);
  const quint64 generation = ++m_generation;
  // Per clip: its job as export runs it (file, settings under its pack name, meshes, additive base).
  std::vector<ClipJob> jobs;
  std::vector<QString> names;
  for (int c = 0; c < totals.clips; ++c) {
    names.push_back(m_document->clipName(c));
    jobs.push_back(clipJob(*m_document, c));
  }
  auto cancel = m_cancel;
  using Result = std::vector<BudgetSuggestion>;
  auto* watcher = new QFutureWatcher<Result>(this);
  connect(watcher, &QFutureWatcher<Result>::finished, this, [this, watcher, generation] {
    watcher->deleteLater();
    if (generation != m_generation) return;  // the document moved on
    m_running = false;
    m_suggestions = watcher->result();
    emit changed();
  });
  emit changed();
  watcher->setFuture(QtConcurrent::run([jobs, names, results, cancel]() -> Result {
    Result out;
    for (std::size_t c = 0; c < results.size() && !cancel->load(); ++c) {
      const ClipJob& job = jobs[c];
      const core::CompressionSettings scaled = core::withClipPrecisionScaled(
          job.settings, job.name, job.asset->skeleton, kFactor, job.asset->meshes, job.asset->unitToCm);
      // An additive clip's base as the studio compressed it (the base keeps its own precision).
      const std::span<const std::uint8_t> base =
          job.baseClip >= 0 ? std::span<const std::uint8_t>(results[std::size_t(job.baseClip)]->compressed->data)
                            : std::span<const std::uint8_t>();
      auto trial = job.run(job.resolve(scaled), job.additive(base), nullptr, cancel.get());
      if (!trial) continue;
      BudgetSuggestion s;
      s.clip = int(c);
      s.name = names[c];
      s.bytesNow = core::packedClipBytes(*results[c]->compressed);
      s.bytesThen = core::packedClipBytes(*trial);
      s.errorNowCm = results[c]->compressed->stats.maxErrorCm;
      s.errorThenCm = trial->stats.maxErrorCm;
      if (s.saves() > 0) out.push_back(s);
    }
    std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.saves() > b.saves(); });
    if (out.size() > std::size_t(kMaxSuggestions)) out.resize(std::size_t(kMaxSuggestions));
    return out;
  }));
}

}  // namespace animpack::widgets
