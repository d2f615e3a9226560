// Writes tests/data/golden_vN.anpk and golden_vN.hash for the current format version N: run once
// when a format version is frozen (`build/tests/make_golden tests/data`); the files are committed
// and tst_pack checks that every later reader still decodes them bit-exactly, at frames and
// between them. Version 2's pack holds a clip compressed beyond what quantized tracks reach, so it
// carries raw tracks; version 5's a third clip whose animated tracks are all keyed; version 6's rig
// (test::morphRig) has four morph targets, so the pack carries curves; version 7's a fourth clip
// whose animated tracks are timed; version 8's second clip is measured at scene scale 10; version
// 9's fourth clip has segmented curves; version 10's fourth clip keeps packed timed keys.
//
// `make_golden --runtime-paths DIR` writes DIR/runtime_paths.anpk instead: the generated walker
// (test::walkerRig, turning 45 degrees) as a looping clip with its root motion extracted and as an
// additive clip on the rest pose, the paths the golden packs do not take. The runtime's tests hash
// their additive layers and root motion on every target (core/runtime/tests/pose_hashes.txt).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <list>

#include "core/io/legacy.h"
#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/io/pack_writer.h"
#include "core/io/curve_builder.h"
#include "core/runtime/curves.h"
#include "core/runtime/hash.h"
#include "core/runtime/pack.h"
#include "core/runtime/pack_format.h"
#include "core/runtime/player.h"
#include "tests/support/test_rigs.h"

using namespace animpack;

namespace {

int writeRuntimePaths(const std::filesystem::path& dir) {
  const auto source = test::writeScene(test::walkerRig(45.f, 31, 30.f), "runtime_paths.gltf");
  auto asset = core::importAsset(source);
  if (!asset) return std::fprintf(stderr, "%s\n", asset.message().c_str()), 1;
  std::vector<core::CompressedClip> clips;
  for (const char* kind : {"root_motion", "additive"}) {
    core::CompressionSettings settings;
    core::AdditiveRef additive;
    if (kind == std::string("root_motion")) {
      settings.loop = core::LoopPolicy::On;
      settings.rootMotion = core::RootMotionMode::Extract;
    } else {
      additive.kind = core::AdditiveRef::Kind::Rest;
    }
    const core::RawClip& raw = asset->clips.front();
    auto c = core::makeCompressJob(*asset, raw, core::resolve(settings, asset->skeleton, raw.name),
                                   core::additiveSetup(additive, *asset, std::span<const std::uint8_t>()))
                 .run();
    if (!c) return std::fprintf(stderr, "%s\n", c.message().c_str()), 1;
    clips.push_back(std::move(c.value()));
  }
  std::vector<core::PackClipRecord> records;
  for (const auto& c : clips) records.push_back(core::clipRecord(c, "runtime_paths.gltf", 0));
  records[0].name = "WalkTurn";
  records[1].name = "WalkAdditive";
  const auto bytes = core::buildPack(core::skeletonRecord(asset->skeleton, asset->unitToCm, asset->curves), records);
  if (auto st = core::writeFileAtomic(dir / "runtime_paths.anpk", bytes); !st)
    return std::fprintf(stderr, "%s\n", st.message().c_str()), 1;
  auto pack = runtime::Pack::open(bytes);
  if (!pack) return std::fprintf(stderr, "%s\n", pack.message().c_str()), 1;
  std::printf("wrote runtime_paths.anpk, %zu bytes: root motion %s, additive %s\n", bytes.size(),
              pack->clips()[0].view.rootMotion() ? "yes" : "no", pack->clips()[1].view.additive() ? "yes" : "no");
  return 0;
}

/// Version 9: a curve section whose first two curves are segmented (a noisy wave, a line), the
/// third uniform and the fourth default, in segments of 8 frames (the last one ending past the clip).
std::vector<std::uint8_t> segmentedSection(std::uint32_t frames) {
  static std::vector<std::uint32_t> q[3];
  std::vector<runtime::BlockCurve> curves(4);
  for (int c = 0; c < 3; ++c) {
    q[c].clear();
    for (std::uint32_t f = 0; f < frames; ++f)
      q[c].push_back(c == 0   ? 500 + std::uint32_t(400 * (1 + std::sin(0.3 * f))) + (f * 37) % 11
                     : c == 1 ? 3 * f + 1
                              : (f * 13) % 64);
    curves[std::size_t(c)].kind = c == 2 ? runtime::TrackKind::Uniform : runtime::TrackKind::Segmented;
    curves[std::size_t(c)].width = c == 0 ? 11 : c == 1 ? 9 : 6;
    curves[std::size_t(c)].minValue = -0.1f * float(c);
    curves[std::size_t(c)].step = 1.f / 1024.f;
    curves[std::size_t(c)].values = q[c];
  }
  return runtime::buildCurveSection(frames, curves, 3);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--runtime-paths") return writeRuntimePaths(argv[2]);
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_golden OUTPUT_DIR | --runtime-paths OUTPUT_DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const auto source = test::writeScene(
      runtime::kPackVersion >= 6 ? test::morphRig() : test::armatureRig(100.f, 25, 25.f), "golden.gltf");
  auto asset = core::importAsset(source);
  if (!asset) return std::fprintf(stderr, "%s\n", asset.message().c_str()), 1;
  std::vector<core::CompressedClip> clips;
  std::vector<core::PackClipRecord> records;
  for (const core::RawClip& raw : asset->clips) {
    core::CompressionSettings settings;
    if (raw.clipIndex == 1) settings.precisionCm = 1e-8f;
    if (raw.clipIndex == 1 && runtime::kPackVersion >= 8) settings.sceneScale = 10.0;  // version 8
    if (raw.clipIndex == 0) settings.loop = core::LoopPolicy::On;                      // version 3: a clip that wraps
    auto c = core::makeCompressJob(*asset, raw, core::resolve(settings, asset->skeleton, raw.name)).run();
    if (!c) return std::fprintf(stderr, "%s\n", c.message().c_str()), 1;
    clips.push_back(std::move(c.value()));
  }
  for (const auto& c : clips) records.push_back(core::clipRecord(c, "golden.gltf", 0));
  // Every clip of a pack with curves has a curve section: the first clip's (the same frames).
  std::vector<std::uint8_t> curveSection;
  std::list<std::vector<std::uint8_t>> blocks;
  if (!asset->curves.empty()) {
    const auto view = runtime::ClipView::open(clips.front().data, asset->skeleton.restLocal,
                                              std::vector<float>(asset->curves.size()));
    if (!view) return std::fprintf(stderr, "%s\n", view.message().c_str()), 1;
    const auto block = view->bytes();
    curveSection.assign(block.end() - std::ptrdiff_t(view->curveBytes()), block.end());
  }
  // Version 5 stores keys track by track: a third clip, the first one with every animated track
  // keyed, so the golden file holds keys too; version 7 a fourth whose animated tracks are timed,
  // keys 1.25 and 1.75 frames apart in turn (1.5 frames before version 10).
  for (const auto& [kind, name] :
       {std::pair{core::TrackKind::Keyed, "WalkKeyed"}, {core::TrackKind::Timed, "WalkTimed"}}) {
    if (kind == core::TrackKind::Timed && runtime::kPackVersion < 7) continue;
    std::vector<std::uint8_t>& block = blocks.emplace_back(test::clipOfOneKind(*asset, kind, 30));
    if (kind == core::TrackKind::Timed && runtime::kPackVersion >= 9 && asset->curves.size() == 4)
      runtime::appendCurveSection(block, segmentedSection(runtime::loadLE<std::uint32_t>(block.data())));
    else if (!curveSection.empty()) runtime::appendCurveSection(block, curveSection);
    core::PackClipRecord record = records.front();
    record.name = name;
    record.data = block;  // a view: `blocks` keeps the bytes
    records.push_back(std::move(record));
  }
  const auto bytes = core::buildPack(core::skeletonRecord(asset->skeleton, asset->unitToCm, asset->curves), records);
  const std::string stem = "golden_v" + std::to_string(runtime::kPackVersion);
  if (auto st = core::writeFileAtomic(dir / (stem + ".anpk"), bytes); !st)
    return std::fprintf(stderr, "%s\n", st.message().c_str()), 1;
  auto pack = runtime::Pack::open(bytes, runtime::anyVersion());
  if (!pack) return std::fprintf(stderr, "%s\n", pack.message().c_str()), 1;
  std::uint64_t h = runtime::kFnvOffset;
  runtime::Player player;
  // Each pose, then (version 6) the clip's morph weights, at every frame and frame midpoint.
  auto add = [&](const runtime::ClipView& view, float frame) {
    std::vector<runtime::Transform> out(view.jointCount());
    player.sampleFrame(view, frame, out);
    h = runtime::fnv1a64(
        std::span(reinterpret_cast<const std::uint8_t*>(out.data()), out.size() * sizeof(runtime::Transform)), h);
    if (view.curveCount() == 0) return;
    std::vector<float> weights(view.curveCount());
    runtime::sampleCurvesAtFrame(view, frame, weights);
    h = runtime::fnv1a64(std::span(reinterpret_cast<const std::uint8_t*>(weights.data()), weights.size() * 4), h);
  };
  for (const auto& c : pack->clips()) {
    for (std::uint32_t f = 0; f < c.frameCount(); ++f) {
      add(c.view, float(f));
      if (runtime::kPackVersion < 2 || (f + 1 == c.frameCount() && !c.view.wraps())) continue;  // the wrap interval too
      add(c.view, float(f) + 0.5f);
    }
  }
  std::ofstream(dir / (stem + ".hash")) << [&] {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%016llx\n", static_cast<unsigned long long>(h));
    return std::string(buf);
  }();
  std::printf("wrote %zu bytes, decode hash %016llx\n", bytes.size(), static_cast<unsigned long long>(h));
  return 0;
}
