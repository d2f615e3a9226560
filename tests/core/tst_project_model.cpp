// The project model (docs/PROJECT.md): version 2 round trip with paths relative to the project,
// version 1 read, each bad value named, adding sources once, approvals that stop holding, depfiles.
#include <QtTest>

#include "core/project/project_build.h"

using namespace animpack::core;

class TestProject : public QObject {
  Q_OBJECT
 private slots:
  void roundTripKeepsEverything() {
    Project p;
    p.sources = {{"/game/assets/hero/walk.bvh", std::nullopt}, {"/elsewhere/run.fbx", CompressionSettings{}}};
    p.sources[1].settings->precisionCm = 0.05f;
    p.settings.shellCm = 4.f;
    p.budgetKib = 256;
    p.budgetKind = BudgetKind::Pack;
    p.approvals["walk"] = {ApprovalState::Approved, 0x1234, 0xabcdef, "ana", "2026-12-01T13:00:00Z", 0.0099f};
    const std::string json = projectJson(p, "/game/assets/hero.anproj");
    QVERIFY2(json.find("\"path\": \"hero/walk.bvh\"") != std::string::npos, json.c_str());       // below: relative
    QVERIFY2(json.find("\"path\": \"/elsewhere/run.fbx\"") != std::string::npos, json.c_str());  // outside: absolute
    auto back = parseProject(json, "/game/assets/hero.anproj");
    QVERIFY2(back, back ? "" : back.message().c_str());
    QVERIFY(*back == p);
    QCOMPARE(back->settingsFor(1).precisionCm.value(), 0.05f);
    QCOMPARE(back->settingsFor(1).shellCm.value(), 4.f);
    QVERIFY(!back->settingsFor(0).precisionCm);
  }

  void budgetKindDefaults() {
    // A new project counts resident bytes; a project written before budgets had a kind, the file.
    QCOMPARE(Project{}.budgetKind, BudgetKind::Resident);
    auto old = parseProject(R"({"animpack_project": 2, "sources": [], "budget_kib": 100})", "/p/old.anproj");
    QVERIFY(old);
    QCOMPARE(old->budgetKind, BudgetKind::Pack);
    auto resident = parseProject(
        R"({"animpack_project": 2, "sources": [], "budget_kib": 100, "budget_kind": "resident"})", "/p/new.anproj");
    QVERIFY(resident);
    QCOMPARE(resident->budgetKind, BudgetKind::Resident);
    QVERIFY(projectJson(*resident, "/p/new.anproj").find("\"budget_kind\": \"resident\"") != std::string::npos);
  }

  void versionOneIsRead() {
    auto p = parseProject(R"({"animpack_project": 1, "source": "hero.gltf", "up_axis": "z_up",
      "clips": [{"name": "Walk", "clip_index": 0, "approval": "approved",
                 "approved_settings_hash": "00000000000000ff", "approved_source_hash": "0000000000000001"}]})",
                          "/p/hero.anproj");
    QVERIFY2(p, p ? "" : p.message().c_str());
    QCOMPARE(p->sources.size(), std::size_t(1));
    QCOMPARE(p->sources[0].path, std::filesystem::path("/p/hero.gltf"));
    QCOMPARE(p->upAxis, std::string("z_up"));
    QVERIFY(p->approvalsBySourceName);
    const ClipApprovalRecord* a = p->approval("hero", "Walk");  // keyed by the animation's name
    QVERIFY(a);
    QCOMPARE(a->settingsHash, std::uint64_t(0xff));
  }

  void badValuesAreNamed() {
    const auto expect = [](const char* text, const char* needle) {
      auto p = parseProject(text, "/p/bad.anproj");
      QVERIFY(!p);
      QVERIFY2(p.message().find("bad.anproj") != std::string::npos && p.message().find(needle) != std::string::npos,
               p.message().c_str());
    };
    expect("{", "not a project file");
    expect(R"({"animpack_project": 3, "sources": []})", "newer");
    expect(R"({"animpack_project": 2})", "sources");
    expect(R"({"animpack_project": 2, "sources": [{"path": ""}]})", "sources[0].path");
    expect(R"({"animpack_project": 2, "sources": [{"path": "a"}, {"path": "./a"}]})", "listed twice");
    expect(R"({"animpack_project": 2, "sources": [], "budget_kib": -1})", "budget_kib");
    expect(R"({"animpack_project": 2, "sources": [], "budget_kind": "disk"})", "budget_kind");
    expect(R"({"animpack_project": 2, "sources": [], "clips": {"w": {"approval": "maybe"}}})", "clips.w.approval");
    expect(
        R"({"animpack_project": 2, "sources": [], "clips": {"w": {"approval": "approved", "settings_hash": "xyz"}}})",
        "settings_hash");
    expect(R"({"animpack_project": 2, "sources": [], "settings": {"precision_cm": -1}})", "precision_cm");
    expect(R"({"animpack_project": 2, "sources": [], "colour": 1})", "unknown key 'colour'");
  }

  void sourcesAreAddedOnce() {
    Project p;
    QCOMPARE(p.addSources({"/a/walk.bvh", "/a/./walk.bvh", "/a/run.bvh"}), std::size_t(2));
    QCOMPARE(p.addSources({"/a/run.bvh"}), std::size_t(0));
    p.removeSource(0);
    QCOMPARE(p.sources.front().path, std::filesystem::path("/a/run.bvh"));
  }

  void approvalsStopHoldingWhenAnythingChanges() {
    const ClipApprovalRecord a{ApprovalState::Approved, 1, 2, "ana", "t", 0.01f};
    QCOMPARE(approvalMismatch(a, 1, 2, 0.01f), std::string());
    QVERIFY(approvalMismatch(a, 9, 2, 0.01f).find("settings") != std::string::npos);
    QVERIFY(approvalMismatch(a, 1, 9, 0.01f).find("source") != std::string::npos);
    QVERIFY(approvalMismatch(a, 1, 2, 0.02f).find("max error") != std::string::npos);
    ClipApprovalRecord rejected = a;
    rejected.state = ApprovalState::Rejected;
    QCOMPARE(approvalMismatch(rejected, 1, 2, 0.01f), std::string("rejected"));
    Project p;
    p.approvals["walk"] = a;
    const auto failing =
        unapprovedClips(p, {{"walk", "Motion", "walk.bvh", 1, 2, 0.01f}, {"run", "Motion", "run.bvh", 1, 2, 0.f}});
    QCOMPARE(failing, std::vector<std::string>{"run: not approved"});
  }

  void depfileEscapesSpaces() {
    Project p;
    p.sources = {{"/a/my walk.bvh", std::nullopt}};
    QCOMPARE(depfileText("/out/hero.anpk", "/a/hero.anproj", p),
             std::string("/out/hero.anpk: \\\n  /a/hero.anproj \\\n  /a/my\\ walk.bvh\n"));
  }
};

QTEST_APPLESS_MAIN(TestProject)
#include "tst_project_model.moc"
