// Which meshes the viewport draws and its wireframe edges (viewport/mesh_prep): real skinned meshes
// are kept, the placeholder bone meshes Assimp builds for BVH are dropped, invalid meshes are
// skipped; every triangle edge appears once. No GL.
#include <QtTest>

#include "core/io/asset_importer.h"
#include "tests/support/test_rigs.h"
#include "viewport/mesh_prep.h"

using namespace animpack;
using namespace animpack::viewport;

namespace {

core::ImportedAsset load(const std::string& file) {
  auto a = core::importAsset(test::model(file));
  if (!a) qFatal("%s", a.message().c_str());
  return std::move(a.value());
}

}  // namespace

class TestMeshPrep : public QObject {
  Q_OBJECT
 private slots:
  void realMeshesAreDrawn() {
    QCOMPARE(displayableMeshes(load("X/Testwuson.X")), (std::vector<std::size_t>{0}));
    QCOMPARE(displayableMeshes(load("X/BCN_Epileptic.X")), (std::vector<std::size_t>{0, 1, 2}));
  }

  void bvhShowsTheSkeletonAlone() {
    const core::ImportedAsset bvh = load("BVH/01_01.bvh");
    QVERIFY(!bvh.meshes.empty());  // Assimp's stand-in: a pyramid per bone
    QVERIFY(displayableMeshes(bvh).empty());
  }

  void invalidMeshesAreSkipped() {
    core::ImportedAsset a = load("glTF2/simple_skin/simple_skin.gltf");
    QCOMPARE(displayableMeshes(a).size(), std::size_t(1));
    a.meshes.push_back(a.meshes[0]);
    a.meshes.back().influences[0].joints[0] = 999;  // no such joint
    a.meshes.push_back(a.meshes[0]);
    a.meshes.back().indices.clear();  // nothing to draw
    QCOMPARE(displayableMeshes(a), (std::vector<std::size_t>{0}));
  }

  void edgesOfTwoTrianglesSharingOne() {
    const std::vector<std::uint32_t> quad{0, 1, 2, 2, 1, 3};
    const std::vector<std::uint32_t> edges = triangleEdges(quad);
    QCOMPARE(edges, (std::vector<std::uint32_t>{0, 1, 0, 2, 1, 2, 1, 3, 2, 3}));
    QVERIFY(triangleEdges({}).empty());
    const std::vector<std::uint32_t> degenerate{4, 4, 5, 7};  // a collapsed triangle and a stray index
    QCOMPARE(triangleEdges(degenerate), (std::vector<std::uint32_t>{4, 5}));
  }

  void realMeshEdgeCount() {
    // A closed triangle mesh has 3/2 edges per triangle; Testwuson's faces do not share vertices
    // (11196 vertices for 3732 triangles), so every triangle keeps its own three edges.
    const core::ImportedAsset a = load("X/Testwuson.X");
    QCOMPARE(triangleEdges(a.meshes[0].indices).size(), a.meshes[0].indices.size() * 2);
  }
};

QTEST_GUILESS_MAIN(TestMeshPrep)
#include "tst_mesh_prep.moc"
