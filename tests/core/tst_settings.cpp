// The settings schema of docs/SETTINGS.md: parsing, every invalid case on its own, wildcards, precedence
// (joints and morph curves), merging layers and hashing.
#include <QtTest>

#include <cmath>
#include <limits>
#include <set>

#include "core/compress/settings.h"

using namespace animpack;
using namespace animpack::core;

namespace {
Skeleton rig() {
  Skeleton s;
  s.names = {"Hips", "Spine", "LeftHand", "LeftHandIndex1", "RightHand", "foot_l", "foot_r", "foot_ll"};
  s.parents = {-1, 0, 1, 2, 1, 0, 0, 5};
  s.restLocal.resize(s.names.size());
  s.inverseBind.resize(s.names.size());
  return s;
}
/// Joints of rig() all sit at the origin in the rest pose: a vertex's distance is its length.
/// Spine moves a vertex 10 units out, LeftHand and Hips share one 4 units out, foot_l one 2 units
/// out that foot_r touches with 0.5 % only (below the 1 % that counts).
SkinnedMesh rigMesh() {
  SkinnedMesh m;
  m.name = "body";
  m.positions = {{10, 0, 0}, {0, 4, 0}, {0, 0, 2}};
  m.normals.assign(3, {0, 0, 1});
  m.indices = {0, 1, 2};
  m.skinned = true;
  m.influences.resize(3);
  m.influences[0] = {{1, 0, 0, 0}, {1.f, 0, 0, 0}};
  m.influences[1] = {{2, 0, 0, 0}, {0.5f, 0.5f, 0, 0}};
  m.influences[2] = {{5, 6, 0, 0}, {0.995f, 0.005f, 0, 0}};
  return m;
}
std::vector<float> shells(const EffectiveSettings& e) {
  std::vector<float> out;
  for (const EffectiveJoint& j : e.joints) out.push_back(j.shellCm);
  return out;
}
/// Curves named as the importer names them, NODE/TARGET.
std::vector<MorphCurve> faceCurves() {
  std::vector<MorphCurve> out;
  for (const char* name : {"Face/Smile", "Face/Sneer", "Face/Frown", "Face/Blink", "Body/Breathe", "Hair/Wave"})
    out.push_back({name, {}, {}, 0, 2.0, 0});
  return out;
}
std::vector<float> curvePrecisions(const EffectiveSettings& e) {
  std::vector<float> out;
  for (const EffectiveCurve& c : e.curves) out.push_back(c.precisionCm);
  return out;
}
void expectParseError(const char* json, const char* fragment) {
  const auto s = CompressionSettings::fromJson(json, "hero.json");
  QVERIFY2(!s, json);
  const QString m = QString::fromStdString(s.message());
  QVERIFY2(m.startsWith("hero.json: "), qPrintable(m));
  QVERIFY2(m.contains(fragment), qPrintable(m));
}
}  // namespace

class TestSettings : public QObject {
  Q_OBJECT
 private slots:
  void parsesTheFullSchema() {
    const char* json = R"({"description":"hero characters","precision_cm":0.02,"shell_cm":4,"rotation_format":"q32",
      "snapshot_interval_s":0.5,"unit_to_cm":2.54,"sample_rate":null,
      "joints":{"*Hand*":{"precision_cm":0.005},"foot_?":{"pinned":true,"shell_cm":10}},
      "clips":{"Run*":{"precision_cm":0.05,"joints":{"Spine":{"shell_cm":20}}}}})";
    const auto s = CompressionSettings::fromJson(json, "hero.json");
    QVERIFY2(s, s ? "" : s.message().c_str());
    QCOMPARE(*s->precisionCm, 0.02f);
    QCOMPARE(*s->rotationFormat, RotationFormat::Q32);
    QVERIFY(!s->sampleRate);
    QCOMPARE(s->joints.size(), std::size_t(2));
    QCOMPARE(s->clips[0].first, std::string("Run*"));
    QCOMPARE(s->description, std::string("hero characters"));
    // The JSON form parses back to the same settings.
    const auto again = CompressionSettings::fromJson(s->toJson(), "again.json");
    QVERIFY(again);
    QVERIFY(*again == *s);
    QCOMPARE(again->hash(), s->hash());
  }

  void eachInvalidCaseFailsOnItsOwn_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("not json") << "{precision"
                              << "not valid JSON";
    QTest::newRow("not an object") << "[1,2]"
                                   << "object at the top level";
    QTest::newRow("unknown key") << R"({"precison_cm":0.1})"
                                 << "unknown key 'precison_cm' (did you mean 'precision_cm'?)";
    QTest::newRow("negative precision") << R"({"precision_cm":-1})"
                                        << "key 'precision_cm'";
    QTest::newRow("zero precision") << R"({"precision_cm":0})"
                                    << "key 'precision_cm'";
    QTest::newRow("absurd precision") << R"({"precision_cm":1e9})"
                                      << "key 'precision_cm'";
    QTest::newRow("zero shell") << R"({"shell_cm":0})"
                                << "key 'shell_cm'";
    QTest::newRow("string precision") << R"({"precision_cm":"fine"})"
                                      << "expected a number";
    QTest::newRow("bad format") << R"({"rotation_format":"q64"})"
                                << "\"q48\" or \"q32\"";
    QTest::newRow("bad snapshot") << R"({"snapshot_interval_s":0})"
                                  << "snapshot_interval_s";
    QTest::newRow("bad unit") << R"({"unit_to_cm":-2})"
                              << "unit_to_cm";
    QTest::newRow("bad rate") << R"({"sample_rate":0})"
                              << "sample_rate";
    QTest::newRow("joints not object") << R"({"joints":[1]})"
                                       << "key 'joints'";
    QTest::newRow("joint unknown key") << R"({"joints":{"Hips":{"precission":1}}})"
                                       << "unknown key 'joints.Hips.precission'";
    QTest::newRow("joint bad value") << R"({"joints":{"*Hand*":{"precision_cm":-0.1}}})"
                                     << "joints.*Hand*.precision_cm";
    QTest::newRow("pinned not bool") << R"({"joints":{"foot_l":{"pinned":"yes"}}})"
                                     << "true or false";
    QTest::newRow("empty pattern") << R"({"joints":{"":{"pinned":true}}})"
                                   << "empty";
    QTest::newRow("clip unknown key") << R"({"clips":{"Run":{"looping":true}}})"
                                      << "unknown key 'clips.Run.looping'";
    QTest::newRow("clip bad joint") << R"({"clips":{"Run":{"joints":{"Hips":{"shell_cm":-3}}}}})"
                                    << "clips.Run.joints.Hips.shell_cm";
    QTest::newRow("description not string") << R"({"description":3})"
                                            << "description";
    QTest::newRow("shell word") << R"({"shell_cm":"meshes"})"
                                << "key 'shell_cm': expected a number of cm or \"mesh\"";
    QTest::newRow("shell minus one") << R"({"shell_cm":-1})"
                                     << "key 'shell_cm'";  // not read as "mesh"
    QTest::newRow("joint shell word") << R"({"joints":{"Hips":{"shell_cm":"skin"}}})"
                                      << "joints.Hips.shell_cm";
    QTest::newRow("clip shell word") << R"({"clips":{"Run":{"shell_cm":"Mesh"}}})"
                                     << "clips.Run.shell_cm";
    QTest::newRow("precision mesh") << R"({"precision_cm":"mesh"})"
                                    << "key 'precision_cm': expected a number";
    // Raw strings below spell wildcards "Face*", not "Face/*": moc reads a slash-star in a raw string as a comment.
    QTest::newRow("morph typo") << R"({"morph":{}})"
                                << "unknown key 'morph' (did you mean 'morphs'?)";
    QTest::newRow("morphs not object") << R"({"morphs":[1]})"
                                       << "key 'morphs': expected an object of morph target names or wildcards";
    QTest::newRow("morph rule not object") << R"({"morphs":{"Face/Smile":0.1}})"
                                           << "key 'morphs.Face/Smile': expected an object with precision_cm";
    QTest::newRow("morph empty pattern") << R"({"morphs":{"":{"precision_cm":0.1}}})"
                                         << "key 'morphs': a morph target name or wildcard is empty";
    QTest::newRow("morph unknown key") << R"({"morphs":{"Face*":{"precison_cm":0.1}}})"
                                       << "unknown key 'morphs.Face*.precison_cm' (did you mean 'precision_cm'?)";
    QTest::newRow("morph shell") << R"({"morphs":{"Face*":{"shell_cm":3}}})"
                                 << "key 'morphs.Face*.shell_cm': a morph rule takes only precision_cm";
    QTest::newRow("morph pinned") << R"({"morphs":{"Face*":{"pinned":true}}})"
                                  << "key 'morphs.Face*.pinned': a morph rule takes only precision_cm";
    QTest::newRow("morph string precision") << R"({"morphs":{"Face/Smile":{"precision_cm":"fine"}}})"
                                            << "key 'morphs.Face/Smile.precision_cm': expected a number";
    QTest::newRow("morph negative precision")
        << R"({"morphs":{"Face/Smile":{"precision_cm":-0.1}}})"
        << "key 'morphs.Face/Smile.precision_cm': expected a number from 1e-06 to 1000 cm, got -0.1";
    QTest::newRow("morph zero precision") << R"({"morphs":{"Face/Smile":{"precision_cm":0}}})"
                                          << "key 'morphs.Face/Smile.precision_cm'";
    QTest::newRow("morph absurd precision") << R"({"morphs":{"Face/Smile":{"precision_cm":1e9}}})"
                                            << "key 'morphs.Face/Smile.precision_cm'";
    QTest::newRow("clip morph bad value") << R"({"clips":{"Run":{"morphs":{"*":{"precision_cm":2000}}}}})"
                                          << "key 'clips.Run.morphs.*.precision_cm'";
    QTest::newRow("clip morph shell") << R"({"clips":{"Run":{"morphs":{"*":{"shell_cm":"mesh"}}}}})"
                                      << "key 'clips.Run.morphs.*.shell_cm': a morph rule takes only precision_cm";
  }
  void eachInvalidCaseFailsOnItsOwn() {
    QFETCH(QString, json);
    QFETCH(QString, fragment);
    const std::string text = json.toStdString();
    expectParseError(text.c_str(), fragment.toUtf8().constData());
  }

  void wildcards() {
    QVERIFY(wildcardMatch("*Hand*", "LeftHandIndex1"));
    QVERIFY(wildcardMatch("foot_?", "foot_l"));
    QVERIFY(!wildcardMatch("foot_?", "foot_ll"));
    QVERIFY(wildcardMatch("*", ""));
    QVERIFY(wildcardMatch("a*b*c", "aXbYbZc"));
    QVERIFY(!wildcardMatch("a*b*c", "aXbYbZ"));
    QVERIFY(!wildcardMatch("hand", "Hand"));  // case-sensitive
    QVERIFY(isWildcard("foot_?"));
    QVERIFY(!isWildcard("Hips"));
  }

  void precedence() {
    const Skeleton s = rig();
    CompressionSettings settings;
    settings.precisionCm = 0.02f;
    settings.joints = {{"*Hand*", {0.005f, {}, {}}},
                       {"LeftHand*", {0.004f, {}, {}}},       // longer wildcard wins for LeftHand...
                       {"LeftHandIndex1", {0.001f, {}, {}}},  // ...and an exact name beats both
                       {"Spine", {{}, 7.f, {}}},
                       {"foot_?", {{}, {}, true}}};
    const EffectiveSettings e = resolve(settings, s, "Walk");
    QCOMPARE(e.joints[0].precisionCm, 0.02f);   // default from the file
    QCOMPARE(e.joints[2].precisionCm, 0.004f);  // LeftHand: longest wildcard
    QCOMPARE(e.joints[3].precisionCm, 0.001f);  // exact
    QCOMPARE(e.joints[4].precisionCm, 0.005f);  // RightHand: *Hand*
    QCOMPARE(e.joints[1].shellCm, 7.f);
    QCOMPARE(e.joints[2].shellCm, 7.f);  // inherited from Spine
    QCOMPARE(e.joints[0].shellCm, kDefaultShellCm);
    QVERIFY(e.joints[5].pinned && e.joints[6].pinned);
    QVERIFY(!e.joints[7].pinned);  // foot_ll does not match foot_?, and pinning is not inherited

    // A clip override is strongest: its joint rules, then its own values, over the file's rules.
    settings.clips = {
        {"Run*",
         {0.05f, {}, RotationFormat::Q32, {}, {}, {}, {{"LeftHand", {0.03f, {}, {}}}}, {}, {}, {}, {}, {}, {}, {}}}};
    const EffectiveSettings run = resolve(settings, s, "Run_Fast");
    QCOMPARE(run.joints[2].precisionCm, 0.03f);
    QCOMPARE(run.joints[3].precisionCm, 0.05f);  // clip value beats the exact file rule
    QCOMPARE(run.joints[0].precisionCm, 0.05f);
    QCOMPARE(run.rotationFormat, RotationFormat::Q32);
    QCOMPARE(resolve(settings, s, "Walk").rotationFormat, RotationFormat::Q48);
  }

  void meshShellsComeFromTheFarthestVertex() {
    const Skeleton s = rig();
    const std::vector<SkinnedMesh> meshes{rigMesh()};
    auto parsed = CompressionSettings::fromJson(R"({"shell_cm":"mesh"})", "mesh.json");
    QVERIFY2(parsed, parsed ? "" : parsed.message().c_str());
    QCOMPARE(*parsed->shellCm, kShellFromMesh);
    QVERIFY(usesMeshShells(*parsed));
    QVERIFY(!usesMeshShells({}));
    QVERIFY(parsed->toJson().find(R"("shell_cm": "mesh")") != std::string::npos);
    QVERIFY(*CompressionSettings::fromJson(parsed->toJson(), "again.json") == *parsed);
    // 2 cm per unit. LeftHandIndex1, RightHand, foot_r (only 0.5 %) and foot_ll influence nothing
    // and have no joint below them that does: they take the fallback, 3 cm.
    const std::vector<float> expected{8, 20, 8, 3, 3, 4, 3, 3};
    QCOMPARE(shells(resolve(*parsed, s, "Walk", meshes, 2.0)), expected);
    // Without meshes every joint falls back to the default.
    QCOMPARE(shells(resolve(*parsed, s, "Walk")), std::vector<float>(8, kDefaultShellCm));

    // Per joint: the rule's subtree derives from the mesh, the rest keeps the number; a joint of
    // the subtree with no vertex at or below it (LeftHandIndex1) takes the top-level number too.
    auto rule = CompressionSettings::fromJson(R"({"shell_cm":5,"joints":{"Left*":{"shell_cm":"mesh"}}})", "rule.json");
    QVERIFY(rule && usesMeshShells(*rule));
    QCOMPARE(shells(resolve(*rule, s, "Walk", meshes, 2.0)), (std::vector<float>{5, 5, 8, 5, 5, 5, 5, 5}));
    // A joint that finds no vertex inherits its parent's shell; a root, the top-level number.
    auto foot = CompressionSettings::fromJson(R"({"shell_cm":5,"joints":{"foot_r":{"shell_cm":"mesh"}}})", "foot.json");
    QCOMPARE(resolve(*foot, s, "Walk", meshes, 2.0).joints[6].shellCm, 5.f);
    auto root = CompressionSettings::fromJson(R"({"shell_cm":5,"joints":{"Hips":{"shell_cm":"mesh"}}})", "root.json");
    QCOMPARE(resolve(*root, s, "Walk", meshes, 2.0).joints[0].shellCm, 8.f);
    QCOMPARE(resolve(*root, s, "Walk").joints[0].shellCm, 5.f);

    // Per clip, and through the clip's unit override.
    auto clip = CompressionSettings::fromJson(R"({"clips":{"Run":{"shell_cm":"mesh","unit_to_cm":1}}})", "clip.json");
    QVERIFY(clip && usesMeshShells(*clip));
    QCOMPARE(shells(resolve(*clip, s, "Run", meshes, 2.0)), (std::vector<float>{4, 10, 4, 3, 3, 2, 3, 3}));
    // Walk sets no shell: the default follows the skin too.
    QCOMPARE(shells(resolve(*clip, s, "Walk", meshes, 2.0)), expected);
    QCOMPARE(shells(resolve(*clip, s, "Walk")), std::vector<float>(8, kDefaultShellCm));

    // A number stacked on top replaces "mesh", and the other way round.
    CompressionSettings stacked = *parsed;
    CompressionSettings number;
    number.shellCm = 6.f;
    stacked.merge(number);
    QVERIFY(!usesMeshShells(stacked));
    stacked.merge(*parsed);
    QCOMPARE(*stacked.shellCm, kShellFromMesh);
  }

  void theDefaultShellsFollowTheSkin() {
    const Skeleton s = rig();
    std::vector<SkinnedMesh> meshes{rigMesh()};
    QVERIFY(hasFollowingVertices(meshes));
    // No setting: the skin's shells and the skin check; without a mesh, 3 cm and no skin check.
    const EffectiveSettings skin = resolve({}, s, "Walk", meshes, 2.0);
    QCOMPARE(shells(skin), (std::vector<float>{8, 20, 8, 3, 3, 4, 3, 3}));
    QVERIFY(skin.verifySkin);
    const EffectiveSettings none = resolve({}, s, "Walk");
    QCOMPARE(shells(none), std::vector<float>(8, kDefaultShellCm));
    QVERIFY(!none.verifySkin);
    QVERIFY(skin.hash() != none.hash());  // approvals and caches of the old default go stale
    // A static mesh follows no joint: no skin shells from it.
    std::vector<SkinnedMesh> statics{rigMesh()};
    statics[0].influences.clear();
    statics[0].skinned = false;
    QVERIFY(!hasFollowingVertices(statics));
    QCOMPARE(shells(resolve({}, s, "Walk", statics, 2.0)), std::vector<float>(8, kDefaultShellCm));
    // A number anywhere wins: the top level for every joint, a rule for its joints.
    auto three = CompressionSettings::fromJson(R"({"shell_cm":3})", "three.json");
    QCOMPARE(shells(resolve(*three, s, "Walk", meshes, 2.0)), std::vector<float>(8, 3.f));
    QVERIFY(!resolve(*three, s, "Walk", meshes, 2.0).verifySkin);
    auto hand = CompressionSettings::fromJson(R"({"joints":{"LeftHand":{"shell_cm":12}}})", "hand.json");
    QCOMPARE(shells(resolve(*hand, s, "Walk", meshes, 2.0)), (std::vector<float>{8, 20, 12, 12, 3, 4, 3, 3}));
    // The floor: foot_l's vertex 0.2 units out is 0.4 cm, measured at kMeshShellFloorCm instead.
    meshes[0].positions[2] = {0, 0, 0.2f};
    QCOMPARE(resolve({}, s, "Walk", meshes, 2.0).joints[5].shellCm, kMeshShellFloorCm);
    // shell_fallback_cm: the shell of joints nothing below moves, and of files without a mesh.
    auto fallback = CompressionSettings::fromJson(R"({"shell_fallback_cm":5})", "fallback.json");
    QVERIFY2(fallback, fallback ? "" : fallback.message().c_str());
    QCOMPARE(shells(resolve(*fallback, s, "Walk", meshes, 2.0)), (std::vector<float>{8, 20, 8, 5, 5, 1, 5, 5}));
    QCOMPARE(shells(resolve(*fallback, s, "Walk")), std::vector<float>(8, 5.f));
    QVERIFY(fallback->toJson().find(R"("shell_fallback_cm": 5)") != std::string::npos);
    expectParseError(R"({"shell_fallback_cm":"mesh"})", "shell_fallback_cm");
    expectParseError(R"({"shell_fallback_cm":0})", "shell_fallback_cm");
    // A root above the skin (no vertex of its own, skin below it) takes the fallback, its children the skin's.
    std::vector<SkinnedMesh> below{rigMesh()};
    below[0].influences[1] = {{2, 0, 0, 0}, {1.f, 0, 0, 0}};  // Hips no longer moves a vertex
    QCOMPARE(resolve(*fallback, s, "Walk", below, 2.0).joints[0].shellCm, 5.f);
    QCOMPARE(resolve(*fallback, s, "Walk", below, 2.0).joints[1].shellCm, 20.f);
  }

  void meshShellHashesFollowTheMesh() {
    const Skeleton s = rig();
    std::vector<SkinnedMesh> meshes{rigMesh()};
    CompressionSettings mesh;
    mesh.shellCm = kShellFromMesh;
    CompressionSettings three;
    three.shellCm = 3.f;
    QVERIFY(mesh.hash() != three.hash());
    const std::uint64_t before = resolve(mesh, s, "Walk", meshes, 1.0).hash();
    QCOMPARE(resolve(mesh, s, "Walk", meshes, 1.0).hash(), before);
    meshes[0].positions[0].x = 11;  // Spine's farthest vertex moves: its resolved shell and the hash change
    QVERIFY(resolve(mesh, s, "Walk", meshes, 1.0).hash() != before);
    QVERIFY(resolve(three, s, "Walk", meshes, 1.0).hash() == resolve(three, s, "Walk").hash());
  }

  void mergeStacksLayers() {
    auto preset =
        CompressionSettings::fromJson(R"({"precision_cm":0.05,"joints":{"*Hand*":{"precision_cm":0.01}}})", "p");
    auto file = CompressionSettings::fromJson(
        R"({"shell_cm":5,"joints":{"*Hand*":{"pinned":true},"Hips":{"precision_cm":0.001}}})", "f");
    QVERIFY(preset && file);
    CompressionSettings s = *preset;
    s.merge(*file);
    QCOMPARE(*s.precisionCm, 0.05f);
    QCOMPARE(*s.shellCm, 5.f);
    QCOMPARE(s.joints.size(), std::size_t(2));
    QCOMPARE(*s.joints[0].second.precisionCm, 0.01f);
    QVERIFY(*s.joints[0].second.pinned);
  }

  void parsesMorphRules() {
    const char* json =
        R"({"precision_cm":0.02,"morphs":{"Face*":{"precision_cm":0.05},"Face/Blink":{"precision_cm":0.2},
      "Hair*":{}},"clips":{"Talk*":{"morphs":{"Face/Smile":{"precision_cm":0.01}}}}})";
    const auto s = CompressionSettings::fromJson(json, "face.json");
    QVERIFY2(s, s ? "" : s.message().c_str());
    QCOMPARE(s->morphs.size(), std::size_t(3));  // file order
    QCOMPARE(s->morphs[0].first, std::string("Face*"));
    QCOMPARE(*s->morphs[0].second.precisionCm, 0.05f);
    QCOMPARE(s->morphs[1].first, std::string("Face/Blink"));
    QVERIFY(!s->morphs[2].second.precisionCm);
    QCOMPARE(s->clips[0].second.morphs.size(), std::size_t(1));
    QCOMPARE(*s->clips[0].second.morphs[0].second.precisionCm, 0.01f);
    QVERIFY(s->joints.empty());
    const std::string text = s->toJson();
    QVERIFY(text.find(R"("morphs")") != std::string::npos);
    const auto again = CompressionSettings::fromJson(text, "again.json");
    QVERIFY2(again, again ? "" : again.message().c_str());
    QVERIFY(*again == *s);
    QCOMPARE(again->morphs, s->morphs);
    QCOMPARE(again->clips[0].second.morphs, s->clips[0].second.morphs);
    QCOMPARE(again->toJson(), text);
    QCOMPARE(again->hash(), s->hash());
    // Written only when there are rules.
    QVERIFY(CompressionSettings{}.toJson().find("morphs") == std::string::npos);
    CompressionSettings noClipMorphs = *s;
    noClipMorphs.morphs.clear();
    noClipMorphs.clips[0].second.morphs.clear();
    QVERIFY(noClipMorphs.toJson().find("morphs") == std::string::npos);
  }

  void validateRefusesNonFiniteMorphPrecision() {
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), 0.f, -1.f,
                      kMinPrecisionCm / 2, kMaxPrecisionCm * 2}) {
      CompressionSettings s;
      s.morphs = {{"Face/Smile", {bad}}};
      const Status top = s.validate();
      QVERIFY(!top);
      QVERIFY2(top.message().find("key 'morphs.Face/Smile.precision_cm'") != std::string::npos, top.message().c_str());
      s.morphs.clear();
      s.clips = {{"Run", {}}};
      s.clips[0].second.morphs = {{"*", {bad}}};
      const Status clip = s.validate();
      QVERIFY(!clip);
      QVERIFY2(clip.message().find("key 'clips.Run.morphs.*.precision_cm'") != std::string::npos,
               clip.message().c_str());
    }
    CompressionSettings edges;
    edges.morphs = {{"a/b", {kMinPrecisionCm}}, {"a/c", {kMaxPrecisionCm}}};
    QVERIFY(edges.validate());
    edges.morphs = {{"", {0.1f}}};
    QVERIFY(!edges.validate());
  }

  void morphPrecedence() {
    const Skeleton s = rig();
    const std::vector<MorphCurve> curves = faceCurves();  // Smile, Sneer, Frown, Blink, Breathe, Wave
    // No settings: every curve gets the default; no curves: no entries.
    QCOMPARE(curvePrecisions(resolve({}, s, "Walk", {}, 1.0, curves)), std::vector<float>(6, kDefaultPrecisionCm));
    QVERIFY(resolve({}, s, "Walk").curves.empty());

    CompressionSettings settings;
    settings.precisionCm = 0.02f;                 // the top-level value
    settings.joints = {{"*", {0.001f, {}, {}}}};  // joint rules never reach curves
    settings.morphs = {{"Face/Blink", {0.1f}},    // exact beats every wildcard, wherever it sits
                       {"Face/*", {0.5f}},        // a wildcard
                       {"Face/S*", {0.3f}},       // the longer wildcard wins
                       {"Face/Bl*", {0.4f}},      // loses to the exact name
                       {"Body/*", {}},            // sets nothing: the top-level value
                       {"Body/Breathe", {std::nullopt}},
                       {"Hair/Wave", {0.8f}}};
    QCOMPARE(curvePrecisions(resolve(settings, s, "Walk", {}, 1.0, curves)),
             (std::vector<float>{0.3f, 0.3f, 0.5f, 0.1f, 0.02f, 0.8f}));
    CompressionSettings noTop = settings;
    noTop.precisionCm.reset();
    QCOMPARE(resolve(noTop, s, "Walk", {}, 1.0, curves).curves[4].precisionCm, kDefaultPrecisionCm);

    // A clip's morph rules (exact, then the longest wildcard), then its own value, beat every top-level
    // rule: Hair/Wave's "Hair/*" sets nothing, so the clip's 0.05 beats the top-level exact 0.8.
    ClipOverride run;
    run.precisionCm = 0.05f;
    run.joints = {{"*", {0.002f, {}, {}}}};
    run.morphs = {{"Face/*", {0.6f}}, {"Face/S*", {0.7f}}, {"Face/Smile", {0.15f}}, {"Hair/*", {}}};
    settings.clips = {{"Run*", run}};
    QCOMPARE(curvePrecisions(resolve(settings, s, "Run_Fast", {}, 1.0, curves)),
             (std::vector<float>{0.15f, 0.7f, 0.6f, 0.6f, 0.05f, 0.05f}));
    // A clip rule without a value of its own: its morph rules, then the top level's.
    ClipOverride idle;
    idle.morphs = {{"Face/Smile", {0.25f}}};
    idle.rotationFormat = RotationFormat::Q32;
    settings.clips.push_back({"Idle", idle});
    QCOMPARE(curvePrecisions(resolve(settings, s, "Idle", {}, 1.0, curves)),
             (std::vector<float>{0.25f, 0.3f, 0.5f, 0.1f, 0.02f, 0.8f}));
    // The curves follow the file's order, one each, whatever the joints resolve to.
    std::vector<MorphCurve> reversed(curves.rbegin(), curves.rend());
    QCOMPARE(curvePrecisions(resolve(settings, s, "Walk", {}, 1.0, reversed)),
             (std::vector<float>{0.8f, 0.02f, 0.1f, 0.5f, 0.3f, 0.3f}));
    QCOMPARE(resolve(settings, s, "Walk", {}, 1.0, curves).joints, resolve(settings, s, "Walk").joints);
  }

  void morphExampleOfTheDocs() {
    // docs/SETTINGS.md "Morph targets" (a plain string: moc misreads a slash-star in a raw string).
    const char* json =
        "{ \"precision_cm\": 0.01,"
        "  \"morphs\": { \"*\": { \"precision_cm\": 0.05 }, \"Face/*\": { \"precision_cm\": 0.01 },"
        "              \"Face/Blink*\": { \"precision_cm\": 0.02 } },"
        "  \"clips\": { \"Talk*\": { \"morphs\": { \"Face/Mouth*\": { \"precision_cm\": 0.005 } } } } }";
    const auto s = CompressionSettings::fromJson(json, "doc.json");
    QVERIFY2(s, s ? "" : s.message().c_str());
    std::vector<MorphCurve> curves;
    for (const char* name : {"Face/Blink_L", "Face/Smile", "Body/Breathe", "Face/MouthOpen"})
      curves.push_back({name, {}, {}, 0, 2.0, 0});
    QCOMPARE(curvePrecisions(resolve(*s, rig(), "Walk", {}, 1.0, curves)),
             (std::vector<float>{0.02f, 0.01f, 0.05f, 0.01f}));
    QCOMPARE(curvePrecisions(resolve(*s, rig(), "Talk_Hello", {}, 1.0, curves)),
             (std::vector<float>{0.02f, 0.01f, 0.05f, 0.005f}));
  }

  void mergeStacksMorphRules() {
    auto preset = CompressionSettings::fromJson(
        R"({"morphs":{"Face*":{"precision_cm":0.05},"Hair*":{"precision_cm":0.5}},
            "clips":{"Talk":{"morphs":{"Face/Smile":{"precision_cm":0.01}}}}})",
        "p");
    auto file = CompressionSettings::fromJson(
        R"({"morphs":{"Face*":{"precision_cm":0.02},"Body*":{"precision_cm":0.1},"Hair*":{}},
            "clips":{"Talk":{"precision_cm":0.03,"morphs":{"Face/Blink":{"precision_cm":0.2}}},
                     "Run":{"morphs":{"*":{"precision_cm":1}}}}})",
        "f");
    QVERIFY2(preset, preset ? "" : preset.message().c_str());
    QVERIFY2(file, file ? "" : file.message().c_str());
    CompressionSettings s = *preset;
    s.merge(*file);
    // Same pattern: its set values replaced in place; new patterns appended; unset values keep the layer below.
    QCOMPARE(s.morphs.size(), std::size_t(3));
    QCOMPARE(s.morphs[0].first, std::string("Face*"));
    QCOMPARE(*s.morphs[0].second.precisionCm, 0.02f);
    QCOMPARE(*s.morphs[1].second.precisionCm, 0.5f);
    QCOMPARE(s.morphs[2].first, std::string("Body*"));
    QCOMPARE(s.clips.size(), std::size_t(2));
    const ClipOverride& talk = s.clips[0].second;
    QCOMPARE(*talk.precisionCm, 0.03f);
    QCOMPARE(talk.morphs.size(), std::size_t(2));
    QCOMPARE(*talk.morphs[0].second.precisionCm, 0.01f);
    QCOMPARE(talk.morphs[1].first, std::string("Face/Blink"));
    QCOMPARE(s.clips[1].second.morphs.size(), std::size_t(1));
    // Merged settings round-trip like any others.
    QVERIFY(*CompressionSettings::fromJson(s.toJson(), "merged.json") == s);
  }

  void hashesWithoutMorphsAreUnchanged() {
    // Computed before settings had morph rules (commit 3557092): packs and approvals of files
    // without morph targets keep their settings hash.
    const char* full = R"({"description":"hero characters","precision_cm":0.02,"shell_cm":4,"rotation_format":"q32",
      "snapshot_interval_s":0.5,"unit_to_cm":2.54,"loop":true,"root_motion":"extract","root_joint":"Hips",
      "joints":{"*Hand*":{"precision_cm":0.005},"foot_?":{"pinned":true,"shell_cm":"mesh"}},
      "clips":{"Run*":{"precision_cm":0.05,"additive_base":"rest","joints":{"Spine":{"shell_cm":20}}}}})";
    const auto f = CompressionSettings::fromJson(full, "full.json");
    QVERIFY2(f, f ? "" : f.message().c_str());
    const std::vector<SkinnedMesh> meshes{rigMesh()};
    QCOMPARE(CompressionSettings{}.hash(), std::uint64_t(645223143103797797ull));
    QCOMPARE(f->hash(), std::uint64_t(178446244167801860ull));
    QCOMPARE(resolve({}, rig(), "Walk").hash(), std::uint64_t(9725854247514062322ull));
    QCOMPARE(resolve(*f, rig(), "Run_Fast", meshes, 2.0).hash(), std::uint64_t(8437409738437292482ull));
    QCOMPARE(resolve(*f, rig(), "Walk", meshes, 2.0).hash(), std::uint64_t(5816483041894268758ull));
    // A file without curves resolves alike whatever the morph rules say.
    CompressionSettings withMorphs = *f;
    withMorphs.morphs = {{"Face/*", {0.5f}}};
    QCOMPARE(resolve(withMorphs, rig(), "Walk", meshes, 2.0).hash(), std::uint64_t(5816483041894268758ull));
    QCOMPARE(resolve(*f, rig(), "Walk", meshes, 2.0, {}).hash(), std::uint64_t(5816483041894268758ull));

    // With rules or curves the hashes move: the settings hash, and each curve's precision.
    QVERIFY(withMorphs.hash() != f->hash());
    const std::vector<MorphCurve> curves = faceCurves();
    const EffectiveSettings base = resolve(*f, rig(), "Walk", meshes, 2.0, curves);
    std::set<std::uint64_t> hashes{std::uint64_t(5816483041894268758ull), base.hash()};
    hashes.insert(resolve(withMorphs, rig(), "Walk", meshes, 2.0, curves).hash());
    EffectiveSettings e = base;
    e.curves[5].precisionCm = 0.011f;
    hashes.insert(e.hash());
    e = base;
    e.curves.pop_back();
    hashes.insert(e.hash());
    QCOMPARE(hashes.size(), std::size_t(5));
    QCOMPARE(resolve(*f, rig(), "Walk", meshes, 2.0, curves).hash(), base.hash());  // stable
  }

  void hashCoversEveryEffectiveValue() {
    const Skeleton s = rig();
    const EffectiveSettings base = resolve({}, s, "Walk");
    std::set<std::uint64_t> hashes{base.hash()};
    EffectiveSettings e = base;
    e.joints[3].precisionCm = 0.011f;
    hashes.insert(e.hash());
    e = base;
    e.joints[3].shellCm = 3.5f;
    hashes.insert(e.hash());
    e = base;
    e.joints[6].pinned = true;
    hashes.insert(e.hash());
    e = base;
    e.rotationFormat = RotationFormat::Q32;
    hashes.insert(e.hash());
    e = base;
    e.snapshotIntervalS = 2;
    hashes.insert(e.hash());
    e = base;
    e.unitToCm = 100;
    hashes.insert(e.hash());
    e = base;
    e.sampleRate = 60;
    hashes.insert(e.hash());
    QCOMPARE(hashes.size(), std::size_t(8));
    QCOMPARE(resolve({}, s, "Walk").hash(), base.hash());  // stable
  }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
