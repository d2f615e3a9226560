#include "core/io/legacy.h"
#include "core/review/review_build.h"

#include <map>

#include "core/compress/joint_order.h"
#include "core/io/pack_writer.h"
#include "core/project/project_build.h"
#include "core/runtime/pack.h"

namespace animpack::core {
namespace {

/// The clip's approval as the packet shows it: outdated when the settings or source moved on.
ReviewApproval shownApproval(const ClipApprovalRecord* stored, const BatchClip& clip) {
  ReviewApproval a;
  if (!stored) return a;
  a.state = approvalStateName(stored->state);
  a.by = stored->who;
  a.at = stored->when;
  a.maxErrorCm = stored->maxErrorCm;
  if (stored->state != ApprovalState::NeedsReview) {
    // A rejection holds on the same terms as an approval: ask as if it were one.
    ClipApprovalRecord asApproved = *stored;
    asApproved.state = ApprovalState::Approved;
    a.outdated = approvalMismatch(asApproved, clip.meta.settingsHash, clip.meta.sourceHash, clip.report.maxErrorCm);
  }
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
  packet.picturesLegend = options.legend;
  std::vector<std::string> missing;
  for (const std::size_t row : worstClips(packet.clips, options.pictureCount)) {
    const auto [f, c] = origin[row];
    const BatchClip& clip = batch[f].clips[c];
    std::shared_ptr<const ImportedAsset> asset;
    std::string why;
    if (!clip.compressed) {
      why = "no compression result";
    } else {
      // The file as this clip was compressed from (its unit and sample rate).
      ImportOptions import;
      import.unitToCm = clip.compressed->settings.unitToCm;
      import.sampleRate = clip.compressed->settings.sampleRate;
      auto imported = options.importer ? options.importer(batch[f].path, import) : importAsset(batch[f].path, import);
      if (imported && batch[f].skeleton) matchJointOrder(*imported, batch[f].skeleton->names);  // settings lod
      if (imported) asset = std::make_shared<const ImportedAsset>(std::move(imported.value()));
      else why = imported.message();
    }
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

Expected<ReviewPacket> buildReviewPacket(const Project& project, const std::filesystem::path& projectPath,
                                         const ReviewOptions& options, const BatchProgress& progress,
                                         const std::atomic<bool>* cancel) {
  if (auto st = project.settings.validate(); !st) return Error{st.message()};
  BatchOptions batchOptions = projectExportOptions(project, projectPath).batch;
  batchOptions.jobs = options.jobs;
  batchOptions.importer = options.importer;
  auto ran = runBatch(projectFiles(project), batchOptions, progress, cancel);
  if (!ran) return Error{ran.message()};
  if (cancel && cancel->load()) return Error{"cancelled"};
  const std::vector<BatchFile>& batch = *ran;

  ReviewPacket packet;
  packet.title = projectPath.stem().string();
  packet.generatedAt = utcTimestamp();
  packet.toolVersion = options.toolVersion;
  packet.budgetKib = project.budgetKib;
  packet.budgetKind = project.budgetKind;
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
    else if (auto st = sameSkeleton(*skeleton, *file.skeleton); !st)
      skeletonError = "left out of the pack: " + st.message();
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
        row.approval = shownApproval(project.approval(clip.name, clip.sourceClip), clip);
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
  auto opened = runtime::Pack::open(bytes, runtime::anyVersion());
  if (!opened) return Error{"internal error: the pack just built does not open: " + opened.message()};
  packet.packBytes = bytes.size();
  packet.residentBytes = bytes.size() + opened->derivedBytes();
  for (std::size_t i = 0; i < recordRows.size(); ++i) {
    ClipReport& report = packet.clips[recordRows[i]].report;
    report.compressedBytes = opened->clips()[i].ownBytes();
    report.residentBytes = report.compressedBytes + runtime::Pack::clipDerivedBytes();
  }
  drawPictures(packet, batch, origin, options);
  return packet;
}

Status writeReviewPacket(const ReviewPacket& packet, const std::filesystem::path& path) {
  const std::string html = reviewPacketHtml(packet);
  return writeFileAtomic(path, std::span(reinterpret_cast<const std::uint8_t*>(html.data()), html.size()));
}

}  // namespace animpack::core
