// validate() of every input type: each broken rule fails on its own, with a message naming it.
#include <QtTest>

#include <cmath>
#include <limits>

#include "core/anim/pose.h"
#include "core/anim/raw_clip.h"
#include "core/anim/skeleton.h"
#include "core/anim/skinned_mesh.h"

using namespace animpack;
using namespace animpack::core;

namespace {
Skeleton threeJoints() {
  Skeleton s;
  s.names = {"root", "spine", "head"};
  s.parents = {-1, 0, 1};
  s.restLocal.resize(3);
  s.restLocal[1].translation = {0, 1, 0};
  s.restLocal[2].translation = {0, 1, 0};
  s.inverseBind.resize(3);
  return s;
}
RawClip clipFor(const Skeleton& s, std::uint32_t frames) {
  RawClip c;
  c.name = "walk";
  c.frameCount = frames;
  c.jointCount = static_cast<std::uint32_t>(s.jointCount());
  c.sampleRate = 30;
  c.samples.resize(std::size_t(frames) * c.jointCount);
  for (std::uint32_t f = 0; f < frames; ++f)
    for (std::uint32_t j = 0; j < c.jointCount; ++j) c.at(j, f) = s.restLocal[j];
  c.keyedChannels.assign(c.jointCount, kKeyedRotation);
  return c;
}
void expectError(const Status& st, const char* fragment) {
  QVERIFY2(!st.isOk(), fragment);
  QVERIFY2(QString::fromStdString(st.message()).contains(fragment), qPrintable(QString::fromStdString(st.message())));
}
}  // namespace

class TestAnimModel : public QObject {
  Q_OBJECT
 private slots:
  void validSkeletonPasses() {
    QVERIFY(threeJoints().validate().isOk());
    QCOMPARE(threeJoints().depth(2), 2);
    QCOMPARE(threeJoints().find("head"), 2);
    QCOMPARE(threeJoints().find("tail"), -1);
    QCOMPARE(threeJoints().children()[0].size(), std::size_t(1));
  }
  void skeletonRules() {
    Skeleton s = threeJoints();
    s.parents[1] = 2;
    expectError(s.validate(), "parents must come first");
    s = threeJoints();
    s.names[2] = "spine";
    expectError(s.validate(), "duplicate name");
    s = threeJoints();
    s.names[0].clear();
    expectError(s.validate(), "empty name");
    s = threeJoints();
    s.restLocal[1].translation.x = std::numeric_limits<float>::quiet_NaN();
    expectError(s.validate(), "non-finite");
    s = threeJoints();
    s.inverseBind.pop_back();
    expectError(s.validate(), "disagree in size");
    QVERIFY(Skeleton{}.validate());  // empty: a file that animates only morph weights
    Skeleton big;
    for (int i = 0; i < 16384; ++i) {
      big.names.push_back("j" + std::to_string(i));
      big.parents.push_back(i - 1);
    }
    big.restLocal.resize(16384);
    big.inverseBind.resize(16384);
    expectError(big.validate(), "at most 16383");
  }
  void clipRules() {
    const Skeleton s = threeJoints();
    RawClip c = clipFor(s, 4);
    QVERIFY(c.validate(s).isOk());
    c.samples.pop_back();
    expectError(c.validate(s), "sample count");
    c = clipFor(s, 4);
    c.sampleRate = 0;
    expectError(c.validate(s), "sample rate");
    c = clipFor(s, 4);
    c.at(1, 2).rotation.w = std::numeric_limits<float>::infinity();
    expectError(c.validate(s), "frame 2");
    c = clipFor(s, 0);
    expectError(c.validate(s), "no frames");
  }
  void rotationsBecomeContinuous() {
    const Skeleton s = threeJoints();
    RawClip c = clipFor(s, 3);
    c.at(0, 1).rotation = {0, 0, 0.1f, -0.995f};
    c.at(0, 2).rotation = {0, 0, -0.2f, 0.98f};
    makeRotationsContinuous(c);
    QVERIFY(runtime::dot(c.at(0, 0).rotation, c.at(0, 1).rotation) > 0);
    QVERIFY(runtime::dot(c.at(0, 1).rotation, c.at(0, 2).rotation) > 0);
  }
  void meshRules() {
    SkinnedMesh m;
    m.name = "body";
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    m.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    m.indices = {0, 1, 2};
    m.influences.resize(3);
    for (auto& i : m.influences) i.weights = {0.5f, 0.5f, 0, 0}, i.joints = {0, 1, 0, 0};
    QVERIFY(m.validate(3).isOk());
    SkinnedMesh bad = m;
    bad.indices[2] = 3;
    expectError(bad.validate(3), "index past");
    bad = m;
    bad.influences[1].weights = {0.5f, 0.4f, 0, 0};
    expectError(bad.validate(3), "sum to");
    bad = m;
    bad.influences[0].joints = {7, 1, 0, 0};
    expectError(bad.validate(3), "past the skeleton");
    bad = m;
    bad.normals.pop_back();
    expectError(bad.validate(3), "normals");
    bad = m;
    bad.influences[0].weights = {-0.5f, 1.5f, 0, 0};
    expectError(bad.validate(3), "negative");
  }
  void poseRules() {
    const Skeleton s = threeJoints();
    Pose p(s);
    QVERIFY(p.validate(s).isOk());
    QCOMPARE(p.object[2].m[10], 2.f);  // head two units up
    p.local[0].scale.y = std::numeric_limits<float>::quiet_NaN();
    expectError(p.validate(s), "not finite");
  }
};

QTEST_GUILESS_MAIN(TestAnimModel)
#include "tst_anim_model.moc"
