// Projects on the command line (docs/PROJECT.md, docs/CLIP_NAMES.md): `project new|add|remove`,
// `build` (names, report, depfile, a source with another skeleton, the cache shared by concurrent
// builds), `approve` and `build --require-approved`, version-1 projects, `merge` of true duplicates.
#include <QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/runtime/pack_format.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/gltf_writer.h"

using namespace animpack;
using namespace animpack::test;

namespace {

QString str(const std::filesystem::path& p) { return QString::fromStdString(p.string()); }

std::string readText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// One animation of the armature rig, renamed: a file as exporters write one clip each.
void writeSingleClip(const std::filesystem::path& path, const std::string& clipName, int frames) {
  GltfScene scene = armatureRig(1.f, frames);
  scene.animations.resize(1);
  scene.animations[0].name = clipName;
  std::filesystem::create_directories(path.parent_path());
  QVERIFY(writeGltf(scene, path));
}

/// The pack's clip names, comma-separated.
QString packNames(const std::filesystem::path& pack) {
  const CliRun r = runCli({"dump", str(pack), "--json"});
  if (r.code != 0) return "dump failed: " + r.err;
  QStringList names;
  const auto dump = nlohmann::json::parse(r.out.toStdString());
  for (const auto& c : dump["clips"]) names << QString::fromStdString(c["name"].get<std::string>());
  return names.join(",");
}

}  // namespace

class TestProject : public QObject {
  Q_OBJECT
 private:
  std::filesystem::path m_dir, m_chars, m_project;

  CliRun build(const QStringList& extra) {
    QStringList args = {"build", str(m_project), "-q"};
    return runCli(args + extra);
  }

 private slots:
  void initTestCase() {
    m_dir = scratchDir() / "project_cli";
    m_chars = m_dir / "chars";
    writeSingleClip(m_chars / "a" / "walk.gltf", "Take 001", 25);
    writeSingleClip(m_chars / "b" / "walk.gltf", "Take 001", 31);
    writeSingleClip(m_chars / "run.gltf", "mixamo.com", 20);
    QVERIFY(writeGltf(armatureRig(1.f), m_chars / "hero.gltf"));  // Walk and Wave
    m_project = m_dir / "hero.anproj";
    const CliRun r = runCli({"project", "new", str(m_project), str(m_chars), "-r", "--budget", "512"});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(r.out.contains("4 source(s) added"));
  }

  void projectListsSourcesRelativeToIt() {
    const auto j = nlohmann::json::parse(readText(m_project));
    QCOMPARE(j["animpack_project"].get<int>(), 2);
    QCOMPARE(j["sources"].size(), std::size_t(4));
    QCOMPARE(j["sources"][0]["path"].get<std::string>(), std::string("chars/a/walk.gltf"));
    QCOMPARE(j["budget_kib"].get<double>(), 512.0);
    // Adding a file already listed adds nothing.
    const CliRun again = runCli({"project", "add", str(m_project), str(m_chars / "run.gltf")});
    QCOMPARE(again.code, 0);
    QVERIFY2(again.out.contains("0 source(s) added, 4"), again.out.constData());
  }

  void buildNamesClipsUniquely() {
    const auto pack = m_dir / "hero.anpk", report = m_dir / "hero.json";
    const CliRun r = build({"-o", str(pack), "--report", str(report)});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(packNames(pack), QString("a/walk,b/walk,Walk,Wave,run"));
    const auto j = nlohmann::json::parse(readText(report));
    QCOMPARE(j["clips"][0]["clip"].get<std::string>(), std::string("a/walk"));
    QCOMPARE(j["clips"][0]["source_clip"].get<std::string>(), std::string("Take 001"));
    QCOMPARE(j["clips"][4]["source_clip"].get<std::string>(), std::string("mixamo.com"));
    QCOMPARE(j["clips"][3]["clip_index"].get<int>(), 1);
  }

  void packRecordsSourceClipNames() {
    // Format version 4 stores each clip's animation name: dump --json and decode print it.
    const auto pack = m_dir / "hero.anpk";
    const CliRun dump = runCli({"dump", str(pack), "--json"});
    QVERIFY2(dump.code == 0, dump.err.constData());
    const auto d = nlohmann::json::parse(dump.out.toStdString());
    QCOMPARE(d["format_version"].get<int>(), int(runtime::kPackVersion));
    QCOMPARE(d["clips"][0]["name"].get<std::string>(), std::string("a/walk"));
    QCOMPARE(d["clips"][0]["source_clip"].get<std::string>(), std::string("Take 001"));
    QCOMPARE(d["clips"][2]["source_clip"].get<std::string>(), std::string("Walk"));
    QCOMPARE(d["clips"][4]["source_clip"].get<std::string>(), std::string("mixamo.com"));
    const CliRun decoded = runCli({"decode", str(pack), "--clip", "mixamo.com", "-o", "-"});
    QVERIFY2(decoded.code == 0, decoded.err.constData());
    const auto j = nlohmann::json::parse(decoded.out.toStdString());
    QCOMPARE(j["clip"].get<std::string>(), std::string("run"));
    QCOMPARE(j["source_clip"].get<std::string>(), std::string("mixamo.com"));
    // A source name shared by several clips is ambiguous where one clip is needed.
    const CliRun shared = runCli({"decode", str(pack), "--clip", "Take 001", "-o", "-"});
    QCOMPARE(shared.code, 1);
    QVERIFY2(shared.err.contains("a/walk, b/walk"), shared.err.constData());
    // Older packs do not record it: null.
    const auto v3 = std::filesystem::path(ANIMPACK_SOURCE_DIR) / "tests/data/golden_v3.anpk";
    const CliRun old = runCli({"dump", str(v3), "--json"});
    QVERIFY2(old.code == 0, old.err.constData());
    QVERIFY(nlohmann::json::parse(old.out.toStdString())["clips"][0]["source_clip"].is_null());
    const CliRun oldDecode = runCli({"decode", str(v3), "--clip", "Walk", "-o", "-"});
    QVERIFY2(oldDecode.code == 0, oldDecode.err.constData());
    QVERIFY(nlohmann::json::parse(oldDecode.out.toStdString())["source_clip"].is_null());
  }

  void clipArgumentsPickOneOrListMatches() {
    const auto pack = m_dir / "hero.anpk";
    const CliRun ambiguous = runCli({"decode", str(pack), "--clip", "*/walk", "-o", "-"});
    QCOMPARE(ambiguous.code, 1);
    QVERIFY2(ambiguous.err.contains("a/walk, b/walk"), ambiguous.err.constData());
    const CliRun byIndex = runCli({"decode", str(pack), "--clip", "#4", "-o", "-"});
    QVERIFY2(byIndex.code == 0, byIndex.err.constData());
    const auto j = nlohmann::json::parse(byIndex.out.toStdString());
    QCOMPARE(j["clip"].get<std::string>(), std::string("run"));
    QCOMPARE(j["source"].get<std::string>(), std::string("run.gltf"));
    const CliRun one = build({"-o", str(m_dir / "one.anpk"), "--clip", "b/walk"});
    QVERIFY2(one.code == 0, one.err.constData());
    QCOMPARE(packNames(m_dir / "one.anpk"), QString("b/walk"));
    const CliRun none = build({"-o", str(m_dir / "none.anpk"), "--clip", "jump"});
    QCOMPARE(none.code, 1);
    QVERIFY2(none.err.contains("no clip 'jump'"), none.err.constData());
  }

  void depfileListsProjectAndSources() {
    const auto pack = m_dir / "dep.anpk", dep = m_dir / "dep.d";
    const CliRun r = build({"-o", str(pack), "--depfile", str(dep)});
    QVERIFY2(r.code == 0, r.err.constData());
    const std::string text = readText(dep);
    QVERIFY2(text.starts_with(pack.string() + ": \\\n  " + m_project.string() + " \\\n"), text.c_str());
    QVERIFY(text.find((m_chars / "b" / "walk.gltf").string() + " \\\n") != std::string::npos);
    QVERIFY(text.ends_with((m_chars / "run.gltf").string() + "\n"));
  }

  void requireApprovedFailsThenPassesAfterApprove() {
    const auto pack = m_dir / "approved.anpk";
    CliRun r = build({"-o", str(pack), "--require-approved"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("a/walk: not approved") && r.err.contains("5 clip(s) not approved"), r.err.constData());
    QVERIFY(!std::filesystem::exists(pack));
    r = runCli({"approve", str(m_project), "--clip", "a/walk", "-q"});
    QVERIFY2(r.code == 0, r.err.constData());
    r = build({"-o", str(pack), "--require-approved"});
    QCOMPARE(r.code, 1);
    QVERIFY2(!r.err.contains("a/walk:") && r.err.contains("4 clip(s)"), r.err.constData());
    r = runCli({"approve", str(m_project), "--all", "-q"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto j = nlohmann::json::parse(readText(m_project));
    const auto& walk = j["clips"]["a/walk"];
    QCOMPARE(walk["approval"].get<std::string>(), std::string("approved"));
    QVERIFY(!walk["by"].get<std::string>().empty());
    QVERIFY(walk["at"].get<std::string>().ends_with("Z"));
    QVERIFY(walk["max_error_cm"].get<double>() > 0);
    r = build({"-o", str(pack), "--require-approved"});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(std::filesystem::exists(pack));
    QCOMPARE(readText(pack), readText(m_dir / "hero.anpk"));  // approval changes no byte

    // A settings change for one clip voids its approval only.
    auto edited = j;
    edited["settings"]["clips"]["run"] = {{"precision_cm", 0.05}};
    { std::ofstream(m_project) << edited.dump(2); }
    r = build({"-o", str(pack), "--require-approved"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("run: its settings changed") && r.err.contains("1 clip(s)"), r.err.constData());
    { std::ofstream(m_project) << j.dump(2); }
  }

  void concurrentBuildsShareOneCache() {
    const auto cache = m_dir / "cache";
    QProcess a, b;
    a.start(ANIMPACK_CLI,
            {"build", str(m_project), "-o", str(m_dir / "c1.anpk"), "--cache", str(cache), "-q", "--jobs", "1"});
    b.start(ANIMPACK_CLI,
            {"build", str(m_project), "-o", str(m_dir / "c2.anpk"), "--cache", str(cache), "-q", "--jobs", "1"});
    QVERIFY(a.waitForFinished(300000) && b.waitForFinished(300000));
    QCOMPARE(a.exitCode(), 0);
    QCOMPARE(b.exitCode(), 0);
    QCOMPARE(readText(m_dir / "c1.anpk"), readText(m_dir / "hero.anpk"));
    QCOMPARE(readText(m_dir / "c2.anpk"), readText(m_dir / "hero.anpk"));
    for (const auto& e : std::filesystem::directory_iterator(cache))  // no temporary file left behind
      QVERIFY2(e.path().filename().string()[0] != '.', e.path().c_str());
    const CliRun cached = build({"-o", str(m_dir / "c3.anpk"), "--cache", str(cache)});
    QVERIFY2(cached.code == 0, cached.err.constData());
    QVERIFY2(cached.out.contains("5 from the cache"), cached.out.constData());
    QCOMPARE(readText(m_dir / "c3.anpk"), readText(m_dir / "hero.anpk"));
  }

  void otherSkeletonIsLeftOutAndNamed() {
    const auto other = m_dir / "other.anproj";
    std::filesystem::create_directories(m_dir / "extra");
    QVERIFY(writeGltf(manyJointsRig(12), m_dir / "extra" / "prop.gltf"));
    CliRun r = runCli({"project", "new", str(other), str(m_chars / "run.gltf"), str(m_dir / "extra" / "prop.gltf")});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCli({"build", str(other), "-o", str(m_dir / "other.anpk"), "-q"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("prop.gltf") && r.err.contains("skeleton differs") && r.err.contains("joint(s) differ"),
             r.err.constData());
    QCOMPARE(packNames(m_dir / "other.anpk"), QString("run"));
  }

  void versionOneProjectsBuild() {
    const auto v1 = m_dir / "v1.anproj";
    {
      std::ofstream(v1) << R"({"animpack_project": 1, "source": "chars/hero.gltf", "settings": {"precision_cm": 0.02},
                             "clips": [{"name": "Walk", "clip_index": 0, "approval": "needs_review"}]})";
    }
    const CliRun r = runCli({"build", str(v1), "-o", str(m_dir / "v1.anpk"), "-q"});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(packNames(m_dir / "v1.anpk"), QString("Walk,Wave"));
    const CliRun bad = runCli({"build", str(m_dir / "missing.anproj"), "-o", str(m_dir / "x.anpk")});
    QCOMPARE(bad.code, 1);
    QVERIFY2(bad.err.contains("missing.anproj: cannot open"), bad.err.constData());
    QCOMPARE(runCli({"build", str(v1)}).code, 2);
  }

  void mergeRefusesOnlyTrueDuplicates() {
    const auto pack = m_dir / "hero.anpk";
    CliRun r = runCli({"merge", str(pack), str(pack), "-o", str(m_dir / "twice.anpk")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("the same animation of the same source bytes"), r.err.constData());
    // Two packs of different files whose clips share a name merge under their pack stems.
    const auto walkA = m_dir / "walkA.anpk", walkB = m_dir / "walkB.anpk";
    QCOMPARE(runCli({"compress", str(m_chars / "a" / "walk.gltf"), "-o", str(walkA), "-q"}).code, 0);
    QCOMPARE(runCli({"compress", str(m_chars / "b" / "walk.gltf"), "-o", str(walkB), "-q"}).code, 0);
    QCOMPARE(packNames(walkA), QString("walk"));
    r = runCli({"merge", str(walkA), str(walkB), "-o", str(m_dir / "merged.anpk")});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(packNames(m_dir / "merged.anpk"), QString("walkA/walk,walkB/walk"));
  }
};

QTEST_GUILESS_MAIN(TestProject)
#include "tst_project.moc"
