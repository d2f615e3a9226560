// Import of real files (assimp-testmodels) and of rigs the test writes itself: joint set, units,
// clip identity, resampling exactness against Assimp's own keys, and every bad input.
#include <QtTest>

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cmath>
#include <fstream>

#include "core/anim/raw_sampler.h"
#include "core/base/assert.h"
#include "core/io/asset_importer.h"
#include "core/io/asset_json.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;
using test::model;

namespace {

ImportedAsset load(const std::filesystem::path& path, const ImportOptions& options = {}) {
  auto asset = importAsset(path, options);
  if (!asset) qFatal("%s", asset.message().c_str());
  return std::move(asset.value());
}

bool hasDiagnostic(const ImportedAsset& a, const char* fragment) {
  for (const Diagnostic& d : a.diagnostics)
    if (d.message.find(fragment) != std::string::npos) return true;
  return false;
}

void expectFailure(const std::filesystem::path& path, const char* fragment) {
  const auto asset = importAsset(path);
  QVERIFY2(!asset, qPrintable(QString::fromStdString(path.string())));
  const QString message = QString::fromStdString(asset.message());
  QVERIFY2(message.contains(QString::fromStdString(path.string())), qPrintable(message));
  QVERIFY2(message.contains(fragment), qPrintable(message));
}

Vec3 objectPosition(const ImportedAsset& a, const RawClip& c, std::uint32_t frame, const char* joint) {
  std::vector<Mat34d> object(a.skeleton.jointCount());
  runtime::localToObject<double>(a.skeleton.parents, c.frame(frame), object);
  const Mat34d& m = object[std::size_t(a.skeleton.find(joint))];
  return {float(m.m[9]), float(m.m[10]), float(m.m[11])};
}

/// Every key of every channel that sits on the clip's frame grid equals the resampled value there.
void compareWithAssimpKeys(const std::filesystem::path& path) {
  const ImportedAsset asset = load(path);
  Assimp::Importer importer;
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
  const aiScene* scene = importer.ReadFile(path.string(), aiProcess_Triangulate);
  QVERIFY(scene);
  int compared = 0;
  for (unsigned a = 0; a < scene->mNumAnimations; ++a) {
    const aiAnimation* anim = scene->mAnimations[a];
    const RawClip& clip = asset.clips[a];
    const double tps = anim->mTicksPerSecond > 0 ? anim->mTicksPerSecond : 30.0;
    for (unsigned c = 0; c < anim->mNumChannels; ++c) {
      const aiNodeAnim* ch = anim->mChannels[c];
      const std::int32_t joint = asset.skeleton.find(ch->mNodeName.C_Str());
      if (joint < 0) continue;
      auto frameOf = [&](double ticks, std::uint32_t& frame) {
        const double f = (ticks / tps - clip.startTime) * clip.sampleRate;
        frame = static_cast<std::uint32_t>(std::llround(f));
        return std::fabs(f - std::round(f)) < 1e-4 && frame < clip.frameCount;
      };
      std::uint32_t f = 0;
      for (unsigned k = 0; k < ch->mNumPositionKeys; ++k) {
        if (!frameOf(ch->mPositionKeys[k].mTime, f)) continue;
        const Vec3 v = clip.at(std::uint32_t(joint), f).translation;
        const aiVector3D& e = ch->mPositionKeys[k].mValue;
        const float tol = 1e-5f * std::max(1.f, e.Length());
        QVERIFY2(std::fabs(v.x - e.x) <= tol && std::fabs(v.y - e.y) <= tol && std::fabs(v.z - e.z) <= tol,
                 qPrintable(QString("%1 %2 frame %3").arg(path.c_str()).arg(ch->mNodeName.C_Str()).arg(f)));
        ++compared;
      }
      for (unsigned k = 0; k < ch->mNumRotationKeys; ++k) {
        if (!frameOf(ch->mRotationKeys[k].mTime, f)) continue;
        const Quat q = clip.at(std::uint32_t(joint), f).rotation;
        aiQuaternion e = ch->mRotationKeys[k].mValue;
        e.Normalize();
        const float d = std::fabs(q.x * e.x + q.y * e.y + q.z * e.z + q.w * e.w);
        QVERIFY2(d > 1.f - 1e-6f,
                 qPrintable(QString("%1 %2 rotation frame %3").arg(path.c_str()).arg(ch->mNodeName.C_Str()).arg(f)));
        ++compared;
      }
      for (unsigned k = 0; k < ch->mNumScalingKeys; ++k) {
        if (!frameOf(ch->mScalingKeys[k].mTime, f)) continue;
        const Vec3 v = clip.at(std::uint32_t(joint), f).scale;
        const aiVector3D& e = ch->mScalingKeys[k].mValue;
        QVERIFY(std::fabs(v.x - e.x) < 1e-5f && std::fabs(v.y - e.y) < 1e-5f && std::fabs(v.z - e.z) < 1e-5f);
        ++compared;
      }
    }
  }
  QVERIFY2(compared > 10, qPrintable(QString("only %1 keys compared").arg(compared)));
}

}  // namespace

class TestImporter : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { setAssertThrows(true); }

  void bvhMocap() {
    const ImportedAsset a = load(model("BVH/01_01.bvh"));
    QCOMPARE(a.skeleton.jointCount(), std::size_t(38));
    QCOMPARE(a.skeleton.names[0], std::string("Hips"));  // the animated scene root is joint 0
    QCOMPARE(a.skeleton.parents[0], -1);
    QCOMPARE(a.clips.size(), std::size_t(1));
    QCOMPARE(a.clips[0].frameCount, 2752u);
    QVERIFY(std::fabs(a.clips[0].sampleRate - 120.0) < 1e-3);  // the file says 0.0083333 s per frame
    QCOMPARE(a.unitToCm, 1.0);
    QVERIFY(hasDiagnostic(a, "scene root 'Hips'"));
    QCOMPARE(a.clips[0].animatedJointCount(), std::size_t(31));
  }

  void xFileWithThreeClips() {
    const ImportedAsset a = load(model("X/Testwuson.X"));
    QCOMPARE(a.skeleton.jointCount(), std::size_t(39));
    QCOMPARE(a.clips.size(), std::size_t(3));
    QCOMPARE(a.clips[0].name, std::string("Wuson_Run"));
    QCOMPARE(a.clips[0].frameCount, 30u);
    QCOMPARE(a.clips[1].frameCount, 109u);
    QCOMPARE(a.clips[2].frameCount, 1u);  // a single key: a one-frame pose, not an error
    QCOMPARE(a.clips[2].clipIndex, 2u);
    QVERIFY(hasDiagnostic(a, "single key"));
    QVERIFY(std::fabs(a.clips[0].sampleRate - 30.0) < 1e-4);
    QCOMPARE(a.meshes.size(), std::size_t(1));
    QVERIFY(a.meshes[0].skinned);
    QCOMPARE(a.meshes[0].vertexCount(), std::size_t(11196));
    for (const auto& inf : a.meshes[0].influences) {
      const float sum = inf.weights[0] + inf.weights[1] + inf.weights[2] + inf.weights[3];
      QVERIFY(std::fabs(sum - 1.f) < 1e-4f);
    }
  }

  void fbxUnitsAndArmature() {
    const ImportedAsset a = load(model("FBX/animation_with_skeleton.fbx"));
    QCOMPARE(a.skeleton.jointCount(), std::size_t(15));
    QCOMPARE(a.skeleton.names[0], std::string("Armature"));  // ancestors of bones are joints
    QCOMPARE(a.unitToCm, 1.0);
    QVERIFY(QString::fromStdString(a.unitSource).contains("UnitScaleFactor"));
    QCOMPARE(a.clips[0].frameCount, 21u);
    QCOMPARE(a.clips[0].sampleRate, 24.0);
    // The x100 armature scale is part of the skeleton, not dropped.
    QVERIFY(std::fabs(a.skeleton.restLocal[0].scale.x - 100.f) < 1e-3f);
  }

  void gltfMetresAndColladaUnitAndStartTime() {
    const ImportedAsset g = load(model("glTF2/simple_skin/simple_skin.gltf"));
    QCOMPARE(g.unitToCm, 100.0);
    QCOMPARE(g.skeleton.jointCount(), std::size_t(2));
    QCOMPARE(g.clips[0].frameCount, 12u);
    QCOMPARE(g.clips[0].name, std::string("clip#0"));  // an empty name becomes name#index
    QVERIFY(g.meshes[0].skinned);

    const ImportedAsset c = load(model("Collada/box_nested_animation.dae"));
    QCOMPARE(c.unitToCm, 100.0);
    QVERIFY(std::fabs(c.clips[0].startTime - 0.0416666) < 1e-5);  // keys do not start at 0
    QCOMPARE(c.clips[0].frameCount, 40u);
    QVERIFY(std::fabs(c.clips[0].sampleRate - 24.0) < 1e-3);
  }

  void colladaUnitIsReadFromTheFile() {
    std::ifstream in(model("Collada/box_nested_animation.dae"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find("meter=\"1\"");
    QVERIFY(at != std::string::npos);
    text.replace(at, 9, "meter=\"0.0254\"");
    const auto path = test::scratchDir() / "inches.dae";
    std::ofstream(path) << text;
    const ImportedAsset a = load(path);
    QVERIFY(std::fabs(a.unitToCm - 2.54) < 1e-9);
    QVERIFY(QString::fromStdString(a.unitSource).contains("0.0254"));
  }

  void ticksPerSecondZeroFallsBack() {
    const ImportedAsset a = load(model("3DS/RotatingCube.3DS"));
    QVERIFY(hasDiagnostic(a, "no ticks per second"));
    QVERIFY(std::fabs(a.clips[0].sampleRate - 30.0) < 1e-4);
    QCOMPARE(a.clips[0].frameCount, 182u);
    QCOMPARE(a.skeleton.jointCount(), std::size_t(1));  // node animation without bones counts
    QVERIFY(!a.meshes.empty());
    QCOMPARE(a.meshes[0].rigidJoint, 0);
  }

  void duplicateClipNamesBecomeUnique() {
    const ImportedAsset a = load(model("MDL/MDL (HL1)/man.mdl"));
    QCOMPARE(a.clips.size(), std::size_t(6));
    QCOMPARE(a.clips[2].name, std::string("arms_up"));
    QCOMPARE(a.clips[3].name, std::string("arms_up#3"));
    QCOMPARE(a.clips[5].name, std::string("arms_up#5"));
    QVERIFY(hasDiagnostic(a, "renamed"));
  }

  void sparseAndIrregularKeys() {
    // LightWave: one channel keyed at 0, 19 and 39 ticks: spaced irregularly, but on the grid of
    // single ticks (30 Hz), so every key is a frame.
    const ImportedAsset a = load(model("LWS/move_x_post_linear.lws"));
    QVERIFY(!hasDiagnostic(a, "not on one regular grid"));
    QVERIFY(std::fabs(a.clips[0].sampleRate - 30.0) < 1e-4);
    QCOMPARE(a.clips[0].frameCount, 40u);
    // Out-of-order keys are sorted, not rejected.
    const ImportedAsset b = load(model("LWS/move_y_pre_ofrep_post_osc.lws"));
    QVERIFY(b.clips[0].frameCount > 1);
  }

  void resampledValuesEqualAssimpKeys_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("bvh") << "BVH/01_01.bvh";
    QTest::newRow("x") << "X/Testwuson.X";
    QTest::newRow("fbx") << "FBX/huesitos.fbx";
    QTest::newRow("gltf") << "glTF2/simple_skin/simple_skin.gltf";
    QTest::newRow("collada") << "Collada/box_nested_animation.dae";
  }
  void resampledValuesEqualAssimpKeys() {
    QFETCH(QString, file);
    compareWithAssimpKeys(model(file.toStdString()));
  }

  void generatedArmatureRigKeepsUnitsAndScale() {
    const test::GltfScene scene = test::armatureRig(100.f);
    const ImportedAsset a = load(test::writeScene(scene, "armature100.gltf"));
    QCOMPARE(a.unitToCm, 100.0);
    const std::vector<std::string> expected{"Armature", "Hips", "Spine", "Head", "LeftLeg", "LeftFoot"};
    QCOMPARE(a.skeleton.names, expected);
    QCOMPARE(a.skeleton.parents, (std::vector<std::int32_t>{-1, 0, 1, 2, 1, 4}));
    QCOMPARE(a.sceneRootTransform[0], 1.f);
    QVERIFY(std::fabs(a.skeleton.restLocal[0].scale.x - 100.f) < 1e-3f);
    QCOMPARE(a.clips.size(), std::size_t(2));
    const RawClip& walk = a.clips[0];
    QCOMPARE(walk.name, std::string("Walk"));
    QCOMPARE(walk.frameCount, 25u);
    QVERIFY(std::fabs(walk.sampleRate - 25.0) < 1e-6);
    // Resampled values equal the keys the test wrote.
    for (std::uint32_t f = 0; f < walk.frameCount; ++f)
      for (int node = 2; node <= 6; ++node) {
        const Transform e = test::armatureRigKey(scene, node, int(f));
        const Transform& t = walk.at(std::uint32_t(node - 1), f);
        QVERIFY(std::fabs(std::fabs(runtime::dot(e.rotation, t.rotation)) - 1.f) < 1e-6f);
        QVERIFY(std::fabs(e.translation.y - t.translation.y) < 1e-6f);
      }
    // Object space includes the armature's x100: the head sits where the keys put it, in metres.
    std::vector<Transform> keys;
    for (int node = 1; node <= 6; ++node) keys.push_back(test::armatureRigKey(scene, node, 0));
    std::vector<Mat34d> expectedObject(6);
    runtime::localToObject<double>(a.skeleton.parents, keys, expectedObject);
    const Vec3 head = objectPosition(a, walk, 0, "Head");
    QVERIFY2(std::fabs(head.y - float(expectedObject[3].m[10])) < 1e-5f, qPrintable(QString::number(head.y)));
    QVERIFY(head.y * a.unitToCm > 140 && head.y * a.unitToCm < 151);  // about 1.5 m: a human, not 150 m
    const ImportedAsset unscaled = load(test::writeScene(test::armatureRig(1.f), "armature1.gltf"));
    const Vec3 head1 = objectPosition(unscaled, unscaled.clips[0], 7, "Head");
    const Vec3 head100 = objectPosition(a, walk, 7, "Head");
    QVERIFY(std::fabs(head1.y - head100.y) < 1e-4f && std::fabs(head1.z - head100.z) < 1e-4f);
    // A joint without a channel in a clip keeps its node transform (Hips in "Wave").
    const RawClip& wave = a.clips[1];
    QCOMPARE(wave.frameCount, 10u);
    QCOMPARE(wave.at(1, 5).translation.y, a.skeleton.restLocal[1].translation.y);
    QCOMPARE(wave.keyedChannels[1], std::uint8_t(0));
    QVERIFY(wave.keyedChannels[3] & kKeyedRotation);
    // Skinned mesh bound to the remapped joints.
    QCOMPARE(a.meshes.size(), std::size_t(1));
    QVERIFY(a.meshes[0].skinned);
    QCOMPARE(a.meshes[0].vertexCount(), std::size_t(20));
    QCOMPARE(int(a.meshes[0].influences[0].joints[0]), a.skeleton.find("Hips"));
  }

  void inspectJsonHasTheContractKeys() {
    const ImportedAsset a = load(model("glTF2/simple_skin/simple_skin.gltf"));
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(inspectJson(a)));
    const QJsonObject o = doc.object();
    for (const char* key : {"file", "unit_to_cm", "scene_root_transform", "joints", "clips", "meshes", "diagnostics"})
      QVERIFY2(o.contains(key), key);
    QCOMPARE(o["scene_root_transform"].toArray().size(), 16);
    QCOMPARE(o["joints"].toArray()[0].toObject()["parent"].toInt(), -1);
    const QJsonObject clip = o["clips"].toArray()[0].toObject();
    for (const char* key : {"name", "clip_index", "duration", "start_time", "sample_rate", "frames"})
      QVERIFY2(clip.contains(key), key);
    QCOMPARE(clip["frames"].toInt(), 12);
    QVERIFY(o["meshes"].toArray()[0].toObject()["skinned"].toBool());
  }

  void badInputsNameTheFileAndTheProblem() {
    const auto dir = test::scratchDir();
    expectFailure(dir / "does-not-exist.fbx", "no such file");
    expectFailure(dir, "directory");
    const auto empty = dir / "empty.bvh";
    std::ofstream(empty).close();
    expectFailure(empty, "empty");
    const auto random = dir / "random.fbx";
    {
      std::ofstream out(random, std::ios::binary);
      std::uint32_t x = 12345;
      for (int i = 0; i < 4096; ++i) {
        x = x * 1664525u + 1013904223u;
        out.put(static_cast<char>(x >> 24));
      }
    }
    expectFailure(random, "cannot import");
    expectFailure(test::writeScene(test::staticRig(), "static.gltf"), "nothing to compress");
    expectFailure(model("OBJ/box.obj"), "nothing to compress");
    expectFailure(test::writeScene(test::nanRig(), "nan.gltf"), "NaN");
    expectFailure(test::writeScene(test::manyJointsRig(16384), "many.gltf"), "at most 16383");
    QVERIFY(importAsset(test::writeScene(test::manyJointsRig(300), "some.gltf")).hasValue());
    ImportOptions bad;
    bad.sampleRate = -5;
    QVERIFY(!importAsset(model("BVH/01_01.bvh"), bad));
  }

  void aChannelSharingItsNameWithAMeshNodeMovesTheBone() {
    // A skinned-mesh node named "Hips" comes first in the hierarchy; the root bone is also "Hips".
    const ImportedAsset a = load(test::writeScene(test::sharedNameRig(), "shared_name.gltf"));
    const std::vector<std::string> expected{"Armature", "Hips", "Spine"};
    QCOMPARE(a.skeleton.names, expected);
    QCOMPARE(a.skeleton.parents, (std::vector<std::int32_t>{-1, 0, 1}));
    QCOMPARE(a.clips.size(), std::size_t(1));
    const RawClip& move = a.clips[0];
    QCOMPARE(move.frameCount, 5u);
    const std::uint32_t hips = std::uint32_t(a.skeleton.find("Hips"));
    QVERIFY(move.keyedChannels[hips] & kKeyedTranslation);
    for (std::uint32_t f = 0; f < move.frameCount; ++f) {
      const Vec3 e = test::sharedNameRigOffset(int(f));
      const Vec3 t = move.at(hips, f).translation;
      QVERIFY2(runtime::length(t - e) < 1e-6f, qPrintable(QString("frame %1: z %2").arg(f).arg(t.z)));
    }
    QVERIFY(runtime::length(move.at(hips, 4).translation - move.at(hips, 0).translation) > 0.3f);  // the bone moves
    QVERIFY(hasDiagnostic(a, "animation channel 'Hips' matches 2 nodes"));
    QVERIFY(hasDiagnostic(a, "Armature/Hips, the one without a mesh"));
    // The mesh stays bound to the bone.
    QCOMPARE(a.meshes.size(), std::size_t(1));
    QCOMPARE(std::uint32_t(a.meshes[0].influences[0].joints[0]), hips);
  }

  void overridesApply() {
    ImportOptions options;
    options.sampleRate = 60;
    options.unitToCm = 2.54;
    const ImportedAsset a = load(model("BVH/Boxing_Toes.bvh"), options);
    QCOMPARE(a.unitToCm, 2.54);
    QCOMPARE(a.clips[0].sampleRate, 60.0);
    QCOMPARE(a.clips[0].frameCount, 1842u);  // 30.68 s at 60 Hz
  }
};

QTEST_GUILESS_MAIN(TestImporter)
#include "tst_importer.moc"
