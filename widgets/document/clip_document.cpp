#include "widgets/document/clip_document.h"

#include <QFileInfo>
#include <QtConcurrent>
#include <algorithm>
#include <filesystem>

#include "core/anim/skinned_mesh.h"
#include "core/batch/batch.h"
#include "core/batch/clip_names.h"
#include "core/batch/export.h"
#include "core/io/pack_writer.h"
#include "core/compress/presets.h"
#include "core/io/asset_importer.h"
#include "core/project/project.h"
#include "core/runtime/hash.h"
#include "widgets/document/commands.h"
#include "widgets/format.h"

namespace animpack::widgets {

ClipDocument::ClipDocument(QObject* parent) : QObject(parent) {}

Expected<std::shared_ptr<const core::ImportedAsset>> ClipDocument::import(
    const QString& path, const core::CompressionSettings& settings) const {
  const core::ImportOptions options = core::importOptionsOf(settings);
  auto asset = m_importer ? m_importer(path.toStdString(), options) : core::importAsset(path.toStdString(), options);
  if (!asset) return Error{asset.message()};
  return std::make_shared<const core::ImportedAsset>(std::move(asset.value()));
}

namespace {

QString absolutePath(const QString& path) { return QFileInfo(path).absoluteFilePath(); }

}  // namespace

void ClipDocument::importEach(std::vector<SourceFile>& files, const core::CompressionSettings& settings) const {
  // Each import is a child process: run them side by side (the importer is thread-safe).
  struct Job {
    SourceFile* file;
    core::CompressionSettings settings;
  };
  std::vector<Job> jobs;
  for (SourceFile& f : files) jobs.push_back({&f, core::stackedSettings(settings, f.source.settings)});
  QtConcurrent::blockingMap(jobs, [this](Job& job) {
    auto asset = import(job.file->path(), job.settings);
    if (!asset) {
      job.file->asset = nullptr;
      job.file->importError = QString::fromStdString(asset.message());
      return;
    }
    job.file->asset = std::move(asset.value());
    job.file->importError.clear();
    job.file->approvals.resize(job.file->asset->clips.size());
  });
}

bool ClipDocument::importAll(std::vector<SourceFile>& files, const core::CompressionSettings& settings,
                             QString* error) const {
  std::vector<SourceFile> out = files;
  importEach(out, settings);
  for (std::size_t f = 0; f < out.size(); ++f) {
    // A file that was readable must stay readable: a change that breaks it is refused.
    if (files[f].asset && !out[f].asset) {
      if (error) *error = out[f].importError;
      return false;
    }
  }
  files = std::move(out);
  return true;
}

Status ClipDocument::open(const QString& path, const core::CompressionSettings& settings) {
  if (auto st = settings.validate(); !st) return st;
  // One file: its import error is the open's error.
  auto asset = import(absolutePath(path), settings);
  if (!asset) return Error{asset.message()};
  SourceFile f{{absolutePath(path).toStdString(), std::nullopt}, std::move(asset.value()), {}, {}};
  f.approvals.resize(f.asset->clips.size());
  std::vector<SourceFile> files;
  files.push_back(std::move(f));
  adopt(std::move(files), settings);
  return Status::ok();
}

Status ClipDocument::open(const std::vector<core::ProjectSource>& specs, const core::CompressionSettings& settings) {
  if (auto st = settings.validate(); !st) return st;
  std::vector<SourceFile> files;
  for (const core::ProjectSource& spec : specs)
    files.push_back(
        {{absolutePath(QString::fromStdString(spec.path.string())).toStdString(), spec.settings}, nullptr, {}, {}});
  importAll(files, settings, nullptr);
  const auto imported =
      std::find_if(files.begin(), files.end(), [](const SourceFile& f) { return f.asset != nullptr; });
  if (imported == files.end())
    return Error{files.empty() ? std::string("no source file") : files.front().importError.toStdString()};
  adopt(std::move(files), settings);
  return Status::ok();
}

void ClipDocument::adopt(std::vector<SourceFile> files, const core::CompressionSettings& settings) {
  m_files = std::move(files);
  m_settings = settings;
  m_projectFolder.clear();
  layout();
  m_upAxis = UpAxis::AsImported;
  m_budgetKib.reset();
  m_budgetKind = core::BudgetKind::Resident;
  m_undo.clear();
  m_selectedJoints.clear();
  m_selectedCurves.clear();
  m_currentClip = m_clips.empty() ? -1 : 0;
  m_time = 0;
  emit assetChanged();
  emit settingsChanged(everything());
  emit currentClipChanged(m_currentClip);
  emit selectedJointsChanged();
  emit selectedCurvesChanged();
  emit currentTimeChanged(m_time);
  emit budgetChanged();
}

void ClipDocument::layout() {
  m_leftOut.assign(m_files.size(), QString());
  m_clips.clear();
  // The pack's skeleton is the first file's: the same rule and words as `animpack build`.
  std::vector<core::PackSkeletonRecord> skeletons;
  skeletons.reserve(m_files.size());
  std::vector<core::PackCandidate> candidates;
  for (const SourceFile& file : m_files) {
    if (file.asset)
      skeletons.push_back(
          core::skeletonRecord(file.asset->skeleton, file.asset->unitToCm, file.asset->curves, file.asset->sceneScale));
    candidates.push_back({file.path().toStdString(), file.asset ? &skeletons.back() : nullptr});
  }
  const std::vector<std::string> leftOut = core::filesLeftOut(candidates);
  for (std::size_t f = 0; f < m_files.size(); ++f) {
    const SourceFile& file = m_files[f];
    m_leftOut[f] = file.asset ? QString::fromStdString(leftOut[f]) : file.importError;
    if (!file.asset || !leftOut[f].empty()) continue;
    for (std::size_t c = 0; c < file.asset->clips.size(); ++c) m_clips.push_back({int(f), int(c)});
  }
  restack();
}

void ClipDocument::restack() {
  m_fileSettings.clear();
  for (const SourceFile& file : m_files)
    m_fileSettings.push_back(core::stackedSettings(m_settings, file.source.settings));
  m_effectiveHashes.assign(m_clips.size(), std::nullopt);
  nameClips();
}

std::shared_ptr<const core::ImportedAsset> ClipDocument::packAsset() const {
  for (const SourceFile& f : m_files)
    if (f.asset) return f.asset;
  return nullptr;
}

std::shared_ptr<const core::ImportedAsset> ClipDocument::asset() const {
  return m_currentClip >= 0 && m_currentClip < clipCount() ? assetOf(m_currentClip) : packAsset();
}

QString ClipDocument::sourcePath() const { return m_files.empty() ? QString() : m_files.front().path(); }

QString ClipDocument::fileProblem(int file) const {
  return file >= 0 && std::size_t(file) < m_leftOut.size() ? m_leftOut[std::size_t(file)] : QString();
}

std::vector<int> ClipDocument::clipsOfFile(int file) const {
  std::vector<int> out;
  for (int c = 0; c < clipCount(); ++c)
    if (m_clips[std::size_t(c)].file == file) out.push_back(c);
  return out;
}

int ClipDocument::fileOfClip(int clip) const {
  return clip >= 0 && clip < clipCount() ? m_clips[std::size_t(clip)].file : -1;
}

std::shared_ptr<const core::ImportedAsset> ClipDocument::assetOf(int clip) const {
  return clip >= 0 && clip < clipCount() ? m_files[std::size_t(m_clips[std::size_t(clip)].file)].asset : nullptr;
}

const core::RawClip& ClipDocument::rawClip(int clip) const {
  const ClipRef& ref = m_clips[std::size_t(clip)];
  return m_files[std::size_t(ref.file)].asset->clips[std::size_t(ref.index)];
}

QString ClipDocument::projectFolder() const {
  if (!m_projectFolder.isEmpty() || m_files.empty()) return m_projectFolder;
  return QFileInfo(m_files.front().path()).absolutePath();
}

void ClipDocument::setProjectFolder(const QString& folder) {
  const QString absolute = QFileInfo(folder).absoluteFilePath();
  if (absolute == projectFolder()) return;
  const Snapshot before = snapshot();
  m_projectFolder = absolute;
  nameClips();
  m_effectiveHashes.assign(m_clips.size(), std::nullopt);
  // Names key the clip overrides: what each renamed clip resolves to may change.
  if (const SettingsChange change = changeSince(before); change.renamed) emit settingsChanged(change);
}

QString ClipDocument::clipName(int clip) const {
  return clip >= 0 && std::size_t(clip) < m_packNames.size()
             ? QString::fromStdString(m_packNames[std::size_t(clip)].name)
             : QString();
}

QString ClipDocument::sourceClipName(int clip) const {
  return clip >= 0 && clip < clipCount() ? QString::fromStdString(rawClip(clip).name) : QString();
}

void ClipDocument::nameClips() {
  m_packNames.clear();
  // `animpack build` names the clips of every imported file, those left out included, with each
  // source named relative to the project's folder.
  const std::filesystem::path folder = projectFolder().toStdString();
  std::vector<core::ClipNameSource> sources;
  std::vector<int> packIndex;  // per named clip: its document clip, or -1 for a clip left out
  for (std::size_t f = 0; f < m_files.size(); ++f) {
    const SourceFile& file = m_files[f];
    if (!file.asset) continue;
    const std::filesystem::path path = file.path().toStdString();
    const auto relative = path.lexically_relative(folder);
    const std::string name = relative.empty() ? path.generic_string() : relative.generic_string();
    for (const core::RawClip& c : file.asset->clips)
      sources.push_back(
          {name, c.name, c.clipIndex, static_cast<std::uint32_t>(file.asset->clips.size()), &m_fileSettings[f]});
  }
  auto names = core::packClipNames(sources);
  std::size_t i = 0;
  for (std::size_t f = 0; f < m_files.size(); ++f) {
    if (!m_files[f].asset) continue;
    const bool inPack = m_leftOut[f].isEmpty();
    for (const core::RawClip& c : m_files[f].asset->clips) {
      // Overrides that collide: the animations' own names until they are fixed.
      if (inPack) m_packNames.push_back(names ? (*names)[i] : core::PackClipName{c.name, ""});
      ++i;
    }
  }
}

ClipDocument::Imports ClipDocument::importsOf(const std::vector<SourceFile>& files) {
  Imports out;
  for (const SourceFile& f : files) {
    out.paths.push_back(f.path());
    out.assets.push_back(f.asset);
    out.errors.push_back(f.importError);
  }
  return out;
}

ClipDocument::Snapshot ClipDocument::snapshot() const {
  Snapshot s;
  for (int c = 0; c < clipCount(); ++c) {
    s.keys.push_back(compressionKey(c));
    s.names.push_back(m_packNames[std::size_t(c)].name);
  }
  if (!hasAsset() || m_currentClip < 0) return s;
  s.current = effectiveSettings(m_currentClip);
  const std::string clip = currentClipName();
  for (const std::string& joint : asset()->skeleton.names)
    for (const JointField field : {JointField::Precision, JointField::Shell, JointField::Pinned})
      for (const EditScope scope : {EditScope::AllClips, EditScope::CurrentClip})
        s.overrides.push_back(core::hasOverride(m_settings, scope, clip, joint, field));
  return s;
}

SettingsChange ClipDocument::changeSince(const Snapshot& before) const {
  const Snapshot after = snapshot();
  SettingsChange change;
  change.renamed = before.names != after.names;
  change.all = before.keys.size() != after.keys.size() || before.current.joints.size() != after.current.joints.size() ||
               before.overrides.size() != after.overrides.size();
  for (std::size_t c = 0; c < after.keys.size(); ++c)
    if (change.all || before.keys[c] != after.keys[c]) change.clips.push_back(int(c));
  const std::size_t perJoint = after.current.joints.empty() ? 0 : after.overrides.size() / after.current.joints.size();
  for (std::size_t j = 0; j < after.current.joints.size(); ++j) {
    bool changed = change.all || !(before.current.joints[j] == after.current.joints[j]);
    for (std::size_t k = 0; k < perJoint && !changed; ++k)
      changed = before.overrides[j * perJoint + k] != after.overrides[j * perJoint + k];
    if (changed) change.joints.push_back(int(j));
  }
  return change;
}

SettingsChange ClipDocument::everything() const {
  SettingsChange change;
  change.all = true;
  for (int c = 0; c < clipCount(); ++c) change.clips.push_back(c);
  if (hasAsset())
    for (std::size_t j = 0; j < asset()->skeleton.jointCount(); ++j) change.joints.push_back(int(j));
  return change;
}

void ClipDocument::replaceSettings(const core::CompressionSettings& settings, const std::optional<Imports>& imports) {
  const Snapshot before = snapshot();
  m_settings = settings;
  if (imports) {
    // A new joint order (settings lod) moves joints: the selection follows them by name.
    const std::vector<std::string> selected = jointNames(m_selectedJoints);
    // The undo stack is linear, so the files are those the imports were made for; a file that is
    // not (by position and path) keeps what it has.
    for (std::size_t f = 0; f < m_files.size() && f < imports->paths.size(); ++f) {
      SourceFile& file = m_files[f];
      if (file.path() != imports->paths[f]) continue;
      file.asset = imports->assets[f];
      file.importError = imports->errors[f];
      if (file.asset) file.approvals.resize(file.asset->clips.size());
    }
    layout();
    clampCurrentClip();
    m_selectedJoints.clear();
    for (const std::string& name : selected)
      if (const std::int32_t j = hasAsset() ? asset()->skeleton.find(name) : -1; j >= 0) m_selectedJoints.push_back(j);
    std::sort(m_selectedJoints.begin(), m_selectedJoints.end());
    emit assetChanged();
    emit selectedJointsChanged();
    SettingsChange change = everything();
    change.reimported = true;
    emit settingsChanged(change);
    return;
  }
  restack();  // nothing was imported: the files left out and the clip table stay
  emit settingsChanged(changeSince(before));
}

core::CompressionSettings ClipDocument::clipSettings(int clip) const {
  if (clip < 0 || clip >= clipCount()) return {};
  return core::settingsForPackName(fileSettings(fileOfClip(clip)), m_packNames[std::size_t(clip)]);
}

core::EffectiveSettings ClipDocument::effectiveSettings(int clip) const {
  if (clip < 0 || clip >= clipCount()) return {};
  const core::ImportedAsset& asset = *assetOf(clip);
  return core::resolve(clipSettings(clip), asset.skeleton, m_packNames[std::size_t(clip)].name, asset.meshes,
                       asset.unitToCm, asset.curves, asset.sceneScale);
}

std::uint64_t ClipDocument::effectiveHash(int clip) const {
  if (clip < 0 || std::size_t(clip) >= m_effectiveHashes.size()) return effectiveSettings(clip).hash();
  auto& cached = m_effectiveHashes[std::size_t(clip)];
  if (!cached) cached = effectiveSettings(clip).hash();
  return *cached;
}

std::uint64_t ClipDocument::compressionKey(int clip) const {
  if (clip < 0 || clip >= clipCount()) return 0;
  // What the result depends on, not where the clip sits: adding or removing a file keeps the keys.
  const core::ImportedAsset& asset = *assetOf(clip);
  std::uint64_t h = runtime::fnv1a64Value(effectiveHash(clip), runtime::kFnvOffset);
  h = runtime::fnv1a64Value(asset.sourceHash, h);
  for (const std::string& name : asset.skeleton.names) h = runtime::fnv1a64(name, h);  // the joint order (lod)
  h = runtime::fnv1a64Value(rawClip(clip).clipIndex, h);
  if (const int base = additiveBaseClip(clip); base >= 0) {  // the deltas follow the base
    h = runtime::fnv1a64Value(effectiveHash(base), h);
    h = runtime::fnv1a64Value(assetOf(base)->sourceHash, runtime::fnv1a64Value(rawClip(base).clipIndex, h));
  }
  return runtime::fnv1a64Value(asset.unitToCm, h);
}

core::ClipApprovalRecord ClipDocument::storedApproval(int clip) const {
  if (clip < 0 || clip >= clipCount()) return {};
  const ClipRef& ref = m_clips[std::size_t(clip)];
  return m_files[std::size_t(ref.file)].approvals[std::size_t(ref.index)];
}

core::ApprovalState ClipDocument::approval(int clip) const {
  const core::ClipApprovalRecord a = storedApproval(clip);
  // A decision holds only for the settings and the source it was made for.
  if (!core::approvalOutdated(a, effectiveHash(clip), assetOf(clip)->sourceHash).empty())
    return core::ApprovalState::NeedsReview;
  return a.state;
}

QString ClipDocument::approvalResetReason(int clip) const {
  const core::ClipApprovalRecord a = storedApproval(clip);
  if (a.state == core::ApprovalState::NeedsReview || approval(clip) != core::ApprovalState::NeedsReview) return {};
  const core::ImportedAsset& asset = *assetOf(clip);
  if (a.sourceHash != asset.sourceHash) return "the source file changed since it was given";
  // The same settings measured at scene scale 1: lengths were in the skeleton's root space then.
  core::EffectiveSettings unscaled = effectiveSettings(clip);
  if (unscaled.sceneScale != 1.0) {
    const double scale = unscaled.sceneScale;
    unscaled.sceneScale = 1.0;
    if (unscaled.hash() == a.settingsHash)
      return QString(
                 "lengths are now measured in the scene's centimetres, at scene scale x%1 (docs/IMPORT.md, "
                 "\"Scene scale\")")
          .arg(scale, 0, 'g', 4);
  }
  // The settings as they resolved before shells followed the skin by default: 3 cm where none is set,
  // and no morph curves (hashes of that time did not cover them).
  core::CompressionSettings before =
      core::settingsForPackName(fileSettings(fileOfClip(clip)), m_packNames[std::size_t(clip)]);
  if (!before.shellCm && core::hasFollowingVertices(asset.meshes)) {
    before.shellCm = core::kDefaultShellCm;
    const std::string& name = m_packNames[std::size_t(clip)].name;
    if (core::resolve(before, asset.skeleton, name, asset.meshes, asset.unitToCm).hash() == a.settingsHash)
      return "the default shells now follow the skin (docs/SETTINGS.md, \"Shells\")";
  }
  return "the settings changed since it was given";
}

core::ClipApprovalRecord ClipDocument::approvalNow(int clip, core::ApprovalState state) const {
  core::ClipApprovalRecord a;
  a.state = state;
  if (state != core::ApprovalState::NeedsReview && clip >= 0 && clip < clipCount()) {
    a.settingsHash = effectiveHash(clip);
    a.sourceHash = assetOf(clip)->sourceHash;
    a.who = core::currentUserName();
    a.when = core::utcTimestamp();
  }
  return a;
}

void ClipDocument::replaceApproval(int clip, const core::ClipApprovalRecord& approval) {
  if (clip < 0 || clip >= clipCount()) return;
  const ClipRef& ref = m_clips[std::size_t(clip)];
  m_files[std::size_t(ref.file)].approvals[std::size_t(ref.index)] = approval;
  emit approvalChanged(clip);
}

void ClipDocument::replaceBudget(std::optional<double> kib) {
  if (kib == m_budgetKib) return;
  m_budgetKib = kib;
  emit budgetChanged();
}

void ClipDocument::replaceBudgetKind(core::BudgetKind kind) {
  if (kind == m_budgetKind) return;
  m_budgetKind = kind;
  emit budgetChanged();
}

void ClipDocument::replaceUpAxis(UpAxis axis) {
  if (axis == m_upAxis) return;
  m_upAxis = axis;
  emit upAxisChanged(axis);
}

void ClipDocument::restore(const std::vector<std::pair<QString, core::ClipApprovalRecord>>& approvals, UpAxis axis) {
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
  return joints.size() == 1 ? QString("'%1'").arg(QString::fromStdString(joints[0]))
                            : QString("%1 joints").arg(joints.size());
}

}  // namespace

std::vector<std::string> ClipDocument::jointNames(const std::vector<int>& joints) const {
  std::vector<std::string> out;
  const auto current = asset();
  if (!current) return out;
  const auto& sk = current->skeleton;
  for (int j : joints)
    if (j >= 0 && std::size_t(j) < sk.jointCount()) out.push_back(sk.names[std::size_t(j)]);
  return out;
}

void ClipDocument::pushSettings(const QString& text, core::CompressionSettings after, quint64 mergeKey) {
  if (!hasAsset() || after == m_settings) return;
  std::optional<Imports> before, imported;
  if (after.unitToCm != m_settings.unitToCm || after.sampleRate != m_settings.sampleRate ||
      after.lod != m_settings.lod) {
    // Units, sample rates and the joint order change what the clips are: every file is imported again before the
    // step is pushed (a file that was readable must stay so, else nothing changes), and the step
    // swaps the two imports.
    std::vector<SourceFile> files = m_files;
    QString error;
    if (!importAll(files, after, &error)) {
      emit importFailed(error);
      return;
    }
    before = importsOf(m_files);
    imported = importsOf(files);
  }
  m_undo.push(new SettingsCommand(this, text, std::move(after), mergeKey, std::move(before), std::move(imported)));
}

void ClipDocument::setJointValue(EditScope scope, const std::vector<int>& joints, JointField field, float value,
                                 quint64 mergeKey) {
  const auto names = jointNames(joints);
  if (names.empty()) return;
  const QString text = field == JointField::Pinned
                           ? QString("%1 %2").arg(value != 0.f ? "Pin" : "Unpin", jointsText(names))
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
  if (!hasAsset() || roots.empty()) return;
  // One settings change (one recompress, one undo step) for every selected subtree.
  pushSettings("Apply to subtree", core::withSubtreeValues(m_settings, scope, currentClipName(), asset()->skeleton,
                                                           effectiveSettings(m_currentClip), roots));
}

void ClipDocument::deriveShellsFromMesh(EditScope scope, const std::vector<int>& joints) {
  const auto current = asset();
  if (!current || joints.empty()) return;
  // In the scene's centimetres, at the scene scale the current clip is measured at.
  std::vector<double> shellCm = core::farthestInfluencedVertex(
      current->skeleton, current->meshes, current->unitToCm * effectiveSettings(m_currentClip).sceneScale);
  pushSettings("Derive shell distance from the mesh",
               core::withShells(m_settings, scope, currentClipName(), current->skeleton, shellCm, joints));
}

void ClipDocument::setMorphPrecision(EditScope scope, const std::vector<int>& curves, std::optional<float> precisionCm,
                                     quint64 mergeKey) {
  const auto current = asset();
  if (!current) return;
  std::vector<std::string> names;
  for (int c : curves)
    if (c >= 0 && std::size_t(c) < current->curves.size()) names.push_back(current->curves[std::size_t(c)].name);
  if (names.empty()) return;
  const QString which = names.size() == 1 ? QString("'%1'").arg(QString::fromStdString(names[0]))
                                          : QString("%1 morph targets").arg(names.size());
  const QString text = precisionCm ? QString("Set precision of %1 to %2").arg(which, formatCm(*precisionCm))
                                   : QString("Reset precision of %1").arg(which);
  pushSettings(text, core::withMorphPrecision(m_settings, scope, currentClipName(), names, precisionCm), mergeKey);
}

void ClipDocument::setPrecision(EditScope scope, float precisionCm) {
  pushSettings(QString("Set precision to %1").arg(formatCm(precisionCm)),
               core::withDefaultValue(m_settings, scope, currentClipName(), JointField::Precision, precisionCm));
}

Status ClipDocument::applyPreset(const QString& name) {
  if (!hasAsset()) return Status::ok();
  auto preset = core::findPreset(name.toStdString());
  if (!preset) return preset.status();
  pushSettings("Apply preset " + name, core::withPreset(m_settings, *preset));
  return Status::ok();
}

void ClipDocument::importSettings(const core::CompressionSettings& settings, const QString& source) {
  pushSettings("Import settings " + source, settings);
}

void ClipDocument::setUnitToCm(double unitToCm) {
  pushSettings(QString("File unit %1 cm").arg(unitToCm), core::withUnit(m_settings, unitToCm));
}

void ClipDocument::setJointOrder(const core::JointOrder& order) {
  const QString how = order.kind == core::JointOrder::Kind::Depth ? QString("by depth")
                      : order.kind == core::JointOrder::Kind::List
                          ? QString("with %1 joint(s) first").arg(order.first.size())
                          : QString("as in the source");
  pushSettings("Joint order " + how, core::withJointOrder(m_settings, order));
}

void ClipDocument::setRootMotion(core::RootMotionMode mode) {
  if (!hasAsset() || m_currentClip < 0) return;
  pushSettings(mode == core::RootMotionMode::Extract ? QString("Extract root motion") : QString("Keep root motion"),
               core::withClipRootMotion(m_settings, currentClipName(), mode));
}

void ClipDocument::setRootMotionJoint(const QString& joint) {
  if (!hasAsset() || m_currentClip < 0 || joint.isEmpty()) return;
  pushSettings(QString("Extract root motion from %1").arg(joint),
               core::withClipRootJoint(m_settings, currentClipName(), joint.toStdString()));
}

void ClipDocument::setUpAxis(UpAxis axis) {
  if (hasAsset() && axis != m_upAxis) m_undo.push(new UpAxisCommand(this, axis));
}

void ClipDocument::setApproval(const std::vector<int>& clips, core::ApprovalState state) {
  std::vector<std::pair<int, core::ClipApprovalRecord>> changes;
  for (int c : clips)
    if (c >= 0 && c < clipCount()) changes.emplace_back(c, approvalNow(c, state));
  if (!changes.empty()) m_undo.push(new ApprovalCommand(this, std::move(changes)));
}

void ClipDocument::scaleClipPrecision(const std::vector<int>& clips, float factor) {
  core::CompressionSettings after = m_settings;
  for (int c : clips)
    if (c >= 0 && c < clipCount()) {
      const core::ImportedAsset& a = *assetOf(c);
      after = core::withClipPrecisionScaled(after, clipName(c).toStdString(), a.skeleton, factor, a.meshes, a.unitToCm);
    }
  pushSettings(QString("%1x the precision of %2 clip(s)").arg(double(factor)).arg(clips.size()), std::move(after));
}

void ClipDocument::setBudgetKind(core::BudgetKind kind) {
  if (kind == m_budgetKind) return;
  m_undo.push(new BudgetKindCommand(this, kind));
}

void ClipDocument::setBudgetKib(std::optional<double> kib, quint64 mergeKey) {
  if (kib && !(*kib > 0)) return;  // the spin box and the project reader allow positive budgets only
  if (kib == m_budgetKib) return;
  m_undo.push(new BudgetCommand(this, kib, mergeKey));
}

int ClipDocument::addFiles(const QStringList& paths, QStringList* errors) {
  if (m_files.empty()) return 0;  // nothing open: the first file is opened, not added
  QStringList listed;
  for (const SourceFile& f : m_files) listed << QFileInfo(f.path()).canonicalFilePath();
  std::vector<SourceFile> added;
  for (const QString& path : paths) {
    const QString absolute = absolutePath(path);
    const QString canonical = QFileInfo(absolute).canonicalFilePath();
    if (canonical.isEmpty() || !listed.contains(canonical))
      added.push_back({{absolute.toStdString(), std::nullopt}, nullptr, {}, {}});
    if (!canonical.isEmpty()) listed << canonical;  // each file once
  }
  importEach(added, m_settings);
  std::vector<SourceFile> after = m_files;
  for (SourceFile& f : added) {
    if (!f.asset) {
      if (errors) *errors << f.importError;
      continue;
    }
    after.push_back(std::move(f));
  }
  const int count = int(after.size() - m_files.size());
  if (count == 0) return 0;
  const QString text = count == 1 ? QString("Add %1").arg(QFileInfo(after.back().path()).fileName())
                                  : QString("Add %1 files").arg(count);
  m_undo.push(new FilesCommand(this, text, std::move(after)));
  return count;
}

Expected<QStringList> animationFilesIn(const QString& folder) {
  if (!QFileInfo(folder).isDir()) return Error{(folder + ": not a folder").toStdString()};
  auto files = core::expandInputs({folder.toStdString()}, true);
  if (!files) return Error{files.message()};
  QStringList paths;
  for (const auto& f : *files) paths << QString::fromStdString(f.string());
  if (paths.isEmpty()) return Error{(folder + ": no animation file in it").toStdString()};
  return paths;
}

int ClipDocument::addFolder(const QString& folder, QStringList* errors) {
  auto paths = animationFilesIn(folder);
  if (!paths) {
    if (errors) *errors << QString::fromStdString(paths.message());
    return 0;
  }
  return addFiles(*paths, errors);
}

void ClipDocument::removeFiles(std::vector<int> files) {
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  std::vector<SourceFile> after;
  for (int f = 0; f < fileCount(); ++f)
    if (!std::binary_search(files.begin(), files.end(), f)) after.push_back(m_files[std::size_t(f)]);
  // The document keeps at least one file: removing the last would leave nothing to show.
  if (after.size() == m_files.size() || after.empty()) return;
  const int removed = int(m_files.size() - after.size());
  const QString text = removed == 1
                           ? QString("Remove %1").arg(QFileInfo(m_files[std::size_t(files.front())].path()).fileName())
                           : QString("Remove %1 files").arg(removed);
  m_undo.push(new FilesCommand(this, text, std::move(after)));
}

void ClipDocument::replaceFiles(std::vector<SourceFile> files) {
  // The current clip stays where it is when its file stays.
  const int file = fileOfClip(m_currentClip);
  const QString currentPath = file >= 0 ? m_files[std::size_t(file)].path() : QString();
  const int index = file >= 0 ? m_clips[std::size_t(m_currentClip)].index : 0;
  m_files = std::move(files);
  layout();
  int current = m_clips.empty() ? -1 : 0;
  for (int c = 0; c < clipCount(); ++c)
    if (m_files[std::size_t(m_clips[std::size_t(c)].file)].path() == currentPath &&
        m_clips[std::size_t(c)].index == index)
      current = c;
  m_currentClip = current;
  emit assetChanged();
  emit settingsChanged(everything());
  emit currentClipChanged(m_currentClip);
  m_time = 0;
  emit currentTimeChanged(m_time);
}

void ClipDocument::clampCurrentClip() {
  if (m_currentClip >= clipCount()) m_currentClip = clipCount() - 1;
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

void ClipDocument::setSelectedCurves(std::vector<int> curves) {
  std::sort(curves.begin(), curves.end());
  curves.erase(std::unique(curves.begin(), curves.end()), curves.end());
  if (curves == m_selectedCurves) return;
  m_selectedCurves = std::move(curves);
  emit selectedCurvesChanged();
}

void ClipDocument::setCurrentTime(double seconds) {
  if (seconds == m_time) return;
  m_time = seconds;
  emit currentTimeChanged(seconds);
}

}  // namespace animpack::widgets
