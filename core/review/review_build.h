#pragma once
// Building the review packet of a project: every clip compressed as the project says, the pack
// built in memory for its sizes, each approval checked against what it was given for, and the
// worst frames drawn.

#include <atomic>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/batch/batch.h"
#include "core/review/pose_picture.h"
#include "core/review/review_packet.h"

namespace animpack::core {

/// A clip's approval as a project stores it.
struct StoredApproval {
  std::string state = "needs_review";
  std::uint64_t settingsHash = 0, sourceHash = 0;
  std::string by, at;
  std::optional<float> maxErrorCm;
};

/// What a review packet is made of: the sources, their settings, the approvals, the budget.
struct ReviewProject {
  std::string title;
  std::vector<std::filesystem::path> sources;  ///< absolute
  CompressionSettings settings;
  std::map<std::string, StoredApproval> approvals;  ///< by clip name
  std::optional<double> budgetKib;
};

/// Reads a studio project (.anproj, README "Projects"); errors name the file and the problem.
Expected<ReviewProject> readReviewProject(const std::filesystem::path& path);

struct ReviewOptions {
  ImportFunction importer;  ///< empty: importAsset() in this process
  unsigned jobs = 0;        ///< worker threads; 0: one per core
  PictureRenderer renderer; ///< empty: the software raster (drawPoseOverlay)
  std::string rendererName = "software raster";
  bool pictures = true;     ///< false: leave the pictures out (the packet says so)
  std::size_t pictureCount = 5;
  std::string toolVersion = "unknown";
};

/// Compresses the project and assembles its packet. Failed files and clips become rows with
/// their error; an error is returned only when no clip compressed.
Expected<ReviewPacket> buildReviewPacket(const ReviewProject& project, const ReviewOptions& options,
                                         const BatchProgress& progress = {}, const std::atomic<bool>* cancel = nullptr);

/// Writes reviewPacketHtml(packet) to `path` atomically.
Status writeReviewPacket(const ReviewPacket& packet, const std::filesystem::path& path);

}  // namespace animpack::core
