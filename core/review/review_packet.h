#pragma once
// The review packet (docs/LEADS.md "For leads"): one self-contained HTML file a lead reads in any browser
// with no network — pack totals against the budget, a row per clip, a size-against-error chart
// (inline SVG) and pictures of the worst frames (PNG in data: URIs).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/batch/budget.h"
#include "core/compress/report.h"
#include "core/review/pose_picture.h"

namespace animpack::core {

/// A lead's decision on a clip as the packet shows it.
struct ReviewApproval {
  std::string state = "needs_review";  ///< approved | rejected | needs_review
  std::string outdated;             ///< why a decision given no longer holds (settings, source, error); empty: it holds
  std::string by;                   ///< the OS user who gave it ("" when not recorded)
  std::string at;                   ///< when, ISO 8601 UTC ("" when not recorded)
  std::optional<float> maxErrorCm;  ///< the max error measured when it was given
};

struct ReviewClip {
  ClipReport report;  ///< file, clip, frames, sizes, errors, worst joint and frame
  ReviewApproval approval;
  std::uint64_t settingsHash = 0;  ///< the effective settings it was compressed with (an approval's key)
  std::uint64_t sourceHash = 0;    ///< the source file's bytes
};

/// The overlay of a clip's worst frame, PNG-encoded.
struct ReviewPicture {
  std::size_t clip = 0;  ///< index into ReviewPacket::clips
  std::vector<std::uint8_t> png;
  int width = 0, height = 0;
};

struct ReviewPacket {
  std::string title;        ///< the project's name
  std::string generatedAt;  ///< ISO 8601 UTC
  std::string toolVersion;
  std::optional<double> budgetKib;
  BudgetKind budgetKind = BudgetKind::Resident;  ///< what the budget counts
  std::uint64_t packBytes = 0;                   ///< the pack's file size
  std::uint64_t residentBytes = 0;               ///< the pack's file and what opening it derives
  std::vector<ReviewClip> clips;                 ///< pack order; failed clips carry report.error
  std::vector<ReviewPicture> pictures;
  std::string picturesRenderer;  ///< what drew the pictures ("software raster", "studio's 3D viewport (Qt 3D)")
  PictureLegend picturesLegend;  ///< how to read them
  std::string picturesNote;      ///< why pictures are missing; empty when every one was drawn
};

/// Totals of the clips that compressed.
struct ReviewTotals {
  std::size_t clips = 0, failed = 0, approved = 0, rejected = 0, needsReview = 0, overPrecision = 0;
  std::uint64_t rawBytes = 0, compressedBytes = 0;
  float maxErrorCm = 0;
  /// Morph curves: clips that carry them, their bytes (part of compressedBytes) and the largest
  /// morph error (cm; -1 when no clip carries curves).
  std::size_t morphClips = 0;
  std::uint64_t curveBytes = 0;
  float maxMorphErrorCm = -1;
  double ratio() const { return compressedBytes ? double(rawBytes) / double(compressedBytes) : 0.0; }
};
ReviewTotals reviewTotals(const std::vector<ReviewClip>& clips);

/// Indices of up to `count` clips with the largest max error, largest first (failed clips left out).
std::vector<std::size_t> worstClips(const std::vector<ReviewClip>& clips, std::size_t count);

/// The packet as one HTML document (no external URL, no script).
std::string reviewPacketHtml(const ReviewPacket& packet);

/// `bytes` in base64 (RFC 4648, padded).
std::string base64(const std::vector<std::uint8_t>& bytes);

}  // namespace animpack::core
