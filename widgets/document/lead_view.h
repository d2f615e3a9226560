#pragma once
// The lead's view of a pack (docs/LEADS.md "For leads"): totals of every clip's current result against the
// project's budget, and, over budget, a background suggestion of the clips that would save most at
// twice their precision, with the bytes each saves and the error it would cost.

#include <QObject>
#include <QString>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "widgets/document/clip_document.h"
#include "widgets/document/recompressor.h"

namespace animpack::widgets {

/// The pack as the clips' shown results make it.
struct PackTotals {
  int clips = 0;                                    ///< clips in the document
  int measured = 0;                                 ///< clips with a result to show
  bool stale = false;                               ///< some result shown is for older settings
  std::uint64_t rawBytes = 0, compressedBytes = 0;  ///< sums over measured clips
  std::uint64_t packBytes = 0;      ///< the pack file built from the shown results (exact once every clip is measured)
  std::uint64_t residentBytes = 0;  ///< the pack and what opening it derives: what a game keeps resident
  core::BudgetKind budgetKind = core::BudgetKind::Resident;
  float maxErrorCm = 0;
  int morphClips = 0;            ///< measured clips that carry morph curves
  std::uint64_t curveBytes = 0;  ///< their curve sections' bytes (part of compressedBytes)
  int approved = 0, rejected = 0;
  std::optional<double> budgetKib;
  bool complete() const { return clips > 0 && measured == clips; }
  bool overBudget() const { return core::overBudget(budgetKib, budgetKind, packBytes, residentBytes); }
  /// The bytes the budget counts.
  std::uint64_t budgetedBytes() const { return core::budgetedBytes(budgetKind, packBytes, residentBytes); }
  double ratio() const { return compressedBytes ? double(rawBytes) / double(compressedBytes) : 0.0; }
};
PackTotals packTotals(const ClipDocument& document, const Recompressor& recompressor);
/// The same totals over one file's clips (no pack bytes, no budget).
PackTotals fileTotals(const ClipDocument& document, const Recompressor& recompressor, int file);

/// What one clip would give at twice its precision.
struct BudgetSuggestion {
  int clip = -1;
  QString name;
  std::uint64_t bytesNow = 0, bytesThen = 0;
  float errorNowCm = 0, errorThenCm = 0;
  std::int64_t saves() const { return std::int64_t(bytesNow) - std::int64_t(bytesThen); }
};

class BudgetAdvisor : public QObject {
  Q_OBJECT
 public:
  /// How many clips a suggestion lists at most.
  static constexpr int kMaxSuggestions = 5;
  /// The precision factor tried.
  static constexpr float kFactor = 2.f;

  BudgetAdvisor(ClipDocument* document, Recompressor* recompressor, QObject* parent = nullptr);
  ~BudgetAdvisor() override;

  /// The clips that would save most, largest saving first (empty within budget or while computing).
  const std::vector<BudgetSuggestion>& suggestions() const { return m_suggestions; }
  /// Bytes all suggestions together save.
  std::uint64_t totalSaving() const;
  bool busy() const { return m_running; }
  /// Gives every suggested clip twice its precision: one undo step.
  void apply();

 signals:
  /// suggestions() or busy() changed.
  void changed();

 private:
  /// Recomputes when the pack is over budget and every clip is measured for its current settings.
  void refresh();
  ClipDocument* m_document;
  Recompressor* m_recompressor;
  std::vector<BudgetSuggestion> m_suggestions;
  std::uint64_t m_key = 0;  ///< what the suggestions (or the running job) were made for
  quint64 m_generation = 0;
  bool m_running = false;
  std::shared_ptr<std::atomic<bool>> m_cancel;
};

}  // namespace animpack::widgets
