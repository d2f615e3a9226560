#include "widgets/document/clip_document.h"

#include <algorithm>

#include "core/anim/skinned_mesh.h"
#include "core/batch/clip_names.h"
#include "core/compress/presets.h"
#include "core/io/asset_importer.h"
#include "core/project/project.h"
#include "core/runtime/hash.h"
#include "widgets/document/commands.h"
#include "widgets/format.h"

namespace animpack::widgets {

const char* approvalName(Approval a) {
  switch (a) {
    case Approval::NeedsReview: return "needs_review";
    case Approval::Approved: return "approved";
    case Approval::Rejected: return "rejected";
  }
  return "needs_review";
}

std::optional<Approval> approvalFromName(const QString& name) {
  if (name == "needs_review") return Approval::NeedsReview;
  if (name == "approved") return Approval::Approved;
  if (name == "rejected") return Approval::Rejected;
  return std::nullopt;
}

ClipDocument::ClipDocument(QObject* parent) : QObject(parent) {}

Status ClipDocument::import(const QString& path, const core::CompressionSettings& settings) {
  core::ImportOptions options;
  options.unitToCm = settings.unitToCm;
  options.sampleRate = settings.sampleRate;
  auto asset = m_importer ? m_importer(path.toStdString(), options) : core::importAsset(path.toStdString(), options);
  if (!asset) return Error{asset.message()};
  m_asset = std::make_shared<const core::ImportedAsset>(std::move(asset.value()));
  m_sourcePath = path;
  m_effectiveHashes.assign(m_asset->clips.size(), std::nullopt);
  return Status::ok();
}

Status ClipDocument::open(const QString& path, const core::CompressionSettings& settings) {
  if (auto st = settings.validate(); !st) return st;
  if (auto st = import(path, settings); !st) return st;
  m_settings = settings;
  nameClips();
  m_approvals.assign(m_asset->clips.size(), ClipApproval{});
  m_upAxis = UpAxis::AsImported;
  m_budgetKib.reset();
  m_undo.clear();
  m_selectedJoints.clear();
  m_currentClip = m_asset->clips.empty() ? -1 : 0;
  m_time = 0;
  emit assetChanged();
  emit settingsChanged();
  emit currentClipChanged(m_currentClip);
  emit selectedJointsChanged();
  emit currentTimeChanged(m_time);
  emit budgetChanged();
  return Status::ok();
}

int ClipDocument::clipCount() const { return m_asset ? int(m_asset->clips.size()) : 0; }

QString ClipDocument::clipName(int clip) const {
  return clip >= 0 && std::size_t(clip) < m_packNames.size() ? QString::fromStdString(m_packNames[std::size_t(clip)].name) : QString();
}

QString ClipDocument::sourceClipName(int clip) const {
  return clip >= 0 && clip < clipCount() ? QString::fromStdString(m_asset->clips[std::size_t(clip)].name) : QString();
}

void ClipDocument::nameClips() {
  m_packNames.clear();
  if (!m_asset) return;
  std::vector<core::ClipNameSource> sources;
  for (const core::RawClip& c : m_asset->clips)
    sources.push_back({m_sourcePath.toStdString(), c.name, c.clipIndex, static_cast<std::uint32_t>(m_asset->clips.size()), &m_settings});
  auto names = core::packClipNames(sources);
  if (names) {
    m_packNames = std::move(names.value());
  } else {
    // Overrides that collide: the animations' own names (unique within the file) until they are fixed.
    for (const core::RawClip& c : m_asset->clips) m_packNames.push_back({c.name, ""});
  }
}

bool ClipDocument::replaceSettings(const core::CompressionSettings& settings) {
  const bool reimport = settings.unitToCm != m_settings.unitToCm || settings.sampleRate != m_settings.sampleRate;
  if (reimport && m_asset) {
    // Units and sample rates change what the clips are: import the file again, keep the rest. The
    // settings change only once the import worked, so they always describe the asset shown.
    if (auto st = import(m_sourcePath, settings); !st) {
      emit importFailed(QString::fromStdString(st.message()));
      return false;
    }
    m_settings = settings;
    nameClips();
    m_approvals.resize(m_asset->clips.size());
    emit assetChanged();
  } else {
    m_settings = settings;
    nameClips();
    m_effectiveHashes.assign(m_effectiveHashes.size(), std::nullopt);
  }
  emit settingsChanged();
  return true;
}

core::EffectiveSettings ClipDocument::effectiveSettings(int clip) const {
  if (!m_asset || clip < 0 || clip >= clipCount()) return {};
  const core::PackClipName& name = m_packNames[std::size_t(clip)];
  return core::resolve(core::settingsForPackName(m_settings, name), m_asset->skeleton, name.name, m_asset->meshes, m_asset->unitToCm);
}

std::uint64_t ClipDocument::effectiveHash(int clip) const {
  if (clip < 0 || std::size_t(clip) >= m_effectiveHashes.size()) return effectiveSettings(clip).hash();
  auto& cached = m_effectiveHashes[std::size_t(clip)];
  if (!cached) cached = effectiveSettings(clip).hash();
  return *cached;
}

std::uint64_t ClipDocument::compressionKey(int clip) const {
  if (!m_asset) return 0;
  std::uint64_t h = runtime::fnv1a64Value(effectiveHash(clip), runtime::kFnvOffset);
  h = runtime::fnv1a64Value(m_asset->sourceHash, h);
  h = runtime::fnv1a64Value(clip, h);
  if (const int base = additiveBaseClip(clip); base >= 0) h = runtime::fnv1a64Value(effectiveHash(base), h);  // the deltas follow the base
  return runtime::fnv1a64Value(m_asset->unitToCm, h);
}

ClipApproval ClipDocument::storedApproval(int clip) const {
  return clip >= 0 && std::size_t(clip) < m_approvals.size() ? m_approvals[std::size_t(clip)] : ClipApproval{};
}

Approval ClipDocument::approval(int clip) const {
  const ClipApproval a = storedApproval(clip);
  if (a.state == Approval::NeedsReview || !m_asset) return Approval::NeedsReview;
  // A decision holds only for the settings and the source it was made for.
  if (a.settingsHash != effectiveHash(clip) || a.sourceHash != m_asset->sourceHash) return Approval::NeedsReview;
  return a.state;
}

ClipApproval ClipDocument::approvalNow(int clip, Approval state) const {
  ClipApproval a;
  a.state = state;
  if (state != Approval::NeedsReview && m_asset) {
    a.settingsHash = effectiveHash(clip);
    a.sourceHash = m_asset->sourceHash;
    a.who = core::currentUserName();
    a.when = core::utcTimestamp();
  }
  return a;
}

void ClipDocument::replaceApproval(int clip, const ClipApproval& approval) {
  if (clip < 0 || std::size_t(clip) >= m_approvals.size()) return;
  m_approvals[std::size_t(clip)] = approval;
  emit approvalChanged(clip);
}

void ClipDocument::replaceBudget(std::optional<double> kib) {
  if (kib == m_budgetKib) return;
  m_budgetKib = kib;
  emit budgetChanged();
}

void ClipDocument::replaceUpAxis(UpAxis axis) {
  if (axis == m_upAxis) return;
  m_upAxis = axis;
  emit upAxisChanged(axis);
}

void ClipDocument::restore(const std::vector<std::pair<QString, ClipApproval>>& approvals, UpAxis axis) {
  for (const auto& [name, approval] : approvals)
    for (int c = 0; c < clipCount(); ++c)
      if (clipName(c) == name) replaceApproval(c, approval);
  replaceUpAxis(axis);
}

// --- The edit API: one command per call.

quint64 jointMergeKey(const std::vector<int>& joints, JointField field, EditScope scope) {
  std::uint64_t h = runtime::fnv1a64Value(int(field), runtime::kFnvOffset);
  h = runtime::fnv1a64Value(int(scope), h);
  for (int j : joints) h = runtime::fnv1a64Value(j, h);
  return h | 1u;  // never 0
}

namespace {

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

std::vector<std::string> ClipDocument::jointNames(const std::vector<int>& joints) const {
  std::vector<std::string> out;
  if (!m_asset) return out;
  const auto& sk = m_asset->skeleton;
  for (int j : joints)
    if (j >= 0 && std::size_t(j) < sk.jointCount()) out.push_back(sk.names[std::size_t(j)]);
  return out;
}

void ClipDocument::pushSettings(const QString& text, core::CompressionSettings after, quint64 mergeKey) {
  if (!m_asset || after == m_settings) return;
  m_undo.push(new SettingsCommand(this, text, std::move(after), mergeKey));
}

void ClipDocument::setJointValue(EditScope scope, const std::vector<int>& joints, JointField field, float value, quint64 mergeKey) {
  const auto names = jointNames(joints);
  if (names.empty()) return;
  const QString text = field == JointField::Pinned ? QString("%1 %2").arg(value != 0.f ? "Pin" : "Unpin", jointsText(names))
                                                   : QString("Set %1 of %2").arg(fieldName(field), jointsText(names));
  pushSettings(text, core::withJointValue(m_settings, scope, currentClipName(), names, field, value), mergeKey);
}

void ClipDocument::resetJointValue(EditScope scope, const std::vector<int>& joints, JointField field) {
  const auto names = jointNames(joints);
  if (names.empty()) return;
  pushSettings(QString("Reset %1 of %2").arg(fieldName(field), jointsText(names)),
               core::withJointReset(m_settings, scope, currentClipName(), names, field));
}

void ClipDocument::resetJoints(EditScope scope, const std::vector<int>& joints) {
  const auto names = jointNames(joints);
  if (names.empty()) return;
  pushSettings("Reset to inherited", core::withJointsReset(m_settings, scope, currentClipName(), names));
}

void ClipDocument::applyToSubtree(EditScope scope, const std::vector<int>& roots) {
  if (!m_asset || roots.empty()) return;
  // One settings change (one recompress, one undo step) for every selected subtree.
  pushSettings("Apply to subtree", core::withSubtreeValues(m_settings, scope, currentClipName(), m_asset->skeleton,
                                                            effectiveSettings(m_currentClip), roots));
}

void ClipDocument::deriveShellsFromMesh(EditScope scope, const std::vector<int>& joints) {
  if (!m_asset || joints.empty()) return;
  std::vector<double> shellCm = core::farthestInfluencedVertex(m_asset->skeleton, m_asset->meshes, m_asset->unitToCm);
  pushSettings("Derive shell distance from the mesh",
               core::withShells(m_settings, scope, currentClipName(), m_asset->skeleton, shellCm, joints));
}

void ClipDocument::setPrecision(EditScope scope, float precisionCm) {
  pushSettings(QString("Set precision to %1").arg(formatCm(precisionCm)),
               core::withDefaultValue(m_settings, scope, currentClipName(), JointField::Precision, precisionCm));
}

Status ClipDocument::applyPreset(const QString& name) {
  if (!m_asset) return Status::ok();
  auto preset = core::findPreset(name.toStdString());
  if (!preset) return preset.status();
  pushSettings("Apply preset " + name, core::withPreset(m_settings, *preset));
  return Status::ok();
}

void ClipDocument::importSettings(const core::CompressionSettings& settings, const QString& source) {
  pushSettings("Import settings " + source, settings);
}

void ClipDocument::setUnitToCm(double unitToCm) { pushSettings(QString("File unit %1 cm").arg(unitToCm), core::withUnit(m_settings, unitToCm)); }

void ClipDocument::setRootMotion(core::RootMotionMode mode) {
  if (!m_asset || m_currentClip < 0) return;
  pushSettings(mode == core::RootMotionMode::Extract ? QString("Extract root motion") : QString("Keep root motion"),
               core::withClipRootMotion(m_settings, currentClipName(), mode));
}

void ClipDocument::setUpAxis(UpAxis axis) {
  if (m_asset && axis != m_upAxis) m_undo.push(new UpAxisCommand(this, axis));
}

void ClipDocument::setApproval(const std::vector<int>& clips, Approval state) {
  std::vector<std::pair<int, ClipApproval>> changes;
  for (int c : clips)
    if (c >= 0 && c < clipCount()) changes.emplace_back(c, approvalNow(c, state));
  if (!changes.empty()) m_undo.push(new ApprovalCommand(this, std::move(changes)));
}

void ClipDocument::scaleClipPrecision(const std::vector<int>& clips, float factor) {
  if (!m_asset) return;
  core::CompressionSettings after = m_settings;
  for (int c : clips)
    if (c >= 0 && c < clipCount())
      after = core::withClipPrecisionScaled(after, clipName(c).toStdString(), m_asset->skeleton, factor, m_asset->meshes,
                                            m_asset->unitToCm);
  pushSettings(QString("%1x the precision of %2 clip(s)").arg(double(factor)).arg(clips.size()), std::move(after));
}

void ClipDocument::setBudgetKib(std::optional<double> kib, quint64 mergeKey) {
  if (kib && !(*kib > 0)) return;  // the spin box and the project reader allow positive budgets only
  if (kib == m_budgetKib) return;
  m_undo.push(new BudgetCommand(this, kib, mergeKey));
}

// --- View state.

void ClipDocument::setCurrentClip(int clip) {
  if (clip == m_currentClip || clip < -1 || clip >= clipCount()) return;
  m_currentClip = clip;
  emit currentClipChanged(clip);
  setCurrentTime(0);
}

void ClipDocument::setSelectedJoints(std::vector<int> joints) {
  std::sort(joints.begin(), joints.end());
  joints.erase(std::unique(joints.begin(), joints.end()), joints.end());
  if (joints == m_selectedJoints) return;
  m_selectedJoints = std::move(joints);
  emit selectedJointsChanged();
}

void ClipDocument::setCurrentTime(double seconds) {
  if (seconds == m_time) return;
  m_time = seconds;
  emit currentTimeChanged(seconds);
}

}  // namespace animpack::widgets
