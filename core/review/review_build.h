#pragma once
// Building the review packet of a project: every clip compressed as the project says, the pack
// built in memory for its sizes, each approval checked against what it was given for, and the
// worst frames drawn.

#include <atomic>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/batch/batch.h"
#include "core/project/project.h"
#include "core/review/pose_picture.h"
#include "core/review/review_packet.h"

namespace animpack::core {

struct ReviewOptions {
  ImportFunction importer;   ///< empty: importAsset() in this process
  unsigned jobs = 0;         ///< worker threads; 0: one per core
  PictureRenderer renderer;  ///< empty: the software raster (drawPoseOverlay)
  std::string rendererName = "software raster";
  PictureLegend legend;  ///< how the renderer's pictures read (the software raster's by default)
  bool pictures = true;  ///< false: leave the pictures out (the packet says so)
  std::size_t pictureCount = 5;
  std::string toolVersion = "unknown";
};

/// Compresses the project saved at `projectPath` exactly as `animpack build` does and assembles its
/// packet. Failed files and clips (a source whose skeleton differs included) become rows with their
/// error; an error is returned only when no clip compressed.
Expected<ReviewPacket> buildReviewPacket(const Project& project, const std::filesystem::path& projectPath,
                                         const ReviewOptions& options, const BatchProgress& progress = {},
                                         const std::atomic<bool>* cancel = nullptr);

/// Writes reviewPacketHtml(packet) to `path` atomically.
Status writeReviewPacket(const ReviewPacket& packet, const std::filesystem::path& path);

}  // namespace animpack::core
