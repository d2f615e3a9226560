// The item models of the studio (joint tree, clip list) under QAbstractItemModelTester, and their
// edits going through the document's undo stack.

#include <QAbstractItemModelTester>
#include <QFont>
#include <QSignalSpy>
#include <QFileInfo>
#include <QTest>

#include "tests/widgets/fixture.h"
#include "widgets/clip_list.h"
#include "widgets/joint_tree_model.h"
#include "widgets/joint_tree_view.h"
#include "widgets/stats_panel.h"
#include "widgets/format.h"
#include <QBrush>
#include "core/anim/skinned_mesh.h"
#include "core/runtime/pack_format.h"
#include <numeric>

using namespace animpack;
using namespace animpack::widgets;

class TstItemModels : public QObject {
  Q_OBJECT
 private slots:
  void jointTreeFollowsTheHierarchy() {
    ClipDocument doc;
    Recompressor rc(&doc);
    JointTreeModel model(&doc, &rc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(doc.open(test::rigPath()));
    const auto& sk = doc.asset()->skeleton;
    int total = 0;
    std::function<void(const QModelIndex&)> walk = [&](const QModelIndex& parent) {
      for (int r = 0; r < model.rowCount(parent); ++r) {
        const QModelIndex i = model.index(r, JointTreeModel::Name, parent);
        const int j = i.data(JointTreeModel::JointRole).toInt();
        ++total;
        QCOMPARE(i.data().toString(), QString::fromStdString(sk.names[std::size_t(j)]));
        const int p = sk.parents[std::size_t(j)];
        QCOMPARE(parent.isValid() ? parent.data(JointTreeModel::JointRole).toInt() : -1, p);
        QCOMPARE(model.indexOfJoint(j), i);
        walk(i);
      }
    };
    walk({});
    QCOMPARE(total, int(sk.jointCount()));
  }

  /// Edit > Joint order (settings lod): every file is imported again in the new order as one undo
  /// step, the tree keeps the hierarchy, the LOD # column shows each joint's place, and the
  /// selection follows its joints by name through the step and its undo.
  void theJointOrderIsOneStepAndTheTreeShowsIt() {
    ClipDocument doc;
    Recompressor rc(&doc);
    JointTreeModel model(&doc, &rc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(doc.open(QString::fromStdString(test::model("BVH/01_01.bvh").string())));
    const std::vector<std::string> source = doc.asset()->skeleton.names;
    const int spine = test::joint(doc, "Spine");
    QCOMPARE(spine, 14);  // the depth-first order of the file
    doc.setSelectedJoints({spine});
    QCOMPARE(model.indexOfJoint(spine).siblingAtColumn(JointTreeModel::Order).data().toInt(), 14);
    doc.setJointOrder({core::JointOrder::Kind::Depth, {}});
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(*doc.settings().lod, (core::JointOrder{core::JointOrder::Kind::Depth, {}}));
    const auto& sk = doc.asset()->skeleton;
    for (std::size_t k = 1; k < sk.jointCount(); ++k) QVERIFY(sk.depth(k - 1) <= sk.depth(k));
    const int moved = test::joint(doc, "Spine");
    QCOMPARE(moved, 6);  // depth 2: after the root's three children and their three children
    QCOMPARE(doc.selectedJoints(), std::vector<int>{moved});
    const QModelIndex shown = model.indexOfJoint(moved);
    QCOMPARE(shown.siblingAtColumn(JointTreeModel::Order).data().toInt(), moved);
    QCOMPARE(shown.parent().data().toString(), QString("LowerBack"));  // still under its parent
    QVERIFY(model.headerData(JointTreeModel::Order, Qt::Horizontal, Qt::ToolTipRole).toString().contains("N joints"));
    doc.undoStack()->undo();
    QCOMPARE(doc.asset()->skeleton.names, source);
    QCOMPARE(doc.selectedJoints(), std::vector<int>{spine});
    QVERIFY(!doc.settings().lod);
    doc.undoStack()->redo();
    QCOMPARE(test::joint(doc, "Spine"), moved);
    // A list of joints that the skeleton lacks is refused with the file named: no step.
    QSignalSpy failed(&doc, &ClipDocument::importFailed);
    doc.setJointOrder({core::JointOrder::Kind::List, {"Tail"}});
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.first().first().toString().contains("'Tail' matches no joint"),
             qPrintable(failed.first().first().toString()));
    QCOMPARE(doc.undoStack()->count(), 1);
  }

  void editsBecomeUndoCommands() {
    ClipDocument doc;
    Recompressor rc(&doc);
    JointTreeModel model(&doc, &rc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(doc.open(test::rigPath()));
    const int spine = test::joint(doc, "Spine"), head = test::joint(doc, "Head");
    const QModelIndex spinePrecision = model.indexOfJoint(spine).siblingAtColumn(JointTreeModel::Precision);
    const QModelIndex headPrecision = model.indexOfJoint(head).siblingAtColumn(JointTreeModel::Precision);
    QCOMPARE(spinePrecision.data(Qt::EditRole).toDouble(), double(core::kDefaultPrecisionCm));

    QVERIFY(model.setData(spinePrecision, 0.25, Qt::EditRole));
    QCOMPARE(doc.undoStack()->count(), 1);
    QCOMPARE(spinePrecision.data(Qt::EditRole).toDouble(), double(0.25f));
    QVERIFY(spinePrecision.data(Qt::FontRole).value<QFont>().bold());      // its own value
    QCOMPARE(headPrecision.data(Qt::EditRole).toDouble(), double(0.25f));  // inherited...
    QVERIFY(!headPrecision.data(Qt::FontRole).value<QFont>().bold());      // ...and shown as such

    // Absurd values are refused without touching the settings.
    QVERIFY(!model.setData(spinePrecision, -1.0, Qt::EditRole));
    QVERIFY(!model.setData(spinePrecision, std::numeric_limits<double>::quiet_NaN(), Qt::EditRole));
    QVERIFY(!model.setData(spinePrecision, 1e9, Qt::EditRole));
    QVERIFY(!model.setData(spinePrecision, "abc", Qt::EditRole));
    QCOMPARE(doc.undoStack()->count(), 1);

    const QModelIndex pin = model.indexOfJoint(head).siblingAtColumn(JointTreeModel::Pinned);
    QVERIFY(model.setData(pin, Qt::Checked, Qt::CheckStateRole));
    QCOMPARE(pin.data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
    QVERIFY(doc.effectiveSettings(0).joints[std::size_t(head)].pinned);
    doc.undoStack()->undo();
    QCOMPARE(pin.data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
    doc.undoStack()->undo();
    QCOMPARE(spinePrecision.data(Qt::EditRole).toDouble(), double(core::kDefaultPrecisionCm));
  }

  void jointTreeShowsTheResult() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    JointTreeModel model(&doc, &rc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(doc.open(test::rigPath()));
    QVERIFY(test::waitForResult(rc, 0));
    const int hips = test::joint(doc, "Hips");
    const QModelIndex storage = model.indexOfJoint(hips).siblingAtColumn(JointTreeModel::Storage);
    QVERIFY2(!storage.data().toString().isEmpty(), "the storage column names the track kinds once compressed");
    const QString err = model.indexOfJoint(hips).siblingAtColumn(JointTreeModel::MaxError).data().toString();
    QVERIFY2(err.contains("cm") || err.contains("mm") || err.contains("µm"), qPrintable(err));

    // While a new result is computed, the previous one stays, dimmed and marked as updating.
    const QModelIndex error = model.indexOfJoint(hips).siblingAtColumn(JointTreeModel::MaxError);
    doc.setJointValue(EditScope::AllClips, {hips}, JointField::Precision, 0.2f);
    QCOMPARE(error.data().toString(), err);
    QCOMPARE(error.data(Qt::ToolTipRole).toString(), kUpdatingTip);
    QCOMPARE(error.data(Qt::ForegroundRole).value<QBrush>().color(), kStaleColor);
    QVERIFY(test::waitForResult(rc, 0));
    QVERIFY(error.data(Qt::ToolTipRole).toString() != kUpdatingTip);
  }

  void scopeSwitchesWhichOverridesAreOwn() {
    ClipDocument doc;
    Recompressor rc(&doc);
    JointTreeModel model(&doc, &rc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(doc.open(test::rigPath()));
    model.setScope(EditScope::CurrentClip);
    const int head = test::joint(doc, "Head");
    const QModelIndex shell = model.indexOfJoint(head).siblingAtColumn(JointTreeModel::Shell);
    QVERIFY(model.setData(shell, 9.0, Qt::EditRole));
    QVERIFY(hasOverride(doc.settings(), EditScope::CurrentClip, "Walk", "Head", JointField::Shell));
    QVERIFY(shell.data(Qt::FontRole).value<QFont>().bold());
    model.setScope(EditScope::AllClips);
    QVERIFY(!shell.data(Qt::FontRole).value<QFont>().bold());
    QCOMPARE(shell.data(Qt::EditRole).toDouble(), 9.0);  // still the effective value of this clip
  }

  void subtreeAndMeshEditsAreOneStep() {
    ClipDocument doc;
    Recompressor rc(&doc);
    JointTreeView view(&doc, &rc);
    QVERIFY(doc.open(test::rigPath()));
    const int hips = test::joint(doc, "Hips");
    doc.setJointValue(EditScope::AllClips, {hips}, JointField::Precision, 0.3f);
    doc.setSelectedJoints({hips});  // the tree follows the document's selection
    const int steps = doc.undoStack()->count();
    view.applyToSubtree();
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    for (const char* name : {"Spine", "Head", "LeftLeg", "LeftFoot"})
      QVERIFY2(hasOverride(doc.settings(), EditScope::AllClips, "Walk", name, JointField::Precision), name);
    doc.setSelectedJoints({test::joint(doc, "Head"), test::joint(doc, "Spine")});
    view.resetSelection();
    QCOMPARE(doc.undoStack()->count(), steps + 2);
    QVERIFY(!hasOverride(doc.settings(), EditScope::AllClips, "Walk", "Head", JointField::Precision));
    QVERIFY(hasOverride(doc.settings(), EditScope::AllClips, "Walk", "LeftFoot", JointField::Precision));
    doc.undoStack()->undo();
    doc.undoStack()->undo();
    QVERIFY(!hasOverride(doc.settings(), EditScope::AllClips, "Walk", "Head", JointField::Precision));

    // The rig's Body mesh is skinned to its joints: each selected joint gets its farthest vertex.
    std::vector<int> all(doc.asset()->skeleton.jointCount());
    std::iota(all.begin(), all.end(), 0);
    doc.setSelectedJoints(all);
    const auto farthest =
        core::farthestInfluencedVertex(doc.asset()->skeleton, doc.asset()->meshes, doc.asset()->unitToCm);
    view.deriveShellFromMesh();
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    int derived = 0;
    for (std::size_t j = 0; j < farthest.size(); ++j) {
      if (farthest[j] <= 1e-3) continue;
      ++derived;
      QCOMPARE(doc.effectiveSettings(0).joints[j].shellCm, float(farthest[j]));  // explicit values: no floor
    }
    QVERIFY(derived > 0);
  }

  void statsOffersShellsFromTheMesh() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    StatsPanel stats(&doc, &rc);
    QVERIFY(doc.open(test::rigPath()));
    QVERIFY(test::waitForResult(rc, 0));
    // The default shells follow the skin: it is held, so no warning on open.
    const auto& s = rc.result(0)->compressed->stats;
    QVERIFY(doc.effectiveSettings(0).verifySkin);
    QVERIFY2(s.maxVertexErrorCm >= 0 && s.maxVertexErrorCm <= core::kSkinBoundFactor * core::kDefaultPrecisionCm,
             qPrintable(QString::number(s.maxVertexErrorCm)));
    QVERIFY(!stats.skinWarningShown());
    // With fixed 3 cm shells the skin of the test rig moves more: the warning offers the skin's shells.
    core::CompressionSettings fixed;
    fixed.shellCm = 3.f;
    doc.importSettings(fixed, "fixed.json");
    QVERIFY(test::waitForResult(rc, 0));
    const auto& f = rc.result(0)->compressed->stats;
    QCOMPARE(stats.skinWarningShown(), f.maxVertexErrorCm > core::kSkinBoundFactor * core::kDefaultPrecisionCm);
    const int steps = doc.undoStack()->count();
    stats.deriveShellsFromMesh();  // what the warning's link does: one step for every joint
    QCOMPARE(doc.undoStack()->count(), steps + 1);
    const auto farthest =
        core::farthestInfluencedVertex(doc.asset()->skeleton, doc.asset()->meshes, doc.asset()->unitToCm);
    for (std::size_t j = 0; j < farthest.size(); ++j)
      if (farthest[j] > 1e-3) QCOMPARE(doc.effectiveSettings(0).joints[j].shellCm, float(farthest[j]));
  }

  void anApprovalUnderTheOldDefaultSaysTheShellsNowFollowTheSkin() {
    ClipDocument doc;
    QVERIFY(doc.open(test::rigPath()));
    // An approval given when the file's shells were 3 cm: its settings hash is the old default's.
    core::CompressionSettings old = doc.settings();
    old.shellCm = core::kDefaultShellCm;
    const core::ImportedAsset& asset = *doc.asset();
    core::ClipApprovalRecord a = doc.approvalNow(0, core::ApprovalState::Approved);
    a.settingsHash =
        core::resolve(old, asset.skeleton, doc.clipName(0).toStdString(), asset.meshes, asset.unitToCm).hash();
    doc.restore({{doc.clipName(0), a}}, doc.upAxis());
    QCOMPARE(doc.approval(0), core::ApprovalState::NeedsReview);
    QVERIFY2(doc.approvalResetReason(0).startsWith("the default shells now follow the skin"),
             qPrintable(doc.approvalResetReason(0)));
    // Any other settings: the plain reason; a fresh approval: none.
    a.settingsHash ^= 1;
    doc.restore({{doc.clipName(0), a}}, doc.upAxis());
    QCOMPARE(doc.approvalResetReason(0), QString("the settings changed since it was given"));
    doc.restore({{doc.clipName(0), doc.approvalNow(0, core::ApprovalState::Approved)}}, doc.upAxis());
    QCOMPARE(doc.approval(0), core::ApprovalState::Approved);
    QVERIFY(doc.approvalResetReason(0).isEmpty());
  }

  void anApprovalAtSceneScaleOneSaysLengthsAreNowInTheScenesCentimetres() {
    ClipDocument doc;
    const auto path = test::writeScene(test::wrappedRig(test::unrootedRig(test::armatureRig(1.f)), 10.f), "x10.gltf");
    QVERIFY(doc.open(QString::fromStdString(path.string())));
    QCOMPARE(doc.effectiveSettings(0).sceneScale, 10.0);
    // An approval given when lengths were measured in the skeleton's root space (scale 1).
    core::ClipApprovalRecord a = doc.approvalNow(0, core::ApprovalState::Approved);
    core::EffectiveSettings before = doc.effectiveSettings(0);
    before.sceneScale = 1.0;
    a.settingsHash = before.hash();
    doc.restore({{doc.clipName(0), a}}, doc.upAxis());
    QCOMPARE(doc.approval(0), core::ApprovalState::NeedsReview);
    QVERIFY2(doc.approvalResetReason(0).startsWith(
                 "lengths are now measured in the scene's centimetres, at scene scale x10"),
             qPrintable(doc.approvalResetReason(0)));
    a.settingsHash ^= 1;
    doc.restore({{doc.clipName(0), a}}, doc.upAxis());
    QCOMPARE(doc.approvalResetReason(0), QString("the settings changed since it was given"));
  }

  void clipListRowsAndApproval() {
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    ClipListModel model(&doc, &rc);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(doc.open(test::rigPath()));
    // One file row, its two clips under it.
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.rowCount(model.fileIndex(0)), 2);
    QCOMPARE(model.columnCount(), int(ClipListModel::ColumnCount));
    QCOMPARE(model.fileIndex(0, ClipListModel::Name).data().toString(), QFileInfo(test::rigPath()).fileName());
    QCOMPARE(model.clipIndex(0, ClipListModel::Name).data().toString(), QString("Walk"));
    QCOMPARE(model.clipIndex(0, ClipListModel::Frames).data().toInt(), 25);
    QVERIFY(model.clipIndex(0, ClipListModel::Rate)
                .data(Qt::ToolTipRole)
                .toString()
                .startsWith("Keys on one regular grid"));
    QCOMPARE(model.clipIndex(0, ClipListModel::Status).data().toString(), QString("needs review"));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QVERIFY(test::waitForResult(rc, 0));
    QVERIFY(!changed.isEmpty());
    const qulonglong packed = model.clipIndex(0, ClipListModel::CompressedBytes).data(Qt::UserRole).toULongLong();
    QCOMPARE(packed, qulonglong(rc.result(0)->compressed->data.size() +
                                runtime::clipEntrySize(
                                    runtime::kPackVersion)));  // core/compress/clip_sizes.h: clip data + table entry
    QVERIFY(model.clipIndex(0, ClipListModel::Ratio).data(Qt::UserRole).toDouble() > 1.0);

    ClipListPanel panel(&doc, &rc);
    QCOMPARE(panel.model()->rowCount(panel.model()->fileIndex(0)), 2);
    doc.setApproval({0}, core::ApprovalState::Approved);
    QCOMPARE(model.clipIndex(0, ClipListModel::Status).data().toString(), QString("approved"));
    QCOMPARE(model.fileIndex(0, ClipListModel::Status).data().toString(), QString("1 of 2 approved"));
  }

  void jointTreeUpdatesOnlyWhatChanged() {
    // Typed changes: an edit of one joint touches that row's settings cells; a result touches the
    // result columns only.
    ClipDocument doc;
    Recompressor rc(&doc);
    rc.setDebounceMs(0);
    JointTreeModel model(&doc, &rc);
    QVERIFY(doc.open(test::rigPath()));
    QVERIFY(test::waitForResult(rc, 0));
    const int head = test::joint(doc, "Head");
    std::vector<std::tuple<int, int, int, int>>
        ranges;  // joint of the first row, last row's joint, first and last column
    connect(&model, &QAbstractItemModel::dataChanged, this, [&](const QModelIndex& a, const QModelIndex& b) {
      ranges.emplace_back(a.data(JointTreeModel::JointRole).toInt(), b.data(JointTreeModel::JointRole).toInt(),
                          a.column(), b.column());
    });
    doc.setJointValue(EditScope::AllClips, {head}, JointField::Precision, 0.3f);
    int settingsRanges = 0;
    for (const auto& [first, last, c0, c1] : ranges) {
      const bool settingsCells = c0 <= JointTreeModel::Pinned && c1 >= JointTreeModel::Precision;
      if (!settingsCells) {
        QVERIFY(c0 >= JointTreeModel::MaxError);  // the result columns (now stale)
        continue;
      }
      ++settingsRanges;
      QCOMPARE(first, head);
      QCOMPARE(last, head);
    }
    QCOMPARE(settingsRanges, 1);
    QCOMPARE(model.index(0, 0).data().toString(), QString::fromStdString(doc.asset()->skeleton.names[0]));
  }
};

QTEST_MAIN(TstItemModels)
#include "tst_item_models.moc"
