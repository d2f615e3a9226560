#pragma once
// A pack's size budget (docs/PROJECT.md `budget_kib`, `budget_kind`): what it limits is either the
// pack file or what a game holds once it opened it, the file and what opening derives (its
// resident bytes, core/runtime/FORMAT.md "What the runtime keeps").

#include <cstdint>
#include <optional>
#include <string_view>

namespace animpack::core {

enum class BudgetKind : std::uint8_t {
  Pack,      ///< the pack file's bytes (projects written before `budget_kind` existed)
  Resident,  ///< the pack's bytes and what opening it derives: what a game keeps resident (the default)
};

inline const char* budgetKindName(BudgetKind kind) { return kind == BudgetKind::Pack ? "pack" : "resident"; }

inline std::optional<BudgetKind> budgetKindFromName(std::string_view name) {
  if (name == "pack") return BudgetKind::Pack;
  if (name == "resident") return BudgetKind::Resident;
  return std::nullopt;
}

/// The bytes a budget of `kind` counts.
inline std::uint64_t budgetedBytes(BudgetKind kind, std::uint64_t packBytes, std::uint64_t residentBytes) {
  return kind == BudgetKind::Pack ? packBytes : residentBytes;
}

/// Whether the bytes the budget counts pass `kib` KiB.
inline bool overBudget(std::optional<double> kib, BudgetKind kind, std::uint64_t packBytes,
                       std::uint64_t residentBytes) {
  return kib && double(budgetedBytes(kind, packBytes, residentBytes)) > *kib * 1024.0;
}

}  // namespace animpack::core
