// Lengths in the scene's centimetres (docs/IMPORT.md "Scene scale"): file units x unit_to_cm x the scale
// of the scene root, which stays out of the skeleton. A rig of several roots wrapped in a root
// scaled k compresses at k x the precision and shell exactly as it does unwrapped; the settings
// override the scale; the settings hash covers it only where it is not 1; packs record it (format
// version 8) so verify judges alone; AnimatedMorphCube's targets move 189 cm, as rendered; the
// COLLADA unit Assimp folds into the root counts once; JSON outputs carry "scene_scale".
#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/io/legacy.h"
#include "core/compress/clip_sizes.h"
#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/io/asset_json.h"
#include "core/io/decoded_json.h"
#include "core/io/pack_verify.h"
#include "core/io/pack_writer.h"
#include "core/project/project_build.h"
#include "core/runtime/clip_view.h"
#include "core/runtime/curves.h"
#include "core/runtime/hash.h"
#include "core/runtime/pack.h"
#include "core/runtime/pack_format.h"
#include "tests/support/collada_units.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

constexpr float kPrecision = 0.01f, kShell = 3.f;

struct Compressed {
  ImportedAsset asset;
  std::vector<CompressedClip> clips;
};

/// Imports `scene` and compresses each clip with `settings` resolved as compress does.
Compressed compressAll(const test::GltfScene& scene, const char* name, const CompressionSettings& settings) {
  Compressed r;
  r.asset = test::importOrFail(test::writeScene(scene, name));
  for (const RawClip& raw : r.asset.clips) {
    auto c = makeCompressJob(r.asset, raw,
                             resolve(settings, r.asset.skeleton, raw.name, r.asset.meshes, r.asset.unitToCm,
                                     r.asset.curves, r.asset.sceneScale))
                 .run();
    if (!c) qFatal("%s", c.message().c_str());
    r.clips.push_back(std::move(c.value()));
  }
  return r;
}

CompressionSettings at(float precision, float shell) {
  CompressionSettings s;
  s.precisionCm = precision;
  s.shellCm = shell;
  return s;
}

/// What the compressor decided: every sub-track's kind and the clip's key count.
std::string decisions(const CompressedClip& c, const ImportedAsset& asset) {
  const auto view = runtime::ClipView::open(c.data, asset.skeleton.restLocal, restWeights(asset.curves));
  if (!view) qFatal("%s", view.message().c_str());
  std::string out;
  for (std::uint32_t j = 0; j < view->jointCount(); ++j)
    for (int ch = 0; ch < 3; ++ch) out += std::to_string(int(view->kind(j, runtime::Channel(ch)))) + ",";
  return out + " keys " + std::to_string(view->keyCount());
}

std::vector<std::uint8_t> packOf(const Compressed& c) {
  std::vector<PackClipRecord> records;
  for (const CompressedClip& clip : c.clips) records.push_back(clipRecord(clip, "rig.gltf", 0));
  return buildPack(skeletonRecord(c.asset.skeleton, c.asset.unitToCm, c.asset.curves, c.asset.sceneScale), records);
}

void fixChecksum(std::vector<std::uint8_t>& b) {
  const std::uint64_t h = runtime::fnv1a64(std::span<const std::uint8_t>(b).subspan(32));
  std::memcpy(b.data() + runtime::PackHeaderLayout::checksum, &h, 8);
}

/// The offset of the f32 that ends clip 0's tolerance table: its scene scale (version 8).
std::size_t sceneScaleOffset(const std::vector<std::uint8_t>& b) {
  std::uint32_t table = 0, offset = 0, size = 0;
  std::memcpy(&table, b.data() + runtime::PackHeaderLayout::clipTableOffset, 4);
  std::memcpy(&offset, b.data() + table + runtime::ClipEntryLayout::tolerancesOffset, 4);
  std::memcpy(&size, b.data() + table + runtime::ClipEntryLayout::tolerancesSize, 4);
  return std::size_t(offset) + size - 4;
}

/// A morph curve's source weight at `seconds` (linear between keys, held outside them).
double linearWeight(const CurveKeys& k, double seconds) {
  if (seconds <= k.times.front()) return k.weights.front();
  for (std::size_t i = 1; i < k.times.size(); ++i)
    if (seconds <= k.times[i]) {
      const double t = (seconds - k.times[i - 1]) / (k.times[i] - k.times[i - 1]);
      return k.weights[i - 1] + t * (k.weights[i] - k.weights[i - 1]);
    }
  return k.weights.back();
}

}  // namespace

class TestSceneScale : public QObject {
  Q_OBJECT

 private slots:
  /// The scene scale is the root's largest axis scale; the root stays out of the skeleton.
  void theSceneScaleIsTheRootsLargestAxisScale() {
    const test::GltfScene several = test::unrootedRig(test::armatureRig(1.f));
    const ImportedAsset plain = test::importOrFail(test::writeScene(several, "roots.gltf"));
    QCOMPARE(plain.sceneScale, 1.0);
    test::GltfScene wrapped = test::wrappedRig(several, 10.f);
    wrapped.nodes[0].rest.scale = {2.f, 7.f, 3.f};
    const ImportedAsset scaled = test::importOrFail(test::writeScene(wrapped, "roots_scaled.gltf"));
    QCOMPARE(scaled.skeleton.names, plain.skeleton.names);
    QVERIFY2(std::fabs(scaled.sceneScale - 7.0) < 1e-6, std::to_string(scaled.sceneScale).c_str());
    QCOMPARE(scaled.lengthToCm(), scaled.unitToCm * scaled.sceneScale);
  }

  void aScaledRootKeepsTheDecisionsAtScaledPrecision_data() {
    QTest::addColumn<float>("k");
    QTest::newRow("x10") << 10.f;
    QTest::newRow("x0.1") << 0.1f;
  }
  /// A rig of several roots at precision P and shell S, and wrapped in a root scaled k at k P and
  /// k S: the same decisions and bytes, errors k times as large.
  void aScaledRootKeepsTheDecisionsAtScaledPrecision() {
    QFETCH(float, k);
    const test::GltfScene several = test::unrootedRig(test::armatureRig(1.f));
    const Compressed base = compressAll(several, "roots.gltf", at(kPrecision, kShell));
    const Compressed scaled = compressAll(test::wrappedRig(several, k), "roots_k.gltf", at(k * kPrecision, k * kShell));
    QCOMPARE(scaled.asset.skeleton.names, base.asset.skeleton.names);
    QCOMPARE(scaled.clips.size(), base.clips.size());
    for (std::size_t c = 0; c < base.clips.size(); ++c) {
      QCOMPARE(decisions(scaled.clips[c], scaled.asset), decisions(base.clips[c], base.asset));
      QCOMPARE(packedClipBytes(scaled.clips[c]), packedClipBytes(base.clips[c]));
      const double ratio = double(scaled.clips[c].stats.maxErrorCm) / double(base.clips[c].stats.maxErrorCm);
      QVERIFY2(std::fabs(ratio / k - 1) < 1e-3, std::to_string(ratio).c_str());
      QCOMPARE(scaled.clips[c].settings.sceneScale, double(k));
    }
    // Measured in the skeleton's root space (scene scale 1), the same precision is k times looser
    // or tighter on screen: the decisions differ.
    CompressionSettings rootSpace = at(k * kPrecision, k * kShell);
    rootSpace.sceneScale = 1.0;
    const Compressed unscaled = compressAll(test::wrappedRig(several, k), "roots_k.gltf", rootSpace);
    QVERIFY(packedClipBytes(unscaled.clips[0]) != packedClipBytes(base.clips[0]));
  }

  /// scene_scale in the settings replaces the file's, top level and per clip, and is validated.
  void theSettingsOverrideTheSceneScale() {
    const test::GltfScene several = test::unrootedRig(test::armatureRig(1.f));
    const Compressed base = compressAll(several, "roots.gltf", at(kPrecision, kShell));
    CompressionSettings dropRoot = at(kPrecision, kShell);
    dropRoot.sceneScale = 1.0;  // an engine that drops the root
    const Compressed dropped = compressAll(test::wrappedRig(several, 10.f), "roots_10.gltf", dropRoot);
    QCOMPARE(dropped.asset.sceneScale, 10.0);
    for (std::size_t c = 0; c < base.clips.size(); ++c) {
      QCOMPARE(dropped.clips[c].settings.sceneScale, 1.0);
      QCOMPARE(packedClipBytes(dropped.clips[c]), packedClipBytes(base.clips[c]));
    }
    // Per clip, beside unit_to_cm.
    auto parsed = CompressionSettings::fromJson(R"({"scene_scale": 2, "clips": {"Wave": {"scene_scale": 0.5}}})", "s");
    QVERIFY2(parsed, parsed ? "" : parsed.message().c_str());
    QVERIFY(parsed->validate());
    QCOMPARE(resolve(*parsed, base.asset.skeleton, "Walk", {}, 1.0, {}, 10.0).sceneScale, 2.0);
    QCOMPARE(resolve(*parsed, base.asset.skeleton, "Wave", {}, 1.0, {}, 10.0).sceneScale, 0.5);
    QCOMPARE(resolve(CompressionSettings{}, base.asset.skeleton, "Wave", {}, 1.0, {}, 10.0).sceneScale, 10.0);
    QVERIFY(parsed->toJson().find("\"scene_scale\"") != std::string::npos);
    CompressionSettings merged;
    merged.merge(*parsed);
    QVERIFY(merged.sceneScale == 2.0);
    // Bad values name the key and the problem.
    for (double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
      CompressionSettings s;
      s.sceneScale = bad;
      const Status st = s.validate();
      QVERIFY(!st);
      QVERIFY2(st.message().find("'scene_scale'") != std::string::npos, st.message().c_str());
    }
    auto zero = CompressionSettings::fromJson(R"({"clips": {"Walk": {"scene_scale": 0}}})", "s");
    QVERIFY(!zero);
    QVERIFY2(zero.message().find("'clips.Walk.scene_scale'") != std::string::npos, zero.message().c_str());
    QVERIFY(!CompressionSettings::fromJson(R"({"scene_scale": "big"})", "s"));
  }

  /// The hash covers the scene scale only where it is not 1: approvals of files at scale 1 stay.
  void theHashCoversTheSceneScaleOnlyWhereItIsNotOne() {
    EffectiveSettings e;
    e.joints.resize(3);
    const std::uint64_t before = e.hash();
    e.sceneScale = 1.0;
    QCOMPARE(e.hash(), before);
    e.sceneScale = 10.0;
    QVERIFY(e.hash() != before);
    // The golden version-7 pack (written before scene scales) carries the same settings hash for
    // its first clip as these settings give now.
    auto golden = runtime::Pack::load(std::filesystem::path(ANIMPACK_SOURCE_DIR) / "tests/data/golden_v7.anpk");
    QVERIFY(golden);
    const ImportedAsset asset = test::importOrFail(test::writeScene(test::morphRig(), "golden.gltf"));
    CompressionSettings settings;
    settings.loop = LoopPolicy::On;
    EffectiveSettings now = resolve(settings, asset.skeleton, asset.clips[0].name);
    now.curves.resize(asset.curves.size());
    QCOMPARE(now.hash(), golden->clips()[0].settingsHash());
    // `build` says why an approval of a scaled scene no longer holds; at scale 1 it says nothing more.
    Project p;
    p.approvals["walk"] = ClipApprovalRecord{ApprovalState::Approved, before, 2, "ana", "t", 0.01f};
    p.approvals["run"] = ClipApprovalRecord{ApprovalState::Approved, 7, 2, "ana", "t", 0.01f};
    const auto failing = unapprovedClips(
        p, {{"walk", "", "walk.gltf", e.hash(), 2, 0.01f, 10.0}, {"run", "", "run.gltf", 8, 2, 0.01f, 1.0}});
    QCOMPARE(failing.size(), std::size_t(2));
    QVERIFY2(failing[0].find("scene scale x10") != std::string::npos, failing[0].c_str());
    QVERIFY2(failing[1].find("scene scale") == std::string::npos, failing[1].c_str());
  }

  /// Packs record each clip's scene scale (format version 8); older packs read as scale 1; a pack
  /// whose scale is not a positive number is refused, naming it; verify judges in scene cm.
  void packsRecordTheSceneScale() {
    const test::GltfScene scene = test::wrappedRig(test::unrootedRig(test::morphRig()), 10.f);
    const Compressed c = compressAll(scene, "rig.gltf", at(10 * kPrecision, 10 * kShell));
    const std::vector<std::uint8_t> bytes = packOf(c);
    auto pack = runtime::Pack::open(bytes);
    QVERIFY2(pack, pack ? "" : pack.message().c_str());
    QCOMPARE(pack->version(), runtime::kPackVersion);
    for (const runtime::PackClip& clip : pack->clips()) QCOMPARE(clip.sceneScale(), 10.f);
    // The curve table holds object-space displacements; the clip's scale makes them scene cm.
    QVERIFY(std::fabs(pack->skeleton().curveDisplacementCm(0) * 10.0 / c.asset.curves[0].displacementCm - 1) < 1e-6);
    // A pack copied through the writer keeps it.
    std::vector<PackClipRecord> copied;
    for (const runtime::PackClip& clip : pack->clips()) copied.push_back(clipRecord(clip));
    auto again = runtime::Pack::open(buildPack(skeletonRecord(pack->skeleton()), copied));
    QVERIFY(again);
    QCOMPARE(again->clips()[1].sceneScale(), 10.f);

    for (int v = 1; v <= 7; ++v) {
      const std::string path = std::string(ANIMPACK_SOURCE_DIR) + "/tests/data/golden_v" + std::to_string(v) + ".anpk";
      auto old = runtime::Pack::load(path, runtime::anyVersion());
      QVERIFY2(old, old ? "" : old.message().c_str());
      for (const runtime::PackClip& clip : old->clips()) QCOMPARE(clip.sceneScale(), 1.f);
    }

    for (float bad : {0.f, -2.f, std::numeric_limits<float>::quiet_NaN()}) {
      std::vector<std::uint8_t> damaged = bytes;
      std::memcpy(damaged.data() + sceneScaleOffset(damaged), &bad, 4);
      fixChecksum(damaged);
      auto refused = runtime::Pack::open(damaged);
      QVERIFY(!refused);
      QVERIFY2(refused.message().find("scene scale") != std::string::npos, refused.message().c_str());
    }

    auto sources = matchSources(*pack, {test::scratchDir() / "rig.gltf"});
    QVERIFY2(sources, sources ? "" : sources.message().c_str());
    const std::vector<ClipVerification> verified = verifyPack(*pack, *sources);
    // Judged in the scene's centimetres: what the compressor measured, not a tenth of it.
    const auto near = [](double a, double b) { return a > 0.5 * b && a < 2 * b; };
    for (std::size_t i = 0; i < verified.size(); ++i) {
      QVERIFY2(verified[i].withinPrecision(), verified[i].name.c_str());
      QVERIFY(near(verified[i].maxErrorCm, c.clips[i].stats.maxErrorCm));
    }
    QVERIFY(near(verified[0].maxMorphErrorCm, c.clips[0].stats.curves.maxMorphErrorCm));
  }

  /// inspect --json and decode carry "scene_scale".
  void jsonOutputsCarryTheSceneScale() {
    const test::GltfScene scene = test::wrappedRig(test::unrootedRig(test::armatureRig(1.f)), 10.f);
    const Compressed c = compressAll(scene, "rig.gltf", at(kPrecision, kShell));
    QVERIFY(inspectJson(c.asset).find("\"scene_scale\": 10.0") != std::string::npos);
    const std::vector<std::uint8_t> bytes = packOf(c);
    auto pack = runtime::Pack::open(bytes);
    QVERIFY(pack);
    QVERIFY(decodedClipJson(*pack, pack->clips()[0]).find("\"scene_scale\":10.0") != std::string::npos);
  }

  /// AnimatedMorphCube's only node (the scene root) is scaled 100: its targets move 189 and 199 cm,
  /// as rendered, and its weights hold 0.01 cm / displacement at frames and between them.
  void animatedMorphCubeMovesInTheScenesCentimetres() {
    const ImportedAsset asset =
        test::importOrFail(test::model("glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf"));
    QVERIFY2(std::fabs(asset.sceneScale - 100.0) < 1e-4, std::to_string(asset.sceneScale).c_str());
    QCOMPARE(asset.curves.size(), std::size_t(2));
    QVERIFY2(std::fabs(asset.curves[0].displacementCm - 189.3) < 0.1,
             std::to_string(asset.curves[0].displacementCm).c_str());
    QVERIFY2(std::fabs(asset.curves[1].displacementCm - 198.9) < 0.1,
             std::to_string(asset.curves[1].displacementCm).c_str());
    const RawClip& raw = asset.clips.at(0);
    auto c = makeCompressJob(
                 asset, raw,
                 resolve({}, asset.skeleton, raw.name, asset.meshes, asset.unitToCm, asset.curves, asset.sceneScale))
                 .run();
    QVERIFY2(c, c ? "" : c.message().c_str());
    const std::vector<float> rest = restWeights(asset.curves);
    const auto view = runtime::ClipView::open(c->data, asset.skeleton.restLocal, rest);
    QVERIFY(view);
    std::vector<float> weights(asset.curves.size());
    double worst = 0;
    for (std::uint32_t f = 0; f + 1 < raw.frameCount; ++f)
      for (double part : {0.0, 0.25, 0.5, 0.75}) {
        const double frame = f + part;
        runtime::sampleCurvesAtFrame(*view, float(frame), weights);
        for (const CurveKeys& k : raw.curves) {
          const double tolerance = kPrecision / asset.curves[k.curve].displacementCm;
          const double error = std::fabs(weights[k.curve] - linearWeight(k, frame / raw.sampleRate));
          worst = std::max(worst, error / tolerance);
        }
      }
    QVERIFY2(worst <= 1.001, std::to_string(worst).c_str());
    QVERIFY(c->stats.curves.maxMorphErrorCm <= kPrecision * 1.001f);
  }

  /// COLLADA: Assimp multiplies the root by <unit meter>, which unit_to_cm already holds; the
  /// scene scale leaves it out, so lengths count the unit once.
  void theColladaUnitCountsOnce() {
    const ImportedAsset metres = test::importOrFail(test::model("Collada/box_nested_animation.dae"));
    const auto path = test::colladaInCentimetres("box_cm.dae");
    QVERIFY(!path.empty());
    const ImportedAsset cm = test::importOrFail(path);
    QCOMPARE(metres.unitToCm, 100.0);
    QVERIFY(std::fabs(cm.unitToCm - 1.0) < 1e-9);
    // Assimp folded the unit into the root ...
    const auto& r = cm.sceneRootTransform;
    const double rootScale = std::sqrt(double(r[0]) * r[0] + double(r[1]) * r[1] + double(r[2]) * r[2]);
    QVERIFY2(std::fabs(rootScale - 0.01) < 1e-6, std::to_string(rootScale).c_str());
    // ... and it counts once: both files are at scene scale 1.
    QVERIFY2(std::fabs(cm.sceneScale - 1.0) < 1e-6, std::to_string(cm.sceneScale).c_str());
    QVERIFY2(std::fabs(metres.sceneScale - 1.0) < 1e-6, std::to_string(metres.sceneScale).c_str());
  }

  /// FBX: Assimp keeps UnitScaleFactor in the metadata and leaves the root unscaled, so unit_to_cm
  /// holds it alone (a Blender file of UnitScaleFactor 100 from the open data).
  void theFbxUnitIsNotInTheRoot() {
    if (qEnvironmentVariableIsEmpty("ANIMPACK_OPEN_TESTS")) QSKIP("runs as ctest tst_scene_scale_open (label open)");
    const std::filesystem::path file =
        std::filesystem::path(ANIMPACK_OPEN_DATA) / "morph/ufbx/blender440_shape_weight_anim_7400_binary.fbx";
    if (!std::filesystem::exists(file))
      QSKIP(qPrintable("skipped: " + QString::fromStdString(file.string()) + " is absent (the open data folder)"));
    const ImportedAsset asset = test::importOrFail(file);
    QCOMPARE(asset.unitToCm, 100.0);
    const auto& r = asset.sceneRootTransform;
    QVERIFY(std::fabs(r[0] - 1) < 1e-6f && std::fabs(r[5] - 1) < 1e-6f && std::fabs(r[10] - 1) < 1e-6f);
    QCOMPARE(asset.sceneScale, 1.0);
  }
};

QTEST_GUILESS_MAIN(TestSceneScale)
#include "tst_scene_scale.moc"
