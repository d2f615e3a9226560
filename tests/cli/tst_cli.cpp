// The animpack CLI as a user runs it: output, JSON, exit codes (docs/ARCHITECTURE.md: 0 ok, 1 failure, 2 usage).
#include <QRegularExpression>
#include <QtTest>

#include "tests/cli/cli_runner.h"

using namespace animpack;

namespace {
using Run = test::CliRun;
using test::runCli;
QString model(const char* rel) { return test::modelPath(rel); }
}  // namespace

class TestCli : public QObject {
  Q_OBJECT
 private slots:
  void inspectPrintsTheSkeletonTree() {
    const Run r = runCli({"inspect", model("BVH/01_01.bvh")});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("38 joints"));
    QVERIFY(r.out.contains("    LeftUpLeg"));  // indented under LHipJoint under Hips
    QVERIFY(r.out.contains("2752 frames"));
    QVERIFY(r.err.isEmpty());
  }
  void inspectJson() {
    const Run r = runCli({"inspect", "--json", model("X/Testwuson.X")});
    QCOMPARE(r.code, 0);
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(doc.object()["joints"].toArray().size(), 39);
    QCOMPARE(doc.object()["clips"].toArray().size(), 3);
    QCOMPARE(doc.object()["meshes"].toArray()[0].toObject()["vertices"].toInt(), 11196);
  }
  void failuresAreOneLineWithExitCode1() {
    const Run r = runCli({"inspect", "/nonexistent/walk.fbx"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("/nonexistent/walk.fbx"));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
  }
  void badUsageExitsWith2() {
    QCOMPARE(runCli({}).code, 2);
    QCOMPARE(runCli({"frobnicate"}).code, 2);
    QCOMPARE(runCli({"inspect"}).code, 2);
    QCOMPARE(runCli({"inspect", "--bogus", model("BVH/01_01.bvh")}).code, 2);
    QCOMPARE(runCli({"inspect", "--sample-rate", "fast", model("BVH/01_01.bvh")}).code, 2);
  }
  void helpOnEveryCommand() {
    const Run top = runCli({"--help"});
    QCOMPARE(top.code, 0);
    for (const char* command :
         {"inspect", "compress", "merge", "upgrade", "decode", "sample", "verify", "dump", "bench"}) {
      QVERIFY(top.out.contains(command));
      const Run r = runCli({command, "--help"});
      QCOMPARE(r.code, 0);
      QVERIFY2(r.out.contains(QByteArray("usage: animpack ") + command), command);
    }
  }

  void upgradeRewritesOldPacks() {
    // A version-1 pack: the tool reads it, `upgrade` rewrites it in the current version with the
    // same poses (decode at 60 Hz gives the same numbers), and bad input is named.
    const QString dir = QString::fromStdString(test::scratchDir().string());
    const QString old = QString(ANIMPACK_SOURCE_DIR) + "/tests/data/golden_v1.anpk", fresh = dir + "/upgraded.anpk";
    const Run u = runCli({"upgrade", old, "-o", fresh});
    QCOMPARE(u.code, 0);
    QVERIFY2(u.out.contains("format version 1") && u.out.contains("format version 10"), u.out.constData());
    QVERIFY(runCli({"dump", fresh}).out.contains("version 10"));
    const Run before = runCli({"decode", old, "--clip", "Walk", "--rate", "60", "-o", "-"});
    const Run after = runCli({"decode", fresh, "--clip", "Walk", "--rate", "60", "-o", "-"});
    QCOMPARE(before.code, 0);
    QVERIFY(before.out.contains("\"frames\""));
    QCOMPARE(after.out, before.out);
    const Run missing = runCli({"upgrade", dir + "/no-such.anpk", "-o", dir + "/x.anpk"});
    QCOMPARE(missing.code, 1);
    QVERIFY(missing.err.contains("no-such.anpk"));
    QVERIFY(!QFile::exists(dir + "/x.anpk"));
    QCOMPARE(runCli({"upgrade", old}).code, 2);  // no -o
    QFile future(dir + "/future.anpk");
    QFile golden(old);
    QVERIFY(golden.open(QIODevice::ReadOnly) && future.open(QIODevice::WriteOnly));
    QByteArray bytes = golden.readAll();
    bytes[8] = 42;  // the version field
    future.write(bytes);
    future.close();
    const Run newer = runCli({"upgrade", dir + "/future.anpk", "-o", dir + "/y.anpk"});
    QCOMPARE(newer.code, 1);
    QVERIFY(newer.err.contains("format version 42 is newer"));
  }

  /// Settings `lod` stores joints by depth (or named joints first): inspect --lod shows the order
  /// and its levels, the pack keeps it (dump, decode), verify matches the source to it by name, and a
  /// name that matches no joint is a one-line failure naming it.
  void jointOrderForLevelsOfDetail() {
    const QString dir = QString::fromStdString(test::scratchDir().string());
    const QString settings = dir + "/lod.json", pack = dir + "/lod.anpk";
    QFile sf(settings);
    QVERIFY(sf.open(QIODevice::WriteOnly));
    sf.write(R"({"lod":"depth"})");
    sf.close();
    const Run inspected = runCli({"inspect", "--json", "--lod", "depth", model("BVH/01_01.bvh")});
    QCOMPARE(inspected.code, 0);
    const QJsonObject info = QJsonDocument::fromJson(inspected.out).object();
    const QJsonArray joints = info["joints"].toArray();
    QCOMPARE(joints[1].toObject()["name"].toString(), QString("LHipJoint"));
    QCOMPARE(joints[3].toObject()["name"].toString(), QString("LowerBack"));  // the third child of the root
    QCOMPARE(info["lod_levels"].toArray()[1].toInt(), 4);
    QVERIFY(
        runCli({"inspect", model("BVH/01_01.bvh")}).out.contains("lod:       depth <= 0 in the first 1, <= 1 in 14"));

    QCOMPARE(runCli({"compress", model("BVH/01_01.bvh"), "--settings", settings, "-o", pack}).code, 0);
    const Run dumped = runCli({"dump", "--json", pack});
    QCOMPARE(dumped.code, 0);
    const QJsonObject skeleton = QJsonDocument::fromJson(dumped.out).object()["skeleton"].toObject();
    QCOMPARE(skeleton["joints"].toArray(), joints);
    QCOMPARE(skeleton["lod_levels"].toArray(), info["lod_levels"].toArray());
    QVERIFY(runCli({"dump", pack}).out.contains("lod:       depth <= 0 in the first 1, <= 1 in 4, <= 2 in 7"));
    QCOMPARE(runCli({"decode", pack, "--clip", "01_01", "-o", dir + "/lod_decoded.json"}).code, 0);
    QFile df(dir + "/lod_decoded.json");
    QVERIFY(df.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(df.readAll()).object()["joints"].toArray()[3].toObject()["name"].toString(),
             QString("LowerBack"));
    const Run verified = runCli({"verify", pack, "--source", model("BVH/01_01.bvh")});
    QVERIFY2(verified.code == 0, verified.err.constData());
    QVERIFY(verified.out.contains("within precision"));

    const Run unknown = runCli({"inspect", "--lod", "LeftHand,Tail", model("BVH/01_01.bvh")});
    QCOMPARE(unknown.code, 1);
    QVERIFY2(unknown.err.contains("'Tail' matches no joint"), unknown.err.constData());
    QVERIFY(sf.open(QIODevice::WriteOnly | QIODevice::Truncate));
    sf.write(R"({"lod":"breadth"})");
    sf.close();
    const Run bad = runCli({"compress", model("BVH/01_01.bvh"), "--settings", settings, "-o", dir + "/bad.anpk"});
    QVERIFY(bad.code != 0);
    QVERIFY2(bad.err.contains("'lod'"), bad.err.constData());
    QVERIFY(!QFile::exists(dir + "/bad.anpk"));
  }

  void compressDecodeVerifyDump() {
    const QString dir = QString::fromStdString(test::scratchDir().string());
    const QString pack = dir + "/wuson.anpk", report = dir + "/wuson.json", csv = dir + "/wuson.csv";
    const Run c = runCli({"compress", model("X/Testwuson.X"), "-o", pack, "--report", report, "--pin", "HindLeg_L_04"});
    QCOMPARE(c.code, 0);
    QVERIFY(c.out.contains("Wuson_Walk"));
    QVERIFY(QFile::exists(pack));
    QFile rf(report);
    QVERIFY(rf.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(rf.readAll()).object();
    QCOMPARE(doc["clips"].toArray().size(), 3);
    QVERIFY(doc["totals"].toObject()["within_precision"].toBool());
    QCOMPARE(doc["clips"].toArray()[1].toObject()["pinned"].toArray()[0].toObject()["joint"].toString(),
             QString("HindLeg_L_04"));
    QCOMPARE(doc["pack_bytes"].toInt(), int(QFileInfo(pack).size()));
    QCOMPARE(runCli({"compress", model("X/Testwuson.X"), "-o", pack, "--report", csv, "--clip", "Wuson_Run"}).code, 0);
    QFile cf(csv);
    QVERIFY(cf.open(QIODevice::ReadOnly));
    QCOMPARE(cf.readAll().count('\n'), 2);  // header + the one clip asked for

    QCOMPARE(runCli({"compress", model("X/Testwuson.X"), "-o", pack}).code, 0);
    const Run d = runCli({"decode", pack, "--clip", "Wuson_Walk", "-o", dir + "/walk.json"});
    QCOMPARE(d.code, 0);
    QFile df(dir + "/walk.json");
    QVERIFY(df.open(QIODevice::ReadOnly));
    const QJsonObject decoded = QJsonDocument::fromJson(df.readAll()).object();
    for (const char* key :
         {"clip", "clip_index", "start_time", "sample_rate", "frame_count", "unit_to_cm", "joints", "frames"})
      QVERIFY2(decoded.contains(key), key);
    QCOMPARE(decoded["frame_count"].toInt(), 109);
    QCOMPARE(decoded["frames"].toArray().size(), 109);
    QCOMPARE(decoded["frames"].toArray()[0].toArray().size(), 39);
    QCOMPARE(decoded["frames"].toArray()[0].toArray()[0].toArray().size(), 10);
    QCOMPARE(decoded["joints"].toArray()[0].toObject()["parent"].toInt(), -1);
    QVERIFY(decoded["joints"].toArray()[0].toObject().contains("precision_cm"));

    const Run v = runCli({"verify", pack, "--source", model("X/Testwuson.X")});
    QCOMPARE(v.code, 0);
    QCOMPARE(v.out.count("within precision"), 3);
    const Run dump = runCli({"dump", pack, "--tracks"});
    QCOMPARE(dump.code, 0);
    QVERIFY(dump.out.contains("Wuson_Walk"));
    QVERIFY(dump.out.contains("sections:"));
    const Run b = runCli({"bench", pack, "--source", model("X/Testwuson.X"), "--json", "--clip", "Wuson_Run"});
    QCOMPARE(b.code, 0);
    const QJsonObject bench = QJsonDocument::fromJson(b.out).object();
    for (const char* key :
         {"joints", "forward_ns_per_pose", "backward_ns_per_pose", "random_ns_per_pose", "blend_ns_per_pose",
          "raw_ns_per_pose", "compressed_bytes", "derived_bytes", "player_bytes", "blend_player_bytes"})
      QVERIFY2(bench.contains(key), key);
    QVERIFY(!bench.contains("context_bytes") && !bench.contains("clip_bytes"));  // the figures before format version 5
    QCOMPARE(bench["clip"].toString(), QString("Wuson_Run"));
    QVERIFY(bench["forward_ns_per_pose"].toDouble() > 0);
    // Memory: the clip's own bytes, what the opened pack derives (a view per clip and the skeleton),
    // the player's object, and after a blend its second pose.
    QVERIFY(bench["compressed_bytes"].toInt() > 1000);
    QVERIFY(bench["derived_bytes"].toInt() > 0);
    // A player stays within 64 bytes a joint (its frame cache included), 128 with a blend's second pose.
    const int joints = bench["joints"].toInt(), player = bench["player_bytes"].toInt(),
              blend = bench["blend_player_bytes"].toInt();
    QVERIFY(player > 0 && player <= 64 * joints);
    QVERIFY(blend >= player + 40 * joints && blend <= 128 * joints);
    const Run scalar = runCli({"bench", pack, "--json", "--clip", "Wuson_Run", "--scalar"});
    QCOMPARE(scalar.code, 0);
    QCOMPARE(QJsonDocument::fromJson(scalar.out).object()["decode_path"].toString(), QString("scalar"));
    const Run sse2 = runCli({"bench", pack, "--json", "--clip", "Wuson_Run", "--sse2"});
    QCOMPARE(sse2.code, 0);
    const QString path = bench["decode_path"].toString(),
                  forced = QJsonDocument::fromJson(sse2.out).object()["decode_path"].toString();
#if defined(__x86_64__)
    QVERIFY2(path == "avx2" || path == "sse2", qPrintable(path));  // the CPU decides
    QCOMPARE(forced, QString("sse2"));
#else
    QCOMPARE(path, QString("scalar"));
    QCOMPARE(forced, QString("scalar"));
#endif
    const Run both = runCli({"bench", pack, "--scalar", "--sse2"});
    QCOMPARE(both.code, 2);
    QVERIFY(both.err.contains("--scalar and --sse2"));
  }

  void aFileOfMorphWeightsAlone() {
    // No bone, no animated node: an empty skeleton and two curves, through every command.
    const QString cube = model("glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf");
    const Run inspected = runCli({"inspect", cube});
    QCOMPARE(inspected.code, 0);
    QVERIFY2(inspected.out.contains("0 joints") && inspected.out.contains("2 animated morph curves"),
             inspected.out.constData());
    const QString dir = QString::fromStdString((test::scratchDir() / "cli-morph-only").string());
    QDir().mkpath(dir);
    const QString pack = dir + "/cube.anpk", report = dir + "/cube.json";
    const Run compressed = runCli({"compress", cube, "-o", pack, "--report", report});
    QCOMPARE(compressed.code, 0);
    QVERIFY2(compressed.out.contains("of morph curves"), compressed.out.constData());
    QFile file(report);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject clip = QJsonDocument::fromJson(file.readAll()).object()["clips"].toArray()[0].toObject();
    QCOMPARE(clip["joints"].toInt(), 0);
    QCOMPARE(clip["raw_bytes"].toInt(), 0);
    QCOMPARE(clip["limited_by"].toString(), QString("morphs"));
    QVERIFY(clip["within_precision"].toBool());
    QVERIFY(clip["max_morph_error_cm"].toDouble() > 0 && clip["max_morph_error_cm"].toDouble() <= 0.01);
    QCOMPARE(clip["worst_frame"].toInt(), 0);
    const Run verified = runCli({"verify", pack, "--source", cube});
    QCOMPARE(verified.code, 0);
    QVERIFY2(verified.out.contains("morph targets") && verified.out.contains("within precision"),
             verified.out.constData());
    const Run bench = runCli({"bench", pack, "--json"});
    QCOMPARE(bench.code, 0);
    const QJsonObject b = QJsonDocument::fromJson(bench.out).object();
    QCOMPARE(b["curves"].toInt(), 2);
    QVERIFY(b["forward_ns_per_pose"].isNull());
    QVERIFY(b["curve_ns_per_sample"].toDouble() > 0);
    const Run table = runCli({"bench", pack});
    QCOMPARE(table.code, 0);
    QVERIFY2(table.out.contains("2 morph curves"), table.out.constData());
    const Run decoded = runCli({"decode", pack, "--clip", "#0", "-o", "-"});
    QCOMPARE(decoded.code, 0);
    const QJsonObject d = QJsonDocument::fromJson(decoded.out).object();
    QCOMPARE(d["joints"].toArray().size(), 0);
    QCOMPARE(d["curves"].toArray().size(), 2);
    // The pack records the scene scale (the cube's root is scaled 100); sample writes it too, and
    // folds it into unit_to_cm for the peer benchmarks.
    QCOMPARE(d["scene_scale"].toDouble(), 100.0);
    QVERIFY(d["curves"].toArray()[0].toObject()["displacement_cm"].toDouble() > 189);
    const Run sampled = runCli({"sample", cube, "--clip", "#0", "-o", "-"});
    QCOMPARE(sampled.code, 0);
    const QJsonObject raw = QJsonDocument::fromJson(sampled.out).object();
    QCOMPARE(raw["scene_scale"].toDouble(), 100.0);
    QCOMPARE(raw["unit_to_cm"].toDouble(), 100.0);
    const Run folded = runCli({"sample", cube, "--clip", "#0", "--scene-units", "-o", "-"});
    QCOMPARE(folded.code, 0);
    const QJsonObject peers = QJsonDocument::fromJson(folded.out).object();
    QCOMPARE(peers["scene_scale"].toDouble(), 1.0);
    QCOMPARE(peers["unit_to_cm"].toDouble(), 10000.0);
    // dump --tracks: each keyed curve with its keys, adding up to the clip's curve keys.
    const Run dumped = runCli({"dump", pack, "--tracks"});
    QCOMPARE(dumped.code, 0);
    const QString text = QString::fromUtf8(dumped.out);
    const QRegularExpressionMatch total = QRegularExpression(R"(curves: +\d+ bytes \((\d+) keys\))").match(text);
    QVERIFY2(total.hasMatch(), dumped.out.constData());
    int keys = 0, keyed = 0;
    auto it = QRegularExpression(R"(AnimatedMorphCube/\d +keyed (\d+) keys)").globalMatch(text);
    while (it.hasNext()) {
      keys += it.next().captured(1).toInt();
      ++keyed;
    }
    // At 0.01 cm of the cube's 189-199 cm displacements (its root is scaled 100) its curves need a
    // value every frame, stored segmented (core/runtime/FORMAT.md "Segmented curves"): no keys.
    const int segmented = int(text.count(QRegularExpression(R"(AnimatedMorphCube/\d +segmented)")));
    QCOMPARE(keyed + segmented, 2);
    QVERIFY2(segmented >= 1, dumped.out.constData());
    QCOMPARE(keys, total.captured(1).toInt());
  }

  void benchPicksClipsAsEveryCommand() {
    // Two single-clip BVH files: pack names "01_01" and "01_03", both animations named "Motion".
    const QString dir = QString::fromStdString((test::scratchDir() / "cli-bench").string());
    QDir().mkpath(dir);
    const QString pack = dir + "/walks.anpk";
    QCOMPARE(runCli({"compress", model("BVH/01_01.bvh"), model("BVH/01_03.bvh"), "-o", pack, "-q"}).code, 0);
    auto benched = [&](const QStringList& extra) {
      const Run r = runCli(QStringList{"bench", pack, "--json"} + extra);
      return r.code == 0 ? QJsonDocument::fromJson(r.out).object()["clip"].toString() : QString::number(-r.code);
    };
    QCOMPARE(benched({}), QString("01_01"));                   // the first clip
    QCOMPARE(benched({"--clip", "01_03"}), QString("01_03"));  // pack name
    QCOMPARE(benched({"--clip", "#1"}), QString("01_03"));     // N-th clip of the pack
    QCOMPARE(benched({"--clip", "*_03"}), QString("01_03"));   // wildcard
    // A source animation name (the pack records it): both clips' animations are named "Motion".
    const Run motion = runCli({"bench", pack, "--clip", "Motion"});
    QCOMPARE(motion.code, 1);
    QVERIFY2(motion.err.contains("01_01") && motion.err.contains("01_03") && motion.err.contains("#N"),
             motion.err.constData());
    // A name several clips answer to, or none: an error that lists them.
    const Run ambiguous = runCli({"bench", pack, "--clip", "01_0*"});
    QCOMPARE(ambiguous.code, 1);
    QVERIFY2(ambiguous.err.contains("01_01") && ambiguous.err.contains("01_03") && ambiguous.err.contains("#N"),
             ambiguous.err.constData());
    const Run none = runCli({"bench", pack, "--clip", "Run"});
    QCOMPARE(none.code, 1);
    QVERIFY2(none.err.contains("01_01") && none.err.contains("Run"), none.err.constData());
    QCOMPARE(runCli({"bench", pack, "--clip", "#7"}).code, 1);
  }

  void batchExportFromTheCommandLine() {
    const QString dir = QString::fromStdString((test::scratchDir() / "cli-batch").string());
    QDir().mkpath(dir);
    // Not a terminal: plain progress lines on stderr, one per clip.
    const Run r = runCli({"compress", model("BVH"), "--pack-per-file", "-o", dir + "/packs", "--preset", "mocap",
                          "--jobs", "2", "--report", dir + "/report.json"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.err.count("["), 3);
    QVERIFY(r.err.contains("[3/3]"));
    QVERIFY(QFile::exists(dir + "/packs/01_01.anpk") && QFile::exists(dir + "/packs/Boxing_Toes.anpk"));
    const Run quiet =
        runCli({"compress", model("X/Testwuson.X"), "-o", dir + "/q.anpk", "--quiet", "--clip", "Wuson_R*"});
    QCOMPARE(quiet.code, 0);
    QVERIFY(quiet.err.isEmpty());
    QCOMPARE(quiet.out.count('\n'), 1);  // the summary only
    QVERIFY(quiet.out.contains("1 clip(s)"));
    // Merge what was built per file: the wuson clips in two packs.
    QCOMPARE(runCli({"compress", model("X/Testwuson.X"), "-o", dir + "/walk.anpk", "--clip", "Wuson_Walk", "-q"}).code,
             0);
    const Run m = runCli({"merge", dir + "/q.anpk", dir + "/walk.anpk", "-o", dir + "/merged.anpk"});
    QCOMPARE(m.code, 0);
    QVERIFY(runCli({"dump", dir + "/merged.anpk"}).out.contains("clips:     2"));
    const Run mismatch = runCli({"merge", dir + "/q.anpk", dir + "/packs/01_01.anpk", "-o", dir + "/bad.anpk"});
    QCOMPARE(mismatch.code, 1);
    QVERIFY(mismatch.err.contains("01_01.anpk"));
    // Budget and a broken input make the exit code 1 but still write the rest.
    QFile broken(dir + "/broken.bvh");
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("HIERARCHY\nROOT");
    broken.close();
    const Run partial =
        runCli({"compress", model("BVH/01_01.bvh"), dir + "/broken.bvh", "-o", dir + "/partial.anpk", "-q"});
    QCOMPARE(partial.code, 1);
    QVERIFY(partial.err.contains("broken.bvh"));
    QVERIFY(QFile::exists(dir + "/partial.anpk"));
    const Run budget = runCli({"compress", model("X/Testwuson.X"), "-o", dir + "/b.anpk", "--budget", "1", "-q"});
    QCOMPARE(budget.code, 1);
    QVERIFY(budget.err.contains("over the budget"));
    // A budget 1000 bytes above the file: what opening it derives (a view per clip, the skeleton's
    // parents and rest pose) passes it, the file alone does not (--budget-kind pack).
    const QString budgetKib = QString::number((double(QFileInfo(dir + "/b.anpk").size()) + 1000.0) / 1024.0, 'f', 3);
    const Run resident =
        runCli({"compress", model("X/Testwuson.X"), "-o", dir + "/b.anpk", "--budget", budgetKib, "-q"});
    QCOMPARE(resident.code, 1);
    QVERIFY2(resident.err.contains("resident"), resident.err.constData());
    QCOMPARE(runCli({"compress", model("X/Testwuson.X"), "-o", dir + "/b.anpk", "--budget", budgetKib, "--budget-kind",
                     "pack", "-q"})
                 .code,
             0);
    QCOMPARE(runCli({"compress", model("X/Testwuson.X"), "-o", dir + "/b.anpk", "--budget-kind", "disk"}).code, 2);
    QCOMPARE(runCli({"compress", model("X/Testwuson.X"), "-o", dir + "/p.anpk", "--preset", "villain"}).code, 2);
    // The cache: the second run reuses every clip.
    const Run c1 =
        runCli({"compress", model("X/Testwuson.X"), "-o", dir + "/c1.anpk", "--cache", dir + "/cache", "-q"});
    const Run c2 =
        runCli({"compress", model("X/Testwuson.X"), "-o", dir + "/c2.anpk", "--cache", dir + "/cache", "-q"});
    QCOMPARE(c1.code, 0);
    QCOMPARE(c2.code, 0);
    QVERIFY(c2.out.contains("3 from the cache"));
  }

  void shellFromTheMesh() {
    const QString dir = QString::fromStdString(test::scratchDir().string());
    const auto rig = test::writeScene(test::armatureRig(100.f), "cli_mesh_rig.gltf");
    const QString file = QString::fromStdString(rig.string()), pack = dir + "/mesh.anpk";
    const Run c = runCli({"compress", file, "-o", pack, "--shell", "mesh", "--report", dir + "/mesh.json", "-q"});
    QVERIFY2(c.code == 0, c.err.constData());
    QFile rf(dir + "/mesh.json");
    QVERIFY(rf.open(QIODevice::ReadOnly));
    const QJsonObject clip = QJsonDocument::fromJson(rf.readAll()).object()["clips"].toArray()[0].toObject();
    QVERIFY(clip["max_vertex_error_cm"].isDouble());
    // The pack carries each joint's farthest skinned vertex as its shell.
    QCOMPARE(runCli({"decode", pack, "--clip", "Walk", "-o", dir + "/mesh_walk.json"}).code, 0);
    QFile df(dir + "/mesh_walk.json");
    QVERIFY(df.open(QIODevice::ReadOnly));
    const QJsonArray joints = QJsonDocument::fromJson(df.readAll()).object()["joints"].toArray();
    const core::ImportedAsset a = test::importOrFail(rig);
    const std::vector<double> farthest = core::farthestInfluencedVertex(a.skeleton, a.meshes, a.unitToCm);
    QCOMPARE(joints.size(), int(farthest.size()));
    for (int j = 1; j < joints.size(); ++j)
      QVERIFY2(std::fabs(joints[j].toObject()["shell_cm"].toDouble() - farthest[std::size_t(j)]) <
                   1e-4 * farthest[std::size_t(j)],
               qPrintable(joints[j].toObject()["name"].toString()));
    const Run word = runCli({"compress", file, "-o", pack, "--shell", "skin"});
    QCOMPARE(word.code, 2);
    QVERIFY(word.err.contains("--shell"));
    QCOMPARE(runCli({"compress", file, "-o", pack, "--shell", "-1"}).code, 2);
  }

  void packErrorsAreClear() {
    const QString dir = QString::fromStdString(test::scratchDir().string());
    QFile junk(dir + "/junk.anpk");
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("ANPK\r\n\x1a\n and then not much");
    junk.close();
    const Run r = runCli({"verify", dir + "/junk.anpk"});
    QCOMPARE(r.code, 1);
    QVERIFY(r.err.contains("junk.anpk"));
    QVERIFY(r.err.contains("truncated"));
    QCOMPARE(runCli({"dump", dir + "/missing.anpk"}).code, 1);
    QCOMPARE(runCli({"decode", dir + "/junk.anpk"}).code, 2);  // no --clip
    // Mixing skeletons in one pack is an error that names both files.
    const Run mixed = runCli({"compress", model("X/Testwuson.X"), model("BVH/01_01.bvh"), "-o", dir + "/mixed.anpk"});
    QCOMPARE(mixed.code, 1);
    QVERIFY(mixed.err.contains("01_01.bvh"));
    QVERIFY(!QFile::exists(dir + "/mixed.anpk"));
    // Bad settings are usage errors naming the problem.
    const Run bad = runCli({"compress", model("X/Testwuson.X"), "-o", dir + "/x.anpk", "--precision", "-1"});
    QCOMPARE(bad.code, 2);
    QVERIFY(bad.err.contains("precision_cm"));
  }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
