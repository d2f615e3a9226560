// Every skinned or skeletal-animated file of assimp-testmodels that Assimp loads imports with the
// joint, clip and frame counts of docs/ARCHITECTURE.md "Contracts" (checked by hand for the first rows: see the
// comments).
#include <QtTest>

#include "core/io/asset_importer.h"
#include "tests/support/test_rigs.h"

using namespace animpack;

class TestImporterCorpus : public QObject {
  Q_OBJECT
 private slots:
  void counts_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("joints");
    QTest::addColumn<int>("clips");
    QTest::addColumn<int>("frames");  // summed over clips
    auto row = [](const char* f, int j, int c, int n) { QTest::newRow(f) << QString(f) << j << c << n; };
    row("BVH/01_01.bvh", 38, 1, 2752);  // 31 joints + 7 end sites, 120 Hz
    row("BVH/01_03.bvh", 38, 1, 4511);
    row("BVH/Boxing_Toes.bvh", 26, 1, 3069);  // 100 Hz
    row("X/Testwuson.X", 39, 3, 140);         // 37 bones + Root + animated mesh node; 30+109+1
    row("X/BCN_Epileptic.X", 57, 1, 100);
    row("X/anim_test.x", 4, 1, 24);
    row("FBX/animation_with_skeleton.fbx", 15, 1, 21);  // Armature + 14 bones
    row("FBX/huesitos.fbx", 10, 1, 40);
    row("glTF2/simple_skin/simple_skin.gltf", 2, 1, 12);  // keys every 0.5 s over 5.5 s
    row("Collada/box_nested_animation.dae", 2, 1, 40);
    row("Collada/anims_with_full_rotations_between_keys.DAE", 64, 1, 5);
    row("Collada/cameras.dae", 4, 0, 0);  // bones, no animation
    row("CSM/ThomasFechten.csm", 44, 1, 2440);
    row("MD5/SimpleCube.md5mesh", 4, 0, 0);
    row("MDL/MDL (HL1)/chrome_sphere.mdl", 2, 1, 221);
    row("MDL/MDL (HL1)/man.mdl", 9, 6, 36);
    row("MDL/MDL (HL1)/duplicate_sequences.mdl", 2, 9, 27);
    row("MDL/MDL (HL1)/sequence_transitions.mdl", 2, 7, 21);
    row("MDL/MDL (HL1)/unnamed_sequences.mdl", 2, 9, 27);
    row("MDL/MDL (HL1)/unnamed_bones.mdl", 10, 1, 3);
    row("MDL/MDL (HL1)/duplicate_sequence_groups/duplicate_sequence_groups.mdl", 2, 9, 27);
    row("SMD/WusonSMD.smd", 1, 1, 1);
    row("3DS/CameraRollAnim.3ds", 1, 1, 2);
    row("3DS/CameraRollAnimWithChildObject.3ds", 2, 1, 121);
    row("3DS/RotatingCube.3DS", 1, 1, 182);
    row("3DS/TargetCameraAnim.3ds", 1, 1, 4);
    row("ASE/CameraRollAnim.ase", 2, 1, 121);
    row("ASE/CameraRollAnimWithChildObject.ase", 4, 1, 121);
    row("ASE/MotionCaptureROM.ase", 25, 1, 272);
    row("ASE/RotatingCube.ASE", 2, 1, 181);
    row("ASE/TargetCameraAnim.ase", 3, 1, 91);
    row("ASE/anim.ASE", 2, 1, 21);
    row("ASE/anim2.ASE", 4, 1, 101);
    row("LWS/move_x.lws", 1, 1, 3);                      // keys 0.67 s apart on their own grid
    row("LWS/move_xz_spline.lws", 1, 1, 90);             // irregular keys on the 30 Hz tick grid
    row("LWS/move_y_pre_ofrep_post_osc.lws", 1, 1, 42);  // on a 10 Hz grid
  }
  void counts() {
    QFETCH(QString, file);
    QFETCH(int, joints);
    QFETCH(int, clips);
    QFETCH(int, frames);
    const auto asset = core::importAsset(test::model(file.toStdString()));
    QVERIFY2(asset, asset ? "" : asset.message().c_str());
    QCOMPARE(int(asset->skeleton.jointCount()), joints);
    QCOMPARE(int(asset->clips.size()), clips);
    int total = 0;
    for (const auto& c : asset->clips) total += int(c.frameCount);
    QCOMPARE(total, frames);
    QVERIFY(asset->skeleton.validate().isOk());
    for (const auto& c : asset->clips) QVERIFY(c.validate(asset->skeleton).isOk());
    for (const auto& m : asset->meshes) QVERIFY(m.validate(asset->skeleton.jointCount()).isOk());
  }
};

QTEST_GUILESS_MAIN(TestImporterCorpus)
#include "tst_importer_corpus.moc"
