#pragma once
// The undo commands of the studio: value swaps on the ClipDocument, built only by its edit API
// (clip_document.h). Consecutive settings edits with the same merge key (a spin box drag) merge
// into one undo step. A swap never imports: a unit or sample-rate change carries the files imported
// before and after it, so undo and redo cannot fail.

#include <QUndoCommand>
#include <utility>
#include <vector>

#include "widgets/document/clip_document.h"

namespace animpack::widgets {

/// Replaces the document's settings.
class SettingsCommand : public QUndoCommand {
 public:
  /// `mergeKey` 0: never merges; otherwise merges with the previous command of the same key.
  /// `before`/`after` imports: the files' assets before and for `after` when the unit or sample rate
  /// changes (imported by the document before it pushes the step).
  SettingsCommand(ClipDocument* document, const QString& text, core::CompressionSettings after, quint64 mergeKey = 0,
                  std::optional<ClipDocument::Imports> before = {}, std::optional<ClipDocument::Imports> imported = {});
  void undo() override;
  void redo() override;
  int id() const override { return m_mergeKey ? 0x5e77 : -1; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  ClipDocument* m_document;
  core::CompressionSettings m_before, m_after;
  quint64 m_mergeKey;
  std::optional<ClipDocument::Imports> m_importsBefore, m_importsAfter;
};

/// Replaces the approvals of some clips.
class ApprovalCommand : public QUndoCommand {
 public:
  /// `after`: each clip with its new approval.
  ApprovalCommand(ClipDocument* document, std::vector<std::pair<int, core::ClipApprovalRecord>> after);
  void undo() override;
  void redo() override;

 private:
  ClipDocument* m_document;
  std::vector<std::pair<int, core::ClipApprovalRecord>> m_before, m_after;
};

/// Changes the display up axis.
class UpAxisCommand : public QUndoCommand {
 public:
  UpAxisCommand(ClipDocument* document, UpAxis after);
  void undo() override;
  void redo() override;

 private:
  ClipDocument* m_document;
  UpAxis m_before, m_after;
};

/// Sets what the pack budget counts (resident bytes or the pack file).
class BudgetKindCommand : public QUndoCommand {
 public:
  BudgetKindCommand(ClipDocument* document, core::BudgetKind after);
  void undo() override;
  void redo() override;

 private:
  ClipDocument* m_document;
  core::BudgetKind m_before, m_after;
};

/// Sets or removes the pack budget; edits with the same merge key (a spin box) merge.
class BudgetCommand : public QUndoCommand {
 public:
  BudgetCommand(ClipDocument* document, std::optional<double> after, quint64 mergeKey);
  void undo() override;
  void redo() override;
  int id() const override { return m_mergeKey ? 0xb0d6 : -1; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  ClipDocument* m_document;
  std::optional<double> m_before, m_after;
  quint64 m_mergeKey;
};

/// Replaces the document's files (add or remove files): their imports and their clips' approvals.
class FilesCommand : public QUndoCommand {
 public:
  FilesCommand(ClipDocument* document, const QString& text, std::vector<SourceFile> after);
  void undo() override;
  void redo() override;

 private:
  ClipDocument* m_document;
  std::vector<SourceFile> m_before, m_after;
};

}  // namespace animpack::widgets
