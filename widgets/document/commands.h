#pragma once
// Undo commands of the studio: value swaps on the ClipDocument (STYLE item 8). Consecutive edits
// with the same merge key (a slider drag, a spin box held down) merge into one undo step.

#include <QUndoCommand>

#include "widgets/document/clip_document.h"
#include "widgets/document/settings_edit.h"

namespace animpack::widgets {

/// Replaces the document's settings.
class SettingsCommand : public QUndoCommand {
 public:
  /// `mergeKey` 0: never merges; otherwise merges with the previous command of the same key.
  SettingsCommand(ClipDocument* document, const QString& text, core::CompressionSettings after, quint64 mergeKey = 0);
  void undo() override;
  void redo() override;
  int id() const override { return m_mergeKey ? 0x5e77 : -1; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  ClipDocument* m_document;
  core::CompressionSettings m_before, m_after;
  quint64 m_mergeKey;
};

/// Replaces one clip's approval.
class ApprovalCommand : public QUndoCommand {
 public:
  ApprovalCommand(ClipDocument* document, int clip, ClipApproval after);
  void undo() override;
  void redo() override;

 private:
  ClipDocument* m_document;
  int m_clip;
  ClipApproval m_before, m_after;
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

/// Pushes the edit of a joint field for `joints` (names) in `scope` onto the document's stack.
/// `mergeKey` lets a drag merge (0: a separate step).
void pushJointValue(ClipDocument* document, EditScope scope, const std::vector<int>& joints, JointField field, float value,
                    quint64 mergeKey = 0);
/// Pushes the reset of a joint field (back to inherited) for `joints`.
void pushJointReset(ClipDocument* document, EditScope scope, const std::vector<int>& joints, JointField field);
/// A merge key for edits of one field on one set of joints.
quint64 jointMergeKey(const std::vector<int>& joints, JointField field, EditScope scope);

}  // namespace animpack::widgets
