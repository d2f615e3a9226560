// Morph targets on import (core/io/morph_import.h, docs/IMPORT.md "Morph targets"): curves named
// NODE/TARGET with their largest displacement, each clip's keys, the binding rules, and what Assimp
// 5.2 reads wrongly refused with a diagnostic naming the channel; `inspect` lists them and the
// import stream carries them.
#include <QtTest>

#include <assimp/anim.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>

#include <nlohmann/json.hpp>

#include "core/io/asset_importer.h"
#include "core/io/asset_json.h"
#include "core/io/import_stream.h"
#include "core/io/morph_import.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

bool hasDiagnostic(const std::vector<Diagnostic>& diagnostics, const char* fragment) {
  for (const Diagnostic& d : diagnostics)
    if (d.message.find(fragment) != std::string::npos) return true;
  return false;
}

/// A hand-built scene for the binding rules: meshes with targets and one animation of morph channels.
struct Scene {
  aiScene scene;
  std::vector<MorphNode> nodes;

  /// A mesh of one vertex at the origin with targets moved by `offsets` (absolute, as Assimp gives them).
  unsigned addMesh(std::vector<aiVector3D> offsets, std::vector<float> weights = {}) {
    auto* m = new aiMesh;
    m->mNumVertices = 1;
    m->mVertices = new aiVector3D[1];
    m->mNumAnimMeshes = unsigned(offsets.size());
    m->mAnimMeshes = new aiAnimMesh*[offsets.size()];
    for (std::size_t t = 0; t < offsets.size(); ++t) {
      auto* a = new aiAnimMesh;
      a->mNumVertices = 1;
      a->mVertices = new aiVector3D[1]{offsets[t]};
      a->mWeight = t < weights.size() ? weights[t] : 1.f;
      m->mAnimMeshes[t] = a;
    }
    meshes.push_back(m);
    return unsigned(meshes.size() - 1);
  }
  /// One morph channel: keys of (time, {(target, weight)...}).
  void addChannel(const char* name, std::vector<std::pair<double, std::vector<std::pair<unsigned, double>>>> keys) {
    auto* c = new aiMeshMorphAnim;
    c->mName = name;
    c->mNumKeys = unsigned(keys.size());
    c->mKeys = new aiMeshMorphKey[keys.size()];
    for (std::size_t k = 0; k < keys.size(); ++k) {
      aiMeshMorphKey& key = c->mKeys[k];
      key.mTime = keys[k].first;
      key.mNumValuesAndWeights = unsigned(keys[k].second.size());
      key.mValues = new unsigned[key.mNumValuesAndWeights];
      key.mWeights = new double[key.mNumValuesAndWeights];
      for (unsigned j = 0; j < key.mNumValuesAndWeights; ++j) {
        key.mValues[j] = keys[k].second[j].first;
        key.mWeights[j] = keys[k].second[j].second;
      }
    }
    channels.push_back(c);
  }
  void finish() {
    scene.mNumMeshes = unsigned(meshes.size());
    scene.mMeshes = new aiMesh*[meshes.size()];
    std::copy(meshes.begin(), meshes.end(), scene.mMeshes);
    auto* anim = new aiAnimation;
    anim->mTicksPerSecond = 10;
    anim->mNumMorphMeshChannels = unsigned(channels.size());
    anim->mMorphMeshChannels = new aiMeshMorphAnim*[channels.size()];
    std::copy(channels.begin(), channels.end(), anim->mMorphMeshChannels);
    scene.mNumAnimations = 1;
    scene.mAnimations = new aiAnimation* [1] { anim };
  }
  std::vector<aiMesh*> meshes;
  std::vector<aiMeshMorphAnim*> channels;
};

}  // namespace

class TestMorphImport : public QObject {
  Q_OBJECT
 private slots:
  void curvesKeysAndDisplacementsOfAGeneratedRig() {
    const auto path = test::writeScene(test::morphRig(), "morph_rig.gltf");
    auto asset = importAsset(path);
    QVERIFY2(asset, asset ? "" : asset.message().c_str());
    const std::vector<std::string> names{"Body/Smile", "Body/Blink", "Body/2", "Body/Smile#2"};
    const double displacement[4] = {2, 1, 0.5, 3};  // cm: metres x 100
    const float rest[4] = {0, 0, 0.25f, 0};
    QCOMPARE(asset->curves.size(), names.size());
    for (std::size_t c = 0; c < names.size(); ++c) {
      const MorphCurve& m = asset->curves[c];
      QCOMPARE(m.name, names[c]);
      QCOMPARE(m.node, std::string("Body"));
      QCOMPARE(m.targetIndex, std::uint32_t(c));
      QVERIFY2(std::fabs(m.displacementCm - displacement[c]) < 1e-4, qPrintable(QString::number(m.displacementCm)));
      QCOMPARE(m.restWeight, rest[c]);
    }
    QCOMPARE(asset->curves[2].target, std::string("2"));  // unnamed: its index
    const RawClip& walk = asset->clips[0];
    QCOMPARE(walk.name, std::string("Walk"));
    QCOMPARE(walk.curves.size(), std::size_t(4));
    for (std::uint32_t t = 0; t < 4; ++t) {
      const CurveKeys& k = walk.curves[t];
      QCOMPARE(k.curve, t);
      QCOMPARE(k.times.size(), std::size_t(25));
      for (int f = 0; f < 25; ++f) {
        QVERIFY(std::fabs(k.times[std::size_t(f)] - f / 25.0) < 1e-6);
        QVERIFY(std::fabs(k.weights[std::size_t(f)] - test::morphRigWeight(int(t), f)) < 1e-6);
      }
    }
    QVERIFY(asset->clips[1].curves.empty());  // Wave animates no weight
    QVERIFY(hasDiagnostic(asset->diagnostics, "4 morph target(s), 4 animated"));

    // inspect --json (DESIGN §9): curves with their displacement, each clip's animated curves.
    const auto json = nlohmann::json::parse(inspectJson(*asset));
    QCOMPARE(json["curves"].size(), std::size_t(4));
    QCOMPARE(json["curves"][3]["name"].get<std::string>(), std::string("Body/Smile#2"));
    QCOMPARE(json["curves"][3]["target"].get<std::string>(), std::string("Smile"));
    QCOMPARE(json["curves"][3]["target_index"].get<int>(), 3);
    QVERIFY(std::fabs(json["curves"][0]["displacement_cm"].get<double>() - 2.0) < 1e-4);
    QCOMPARE(json["clips"][0]["animated_curves"].size(), std::size_t(4));
    QCOMPARE(json["clips"][1]["animated_curves"].size(), std::size_t(0));
    QVERIFY(QString::fromStdString(inspectText(*asset)).contains("Body/Blink: moves a vertex up to 1.0000 cm"));

    // The import stream (how `compress`, `inspect` and the studio import) carries them.
    auto back = readImportStream(writeImportStream(*asset), "test");
    QVERIFY2(back, back ? "" : back.message().c_str());
    QCOMPARE(back->curves.size(), asset->curves.size());
    QCOMPARE(back->curves[3].name, asset->curves[3].name);
    QCOMPARE(back->curves[0].displacementCm, asset->curves[0].displacementCm);
    QCOMPARE(back->clips[0].curves.size(), std::size_t(4));
    QCOMPARE(back->clips[0].curves[0].weights, asset->clips[0].curves[0].weights);
  }

  void aDamagedStreamOfCurvesIsRefused() {
    auto asset = importAsset(test::writeScene(test::morphRig(), "morph_rig.gltf"));
    QVERIFY(asset);
    ImportedAsset bad = *asset;
    bad.clips[0].curves[1].curve = 9;  // a curve that does not exist
    auto read = readImportStream(writeImportStream(bad), "test");
    QVERIFY(!read);
    QVERIFY2(QString::fromStdString(read.message()).contains("morph curve keys"), read ? "" : read.message().c_str());
    bad = *asset;
    bad.clips[0].curves[0].times[3] = bad.clips[0].curves[0].times[2];  // not increasing
    QVERIFY(!readImportStream(writeImportStream(bad), "test"));
  }

  void bindingRulesAndWhatAssimpMisreads() {
    Scene s;
    const unsigned face = s.addMesh({{0, 0.1f, 0}, {0, 0, 0.2f}});
    const unsigned faceTwo = s.addMesh({{0.3f, 0, 0}, {0, 0, 0}});  // a second primitive of the same node
    const unsigned inbetween = s.addMesh({{0, 1, 0}, {0, 2, 0}}, {1.f, 0.5f});
    const unsigned hair = s.addMesh({{0, 0.05f, 0}});
    // FBX: "node*N" names; sparse keys (each key lists only some targets); a key naming target 5 of 1.
    s.addChannel("face*0", {{0, {{0, 0.5}, {1, -0.25}}}, {10, {{1, 2.0}}}, {20, {{0, 1.0}}}});
    s.addChannel("hair*0", {{0, {{0, 0.0}}}, {10, {{5, 1.0}}}});
    s.addChannel("brows*0", {{0, {{0, 1.0}}}});    // a node with in-between shapes: refused
    s.addChannel("missing*0", {{0, {{0, 1.0}}}});  // no such node
    s.addChannel("bone*0", {{0, {{0, 1.0}}}});     // a node without targets (shapes Assimp dropped)
    s.finish();
    Mat34d scaled = Mat34d::identity();
    for (int i = 0; i < 3; ++i) scaled.at(i, i) = 2.0;  // the face node is scaled by 2
    s.nodes = {{"face", {face, faceTwo}, scaled},
               {"brows", {inbetween}, Mat34d::identity()},
               {"hair", {hair}, Mat34d::identity()},
               {"bone", {}, Mat34d::identity()}};
    std::vector<Diagnostic> diagnostics;
    MorphReader reader(s.scene, s.nodes, "fbx", 100.0, diagnostics);
    // Curves: the face's two targets over both primitives (largest of 0.1 and 0.3, scaled by 2, in cm),
    // the hair's one; the brows' in-betweens are refused.
    QCOMPARE(reader.curves().size(), std::size_t(3));
    QCOMPARE(reader.curves()[0].name, std::string("face/0"));
    QVERIFY(std::fabs(reader.curves()[0].displacementCm - 60.0) < 1e-4);
    QVERIFY(std::fabs(reader.curves()[1].displacementCm - 40.0) < 1e-4);
    QCOMPARE(reader.curves()[2].name, std::string("hair/0"));
    QVERIFY(hasDiagnostic(diagnostics, "node 'brows': blend shapes with in-between shapes"));

    const std::vector<CurveKeys> keys = reader.keys(*s.scene.mAnimations[0], 10.0, 0.0, "clip 0 'Take'");
    QCOMPARE(keys.size(), std::size_t(2));  // face/0 and face/1, each with its own keys
    QCOMPARE(keys[0].times, (std::vector<double>{0, 2}));
    QCOMPARE(keys[0].weights, (std::vector<double>{0.5, 1.0}));
    QCOMPARE(keys[1].times, (std::vector<double>{0, 1}));
    QCOMPARE(keys[1].weights, (std::vector<double>{-0.25, 2.0}));  // FBX weights outside 0..1 are kept
    QVERIFY(hasDiagnostic(diagnostics, "morph channel 'hair*0': key 1 names target 5 of 1"));
    QVERIFY(hasDiagnostic(diagnostics, "morph channel 'missing*0' names no node; left out"));
    QVERIFY(
        hasDiagnostic(diagnostics, "morph channel 'bone*0' drives node 'bone', whose meshes have no morph targets"));
    QVERIFY(!hasDiagnostic(diagnostics, "'brows*0'"));  // said once, with the node
  }

  void garbageWeightsAndAmbiguousNamesAreRefused() {
    Scene s;
    const unsigned a = s.addMesh({{0, 1, 0}});
    const unsigned b = s.addMesh({{0, 2, 0}});
    s.addChannel("Head", {{0, {{0, 4.6e-41}}}});  // glTF: the node's own name; two such nodes with targets
    s.addChannel("Cube", {{0, {{0, 4.6e-41}}}, {100, {{0, 0.0}}}});
    s.finish();
    s.nodes = {{"Head", {}, Mat34d::identity()},  // a joint that shares the mesh node's name
               {"Head", {a}, Mat34d::identity()},
               {"Cube", {b}, Mat34d::identity()}};
    std::vector<Diagnostic> diagnostics;
    MorphReader reader(s.scene, s.nodes, "gltf", 1.0, diagnostics);
    const auto keys = reader.keys(*s.scene.mAnimations[0], 1000.0, 0.0, "clip 0 'Square'");
    QVERIFY(keys.empty());
    QVERIFY(hasDiagnostic(diagnostics,
                          "morph channel 'Head' matches 2 nodes named 'Head'; bound to the one with morph targets"));
    QVERIFY(hasDiagnostic(diagnostics, "its weights read as garbage"));
  }

  void openFilesWithSkeletonAndMorphs() {
    if (qEnvironmentVariableIsEmpty("ANIMPACK_OPEN_TESTS")) QSKIP("runs as ctest tst_morph_import_open (label open)");
    const std::filesystem::path open = ANIMPACK_OPEN_DATA;
    if (!std::filesystem::exists(open / "morph"))
      QSKIP(qPrintable("skipped: the open data folder " + QString::fromStdString((open / "morph").string()) +
                       " is absent"));
    auto robot = importAsset(open / "morph/threejs-RobotExpressive/RobotExpressive.glb");
    QVERIFY2(robot, robot ? "" : robot.message().c_str());
    QStringList names;
    for (const MorphCurve& m : robot->curves) names << QString::fromStdString(m.name);
    QCOMPARE(names, (QStringList{"Head/Angry", "Head/Surprised", "Head/Sad"}));
    QVERIFY(hasDiagnostic(robot->diagnostics, "matches 2 nodes named 'Head'; bound to the one with morph targets"));
    for (const RawClip& c : robot->clips) QCOMPARE(c.curves.size(), std::size_t(3));
    for (const MorphCurve& m : robot->curves) QVERIFY(m.displacementCm > 0.1);

    auto barbarian = importAsset(open / "morph/ufbx/blender_293_barbarian_7400_binary.fbx");
    QVERIFY2(barbarian, barbarian ? "" : barbarian.message().c_str());
    QVERIFY(barbarian->curves.size() >= 3);
    double lowest = 0;
    for (const CurveKeys& k : barbarian->clips[0].curves)
      for (double w : k.weights) lowest = std::min(lowest, w);
    QVERIFY2(lowest < -0.06, qPrintable(QString::number(lowest)));  // FBX weights below 0 are kept

    // Files that animate only morph weights have an empty skeleton and curves (DESIGN: joint set).
    auto cube = importAsset(open / "morph/khronos-gltf-sample/AnimatedMorphCube/AnimatedMorphCube.gltf");
    QVERIFY2(cube, cube ? "" : cube.message().c_str());
    QCOMPARE(cube->skeleton.jointCount(), std::size_t(0));
    QCOMPARE(cube->curves.size(), std::size_t(2));
    QCOMPARE(cube->clips.size(), std::size_t(1));
    QCOMPARE(cube->clips[0].curves.size(), std::size_t(2));
    QVERIFY2(cube->clips[0].frameCount > 100, qPrintable(QString::number(cube->clips[0].frameCount)));  // 4.2 s
    auto stress = importAsset(open / "morph/khronos-gltf-sample/MorphStressTest/MorphStressTest.gltf");
    QVERIFY2(stress, stress ? "" : stress.message().c_str());
    QCOMPARE(stress->curves.size(), std::size_t(8));
    QCOMPARE(stress->clips.size(), std::size_t(3));

    // ... unless none of their weights survives Assimp: the refusal names the channel and why.
    const std::pair<const char*, const char*> refused[] = {
        {"morph/khronos-gltf-sample/AnimatedMorphCube-glTF-Quantized/AnimatedMorphCube.gltf", "read as garbage"},
        {"morph/gltf-blender-io/01_morphed_cube/01_morphed_cube.gltf", "CUBICSPLINE"},
        {"morph/ufbx/maya_blend_shape_cube_7700_binary.fbx", "'pCube1*0'"},
        {"morph/ufbx/maya_blend_inbetween_7500_binary.fbx", "in-between"},
    };
    for (const auto& [file, why] : refused) {
      auto asset = importAsset(open / file);
      QVERIFY2(!asset, file);
      const QString message = QString::fromStdString(asset.message());
      QVERIFY2(message.contains("nothing to compress") && message.contains(why), qPrintable(message));
    }
  }
};

QTEST_MAIN(TestMorphImport)
#include "tst_morph_import.moc"
