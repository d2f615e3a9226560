// Batch export for the game build (README.md, "Batch export for the game build"): presets,
// determinism across --jobs, a failing file in a batch, the report against the packs, pack per
// file, merge (round trip, mismatch, duplicates), the incremental cache, budgets, and skinned files
// (their vertex error in the report, mesh-derived shells).
#include <QtTest>

#include <cstring>
#include <fstream>

#include "core/base/assert.h"
#include "core/batch/export.h"
#include "core/compress/presets.h"
#include "core/runtime/pack.h"
#include "core/runtime/player.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

std::vector<std::uint8_t> readAll(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

ExportOptions options(const std::filesystem::path& output, unsigned jobs = 1) {
  ExportOptions o;
  o.output = output;
  o.batch.jobs = jobs;
  o.toolVersion = "test";
  return o;
}

}  // namespace

class TestBatch : public QObject {
  Q_OBJECT
 private:
  std::filesystem::path m_dir;
  std::filesystem::path m_rig, m_rigCopy, m_other;

 private slots:
  void initTestCase() {
    setAssertThrows(true);
    m_dir = test::scratchDir() / "batch";
    std::filesystem::create_directories(m_dir);
    m_rig = test::writeScene(test::armatureRig(100.f, 40, 30.f), "batch_rig.gltf");
    m_rigCopy = test::writeScene(test::armatureRig(100.f, 50, 30.f), "batch_rig_long.gltf");  // same skeleton
    m_other = test::model("glTF2/simple_skin/simple_skin.gltf");
  }

  void presetsShipWithDescriptions() {
    const auto& presets = builtinPresets();
    QVERIFY(presets.size() >= 4);
    for (const char* name : {"hero", "npc", "mocap", "props"}) {
      auto p = findPreset(name);
      QVERIFY2(p, name);
      QVERIFY(!p->description.empty());
      QVERIFY(p->validate().isOk());
    }
    auto missing = findPreset("villain");
    QVERIFY(!missing);
    QVERIFY(QString::fromStdString(missing.message()).contains("hero"));
    // The hero preset pins feet and tightens hands through wildcards.
    const Skeleton sk = [] {
      Skeleton s;
      s.names = {"Hips", "LeftFoot", "RightHand"};
      s.parents = {-1, 0, 0};
      s.restLocal.resize(3);
      s.inverseBind.resize(3);
      return s;
    }();
    const EffectiveSettings e = resolve(*findPreset("hero"), sk, "Run");
    QVERIFY(e.joints[1].pinned);
    QCOMPARE(e.joints[2].precisionCm, 0.005f);
  }

  void outputIsIdenticalForAnyJobCount() {
    const std::vector<std::filesystem::path> files{m_rig, m_rigCopy};
    auto one = exportPacks(files, options(m_dir / "jobs1.anpk", 1));
    auto two = exportPacks(files, options(m_dir / "jobs2.anpk", 2));
    QVERIFY2(one && two, one ? "" : one.message().c_str());
    QCOMPARE(one->rows.size(), std::size_t(4));
    QCOMPARE(readAll(m_dir / "jobs1.anpk"), readAll(m_dir / "jobs2.anpk"));
  }

  void aFailingFileDoesNotStopTheBatch() {
    const auto empty = m_dir / "broken.fbx";
    std::ofstream(empty).close();
    ExportOptions o = options(m_dir / "partial.anpk", 2);
    o.report = m_dir / "partial.json";
    auto r = exportPacks({m_rig, empty}, o);
    QVERIFY(r);
    QCOMPARE(r->failures, std::size_t(1));
    auto pack = runtime::Pack::load(m_dir / "partial.anpk");
    QVERIFY(pack);
    QCOMPARE(pack->clips().size(), std::size_t(2));
    // The report has the failure and the clips; compressed bytes are the pack's own.
    std::ifstream in(m_dir / "partial.json");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const QJsonObject doc = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
    QCOMPARE(doc["clips"].toArray().size(), 2);
    QCOMPARE(doc["failures"].toArray().size(), 1);
    QVERIFY(doc["failures"].toArray()[0].toObject()["error"].toString().contains("empty"));
    for (int i = 0; i < 2; ++i) {
      const QJsonObject clip = doc["clips"].toArray()[i].toObject();
      QCOMPARE(clip["compressed_bytes"].toInt(), int(pack->clips()[std::size_t(i)].ownBytes()));
      // Resident: the clip's bytes and what opening the pack derives for it (its view).
      QCOMPARE(clip["resident_bytes"].toInt(),
               int(pack->clips()[std::size_t(i)].ownBytes() + runtime::Pack::clipDerivedBytes()));
    }
    QCOMPARE(doc["pack_bytes"].toInt(), int(pack->fileSize()));
    // The totals add the pack's own part: the file and everything opening it derives.
    QCOMPARE(doc["totals"].toObject()["resident_bytes"].toInt(), int(pack->fileSize() + pack->derivedBytes()));
    QCOMPARE(doc["totals"].toObject()["failed"].toInt(), 1);
  }

  void differentSkeletonsNeedPackPerFile() {
    auto mixed = exportPacks({m_rig, m_other}, options(m_dir / "mixed.anpk"));
    QVERIFY(!mixed);
    QVERIFY(QString::fromStdString(mixed.message()).contains("simple_skin.gltf"));
    QVERIFY(!std::filesystem::exists(m_dir / "mixed.anpk"));
    ExportOptions o = options(m_dir / "perfile");
    o.packPerFile = true;
    o.report = m_dir / "perfile.csv";
    auto r = exportPacks({m_rig, m_other}, o);
    QVERIFY2(r, r ? "" : r.message().c_str());
    QCOMPARE(r->packs.size(), std::size_t(2));
    QVERIFY(runtime::Pack::load(m_dir / "perfile" / "batch_rig.anpk"));
    QVERIFY(runtime::Pack::load(m_dir / "perfile" / "simple_skin.anpk"));
    std::ifstream csv(m_dir / "perfile.csv");
    const std::string text((std::istreambuf_iterator<char>(csv)), std::istreambuf_iterator<char>());
    QCOMPARE(std::count(text.begin(), text.end(), '\n'), 4);  // header + 3 clips
    // Two inputs that would write the same pack name are refused up front.
    const auto twin = m_dir / "twin";
    std::filesystem::create_directories(twin);
    std::filesystem::copy_file(m_rig, twin / "batch_rig.gltf", std::filesystem::copy_options::overwrite_existing);
    QVERIFY(!exportPacks({m_rig, twin / "batch_rig.gltf"}, o));
  }

  void mergeRoundTripAndMismatch() {
    ExportOptions walk = options(m_dir / "walk.anpk");
    walk.batch.clips = {"Walk"};
    ExportOptions wave = options(m_dir / "wave.anpk");
    wave.batch.clips = {"Wa?e"};
    QVERIFY(exportPacks({m_rig}, walk));
    QVERIFY(exportPacks({m_rig}, wave));
    auto merged = mergePacks({m_dir / "walk.anpk", m_dir / "wave.anpk"}, m_dir / "merged.anpk");
    QVERIFY2(merged, merged ? "" : merged.message().c_str());
    auto pack = runtime::Pack::load(m_dir / "merged.anpk");
    auto whole = exportPacks({m_rig}, options(m_dir / "whole.anpk"));
    QVERIFY(pack && whole);
    QCOMPARE(pack->clips().size(), std::size_t(2));
    // The merged pack decodes exactly like the pack built in one go.
    auto reference = runtime::Pack::load(m_dir / "whole.anpk");
    for (std::size_t c = 0; c < 2; ++c) {
      runtime::Player a, b;
      std::vector<runtime::Transform> pa(6), pb(6);
      for (float f = 0; f < float(pack->clips()[c].frameCount()); f += 0.5f) {
        a.sampleFrame(pack->clips()[c].view, f, pa);
        b.sampleFrame(reference->clips()[c].view, f, pb);
        QVERIFY(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(runtime::Transform)) == 0);
      }
    }
    QVERIFY(exportPacks({m_other}, options(m_dir / "other.anpk")));
    auto mismatch = mergePacks({m_dir / "walk.anpk", m_dir / "other.anpk"}, m_dir / "bad.anpk");
    QVERIFY(!mismatch);
    QVERIFY(QString::fromStdString(mismatch.message()).contains("other.anpk"));
    QVERIFY(QString::fromStdString(mismatch.message()).contains("skeletons differ"));
    auto duplicate = mergePacks({m_dir / "walk.anpk", m_dir / "walk.anpk"}, m_dir / "dup.anpk");
    QVERIFY(!duplicate);
    QVERIFY(QString::fromStdString(duplicate.message()).contains("'Walk'"));
  }

  void cacheSkipsUnchangedFiles() {
    const auto cache = m_dir / "cache";
    ExportOptions o = options(m_dir / "cached1.anpk");
    o.batch.cacheDir = cache;
    auto first = exportPacks({m_rig, m_rigCopy}, o);
    QVERIFY(first);
    QCOMPARE(first->cachedClips, std::size_t(0));
    o.output = m_dir / "cached2.anpk";
    auto second = exportPacks({m_rig, m_rigCopy}, o);
    QVERIFY(second);
    QCOMPARE(second->cachedClips, std::size_t(4));
    QCOMPARE(readAll(m_dir / "cached1.anpk"), readAll(m_dir / "cached2.anpk"));
    QCOMPARE(second->rows[0].maxErrorCm, first->rows[0].maxErrorCm);
    QVERIFY(first->rows[0].maxVertexErrorCm >= 0);
    QCOMPARE(second->rows[0].maxVertexErrorCm, first->rows[0].maxVertexErrorCm);
    // Other settings: recompressed.
    o.batch.settings.precisionCm = 0.05f;
    o.output = m_dir / "cached3.anpk";
    auto third = exportPacks({m_rig, m_rigCopy}, o);
    QVERIFY(third);
    QCOMPARE(third->cachedClips, std::size_t(0));
    QVERIFY(readAll(m_dir / "cached3.anpk") != readAll(m_dir / "cached1.anpk"));
  }

  void skinnedFilesReportTheirVertexError() {
    const auto bare = test::writeScene(test::manyJointsRig(3), "batch_bare.gltf");  // no mesh
    ExportOptions o = options(m_dir / "skin");
    o.packPerFile = true;
    o.report = m_dir / "skin.json";
    auto r = exportPacks({m_rig, bare}, o);
    QVERIFY2(r, r ? "" : r.message().c_str());
    std::ifstream in(m_dir / "skin.json");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const QJsonObject doc = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
    const QJsonArray clips = doc["clips"].toArray();
    QCOMPARE(clips.size(), 3);
    for (int i = 0; i < 3; ++i) {
      const QJsonObject c = clips[i].toObject();
      QVERIFY(c.contains("max_vertex_error_cm"));
      if (c["file"].toString().endsWith("batch_bare.gltf")) {
        QVERIFY(c["max_vertex_error_cm"].isNull());
      } else {
        QVERIFY(c["max_vertex_error_cm"].isDouble());
        // The skin moves less than the joints' shells allow times the lever of the rig (1.5 m).
        QVERIFY(c["max_vertex_error_cm"].toDouble() >= 0 && c["max_vertex_error_cm"].toDouble() < 1.0);
      }
    }
    QVERIFY(doc["totals"].toObject()["max_vertex_error_cm"].isDouble());
    o.report = m_dir / "skin.csv";
    QVERIFY(exportPacks({m_rig, bare}, o));
    std::ifstream csv(m_dir / "skin.csv");
    std::string header, row;
    std::getline(csv, header);
    QVERIFY(header.find(",max_vertex_error_cm,skin_bound_cm,limited_by,seam_error_cm,root_motion_joint,") !=
            std::string::npos);
    QVERIFY(header.find(",root_motion_source_drift_10_cycles_cm,additive_base,error") != std::string::npos);
    bool emptyForBare = false;
    while (std::getline(csv, row))
      if (row.find("batch_bare.gltf") != std::string::npos)
        // No skin (limited by the joints), no loop, no root motion, absolute; no curves (format version
        // 6); no floor reason.
        emptyForBare = row.ends_with(",true,,,joints,,,,,,,,\"\",0,0,0,0,0,0,,");
    QVERIFY(emptyForBare);
  }

  void meshShellsReachTheCompressor() {
    BatchOptions o;
    o.jobs = 1;
    o.settings.shellCm = kShellFromMesh;
    const auto batch = runBatch({m_rig}, o);
    QVERIFY2(batch, batch ? "" : batch.message().c_str());
    const auto& files = *batch;
    QCOMPARE(files.size(), std::size_t(1));
    QVERIFY2(files[0].error.empty(), files[0].error.c_str());
    const ImportedAsset a = test::importOrFail(m_rig);
    const std::vector<double> farthest = farthestInfluencedVertex(a.skeleton, a.meshes, a.unitToCm);
    for (const BatchClip& c : files[0].clips) {
      QVERIFY2(c.error.empty(), c.error.c_str());
      const auto& joints = c.compressed->settings.joints;
      QCOMPARE(joints.size(), farthest.size());
      QCOMPARE(joints[0].shellCm, kDefaultShellCm);  // the armature moves no vertex
      for (std::size_t j = 1; j < joints.size(); ++j) QCOMPARE(joints[j].shellCm, float(farthest[j]));
    }
  }

  void budgetFlagsLargePacks() {
    ExportOptions o = options(m_dir / "budget.anpk");
    o.budgetKb = 0.1;
    auto r = exportPacks({m_rig}, o);
    QVERIFY(r);
    QVERIFY(r->packs[0].overBudget);
    o.budgetKb = 1000;
    QVERIFY(!exportPacks({m_rig}, o)->packs[0].overBudget);
    // Resident (the default) counts the pack and what opening it derives; a budget between the two
    // flags the pack only when it counts resident bytes.
    const WrittenPack& p = r->packs[0];
    auto pack = runtime::Pack::load(p.path);
    QVERIFY(pack);
    QCOMPARE(p.residentBytes, p.bytes + pack->derivedBytes());
    o.budgetKb = double(p.bytes + p.residentBytes) / 2.0 / 1024.0;
    o.budgetKind = BudgetKind::Resident;
    QVERIFY(exportPacks({m_rig}, o)->packs[0].overBudget);
    o.budgetKind = BudgetKind::Pack;
    QVERIFY(!exportPacks({m_rig}, o)->packs[0].overBudget);
  }

  void foldersExpandToTheFilesAssimpReads() {
    auto files = expandInputs({test::model("BVH").string()}, false);
    QVERIFY(files);
    QCOMPARE(files->size(), std::size_t(3));  // the .bvh files, not the .txt notes
    auto twice = expandInputs({test::model("BVH").string(), test::model("BVH/01_01.bvh").string()}, false);
    QCOMPARE(twice->size(), std::size_t(3));  // named twice, compressed once
    QVERIFY(!expandInputs({"/no/such/dir"}, false));
    auto deep = expandInputs({test::model("MDL").string()}, true);
    QVERIFY(deep->size() > 10);
  }
};

QTEST_GUILESS_MAIN(TestBatch)
#include "tst_batch.moc"
