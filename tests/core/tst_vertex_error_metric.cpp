// VertexErrorMetric and measureVertexError: skinned-vertex displacement in object-space cm against
// an independent double-precision skinning, a known 1 cm offset, and a compressed clip checked at
// and between its frames.
#include <QtTest>

#include <cmath>

#include "core/anim/raw_sampler.h"
#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/compress/vertex_error.h"
#include "core/runtime/player.h"
#include "core/runtime/pose_ops.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

std::vector<Mat34d> objectPose(const Skeleton& s, std::span<const Transform> local) {
  std::vector<Mat34d> object(s.jointCount());
  runtime::localToObject<double>(s.parents, local, object);
  return object;
}

/// Skins one vertex the textbook way: sum of weight * object * inverseBind, applied to the point.
Eigen::Vector3d skinned(const Skeleton& s, std::span<const Mat34d> object, const SkinnedMesh& mesh, std::size_t v) {
  Eigen::Matrix4d blend = Eigen::Matrix4d::Zero();
  for (std::size_t i = 0; i < 4; ++i) {
    const std::size_t j = mesh.influences[v].joints[i];
    blend += double(mesh.influences[v].weights[i]) * toEigen(object[j]) * toEigen(s.inverseBind[j].cast<double>());
  }
  const Eigen::Vector4d p(mesh.positions[v].x, mesh.positions[v].y, mesh.positions[v].z, 1.0);
  return (blend * p).head<3>();
}

/// The largest displacement over every influenced vertex, vertex by vertex.
VertexError bruteForce(const ImportedAsset& a, std::span<const Mat34d> reference, std::span<const Mat34d> decoded) {
  VertexError worst;
  for (std::size_t m = 0; m < a.meshes.size(); ++m)
    for (std::size_t v = 0; v < a.meshes[m].influences.size(); ++v) {
      const double d =
          (skinned(a.skeleton, decoded, a.meshes[m], v) - skinned(a.skeleton, reference, a.meshes[m], v)).norm() *
          a.unitToCm;
      if (d > worst.cm) worst = {d, std::int32_t(m), std::int32_t(v)};
    }
  return worst;
}

Quat aroundX(float angle) { return {std::sin(angle / 2), 0, 0, std::cos(angle / 2)}; }

}  // namespace

class TestVertexErrorMetric : public QObject {
  Q_OBJECT
 private slots:
  void morphTargetsAddUpAtAVertex() {
    // One joint at the origin turned by the decoded pose, one vertex skinned to it and one static
    // vertex; two targets move them. The displacement is the joint's part plus the weights' part.
    Skeleton sk;
    sk.names = {"root"};
    sk.parents = {-1};
    sk.restLocal = {Transform{}};
    sk.inverseBind = {Mat34{}};
    SkinnedMesh skinned;
    skinned.positions = {{1, 0, 0}};
    skinned.normals = {{0, 0, 1}};
    VertexInfluences inf;
    inf.weights[0] = 1.f;
    skinned.influences = {inf};
    skinned.morphs = {{0, {{0, 1, 0}}}, {1, {{0, 0, 2}}}};
    SkinnedMesh still;
    still.positions = {{5, 0, 0}};
    still.normals = {{0, 0, 1}};
    still.morphs = {{1, {{3, 0, 0}}}};
    const std::vector<SkinnedMesh> meshes{skinned, still};
    const std::vector<float> rest{0.f, 0.f};
    const VertexErrorMetric metric(sk, meshes, 100.0, rest);
    QVERIFY(metric.hasMorphs());
    QCOMPARE(metric.vertexCount(), std::size_t(2));
    const std::vector<Mat34d> identity{Mat34d{}};
    // Weights alone: target 0 off by 0.01 moves the skinned vertex 1 cm; target 1 off by 0.02
    // moves the static vertex 0.06 units = 6 cm (and the skinned one 4 cm).
    const std::vector<double> a{0.5, 0.25}, b{0.51, 0.27};
    const VertexError e = metric.measure(identity, identity, a, b);
    QVERIFY2(std::fabs(e.cm - 6.0) < 1e-9, qPrintable(QString::number(e.cm)));
    QCOMPARE(e.mesh, 1);
    // Without weights the morph part is left out; with equal weights only the joints count.
    QCOMPARE(metric.measure(identity, identity).cm, 0.0);
    Mat34d moved;
    moved.m[9] = 0.001;  // the joint 0.1 cm off along x
    const std::vector<Mat34d> shifted{moved};
    QVERIFY(std::fabs(metric.measure(identity, shifted, a, a).cm - 0.1) < 1e-9);
  }

  void matchesAnIndependentSkinning_data() {
    QTest::addColumn<float>("scale");
    QTest::newRow("x1") << 1.f;
    QTest::newRow("x100") << 100.f;
    QTest::newRow("x0.001") << 0.001f;
  }
  void matchesAnIndependentSkinning() {
    QFETCH(float, scale);
    const ImportedAsset a = test::importOrFail(test::writeScene(test::armatureSpaceRig(scale), "vertex_error.gltf"));
    const VertexErrorMetric metric(a.skeleton, a.meshes, a.unitToCm);
    QVERIFY(!metric.empty());
    QCOMPARE(metric.vertexCount(), a.meshes[0].vertexCount());
    const RawClip& walk = a.clips[0];
    for (std::uint32_t f : {0u, 7u, 19u}) {
      std::vector<Transform> pose(walk.frame(f).begin(), walk.frame(f).end());
      Quat& spine = pose[std::size_t(a.skeleton.find("Spine"))].rotation;
      spine = runtime::normalized(spine * aroundX(0.01f));
      pose[std::size_t(a.skeleton.find("Hips"))].translation.x += 0.002f / scale;
      const auto reference = objectPose(a.skeleton, walk.frame(f));
      const auto decoded = objectPose(a.skeleton, pose);
      const VertexError got = metric.measure(reference, decoded);
      const VertexError expected = bruteForce(a, reference, decoded);
      QVERIFY2(std::fabs(got.cm - expected.cm) < 1e-9 * std::max(1.0, expected.cm),
               qPrintable(QString("frame %1: %2 cm, independent %3 cm")
                              .arg(f)
                              .arg(got.cm, 0, 'g', 12)
                              .arg(expected.cm, 0, 'g', 12)));
      QVERIFY(got.cm > 0.2);  // 2 mm at the hips moves every vertex at least that far
      QCOMPARE(got.mesh, expected.mesh);
      QCOMPARE(got.vertex, expected.vertex);
      QCOMPARE(metric.measure(reference, reference).cm, 0.0);
    }
  }

  void aRootOffsetOfOneCentimetreMovesTheSkinOneCentimetre() {
    const ImportedAsset a = test::importOrFail(test::writeScene(test::armatureSpaceRig(0.001f), "vertex_offset.gltf"));
    const VertexErrorMetric metric(a.skeleton, a.meshes, a.unitToCm);
    const RawClip& walk = a.clips[0];
    std::vector<Transform> pose(walk.frame(4).begin(), walk.frame(4).end());
    pose[0].translation.z += float(1.0 / a.unitToCm);  // the root (the armature) moves 1 cm in object space
    const VertexError e = metric.measure(objectPose(a.skeleton, walk.frame(4)), objectPose(a.skeleton, pose));
    QVERIFY2(std::fabs(e.cm - 1.0) < 1e-6, qPrintable(QString::number(e.cm, 'g', 12)));
  }

  void staticMeshesAreSkipped() {
    Skeleton s;
    s.names = {"root"};
    s.parents = {-1};
    s.restLocal.resize(1);
    s.inverseBind.resize(1);
    SkinnedMesh rock;
    rock.name = "rock";
    rock.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    rock.normals.assign(3, {0, 0, 1});
    rock.indices = {0, 1, 2};
    const std::vector<SkinnedMesh> meshes{rock};
    const VertexErrorMetric metric(s, meshes, 1.0);
    QVERIFY(metric.empty());
    const std::vector<Mat34d> object(1);
    QCOMPARE(metric.measure(object, object).mesh, -1);
  }

  void compressedClipIsMeasuredAtAndBetweenFrames() {
    const ImportedAsset a = test::importOrFail(test::writeScene(test::armatureSpaceRig(100.f), "vertex_clip.gltf"));
    const RawClip& walk = a.clips[0];
    CompressionSettings coarse;
    coarse.precisionCm = 0.5f;  // loose enough that the skin visibly moves
    auto c = makeCompressJob(a, walk, resolve(coarse, a.skeleton, walk.name)).run();
    QVERIFY2(c, c ? "" : c.message().c_str());
    auto view = runtime::ClipView::open(c->data, a.skeleton.restLocal);
    QVERIFY(view);
    const VertexErrorMetric metric(a.skeleton, a.meshes, a.unitToCm);
    const float measured = measureVertexError(metric, a.skeleton, walk, *view);
    // The same maximum, sample by sample: frames against the raw frames, midpoints against the
    // raw clip interpolated there.
    runtime::Player player;
    std::vector<Transform> decoded(a.skeleton.jointCount()), reference(a.skeleton.jointCount());
    double worst = 0;
    for (std::uint32_t k = 0; k + 1 < 2 * walk.frameCount; ++k) {
      const double frame = 0.5 * k;
      player.sampleFrame(*view, float(frame), decoded);
      RawSampler::sampleFrame(walk, frame, reference);
      worst = std::max(worst, bruteForce(a, objectPose(a.skeleton, reference), objectPose(a.skeleton, decoded)).cm);
    }
    QVERIFY2(std::fabs(measured - worst) < 1e-5 * std::max(1.0, worst),
             qPrintable(QString("%1 cm, sample by sample %2 cm").arg(measured).arg(worst)));
    QVERIFY(measured > 0);
    // Empty metric: -1, "no skinned mesh".
    QCOMPARE(measureVertexError(VertexErrorMetric(a.skeleton, {}, a.unitToCm), a.skeleton, walk, *view), -1.f);
  }
};

QTEST_GUILESS_MAIN(TestVertexErrorMetric)
#include "tst_vertex_error_metric.moc"
