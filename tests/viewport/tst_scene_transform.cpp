// The viewport's display transform (viewport/scene_transform.h) draws in the scene's centimetres:
// file units x unit_to_cm x the scene root's scale (docs/IMPORT.md "Scene scale"), with the COLLADA
// unit Assimp folds into the root counted once. No GL.
#include <QtTest>

#include "core/io/asset_importer.h"
#include "tests/support/collada_units.h"
#include "tests/support/test_rigs.h"
#include "viewport/scene_transform.h"

using namespace animpack;
using namespace animpack::viewport;

namespace {

/// How long a unit of object space (skeleton units) is on screen, in display centimetres.
double displayedLength(const core::ImportedAsset& asset) {
  return double(displayTransform(asset, UpAxis::AsImported).mapVector(QVector3D(1, 0, 0)).length());
}

}  // namespace

class TestSceneTransform : public QObject {
  Q_OBJECT

 private slots:
  /// A glTF rig under a root scaled 10: a metre of the skeleton is 1000 cm on screen, what every
  /// length animpack measures uses (ImportedAsset::lengthToCm).
  void aScaledRootIsDrawnAtItsScale() {
    const auto path = test::writeScene(test::wrappedRig(test::unrootedRig(test::armatureRig(1.f)), 10.f), "x10.gltf");
    const core::ImportedAsset asset = test::importOrFail(path);
    QVERIFY(std::fabs(displayedLength(asset) - 1000.0) < 1e-3);
    QVERIFY(std::fabs(displayedLength(asset) - asset.lengthToCm()) < 1e-3);
  }

  /// A COLLADA file in centimetres: Assimp scales its root by 0.01 and unit_to_cm is 1; a file unit
  /// is drawn 1 cm long, not 0.01 cm.
  void theColladaUnitIsDrawnOnce() {
    const auto path = test::colladaInCentimetres("box_cm_view.dae");
    QVERIFY(!path.empty());
    const core::ImportedAsset cm = test::importOrFail(path);
    QVERIFY2(std::fabs(displayedLength(cm) - 1.0) < 1e-4, qPrintable(QString::number(displayedLength(cm))));
    const core::ImportedAsset metres = test::importOrFail(test::model("Collada/box_nested_animation.dae"));
    QVERIFY(std::fabs(displayedLength(metres) - 100.0) < 1e-3);
  }
};

QTEST_GUILESS_MAIN(TestSceneTransform)
#include "tst_scene_transform.moc"
