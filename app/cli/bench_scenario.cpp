// `animpack bench --scenario PACK...`: a game-sized run. Every pack is opened and kept resident; N
// characters (64) each play a blend of two clips of one pack (two cursors: its clip and the next
// clip of the pack, weight 0.5) at 60 Hz for S seconds (10). Prints the resident memory (the packs'
// files, what opening them derives, every player's state) and ns per character-frame: the two
// clips sampled and blended naively (the work a peer without a blend of its own leaves to the game,
// so scripts/bench-scenario compares like with like), the same with the decomposed blend, and the
// naive blend of two poses alone.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/cli/alloc_count.h"
#include "app/cli/args.h"
#include "app/cli/bench_scenario.h"
#include "core/io/legacy.h"
#include "core/runtime/pack.h"
#include "core/runtime/player.h"

namespace animpack::cli {
namespace {

struct Character {
  const runtime::Pack* pack = nullptr;
  std::size_t clip = 0;
  float phase = 0;  // seconds: characters start at different times
};

}  // namespace

int benchScenario(const std::vector<std::string>& paths, unsigned characters, double seconds, bool json) {
  std::vector<runtime::Pack> packs;
  std::uint64_t fileBytes = 0, derivedBytes = 0;
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return failure("cannot open '" + path + "': no such file or not readable");
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    fileBytes += bytes.size();
    AllocationCount::start();
    auto pack = runtime::Pack::open(std::move(bytes), runtime::anyVersion());
    derivedBytes += std::uint64_t(AllocationCount::stop()) + sizeof(runtime::Pack);
    if (!pack) return failure("'" + path + "': " + pack.message());
    if (pack->clips().empty()) continue;
    packs.push_back(std::move(pack.value()));
  }
  if (packs.empty()) return failure("no pack with a clip to play");
  std::size_t clips = 0;
  for (const runtime::Pack& p : packs) clips += p.clips().size();

  // Characters take the packs' clips in turn.
  std::vector<Character> cast(characters);
  std::vector<runtime::Player> players(characters);
  std::vector<std::vector<runtime::Transform>> poses(characters);
  for (unsigned c = 0, p = 0, k = 0; c < characters; ++c) {
    cast[c] = {&packs[p], k, 0.37f * float(c)};
    poses[c].resize(packs[p].skeleton().jointCount());
    if (++k == packs[p].clips().size()) {
      k = 0;
      p = (p + 1) % unsigned(packs.size());
    }
  }
  const int frames = int(seconds * 60.0);
  auto tick = [&](int frame, runtime::BlendMode mode) {
    for (unsigned c = 0; c < characters; ++c) {
      const Character& ch = cast[c];
      const auto all = ch.pack->clips();
      const runtime::ClipView& a = all[ch.clip].view;
      const runtime::ClipView& b = all[(ch.clip + 1) % all.size()].view;
      const float t = ch.phase + float(frame) / 60.f;
      players[c].blend(a, t, b, t * 0.9f, 0.5f, mode, poses[c]);
    }
  };
  // ns per character-frame of `frames` ticks of one kind of work.
  auto timed = [&](auto&& work) {
    const auto start = std::chrono::steady_clock::now();
    for (int f = 0; f < frames; ++f) work(f);
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() /
           (double(characters) * frames);
  };
  tick(0, runtime::BlendMode::Naive);  // first calls: each player takes its state
  AllocationCount::start();
  // The main figure: both clips sampled and blended naively (lerp, nlerp), the work a codec without
  // a blend of its own leaves to the game; then the decomposed blend (bone lengths kept) on its own line.
  const double perCharacterFrame = timed([&](int f) { tick(f, runtime::BlendMode::Naive); });
  const double decomposed = timed([&](int f) { tick(f, runtime::BlendMode::Decomposed); });
  const std::int64_t allocated = AllocationCount::stop();
  // The naive blend of two poses alone (what a peer's figure adds to its two samples).
  std::vector<std::vector<runtime::Transform>> seconds2(characters);
  for (unsigned c = 0; c < characters; ++c) {
    const auto all = cast[c].pack->clips();
    seconds2[c].resize(poses[c].size());
    runtime::Player player;
    player.sample(all[(cast[c].clip + 1) % all.size()].view, cast[c].phase, seconds2[c]);
  }
  std::vector<runtime::Transform> blended;
  const double blendOnly = timed([&](int) {
    for (unsigned c = 0; c < characters; ++c) {
      blended.resize(poses[c].size());
      runtime::blendPoses(poses[c], seconds2[c], 0.5f, runtime::BlendMode::Naive, cast[c].pack->skeleton().restPose(),
                          blended);
    }
  });
  std::uint64_t playerBytes = 0;
  for (const runtime::Player& p : players) playerBytes += p.stateBytes();
  const std::uint64_t resident = fileBytes + derivedBytes + playerBytes;
  if (json) {
    nlohmann::ordered_json j;
    j["packs"] = packs.size();
    j["clips"] = clips;
    j["characters"] = characters;
    j["seconds"] = seconds;
    j["pack_bytes"] = fileBytes;
    j["derived_bytes"] = derivedBytes;
    j["player_bytes"] = playerBytes;
    j["resident_bytes"] = resident;
    j["ns_per_character_frame"] = perCharacterFrame;
    j["decomposed_ns_per_character_frame"] = decomposed;
    j["naive_blend_ns_per_character_frame"] = blendOnly;
    j["allocated_while_playing"] = allocated;
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("%zu packs, %zu clips resident; %u characters, each a blend of two clips at 60 Hz for %.0f s\n",
              packs.size(), clips, characters, seconds);
  std::printf("resident: %.3f MB = packs %.3f MB + derived at open %.3f MB + players %.3f MB\n", double(resident) / 1e6,
              double(fileBytes) / 1e6, double(derivedBytes) / 1e6, double(playerBytes) / 1e6);
  std::printf(
      "time: %.0f ns per character-frame, two clips sampled and blended naively (%.2f ms per frame for all "
      "characters)\n",
      perCharacterFrame, perCharacterFrame * characters / 1e6);
  std::printf(
      "      %.0f ns per character-frame with the decomposed blend; the naive blend of two poses alone %.0f ns\n",
      decomposed, blendOnly);
  std::printf("%lld bytes allocated while playing\n", static_cast<long long>(allocated));
  return kExitOk;
}

}  // namespace animpack::cli
