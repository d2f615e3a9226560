// The order a pack stores its joints in (settings `lod`, docs/SETTINGS.md): by depth or with named
// joints first, parents always first. The import reorders every per-joint array (skeleton, frames,
// source keys, skin), so the motion and the skin are the same bits by name; the settings read and
// write the key; a depth-ordered pack verifies against its source and its first N joints are the
// joints nearest the root.
#include <QtTest>

#include <algorithm>
#include <cstring>
#include <map>

#include "core/anim/source_clip.h"
#include "core/batch/export.h"
#include "core/compress/joint_order.h"
#include "core/compress/settings.h"
#include "core/io/asset_importer.h"
#include "core/io/pack_verify.h"
#include "core/runtime/pack.h"
#include "core/runtime/pose_ops.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

ImportedAsset importWith(const char* model, JointOrder order) {
  ImportOptions options;
  options.jointOrder = std::move(order);
  auto asset = importAsset(test::model(model), options);
  if (!asset) qFatal("%s", asset.message().c_str());
  return std::move(asset.value());
}

JointOrder depthOrder() { return {JointOrder::Kind::Depth, {}}; }

/// Where each joint of `a` sits in `b`, by name.
std::vector<std::size_t> byName(const Skeleton& a, const Skeleton& b) {
  std::vector<std::size_t> out;
  for (const std::string& name : a.names) {
    const std::int32_t j = b.find(name);
    if (j < 0) qFatal("joint %s is missing", name.c_str());
    out.push_back(std::size_t(j));
  }
  return out;
}

template <class S>
bool same(const runtime::Affine<S>& a, const runtime::Affine<S>& b) {
  return std::memcmp(a.m, b.m, sizeof(a.m)) == 0;
}
bool same(const Transform& a, const Transform& b) { return std::memcmp(&a, &b, sizeof(Transform)) == 0; }

/// Skinned positions of every mesh at `frame` of clip 0.
std::vector<std::vector<Vec3>> skinned(const ImportedAsset& asset, std::uint32_t frame) {
  const Skeleton& sk = asset.skeleton;
  std::vector<Mat34> object(sk.jointCount()), skin(sk.jointCount());
  runtime::localToObject<float>(sk.parents, asset.clips[0].frame(frame), object);
  runtime::skinMatrices(object, sk.inverseBind, skin);
  std::vector<std::vector<Vec3>> out;
  for (const SkinnedMesh& m : asset.meshes) {
    if (!m.skinned) continue;
    out.emplace_back(m.vertexCount());
    runtime::skinVertices(skin, m.positions, {}, m.influences, out.back(), {});
  }
  return out;
}

}  // namespace

class TestJointOrder : public QObject {
  Q_OBJECT

 private slots:
  /// Depth order: parents first, depths never go down, and every joint keeps its parent, rest pose,
  /// bind, frames, source keys (between frames too) and the skin it moves, to the bit.
  void aDepthOrderIsTheSameRigReordered() {
    for (const char* model : {"X/Testwuson.X", "BVH/01_01.bvh"}) {
      const ImportedAsset source = importWith(model, {});
      const ImportedAsset depth = importWith(model, depthOrder());
      const Skeleton &a = source.skeleton, &b = depth.skeleton;
      QVERIFY(b.validate());
      QVERIFY(a.names != b.names);  // both rigs have joints to move
      for (std::size_t k = 1; k < b.jointCount(); ++k) QVERIFY(b.depth(k - 1) <= b.depth(k));
      const std::vector<std::size_t> at = byName(a, b);
      for (std::size_t j = 0; j < a.jointCount(); ++j) {
        const std::int32_t p = a.parents[j];
        QCOMPARE(b.parents[at[j]], p < 0 ? -1 : std::int32_t(at[std::size_t(p)]));
        QVERIFY(same(a.restLocal[j], b.restLocal[at[j]]));
        if (!a.inverseBind.empty()) QVERIFY(same(a.inverseBind[j], b.inverseBind[at[j]]));
      }
      QCOMPARE(depth.clips.size(), source.clips.size());
      for (std::size_t c = 0; c < source.clips.size(); ++c) {
        const RawClip &ra = source.clips[c], &rb = depth.clips[c];
        QVERIFY(rb.validate(b));
        for (std::uint32_t f = 0; f < ra.frameCount; ++f)
          for (std::size_t j = 0; j < a.jointCount(); ++j)
            QVERIFY(same(ra.at(std::uint32_t(j), f), rb.at(std::uint32_t(at[j]), f)));
        for (std::size_t j = 0; j < a.jointCount(); ++j) QCOMPARE(ra.keyedChannels[j], rb.keyedChannels[at[j]]);
        QVERIFY(ra.source && rb.source);
        std::vector<Mat34d> ma(a.jointCount()), mb(b.jointCount());
        for (const double frame : {0.0, 0.37, 2.5, double(ra.frameCount) - 1.25}) {
          ra.source->objectMatrices(a.parents, frame, ma);
          rb.source->objectMatrices(b.parents, frame, mb);
          for (std::size_t j = 0; j < a.jointCount(); ++j) QVERIFY(same(ma[j], mb[at[j]]));
        }
      }
      const auto sa = skinned(source, 3), sb = skinned(depth, 3);
      QCOMPARE(sb.size(), sa.size());
      for (std::size_t m = 0; m < sa.size(); ++m)
        QVERIFY(sa[m].size() == sb[m].size() &&
                std::memcmp(sa[m].data(), sb[m].data(), sa[m].size() * sizeof(Vec3)) == 0);
      if (!source.meshes.empty()) QVERIFY(!sa.empty());
    }
  }

  /// A list puts its joints first, each after its ancestors, a wildcard's joints in the source's
  /// order; the rest follow by depth. A name that matches nothing is an error naming it.
  void aListPutsNamedJointsAndTheirAncestorsFirst() {
    const ImportedAsset source = importWith("BVH/01_01.bvh", {});
    const Skeleton& sk = source.skeleton;
    const std::int32_t hand = sk.find("LeftHand");
    QVERIFY(hand > 0);
    auto order = jointOrder(sk, {JointOrder::Kind::List, {"LeftHand", "Right*"}});
    QVERIFY(order);
    // LeftHand's chain from the root, then the Right* joints with what they need, then the rest.
    std::vector<std::int32_t> chain;
    for (std::int32_t j = hand; j >= 0; j = sk.parents[std::size_t(j)]) chain.insert(chain.begin(), j);
    QVERIFY(std::equal(chain.begin(), chain.end(), order->begin()));
    std::vector<bool> seen(sk.jointCount(), false);
    for (std::int32_t j : *order) {
      QVERIFY(!seen[std::size_t(j)]);
      if (sk.parents[std::size_t(j)] >= 0) QVERIFY(seen[std::size_t(sk.parents[std::size_t(j)])]);
      seen[std::size_t(j)] = true;
    }
    QCOMPARE(order->size(), sk.jointCount());
    const auto listed = std::find(order->begin(), order->end(), sk.find("RightArm"));
    const auto leg = std::find(order->begin(), order->end(), sk.find("RightUpLeg"));
    QVERIFY(listed != order->end() && leg != order->end());
    QVERIFY(leg < listed);  // the source's order within a wildcard
    const ImportedAsset listedAsset = importWith("BVH/01_01.bvh", {JointOrder::Kind::List, {"LeftHand", "Right*"}});
    QCOMPARE(listedAsset.skeleton.names[chain.size() - 1], std::string("LeftHand"));

    auto missing = jointOrder(sk, {JointOrder::Kind::List, {"LeftHand", "Tail*"}});
    QVERIFY(!missing);
    QVERIFY2(missing.message().find("'Tail*' matches no joint") != std::string::npos, missing.message().c_str());
    ImportOptions bad;
    bad.jointOrder = {JointOrder::Kind::List, {"NoSuchJoint"}};
    auto refused = importAsset(test::model("BVH/01_01.bvh"), bad);
    QVERIFY(!refused);
    QVERIFY2(refused.message().find("01_01.bvh") != std::string::npos &&
                 refused.message().find("'NoSuchJoint'") != std::string::npos,
             refused.message().c_str());
  }

  /// The levels inspect and dump print: how many first joints hold every joint of depth <= d.
  void depthLevelsCountTheFirstJointsOfEachDepth() {
    //        0
    //      1   3
    //      2   4 5
    const std::vector<std::int32_t> source = {-1, 0, 1, 0, 3, 3};
    QCOMPARE(depthLevels(source), (std::vector<std::uint32_t>{1, 4, 6}));
    const std::vector<std::int32_t> byDepth = {-1, 0, 0, 1, 2, 2};
    QCOMPARE(depthLevels(byDepth), (std::vector<std::uint32_t>{1, 3, 6}));
    QCOMPARE(depthLevels({}), std::vector<std::uint32_t>{});
    QCOMPARE(levelsText(depthLevels(byDepth), 6),
             std::string("lod:       depth <= 0 in the first 1, <= 1 in 3, <= 2 in 6 of 6 joints\n"));
  }

  /// `lod` in the settings: "source", "depth" or a list; the top level only; kept by toJson, merge
  /// and the hash.
  void theSettingsKey() {
    auto depth = CompressionSettings::fromJson(R"({"lod":"depth"})", "s.json");
    QVERIFY(depth && depth->lod && depth->lod->kind == JointOrder::Kind::Depth);
    auto list = CompressionSettings::fromJson(R"({"lod":["Hips","Spine*"]})", "s.json");
    QVERIFY(list && list->lod && list->lod->kind == JointOrder::Kind::List);
    QCOMPARE(list->lod->first, (std::vector<std::string>{"Hips", "Spine*"}));
    auto again = CompressionSettings::fromJson(list->toJson(), "again");
    QVERIFY(again && *again == *list);
    auto plain = CompressionSettings::fromJson("{}", "s.json");
    QVERIFY(plain->hash() != depth->hash() && depth->hash() != list->hash());
    CompressionSettings merged = *plain;
    merged.merge(*depth);
    QVERIFY(merged.lod == depth->lod);
    merged.merge(*plain);  // an absent key keeps what is there
    QVERIFY(merged.lod == depth->lod);
    for (const char* bad :
         {R"({"lod":"breadth"})", R"({"lod":[]})", R"({"lod":["Hips", 3]})", R"({"lod":[""]})", R"({"lod":7})"}) {
      auto refused = CompressionSettings::fromJson(bad, "s.json");
      QVERIFY2(!refused, bad);
      QVERIFY2(
          refused.message().find("s.json") != std::string::npos && refused.message().find("'lod'") != std::string::npos,
          refused.message().c_str());
    }
    auto perClip = CompressionSettings::fromJson(R"({"clips":{"Run":{"lod":"depth"}}})", "s.json");
    QVERIFY(!perClip);
    QVERIFY2(perClip.message().find("clips.Run.lod") != std::string::npos &&
                 perClip.message().find("top level") != std::string::npos,
             perClip.message().c_str());
  }

  /// A pack written in depth order stores the depth order, verifies against its source (the
  /// source is put in the pack's order by name), and its first N joints are those nearest the root.
  void aDepthOrderedPackVerifiesAgainstItsSource() {
    const auto file = test::model("X/Testwuson.X");
    std::map<std::string, std::uint64_t> bytes;
    for (const bool byDepth : {false, true}) {
      ExportOptions o;
      o.output = test::scratchDir() / (byDepth ? "wuson_depth.anpk" : "wuson_source.anpk");
      if (byDepth) o.batch.settings.lod = depthOrder();
      o.batch.jobs = 2;
      o.toolVersion = "test";
      auto r = exportPacks({file}, o);
      QVERIFY2(r, r ? "" : r.message().c_str());
      auto pack = runtime::Pack::load(o.output);
      QVERIFY2(pack, pack ? "" : pack.message().c_str());
      const runtime::PackSkeleton& sk = pack->skeleton();
      const ImportedAsset expected = importWith("X/Testwuson.X", byDepth ? depthOrder() : JointOrder{});
      QCOMPARE(sk.names(), expected.skeleton.names);
      auto sources = matchSources(*pack, {file});
      QVERIFY2(sources, sources ? "" : sources.message().c_str());
      for (const ClipVerification& v : verifyPack(*pack, *sources)) QVERIFY2(v.withinPrecision(), v.name.c_str());
      bytes[byDepth ? "depth" : "source"] = pack->clips()[0].ownBytes();
      if (!byDepth) continue;
      const std::vector<std::uint32_t> levels = depthLevels(sk.parents());
      QVERIFY(levels.size() > 2 && levels[1] < sk.jointCount() / 2);
      for (std::uint32_t j = 0; j < sk.jointCount(); ++j) QCOMPARE(j < levels[1], expected.skeleton.depth(j) <= 1);
    }
    // The order moves bytes between groups, not many: within 5 % of the source's order.
    QVERIFY2(double(bytes["depth"]) <= 1.05 * double(bytes["source"]),
             (std::to_string(bytes["depth"]) + " vs " + std::to_string(bytes["source"])).c_str());
  }
};

QTEST_GUILESS_MAIN(TestJointOrder)
#include "tst_joint_order.moc"
