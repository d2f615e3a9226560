// The mesh-derived shell distance (farthestInfluencedVertex): object-space centimetres whatever
// the armature's scale, against distances computed from the generated scene itself and against
// linear-blend skinning of a real file's bind pose.
#include <QtTest>

#include <cmath>

#include "core/anim/skinned_mesh.h"
#include "core/io/asset_importer.h"
#include "core/runtime/pose_ops.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

/// Per scene node, the farthest vertex (weight above 1 %) in cm, straight from the scene's data:
/// vertices into object space through the mesh's bind (inverse of its inverse binds times the
/// joint's rest), joints by composing node transforms.
std::vector<double> expectedFromScene(const test::GltfScene& scene) {
  std::vector<Mat34d> object(scene.nodes.size());
  for (std::size_t n = 0; n < scene.nodes.size(); ++n) {
    const Mat34d local = Mat34d::fromTransform(scene.nodes[n].rest);
    object[n] = scene.nodes[n].parent < 0 ? local : object[std::size_t(scene.nodes[n].parent)] * local;
  }
  std::vector<double> farthest(scene.nodes.size(), 0.0);
  for (const test::GltfSkinnedMesh& mesh : scene.meshes)
    for (std::size_t v = 0; v < mesh.positions.size(); ++v)
      for (std::size_t i = 0; i < 4; ++i) {
        if (mesh.weights[v][i] <= 0.01f) continue;
        const std::size_t k = mesh.joints[v][i];
        const std::size_t node = std::size_t(mesh.skinJoints[k]);
        const Mat34d skin = object[node] * mesh.inverseBinds[k].cast<double>();
        const double p[3] = {mesh.positions[v].x, mesh.positions[v].y, mesh.positions[v].z};
        double q[3];
        skin.transformPoint(p, q);
        const double d = std::hypot(q[0] - object[node].m[9], q[1] - object[node].m[10], q[2] - object[node].m[11]);
        farthest[node] = std::max(farthest[node], d * 100.0);  // glTF metres
      }
  return farthest;
}

}  // namespace

class TestSkinnedMesh : public QObject {
  Q_OBJECT
 private slots:
  void armatureScaleIsIncluded_data() {
    QTest::addColumn<float>("scale");
    QTest::newRow("x1") << 1.f;
    QTest::newRow("x100") << 100.f;
    QTest::newRow("x0.001") << 0.001f;
  }
  void armatureScaleIsIncluded() {
    QFETCH(float, scale);
    // The mesh is bound in the armature's space, as Blender's FBX export binds it: its raw
    // vertices are off by the armature's scale, the skinned ones are not.
    const test::GltfScene scene = test::armatureSpaceRig(scale);
    const ImportedAsset a =
        test::importOrFail(test::writeScene(scene, "skin_space_" + std::to_string(scale) + ".gltf"));
    const std::vector<double> expected = expectedFromScene(scene);
    const std::vector<double> farthest = farthestInfluencedVertex(a.skeleton, a.meshes, a.unitToCm);
    QCOMPARE(farthest.size(), a.skeleton.jointCount());
    int moved = 0;
    for (std::size_t node = 1; node < scene.nodes.size() - 1; ++node) {
      const std::int32_t j = a.skeleton.find(scene.nodes[node].name);
      QVERIFY(j >= 0);
      const double got = farthest[std::size_t(j)];
      QVERIFY2(
          std::fabs(got - expected[node]) < 1e-4 * std::max(1.0, expected[node]),
          qPrintable(
              QString("%1: %2 cm, expected %3 cm").arg(scene.nodes[node].name.c_str()).arg(got).arg(expected[node])));
      moved += got > 0;
    }
    QCOMPARE(moved, 5);          // every bone but the armature moves vertices
    QCOMPARE(farthest[0], 0.0);  // the armature itself influences none
    // The rig is the same in object space at every scale: Head's own ring is 8 cm out, and it
    // carries a quarter of LeftLeg's ring (weights 0.75 / 0.25 to the previous skin joint).
    const double head = farthest[std::size_t(a.skeleton.find("Head"))];
    QVERIFY2(head > 8.0 - 1e-3 && head < 200.0, qPrintable(QString::number(head)));
  }

  void realFileMatchesSkinningTheBindPose() {
    // Testwuson's rest pose is its bind pose: skinning it puts every vertex where its mesh says, so
    // the distance from a joint to each vertex it influences is measured on the skinned mesh.
    const ImportedAsset a = test::importOrFail(test::model("X/Testwuson.X"));
    QVERIFY(!a.meshes.empty());
    const std::vector<double> farthest = farthestInfluencedVertex(a.skeleton, a.meshes, a.unitToCm);
    std::vector<Mat34d> objectD = a.skeleton.restObject();
    std::vector<Mat34> object, skin(a.skeleton.jointCount());
    for (const Mat34d& m : objectD) object.push_back(m.cast<float>());
    runtime::skinMatrices(object, a.skeleton.inverseBind, skin);
    std::vector<double> expected(a.skeleton.jointCount(), 0.0);
    for (const SkinnedMesh& mesh : a.meshes) {
      std::vector<Vec3> skinned(mesh.vertexCount());
      runtime::skinVertices(skin, mesh.positions, {}, mesh.influences, skinned, {});
      for (std::size_t v = 0; v < mesh.influences.size(); ++v)
        for (std::size_t i = 0; i < 4; ++i) {
          const std::size_t j = mesh.influences[v].joints[i];
          if (mesh.influences[v].weights[i] <= 0.01f) continue;
          const Vec3 joint{object[j].m[9], object[j].m[10], object[j].m[11]};
          expected[j] = std::max(expected[j], double(runtime::length(skinned[v] - joint)) * a.unitToCm);
        }
    }
    int compared = 0;
    for (std::size_t j = 0; j < farthest.size(); ++j) {
      QVERIFY2(
          std::fabs(farthest[j] - expected[j]) < 1e-3 * std::max(1.0, expected[j]),
          qPrintable(
              QString("%1: %2 cm, skinned %3 cm").arg(a.skeleton.names[j].c_str()).arg(farthest[j]).arg(expected[j])));
      compared += expected[j] > 0;
    }
    QVERIFY(compared > 10);
  }
};

QTEST_GUILESS_MAIN(TestSkinnedMesh)
#include "tst_skinned_mesh.moc"
