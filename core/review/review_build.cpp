#include "core/review/review_build.h"

#include <chrono>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/io/pack_writer.h"
#include "core/runtime/pack.h"

namespace animpack::core {
namespace {

using nlohmann::json;

Error fail(const std::filesystem::path& path, const std::string& what) { return Error{path.string() + ": " + what}; }

std::string nowUtc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Expected<std::uint64_t> hexValue(const json& clip, const char* key, const std::filesystem::path& path, const std::string& name) {
  if (!clip.contains(key)) return std::uint64_t(0);
  try {
    std::size_t used = 0;
    const std::string text = clip.at(key).get<std::string>();
    const std::uint64_t v = std::stoull(text, &used, 16);
    if (used != text.size()) throw std::invalid_argument(text);
    return v;
  } catch (const std::exception&) {
    return fail(path, "clip '" + name + "' has a malformed " + key);
  }
}

Expected<StoredApproval> readApproval(const json& clip, const std::filesystem::path& path, const std::string& name) {
  StoredApproval a;
  a.state = clip.value("approval", std::string("needs_review"));
  if (a.state != "approved" && a.state != "rejected" && a.state != "needs_review")
    return fail(path, "clip '" + name + "' has an unknown approval '" + a.state + "'");
  auto settingsHash = hexValue(clip, "approved_settings_hash", path, name);
  if (!settingsHash) return Error{settingsHash.message()};
  auto sourceHash = hexValue(clip, "approved_source_hash", path, name);
  if (!sourceHash) return Error{sourceHash.message()};
  a.settingsHash = *settingsHash;
  a.sourceHash = *sourceHash;
  a.by = clip.value("approved_by", std::string());
  a.at = clip.value("approved_at", std::string());
  if (clip.contains("approved_max_error_cm") && clip["approved_max_error_cm"].is_number())
    a.maxErrorCm = clip["approved_max_error_cm"].get<float>();
  return a;
}

/// The clip's approval as the packet shows it: outdated when the settings or source moved on.
ReviewApproval shownApproval(const StoredApproval* stored, const BatchClip& clip) {
  ReviewApproval a;
  if (!stored) return a;
  a.state = stored->state;
  a.by = stored->by;
  a.at = stored->at;
  a.maxErrorCm = stored->maxErrorCm;
  a.outdated = stored->state != "needs_review" &&
               (stored->settingsHash != clip.meta.settingsHash || stored->sourceHash != clip.meta.sourceHash);
  return a;
}

/// Draws the worst clips' frames; says in the packet which could not be drawn and why.
void drawPictures(ReviewPacket& packet, const std::vector<BatchFile>& batch,
                  const std::vector<std::pair<std::size_t, std::size_t>>& origin, const ReviewOptions& options) {
  if (!options.pictures) {
    packet.picturesNote = "Pictures of the worst frames were left out (asked for without pictures).";
    return;
  }
  packet.picturesRenderer = options.rendererName;
  std::vector<std::string> missing;
  std::map<std::size_t, std::shared_ptr<const ImportedAsset>> assets;  // by file index
  for (const std::size_t row : worstClips(packet.clips, options.pictureCount)) {
    const auto [f, c] = origin[row];
    const BatchClip& clip = batch[f].clips[c];
    auto& asset = assets[f];
    std::string why;
    if (!asset) {
      auto imported = options.importer ? options.importer(batch[f].path, ImportOptions{}) : importAsset(batch[f].path);
      if (imported) asset = std::make_shared<const ImportedAsset>(std::move(imported.value()));
      else why = imported.message();
    }
    if (asset && !clip.compressed) why = "no compression result";
    if (why.empty()) {
      auto compressed = std::make_shared<const CompressedClip>(*clip.compressed);
      auto overlay = poseOverlay(asset, compressed, std::uint32_t(std::max(0, clip.report.worstFrame)),
                                 compressed->stats.worstJoint);
      if (!overlay) {
        why = overlay.message();
      } else {
        auto image = options.renderer ? options.renderer(*overlay) : Expected<Image>(drawPoseOverlay(*overlay));
        if (image) packet.pictures.push_back({row, encodePng(*image), image->width, image->height});
        else why = image.message();
      }
    }
    if (!why.empty()) missing.push_back(clip.report.clip + " (" + why + ")");
  }
  if (!missing.empty()) {
    packet.picturesNote = "Pictures left out for:";
    for (std::size_t i = 0; i < missing.size(); ++i) packet.picturesNote += (i ? "; " : " ") + missing[i];
    packet.picturesNote += ".";
  }
}

}  // namespace

Expected<ReviewProject> readReviewProject(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(path, "cannot open the project file");
  std::stringstream text;
  text << in.rdbuf();
  const json root = json::parse(text.str(), nullptr, false);
  if (root.is_discarded() || !root.is_object()) return fail(path, "not a project file (not a JSON object)");
  if (!root.contains("animpack_project") || !root["animpack_project"].is_number_integer())
    return fail(path, "not an animpack project (no 'animpack_project' version)");
  ReviewProject project;
  project.title = path.stem().string();
  const std::filesystem::path dir = std::filesystem::absolute(path).parent_path();
  std::vector<std::string> sources;
  if (root.contains("source") && root["source"].is_string()) sources.push_back(root["source"].get<std::string>());
  if (root.contains("sources") && root["sources"].is_array())
    for (const json& s : root["sources"]) {
      if (s.is_string()) sources.push_back(s.get<std::string>());
      else if (s.is_object() && s.contains("path") && s["path"].is_string()) sources.push_back(s["path"].get<std::string>());
    }
  if (sources.empty()) return fail(path, "the project names no source file");
  for (const std::string& s : sources) {
    const std::filesystem::path p(s);
    project.sources.push_back(p.is_absolute() ? p : (dir / p).lexically_normal());
  }
  if (root.contains("settings")) {
    auto settings = CompressionSettings::fromJson(root["settings"].dump(), path.string() + " settings");
    if (!settings) return Error{settings.message()};
    project.settings = std::move(settings.value());
  }
  if (root.contains("budget_kib")) {
    if (!root["budget_kib"].is_number() || root["budget_kib"].get<double>() <= 0)
      return fail(path, "'budget_kib' must be a positive number of KiB");
    project.budgetKib = root["budget_kib"].get<double>();
  }
  if (root.contains("clips") && root["clips"].is_array())
    for (const json& clip : root["clips"]) {
      if (!clip.is_object() || !clip.contains("name") || !clip["name"].is_string()) return fail(path, "a clip entry has no name");
      const std::string name = clip["name"].get<std::string>();
      auto approval = readApproval(clip, path, name);
      if (!approval) return Error{approval.message()};
      project.approvals[name] = *approval;
    }
  return project;
}

Expected<ReviewPacket> buildReviewPacket(const ReviewProject& project, const ReviewOptions& options,
                                         const BatchProgress& progress, const std::atomic<bool>* cancel) {
  if (auto st = project.settings.validate(); !st) return Error{st.message()};
  BatchOptions batchOptions;
  batchOptions.settings = project.settings;
  batchOptions.jobs = options.jobs;
  batchOptions.importer = options.importer;
  std::vector<BatchFile> batch = runBatch(project.sources, batchOptions, progress, cancel);
  if (cancel && cancel->load()) return Error{"cancelled"};

  ReviewPacket packet;
  packet.title = project.title;
  packet.generatedAt = nowUtc();
  packet.toolVersion = options.toolVersion;
  packet.budgetKib = project.budgetKib;
  std::vector<std::pair<std::size_t, std::size_t>> origin;  // row -> (file, clip)
  std::vector<PackClipRecord> records;
  std::vector<std::size_t> recordRows;
  const PackSkeletonRecord* skeleton = nullptr;
  for (std::size_t f = 0; f < batch.size(); ++f) {
    const BatchFile& file = batch[f];
    if (!file.error.empty() || file.clips.empty()) {
      ReviewClip failed;
      failed.report.file = file.path.string();
      failed.report.error = file.error.empty() ? "no clip to compress" : file.error;
      packet.clips.push_back(failed);
      origin.emplace_back(f, 0);
      continue;
    }
    // A file whose skeleton differs cannot share the pack: its clips are reported, not packed.
    std::string skeletonError;
    if (!skeleton) skeleton = &*file.skeleton;
    else if (auto st = sameSkeleton(*skeleton, *file.skeleton); !st) skeletonError = "left out of the pack: " + st.message();
    for (std::size_t c = 0; c < file.clips.size(); ++c) {
      const BatchClip& clip = file.clips[c];
      ReviewClip row;
      row.report = clip.report;
      row.report.file = file.path.filename().string();
      row.report.clip = clip.name;
      row.settingsHash = clip.meta.settingsHash;
      row.sourceHash = clip.meta.sourceHash;
      if (!clip.error.empty() || !skeletonError.empty()) {
        row.report.error = clip.error.empty() ? skeletonError : clip.error;
      } else {
        const auto it = project.approvals.find(clip.name);
        row.approval = shownApproval(it == project.approvals.end() ? nullptr : &it->second, clip);
        records.push_back(clip.record());
        recordRows.push_back(packet.clips.size());
      }
      packet.clips.push_back(row);
      origin.emplace_back(f, c);
    }
  }
  if (records.empty()) {
    for (const ReviewClip& c : packet.clips)
      if (!c.report.error.empty()) return Error{"nothing was compressed: " + c.report.error};
    return Error{"nothing was compressed"};
  }
  const std::vector<std::uint8_t> bytes = buildPack(*skeleton, records);
  auto opened = runtime::Pack::open(bytes);
  if (!opened) return Error{"internal error: the pack just built does not open: " + opened.message()};
  packet.packBytes = bytes.size();
  for (std::size_t i = 0; i < recordRows.size(); ++i) packet.clips[recordRows[i]].report.compressedBytes = opened->clips()[i].ownBytes;
  drawPictures(packet, batch, origin, options);
  return packet;
}

Status writeReviewPacket(const ReviewPacket& packet, const std::filesystem::path& path) {
  const std::string html = reviewPacketHtml(packet);
  return writeFileAtomic(path, std::span(reinterpret_cast<const std::uint8_t*>(html.data()), html.size()));
}

}  // namespace animpack::core
