// Compression benchmark over a corpus of real files (docs/PERFORMANCE.md): per file the joints, clips, frames,
// raw and compressed bytes, ratio, max error, compression time per clip and throughput; with
// --peers (../shared/peer-figures.md) also the peers' bytes side by side. Then the time of an
// interactive recompress after one joint's threshold changed.
//   bench_corpus [--peers FILE] [--jobs N] FILES|DIRS...
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "core/io/legacy.h"
#include "core/batch/batch.h"
#include "core/compress/compress_setup.h"
#include "core/io/pack_writer.h"
#include "core/runtime/pack.h"

using namespace animpack;

namespace {

struct Peer {
  std::uint64_t acl = 0, ozz = 0;
  std::string aclError;
  int frames = 0;
  std::size_t joints = 0;
};

/// Rows of the peer table keyed by the file's last two path components.
std::map<std::string, Peer> readPeers(const std::string& path) {
  std::map<std::string, Peer> peers;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| ", 0) != 0 || line.find("---") != std::string::npos) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) {
      const auto b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    if (cells.size() < 12 || cells[0] == "file") continue;
    std::string name = cells[0];
    for (const char* prefix : {"assimp-testmodels: ", "shared/data/open/"})
      if (name.rfind(prefix, 0) == 0) name = name.substr(std::string(prefix).size());
    try {
      Peer p;
      p.joints = std::stoul(cells[2]);
      p.frames = std::stoi(cells[4]);
      p.acl = std::stoull(cells[6]);
      p.aclError = cells[8];
      p.ozz = std::stoull(cells[9]);
      peers[std::filesystem::path(name).parent_path().filename().string() + "/" +
            std::filesystem::path(name).filename().string()] = p;
    } catch (...) {
    }
  }
  return peers;
}

std::string key(const std::filesystem::path& p) {
  return p.parent_path().filename().string() + "/" + p.filename().string();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> inputs;
  std::string peersPath;
  unsigned jobs = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--peers" && i + 1 < argc) peersPath = argv[++i];
    else if (a == "--jobs" && i + 1 < argc) jobs = static_cast<unsigned>(std::stoi(argv[++i]));
    else inputs.push_back(a);
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: bench_corpus [--peers peer-figures.md] [--jobs N] FILES|DIRS...\n");
    return 2;
  }
  auto files = core::expandInputs(inputs, true);
  if (!files) return std::fprintf(stderr, "%s\n", files.message().c_str()), 1;
  const auto peers = peersPath.empty() ? std::map<std::string, Peer>{} : readPeers(peersPath);

  core::BatchOptions options;
  options.jobs = jobs;
  const auto started = std::chrono::steady_clock::now();
  options.namesPerFile = true;  // unrelated files, one table row each
  const auto batch = core::runBatch(*files, options);
  if (!batch) {
    std::fprintf(stderr, "bench_corpus: %s\n", batch.message().c_str());
    return 1;
  }
  const auto& results = *batch;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  std::printf(
      "| file | joints | clips | frames | raw bytes | animpack bytes | ratio | max err cm | ms/clip | MB/s |%s\n",
      peers.empty() ? "" : " ACL bytes | ACL max err cm | animpack/ACL bytes |");
  std::printf("|---|---|---|---|---|---|---|---|---|---|%s\n", peers.empty() ? "" : "---|---|---|");
  std::uint64_t totalRaw = 0, totalPacked = 0, totalClips = 0, peerOurs = 0, peerAcl = 0;
  double totalMs = 0;
  float worst = 0;
  int beaten = 0, compared = 0;
  for (const core::BatchFile& f : results) {
    if (!f.skeleton || f.clips.empty()) continue;
    std::vector<core::PackClipRecord> records;
    std::uint64_t raw = 0, frames = 0;
    double ms = 0;
    float maxError = 0;
    bool within = true;
    for (const core::BatchClip& c : f.clips) {
      if (!c.error.empty()) continue;
      records.push_back(c.record());
      raw += c.report.rawBytes;
      frames += c.report.frames;
      ms += c.report.compressMs;
      maxError = std::max(maxError, c.report.maxErrorCm);
      within = within && c.report.withinPrecision;
    }
    if (records.empty()) continue;
    const auto bytes = core::buildPack(*f.skeleton, records);
    auto pack = runtime::Pack::open(bytes, runtime::anyVersion());
    std::uint64_t packed = 0;
    for (const auto& c : pack->clips()) packed += c.ownBytes();
    totalRaw += raw;
    totalPacked += packed;
    totalClips += records.size();
    totalMs += ms;
    worst = std::max(worst, maxError);
    std::printf("| %s | %zu | %zu | %llu | %llu | %llu | %.2f | %.4f%s | %.1f | %.1f |", key(f.path).c_str(),
                f.skeleton->names.size(), records.size(), static_cast<unsigned long long>(frames),
                static_cast<unsigned long long>(raw), static_cast<unsigned long long>(packed),
                double(raw) / double(packed), maxError, within ? "" : " (over)", ms / double(records.size()),
                double(raw) / 1e6 / (ms / 1000.0));
    const auto p = peers.find(key(f.path));
    if (p != peers.end()) {
      // Bytes compare only over the same frames; a different joint set changes the work too.
      const bool sameFrames = std::uint64_t(p->second.frames) == frames;
      const std::size_t joints = f.skeleton->names.size();
      const bool sameJoints = p->second.joints == joints;
      const std::size_t jointGap = std::max(p->second.joints, joints) - std::min(p->second.joints, joints);
      std::printf(" %llu | %s | %.2f%s |", static_cast<unsigned long long>(p->second.acl), p->second.aclError.c_str(),
                  double(packed) / double(p->second.acl),
                  !sameFrames   ? " (frames differ)"
                  : !sameJoints ? (" (" + std::to_string(p->second.joints) + " joints)").c_str()
                                : "");
      const bool comparable = sameFrames && jointGap * 4 <= p->second.joints;  // joint sets within 25 %
      if (comparable) {
        ++compared;
        beaten += packed < p->second.acl;
        peerOurs += packed;
        peerAcl += p->second.acl;
      }
    } else if (!peers.empty()) {
      std::printf(" | | |");
    }
    std::printf("\n");
  }
  std::printf(
      "\n%llu clips: %llu -> %llu bytes (%.2f:1), max error %.4f cm; %.1f ms per clip, %.2f s wall with %u job(s)\n",
      static_cast<unsigned long long>(totalClips), static_cast<unsigned long long>(totalRaw),
      static_cast<unsigned long long>(totalPacked), double(totalRaw) / double(std::max<std::uint64_t>(totalPacked, 1)),
      worst, totalMs / double(std::max<std::uint64_t>(totalClips, 1)), wall, jobs);
  if (compared)
    std::printf(
        "files with the peers' frames and joint set (within 25%%): animpack smaller on %d of %d; %llu vs ACL %llu "
        "bytes (%.1f%%)\n",
        beaten, compared, static_cast<unsigned long long>(peerOurs), static_cast<unsigned long long>(peerAcl),
        100.0 * double(peerOurs) / double(peerAcl));

  // Interactive recompress: one joint's precision changes on a 30-60 joint clip of several hundred
  // frames; the context keeps every other sub-track's encoding.
  for (const core::BatchFile& f : results) {
    if (!f.skeleton || f.skeleton->names.size() < 30 || f.skeleton->names.size() > 60) continue;
    auto asset = core::importAsset(f.path);
    if (!asset) continue;
    for (const core::RawClip& clip : asset->clips) {
      if (clip.frameCount < 200 || clip.frameCount > 900) continue;
      core::CompressorContext context;
      core::CompressionSettings s;
      auto first = core::makeCompressJob(*asset, clip, core::resolve(s, asset->skeleton, clip.name)).run(&context);
      const std::string joint = asset->skeleton.names[asset->skeleton.jointCount() / 2];
      s.joints.emplace_back(joint, core::JointOverride{0.005f, {}, {}});
      const auto t0 = std::chrono::steady_clock::now();
      auto again = core::makeCompressJob(*asset, clip, core::resolve(s, asset->skeleton, clip.name)).run(&context);
      const double incremental =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      std::printf(
          "recompress of %s '%s' (%zu joints, %u frames) after '%s' changed to 0.005 cm: %.1f ms (full compress %.1f "
          "ms)\n",
          f.path.filename().c_str(), clip.name.c_str(), asset->skeleton.jointCount(), clip.frameCount, joint.c_str(),
          incremental, first ? first->stats.compressMs : 0.0);
      return 0;
    }
  }
  return 0;
}
