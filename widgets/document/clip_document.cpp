#include "widgets/document/clip_document.h"

#include <algorithm>

#include "core/runtime/hash.h"

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
  m_approvals.assign(m_asset->clips.size(), ClipApproval{});
  m_upAxis = UpAxis::AsImported;
  m_undo.clear();
  m_selectedJoints.clear();
  m_currentClip = m_asset->clips.empty() ? -1 : 0;
  m_time = 0;
  emit assetChanged();
  emit settingsChanged();
  emit currentClipChanged(m_currentClip);
  emit selectedJointsChanged();
  emit currentTimeChanged(m_time);
  return Status::ok();
}

int ClipDocument::clipCount() const { return m_asset ? int(m_asset->clips.size()) : 0; }

QString ClipDocument::clipName(int clip) const {
  return clip >= 0 && clip < clipCount() ? QString::fromStdString(m_asset->clips[std::size_t(clip)].name) : QString();
}

void ClipDocument::setSettings(const core::CompressionSettings& settings) {
  const bool reimport = settings.unitToCm != m_settings.unitToCm || settings.sampleRate != m_settings.sampleRate;
  m_settings = settings;
  m_effectiveHashes.assign(m_effectiveHashes.size(), std::nullopt);
  if (reimport && m_asset) {
    // Units and sample rates change what the clips are: import the file again, keep the rest.
    if (auto st = import(m_sourcePath, m_settings); !st) {
      emit importFailed(QString::fromStdString(st.message()));
    } else {
      m_approvals.resize(m_asset->clips.size());
      emit assetChanged();
    }
  }
  emit settingsChanged();
}

core::EffectiveSettings ClipDocument::effectiveSettings(int clip) const {
  if (!m_asset || clip < 0 || clip >= clipCount()) return {};
  return core::resolve(m_settings, m_asset->skeleton, m_asset->clips[std::size_t(clip)].name, m_asset->meshes, m_asset->unitToCm);
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
  }
  return a;
}

void ClipDocument::setStoredApproval(int clip, const ClipApproval& approval) {
  if (clip < 0 || std::size_t(clip) >= m_approvals.size()) return;
  m_approvals[std::size_t(clip)] = approval;
  emit approvalChanged(clip);
}

void ClipDocument::setUpAxis(UpAxis axis) {
  if (axis == m_upAxis) return;
  m_upAxis = axis;
  emit upAxisChanged(axis);
}

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
