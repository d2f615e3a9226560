#include "widgets/document/commands.h"

#include "core/runtime/hash.h"

namespace animpack::widgets {

SettingsCommand::SettingsCommand(ClipDocument* document, const QString& text, core::CompressionSettings after, quint64 mergeKey)
    : QUndoCommand(text), m_document(document), m_before(document->settings()), m_after(std::move(after)), m_mergeKey(mergeKey) {}

void SettingsCommand::undo() { m_document->setSettings(m_before); }
void SettingsCommand::redo() { m_document->setSettings(m_after); }

bool SettingsCommand::mergeWith(const QUndoCommand* other) {
  const auto* o = dynamic_cast<const SettingsCommand*>(other);
  if (!o || o->m_mergeKey != m_mergeKey || m_mergeKey == 0) return false;
  m_after = o->m_after;
  return true;
}

ApprovalCommand::ApprovalCommand(ClipDocument* document, int clip, ClipApproval after)
    : QUndoCommand(QString("%1 '%2'").arg(after.state == Approval::Approved   ? "Approve"
                                          : after.state == Approval::Rejected ? "Reject"
                                                                              : "Reopen",
                                          document->clipName(clip))),
      m_document(document), m_clip(clip), m_before(document->storedApproval(clip)), m_after(after) {}

void ApprovalCommand::undo() { m_document->setStoredApproval(m_clip, m_before); }
void ApprovalCommand::redo() { m_document->setStoredApproval(m_clip, m_after); }

UpAxisCommand::UpAxisCommand(ClipDocument* document, UpAxis after)
    : QUndoCommand("Change up axis"), m_document(document), m_before(document->upAxis()), m_after(after) {}

void UpAxisCommand::undo() { m_document->setUpAxis(m_before); }
void UpAxisCommand::redo() { m_document->setUpAxis(m_after); }

namespace {

std::vector<std::string> names(const ClipDocument* document, const std::vector<int>& joints) {
  std::vector<std::string> out;
  const auto& sk = document->asset()->skeleton;
  for (int j : joints)
    if (j >= 0 && std::size_t(j) < sk.jointCount()) out.push_back(sk.names[std::size_t(j)]);
  return out;
}

QString fieldName(JointField field) {
  switch (field) {
    case JointField::Precision: return "precision";
    case JointField::Shell: return "shell distance";
    case JointField::Pinned: return "pinning";
  }
  return {};
}

QString jointsText(const std::vector<std::string>& joints) {
  return joints.size() == 1 ? QString("'%1'").arg(QString::fromStdString(joints[0])) : QString("%1 joints").arg(joints.size());
}

}  // namespace

quint64 jointMergeKey(const std::vector<int>& joints, JointField field, EditScope scope) {
  std::uint64_t h = runtime::fnv1a64Value(int(field), runtime::kFnvOffset);
  h = runtime::fnv1a64Value(int(scope), h);
  for (int j : joints) h = runtime::fnv1a64Value(j, h);
  return h | 1u;  // never 0
}

void pushJointValue(ClipDocument* document, EditScope scope, const std::vector<int>& joints, JointField field, float value,
                    quint64 mergeKey) {
  if (!document->hasAsset() || joints.empty()) return;
  const auto jointNames = names(document, joints);
  const std::string clip = document->clipName(document->currentClip()).toStdString();
  auto after = withJointValue(document->settings(), scope, clip, jointNames, field, value);
  const QString text = field == JointField::Pinned ? QString("%1 %2").arg(value != 0.f ? "Pin" : "Unpin", jointsText(jointNames))
                                                   : QString("Set %1 of %2").arg(fieldName(field), jointsText(jointNames));
  document->undoStack()->push(new SettingsCommand(document, text, std::move(after), mergeKey));
}

void pushJointReset(ClipDocument* document, EditScope scope, const std::vector<int>& joints, JointField field) {
  if (!document->hasAsset() || joints.empty()) return;
  const auto jointNames = names(document, joints);
  const std::string clip = document->clipName(document->currentClip()).toStdString();
  auto after = withJointReset(document->settings(), scope, clip, jointNames, field);
  document->undoStack()->push(
      new SettingsCommand(document, QString("Reset %1 of %2").arg(fieldName(field), jointsText(jointNames)), std::move(after)));
}

}  // namespace animpack::widgets
