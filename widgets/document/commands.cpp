#include "widgets/document/commands.h"

namespace animpack::widgets {

SettingsCommand::SettingsCommand(ClipDocument* document, const QString& text, core::CompressionSettings after,
                                 quint64 mergeKey, std::optional<ClipDocument::Imports> before,
                                 std::optional<ClipDocument::Imports> imported)
    : QUndoCommand(text),
      m_document(document),
      m_before(document->settings()),
      m_after(std::move(after)),
      m_mergeKey(mergeKey),
      m_importsBefore(std::move(before)),
      m_importsAfter(std::move(imported)) {}

void SettingsCommand::undo() { m_document->replaceSettings(m_before, m_importsBefore); }

void SettingsCommand::redo() { m_document->replaceSettings(m_after, m_importsAfter); }

bool SettingsCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = dynamic_cast<const SettingsCommand*>(other);
  if (!o || o->m_mergeKey != m_mergeKey || m_mergeKey == 0) return false;
  m_after = o->m_after;
  if (o->m_importsAfter) {
    // The later step imported again: its "after" files are the merged step's; its "before" files are
    // this step's when this one imported none.
    if (!m_importsBefore) m_importsBefore = o->m_importsBefore;
    m_importsAfter = o->m_importsAfter;
  }
  // A drag back to where it started changes nothing: the stack drops the step (no empty undo step).
  setObsolete(m_after == m_before);
  return true;
}

namespace {

QString approvalText(const ClipDocument* document, const std::vector<std::pair<int, core::ClipApprovalRecord>>& after) {
  const core::ApprovalState state = after.empty() ? core::ApprovalState::NeedsReview : after.front().second.state;
  const char* verb = state == core::ApprovalState::Approved   ? "Approve"
                     : state == core::ApprovalState::Rejected ? "Reject"
                                                              : "Reopen";
  if (after.size() == 1) return QString("%1 '%2'").arg(verb, document->clipName(after.front().first));
  return QString("%1 %2 clips").arg(verb).arg(after.size());
}

}  // namespace

ApprovalCommand::ApprovalCommand(ClipDocument* document, std::vector<std::pair<int, core::ClipApprovalRecord>> after)
    : QUndoCommand(approvalText(document, after)), m_document(document), m_after(std::move(after)) {
  for (const auto& [clip, approval] : m_after) m_before.emplace_back(clip, document->storedApproval(clip));
}

void ApprovalCommand::undo() {
  for (const auto& [clip, approval] : m_before) m_document->replaceApproval(clip, approval);
}

void ApprovalCommand::redo() {
  for (const auto& [clip, approval] : m_after) m_document->replaceApproval(clip, approval);
}

UpAxisCommand::UpAxisCommand(ClipDocument* document, UpAxis after)
    : QUndoCommand("Change up axis"), m_document(document), m_before(document->upAxis()), m_after(after) {}

void UpAxisCommand::undo() { m_document->replaceUpAxis(m_before); }
void UpAxisCommand::redo() { m_document->replaceUpAxis(m_after); }

BudgetCommand::BudgetCommand(ClipDocument* document, std::optional<double> after, quint64 mergeKey)
    : QUndoCommand(after ? QString("Set budget to %1 KiB").arg(*after, 0, 'g', 6) : QString("Remove budget")),
      m_document(document),
      m_before(document->budgetKib()),
      m_after(after),
      m_mergeKey(mergeKey) {}

BudgetKindCommand::BudgetKindCommand(ClipDocument* document, core::BudgetKind after)
    : QUndoCommand(
          QString("Budget counts %1").arg(after == core::BudgetKind::Resident ? "resident bytes" : "the pack file")),
      m_document(document),
      m_before(document->budgetKind()),
      m_after(after) {}

void BudgetKindCommand::undo() { m_document->replaceBudgetKind(m_before); }
void BudgetKindCommand::redo() { m_document->replaceBudgetKind(m_after); }

void BudgetCommand::undo() { m_document->replaceBudget(m_before); }
void BudgetCommand::redo() { m_document->replaceBudget(m_after); }

bool BudgetCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = static_cast<const BudgetCommand*>(other);
  if (o->m_mergeKey != m_mergeKey) return false;
  m_after = o->m_after;
  setText(o->text());
  setObsolete(m_after == m_before);
  return true;
}

FilesCommand::FilesCommand(ClipDocument* document, const QString& text, std::vector<SourceFile> after)
    : QUndoCommand(text), m_document(document), m_after(std::move(after)) {
  for (int f = 0; f < document->fileCount(); ++f) m_before.push_back(document->file(f));
}

void FilesCommand::undo() { m_document->replaceFiles(m_before); }
void FilesCommand::redo() { m_document->replaceFiles(m_after); }

}  // namespace animpack::widgets
