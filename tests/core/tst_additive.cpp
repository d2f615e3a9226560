// Additive clips (docs/SETTINGS.md `additive_base`, core/runtime/FORMAT.md "Additive clips"): the
// runtime's applyAdditive, the setting, base resolution and its errors, deltas from the decoded
// base verified as base + delta (at and between frames, independently of the compressor), identity
// deltas that cost almost nothing, decode of the applied pose and of the deltas, and the cache key.
#include <QtTest>

#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/base/assert.h"
#include "core/batch/additive_links.h"
#include "core/batch/export.h"
#include "core/io/decoded_json.h"
#include "core/io/pack_verify.h"
#include "core/runtime/additive.h"
#include "core/runtime/pack.h"
#include "core/runtime/pack_format.h"
#include "tests/support/source_check.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

runtime::Quat axisAngle(float x, float y, float z, float angle) {
  const float s = std::sin(angle / 2);
  return {x * s, y * s, z * s, std::cos(angle / 2)};
}

float angleBetween(runtime::Quat a, runtime::Quat b) {
  return 2.f * std::acos(std::min(1.f, std::fabs(runtime::dot(a, b))));
}

CompressionSettings settingsOf(const char* json) {
  auto s = CompressionSettings::fromJson(json, "additive.json");
  if (!s) qFatal("%s", s.message().c_str());
  return std::move(s.value());
}

/// Exports `files` into one pack with `settings` (a report beside it); the pack opened.
struct Built {
  ExportResult result;
  runtime::Pack pack;
};
Built build(const std::vector<std::filesystem::path>& files, const CompressionSettings& settings,
            const std::string& name, std::optional<std::filesystem::path> cache = {}) {
  ExportOptions o;
  o.output = test::scratchDir() / (name + ".anpk");
  o.batch.settings = settings;
  o.batch.jobs = 2;
  o.batch.cacheDir = cache;
  o.toolVersion = "test";
  auto r = exportPacks(files, o);
  if (!r) qFatal("%s", r.message().c_str());
  auto pack = runtime::Pack::load(o.output);
  if (!pack) qFatal("%s", pack.message().c_str());
  return {std::move(r.value()), std::move(pack.value())};
}

const ClipReport* row(const ExportResult& r, const std::string& clip) {
  for (const ClipReport& c : r.rows)
    if (c.clip == clip) return &c;
  return nullptr;
}

std::size_t clipIndex(const runtime::Pack& pack, const std::string& name) {
  for (std::size_t i = 0; i < pack.clips().size(); ++i)
    if (pack.clips()[i].name() == name) return i;
  qFatal("no clip %s", name.c_str());
}

/// The independent check (its own Assimp read, double precision, the runtime's Player for base and
/// delta) of an additive clip of `pack` against its source, at `subSteps` instants per frame interval.
test::SourceCheck independentCheck(const std::filesystem::path& file, const runtime::Pack& pack,
                                   const std::string& name, int subSteps = 4) {
  const ImportedAsset asset = test::importOrFail(file);
  const runtime::PackClip& clip = pack.clips()[clipIndex(pack, name)];
  std::vector<float> shells;
  for (const auto& t : clip.tolerances()) shells.push_back(t.shellCm);
  const runtime::ClipView* base =
      clip.additiveBase() < pack.clips().size() ? &pack.clips()[clip.additiveBase()].view : nullptr;
  return test::checkAgainstSource(file, asset, clip.clipIndex(), clip.view, shells, subSteps, base,
                                  clip.additiveFrame());
}

}  // namespace

class TestAdditive : public QObject {
  Q_OBJECT
  std::filesystem::path m_rig;
  const std::filesystem::path m_wuson = test::model("X/Testwuson.X");

 private slots:
  void initTestCase() {
    setAssertThrows(true);
    m_rig = test::writeScene(test::layeredRig(40, 30.f), "layered_rig.gltf");
  }

  void applyAdditiveWeights() {
    runtime::Transform base;
    base.rotation = axisAngle(0, 1, 0, 0.8f);
    base.translation = {1, 2, 3};
    base.scale = {2, 2, 2};
    runtime::Transform pose;
    pose.rotation = base.rotation * axisAngle(1, 0, 0, 1.2f);
    pose.translation = {1.5f, 2, 2};
    pose.scale = {3, 2, 1};
    runtime::Transform delta = runtime::additiveDelta(base, pose);
    std::vector<runtime::Transform> out(1);
    runtime::applyAdditive(std::span(&base, 1), std::span(&delta, 1), 1.f, out);
    QVERIFY(angleBetween(out[0].rotation, pose.rotation) < 1e-5f);
    QCOMPARE(out[0].translation.z, 2.f);
    QCOMPARE(out[0].scale.x, 3.f);
    runtime::applyAdditive(std::span(&base, 1), std::span(&delta, 1), 0.f, out);
    QVERIFY(angleBetween(out[0].rotation, base.rotation) < 1e-6f);
    QCOMPARE(out[0].translation.x, 1.f);
    QCOMPARE(out[0].scale.z, 2.f);
    // Half weight: half the angle, half the offset, half the way to the scale, whatever the
    // delta's sign (shortest path).
    delta.rotation = runtime::negated(delta.rotation);
    runtime::applyAdditive(std::span(&base, 1), std::span(&delta, 1), 0.5f, out);
    QVERIFY(std::fabs(angleBetween(out[0].rotation, base.rotation) - 0.6f) < 1e-5f);
    QCOMPARE(out[0].translation.x, 1.25f);
    QCOMPARE(out[0].scale.x, 2.f * 1.25f);
  }

  void settingParsesAndHashes() {
    const CompressionSettings s = settingsOf(
        R"({"additive_base":"rest","clips":{"Upper":{"additive_base":"Idle@3"},"Idle":{"additive_base":null}}})");
    QCOMPARE(additiveBaseSetting(s, "Walk"), std::string("rest"));
    QCOMPARE(additiveBaseSetting(s, "Upper"), std::string("Idle@3"));
    QCOMPARE(additiveBaseSetting(s, "Idle"), std::string());  // null overrides the top level
    QCOMPARE(settingsOf(s.toJson().c_str()), s);
    const Skeleton skeleton = test::importOrFail(m_rig).skeleton;
    QVERIFY(resolve(s, skeleton, "Upper").hash() != resolve(s, skeleton, "Idle").hash());
    QCOMPARE(resolve(CompressionSettings{}, skeleton, "Idle").hash(), resolve(s, skeleton, "Idle").hash());
    for (const char* bad :
         {R"({"additive_base":3})", R"({"additive_base":""})", R"({"clips":{"A":{"additive_base":true}}})"}) {
      auto r = CompressionSettings::fromJson(bad, "bad.json");
      QVERIFY2(!r, bad);
      QVERIFY2(r.message().find("additive_base") != std::string::npos, r.message().c_str());
    }
  }

  void baseResolutionErrors() {
    const std::vector<AdditiveCandidate> clips{
        {"Idle", "idle_anim", "", 30}, {"Upper", "upper_anim", "idle_anim@29", 30},
        {"Self", "", "Self", 10},      {"OnUpper", "", "Upper", 10},
        {"Missing", "", "Jump", 10},   {"Late", "", "Idle@30", 10},
        {"Rest", "", "rest", 10}};
    const auto links = linkAdditiveBases(clips);
    QVERIFY(links[0].error.empty() && !links[0].ref.additive());
    QVERIFY(links[1].error.empty());
    QCOMPARE(links[1].ref, (AdditiveRef{AdditiveRef::Kind::Clip, "Idle", 29}));  // by the source animation's name
    QVERIFY(links[2].error.find("itself") != std::string::npos);
    QVERIFY(links[3].error.find("'Upper' is additive itself") != std::string::npos);
    QVERIFY(links[4].error.find("'Jump' is not a clip of this file or project") != std::string::npos);
    QVERIFY(links[5].error.find("frame 30 is out of range") != std::string::npos);
    QCOMPARE(links[6].ref.kind, AdditiveRef::Kind::Rest);
  }

  static std::string overText(const ClipReport& r) {
    std::string t = "over precision:";
    for (const auto& o : r.overPrecision)
      t += " " + o.joint + " " + std::to_string(o.maxErrorCm) + " of " + std::to_string(o.precisionCm);
    return t;
  }

  /// An upper-body layer made additive on the idle of the same rig: within precision at and between
  /// frames (the compressor's metric and an independent check), the legs' identity deltas free.
  /// On 3 cm shells: with the shells of this rig's 1.5 m skin see additiveFloorWithTheSkinsShells.
  void upperBodyOnIdleReconstructs() {
    const Built additive =
        build({m_rig}, settingsOf(R"({"shell_cm":3,"clips":{"Upper":{"additive_base":"Idle"}}})"), "layered_additive");
    const Built absolute = build({m_rig}, settingsOf(R"({"shell_cm":3})"), "layered_absolute");
    const ClipReport* upper = row(additive.result, "Upper");
    QVERIFY(upper && upper->error.empty());
    QCOMPARE(upper->additiveBase, std::string("Idle"));
    QVERIFY(row(additive.result, "Idle")->additiveBase.empty());
    QVERIFY2(upper->withinPrecision, overText(*upper).c_str());
    QVERIFY(upper->maxVertexErrorCm > 0);  // the skin is measured on the base, as the joints are
    const runtime::PackClip& clip = additive.pack.clips()[clipIndex(additive.pack, "Upper")];
    QVERIFY(clip.view.additive());
    QCOMPARE(clip.additiveBase(), std::uint32_t(clipIndex(additive.pack, "Idle")));
    const test::SourceCheck check = independentCheck(m_rig, additive.pack, "Upper");
    QVERIFY2(check.error.empty(), check.error.c_str());
    QVERIFY2(check.maxCm <= 0.01 * 1.001, qPrintable(QString::number(check.maxCm)));
    // Hips and legs move as in the idle: every one of their sub-tracks is a default (identity) delta.
    for (const char* joint : {"Hips", "LeftLeg", "LeftFoot"}) {
      const std::int32_t j = additive.pack.skeleton().find(joint);
      QVERIFY(j >= 0);
      for (int c = 0; c < 3; ++c)
        QCOMPARE(clip.view.kind(std::uint32_t(j), runtime::Channel(c)), runtime::TrackKind::Default);
    }
    const ClipReport* absoluteUpper = row(absolute.result, "Upper");
    qInfo("Upper: %llu B absolute, %llu B additive on Idle", (unsigned long long)absoluteUpper->compressedBytes,
          (unsigned long long)upper->compressedBytes);
    QVERIFY(upper->compressedBytes < absoluteUpper->compressedBytes * 3 / 4);
    // The pack judged alone (animpack verify) composes too.
    auto sources = matchSources(additive.pack, {m_rig}, {});
    QVERIFY2(sources, sources ? "" : sources.message().c_str());
    for (const ClipVerification& v : verifyPack(additive.pack, *sources)) {
      QVERIFY2(v.checked && v.problem.empty() && v.overPrecision.empty(), v.name.c_str());
      // verify measures the skin as the compressor did: on the decoded base for the layer.
      const ClipReport* r = row(additive.result, v.name);
      QVERIFY(r && v.maxVertexErrorCm >= 0);
      QVERIFY2(std::fabs(v.maxVertexErrorCm - r->maxVertexErrorCm) <= 1e-4f, v.name.c_str());
      QCOMPARE(v.skinBoundCm, r->skinBoundCm);
      QCOMPARE(v.limitedBy, r->limitedBy);
    }
  }

  /// A clip additive on itself: identity deltas everywhere cost the header and the track kinds only.
  void identityDeltasCostAlmostNothing() {
    const Built b = build({m_rig}, settingsOf(R"({"clips":{"Idle":{"additive_base":"Walk"}}})"), "identity_deltas");
    const ClipReport* idle = row(b.result, "Idle");
    QVERIFY(idle && idle->error.empty() && idle->withinPrecision);
    QCOMPARE(idle->uniformTracks + idle->fittedTracks + idle->rawTracks, 0u);
    qInfo("Idle as deltas from Walk (the same motion): %llu B", (unsigned long long)idle->compressedBytes);
    QVERIFY(idle->compressedBytes < 150);
  }

  void wusonRunOnWalk() {
    const Built b = build(
        {m_wuson},
        settingsOf(
            R"({"clips":{"Wuson_Run":{"additive_base":"Wuson_Walk"},"Wuson_Bind":{"additive_base":"Wuson_Walk@10"}}})"),
        "wuson_additive");
    for (const char* name : {"Wuson_Run", "Wuson_Bind"}) {
      const ClipReport* r = row(b.result, name);
      QVERIFY2(r && r->error.empty() && r->withinPrecision, name);
      const test::SourceCheck check = independentCheck(m_wuson, b.pack, name);
      QVERIFY2(check.maxCm <= 0.01 * 1.001, qPrintable(QString("%1: %2 cm").arg(name).arg(check.maxCm)));
    }
    QCOMPARE(row(b.result, "Wuson_Bind")->additiveBase, std::string("Wuson_Walk@10"));
  }

  void baseNotInTheFileNamesIt() {
    ExportOptions o;
    o.output = test::scratchDir() / "missing_base.anpk";
    o.batch.settings = settingsOf(R"({"clips":{"Upper":{"additive_base":"Jump"}}})");
    o.toolVersion = "test";
    auto r = exportPacks({m_rig}, o);
    QVERIFY(r);
    const ClipReport* upper = row(*r, "Upper");
    QVERIFY(upper);
    QVERIFY2(upper->error.find("additive_base 'Jump' is not a clip of this file or project") != std::string::npos,
             upper->error.c_str());
    QCOMPARE(r->failures, std::size_t(1));
  }

  /// decode: the applied pose by default (what a game shows), the stored deltas on request.
  void decodeAppliesOrGivesDeltas() {
    const Built b = build({m_rig}, settingsOf(R"({"clips":{"Upper":{"additive_base":"Idle"}}})"), "decode_additive");
    const runtime::PackClip& clip = b.pack.clips()[clipIndex(b.pack, "Upper")];
    const auto applied = nlohmann::json::parse(decodedClipJson(b.pack, clip));
    const auto deltas = nlohmann::json::parse(decodedClipJson(b.pack, clip, std::nullopt, true, true));
    runtime::Player player;
    std::vector<runtime::Transform> pose(clip.view.jointCount());
    player.sampleFrame(clip.view, 7.f, pose);
    const auto& d = deltas["frames"][7];
    for (std::size_t j = 0; j < pose.size(); ++j) QCOMPARE(d[j][6].get<float>(), pose[j].rotation.w);
    // Applied: frame 7 equals the source's frame 7 within a small tolerance (radians / file units).
    const ImportedAsset asset = test::importOrFail(m_rig);
    const RawClip& source = asset.clips[clip.clipIndex()];
    const auto& a = applied["frames"][7];
    float worst = 0;
    for (std::uint32_t j = 0; j < source.jointCount; ++j) {
      const runtime::Quat q{a[j][3].get<float>(), a[j][4].get<float>(), a[j][5].get<float>(), a[j][6].get<float>()};
      worst = std::max(worst, angleBetween(q, source.at(j, 7).rotation));
    }
    QVERIFY2(worst < 1e-3f, qPrintable(QString::number(worst)));
    const runtime::Quat spineDelta{d[3][3].get<float>(), d[3][4].get<float>(), d[3][5].get<float>(),
                                   d[3][6].get<float>()};
    QVERIFY(angleBetween(spineDelta, runtime::Quat{}) > 0.05f);  // the layer, not the pose
  }

  /// The base in another file of the project; the cache key follows the base's file.
  void baseInAnotherFileAndTheCache() {
    const auto dir = test::scratchDir() / "additive_project";
    std::filesystem::create_directories(dir);
    test::GltfScene idleOnly = test::layeredRig(40, 30.f), upperOnly = idleOnly;
    idleOnly.animations = {idleOnly.animations[2]};
    upperOnly.animations = {upperOnly.animations[3]};
    const auto idleFile = dir / "idle.gltf", upperFile = dir / "upper.gltf";
    QVERIFY(test::writeGltf(idleOnly, idleFile) && test::writeGltf(upperOnly, upperFile));
    const CompressionSettings s = settingsOf(R"({"shell_cm":3,"clips":{"Upper":{"additive_base":"Idle"}}})");
    const auto cache = dir / "cache";
    const Built first = build({upperFile, idleFile}, s, "project_additive", cache);
    QVERIFY2(row(first.result, "Upper") && row(first.result, "Upper")->error.empty(),
             row(first.result, "Upper")->error.c_str());
    QVERIFY(row(first.result, "Upper")->withinPrecision);
    QVERIFY(independentCheck(upperFile, first.pack, "Upper").maxCm <= 0.01 * 1.001);
    const Built second = build({upperFile, idleFile}, s, "project_additive_cached", cache);
    QCOMPARE(second.result.cachedClips, std::size_t(2));
    QVERIFY(std::equal(first.pack.bytes().begin(), first.pack.bytes().end(), second.pack.bytes().begin(),
                       second.pack.bytes().end()));
    // Another idle: the upper clip's deltas are taken again against it.
    idleOnly.animations[0].channels[0].values[5] = {0, 0.3f, 0, 0.954f};
    QVERIFY(test::writeGltf(idleOnly, idleFile));
    const Built third = build({upperFile, idleFile}, s, "project_additive_changed", cache);
    QCOMPARE(third.result.cachedClips, std::size_t(0));
    QVERIFY(row(third.result, "Upper")->withinPrecision);
  }

  /// With the default shells, which follow this rig's skin (the head's farthest vertex is 67 cm
  /// away), base and delta composed between frames differ from the source interpolated by more than
  /// 0.01 cm on that lever when the delta keeps only its frames; the head's delta keeps the exact
  /// delta between them (timed keys, core/compress/additive_source.h), so the clip is within
  /// precision, by the compressor and by the independent check.
  void withinPrecisionWithTheSkinsShells() {
    const Built b =
        build({m_rig}, settingsOf(R"({"clips":{"Upper":{"additive_base":"Idle"}}})"), "layered_skin_shells");
    const ClipReport* upper = row(b.result, "Upper");
    QVERIFY(upper && upper->error.empty());
    QVERIFY(upper->maxVertexErrorCm > 0 && upper->skinBoundCm > 0);
    QVERIFY2(upper->withinPrecision, overText(*upper).c_str());
    QVERIFY(upper->maxVertexErrorCm <= upper->skinBoundCm);
    QCOMPARE(upper->fittedTracks > 0, true);  // the timed delta counts among the fitted tracks
    const test::SourceCheck check = independentCheck(m_rig, b.pack, "Upper");
    QVERIFY2(check.error.empty(), check.error.c_str());
    QVERIFY2(check.maxCm <= 0.01 * 1.001, qPrintable(QString("%1 cm at %2").arg(check.maxCm).arg(check.worstFrame)));
    QVERIFY(row(b.result, "Idle")->withinPrecision && row(b.result, "Walk")->withinPrecision);
  }

  /// A 2 m chain at 0.001 cm on 3 cm shells: the tip's lever needs rotations finer than 48-bit keys
  /// hold, so tracks store float32 values where they must; absolute and additive on the chain's idle,
  /// every clip within precision by the compressor and the independent check, no floor above it.
  void longChainAtTenMicrometres_data() {
    QTest::addColumn<bool>("additive");
    QTest::newRow("absolute") << false;
    QTest::newRow("additive on Idle") << true;
  }
  void longChainAtTenMicrometres() {
    QFETCH(bool, additive);
    const auto file = test::writeScene(test::longChainRig(5, 2.f), "long_chain.gltf");
    const Built b = build({file},
                          settingsOf(additive ? R"({"precision_cm":0.001,"shell_cm":3,
                                                    "clips":{"Swing":{"additive_base":"Idle"}}})"
                                              : R"({"precision_cm":0.001,"shell_cm":3})"),
                          additive ? "long_chain_additive" : "long_chain_absolute");
    for (const char* name : {"Idle", "Swing"}) {
      const ClipReport* r = row(b.result, name);
      QVERIFY2(r && r->error.empty(), name);
      QVERIFY2(r->withinPrecision, (std::string(name) + " " + overText(*r)).c_str());
      QCOMPARE(r->additiveBase, std::string(additive && std::string(name) == "Swing" ? "Idle" : ""));
      const test::SourceCheck check = independentCheck(file, b.pack, name);
      QVERIFY2(check.error.empty(), check.error.c_str());
      QVERIFY2(check.maxCm <= 0.001 * 1.001, qPrintable(QString("%1: %2 cm at %3 (%4)")
                                                            .arg(name)
                                                            .arg(check.maxCm)
                                                            .arg(check.worstFrame)
                                                            .arg(QString::fromStdString(check.worstJoint))));
      qInfo("%s: %llu B, max %.5f cm (independent %.5f cm)", name, (unsigned long long)r->compressedBytes,
            double(r->maxErrorCm), check.maxCm);
    }
  }

  /// Every non-idle clip of four real characters made additive on that character's idle, at the
  /// defaults (shells from the skin): each within precision at and between frames by the
  /// independent check (32 instants per frame interval, twice the compressor's). Label open: skips
  /// without the folder.
  void openCharactersOnTheirIdle() {
    if (qEnvironmentVariableIsEmpty("ANIMPACK_OPEN_TESTS")) QSKIP("runs as ctest tst_additive_open (label open)");
    const std::filesystem::path dir = std::filesystem::path(ANIMPACK_OPEN_DATA) / "quaternius-cc0";
    if (!std::filesystem::is_directory(dir)) QSKIP(qPrintable("no " + QString::fromStdString(dir.string())));
    const std::pair<const char*, const char*> characters[] = {{"AnimatedHuman.fbx", "Human Armature|Idle"},
                                                              {"KnightCharacter.fbx", "HumanArmature|Idle"},
                                                              {"Male_Casual.fbx", "HumanArmature|Man_Idle"},
                                                              {"Spider.fbx", "SpiderArmature|Spider_Idle"}};
    int clips = 0;
    std::string over;
    for (const auto& [name, idle] : characters) {
      const std::filesystem::path file = dir / name;
      const ImportedAsset asset = test::importOrFail(file);
      nlohmann::json settings = {{"clips", nlohmann::json::object()}};
      for (const RawClip& c : asset.clips)
        if (c.name != idle) settings["clips"][c.name] = {{"additive_base", idle}};
      const Built b = build({file}, settingsOf(settings.dump().c_str()), std::string("open_additive_") + name);
      for (const RawClip& c : asset.clips) {
        if (c.name == idle) continue;
        ++clips;
        const ClipReport* r = row(b.result, c.name);
        QVERIFY2(r && r->error.empty(), c.name.c_str());
        const test::SourceCheck check = independentCheck(file, b.pack, c.name, 32);
        QVERIFY2(check.error.empty(), check.error.c_str());
        if (!r->withinPrecision || check.maxCm > 0.01 * 1.001)
          over += " " + c.name + " (" + std::to_string(check.maxCm) + " cm at frame " +
                  std::to_string(check.worstFrame) + ", " + check.worstJoint + ")";
      }
    }
    QCOMPARE(clips, 33);
    QVERIFY2(over.empty(), ("over precision:" + over).c_str());
  }
};

QTEST_GUILESS_MAIN(TestAdditive)
#include "tst_additive.moc"
