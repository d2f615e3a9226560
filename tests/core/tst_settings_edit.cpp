// The pure settings edits the studio's commands are made of (core/compress/settings_edit.h), the
// subtree walk they use, and the up-axis names of project files.
#include <QtTest>

#include "core/anim/subtree.h"
#include "core/anim/up_axis.h"
#include "core/compress/additive_edit.h"
#include "core/compress/settings_edit.h"

using namespace animpack;
using namespace animpack::core;

namespace {

Skeleton rig() {
  Skeleton s;
  s.names = {"Hips", "Spine", "Head", "LeftLeg", "LeftFoot", "RightLeg"};
  s.parents = {-1, 0, 1, 0, 3, 0};
  s.restLocal.resize(s.names.size());
  s.inverseBind.resize(s.names.size());
  return s;
}

}  // namespace

class TestSettingsEdit : public QObject {
  Q_OBJECT
 private slots:
  void subtreesFollowTheParents() {
    const Skeleton s = rig();
    QCOMPARE(subtreeJoints(s, 0), (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5}));
    QCOMPARE(subtreeJoints(s, 1), (std::vector<std::int32_t>{1, 2}));
    QCOMPARE(subtreeJoints(s, 3), (std::vector<std::int32_t>{3, 4}));
    QCOMPARE(subtreeJoints(s, 5), (std::vector<std::int32_t>{5}));
    QVERIFY(subtreeJoints(s, -1).empty());
    QVERIFY(subtreeJoints(s, 6).empty());
  }

  void jointValuesSetAndResetInTheirScope() {
    CompressionSettings s = withJointValue({}, EditScope::AllClips, "Walk", {"Spine"}, JointField::Precision, 0.05f);
    QVERIFY(hasOverride(s, EditScope::AllClips, "Walk", "Spine", JointField::Precision));
    QVERIFY(!hasOverride(s, EditScope::CurrentClip, "Walk", "Spine", JointField::Precision));
    s = withJointValue(s, EditScope::CurrentClip, "Walk", {"Head"}, JointField::Pinned, 1.f);
    QVERIFY(hasOverride(s, EditScope::CurrentClip, "Walk", "Head", JointField::Pinned));
    QVERIFY(!hasOverride(s, EditScope::CurrentClip, "Wave", "Head", JointField::Pinned));
    s = withJointReset(s, EditScope::CurrentClip, "Walk", {"Head"}, JointField::Pinned);
    QVERIFY(s.clips.empty());  // an override left empty goes away
    s = withJointsReset(s, EditScope::AllClips, "Walk", {"Spine"});
    QVERIFY(s.joints.empty());
  }

  void morphPrecisionsSetAndResetInTheirScope() {
    std::vector<MorphCurve> curves(2);
    curves[0].name = "Face/blink";
    curves[0].displacementCm = 2;
    curves[1].name = "Face/smile";
    curves[1].displacementCm = 1;
    const Skeleton sk = rig();
    CompressionSettings s = withMorphPrecision({}, EditScope::AllClips, "Talk", {"Face/blink"}, 0.05f);
    QVERIFY(hasMorphOverride(s, EditScope::AllClips, "Talk", "Face/blink"));
    QVERIFY(!hasMorphOverride(s, EditScope::CurrentClip, "Talk", "Face/blink"));
    QVERIFY(!hasMorphOverride(s, EditScope::AllClips, "Talk", "Face/smile"));
    s = withMorphPrecision(s, EditScope::CurrentClip, "Talk", {"Face/blink", "Face/smile"}, 0.002f);
    QVERIFY(s.validate().isOk());
    const EffectiveSettings talk = resolve(s, sk, "Talk", {}, 1.0, curves);
    const EffectiveSettings idle = resolve(s, sk, "Idle", {}, 1.0, curves);
    QCOMPARE(talk.curves[0].precisionCm, 0.002f);  // the clip's own value wins
    QCOMPARE(talk.curves[1].precisionCm, 0.002f);
    QCOMPARE(idle.curves[0].precisionCm, 0.05f);
    QCOMPARE(idle.curves[1].precisionCm, kDefaultPrecisionCm);
    QVERIFY(talk.hash() != idle.hash());  // the compression key follows the curves
    s = withMorphPrecision(s, EditScope::CurrentClip, "Talk", {"Face/blink", "Face/smile"}, std::nullopt);
    QVERIFY(s.clips.empty());  // an override left empty goes away
    s = withMorphPrecision(s, EditScope::AllClips, "Talk", {"Face/blink"}, std::nullopt);
    QVERIFY(s.morphs.empty());
    QCOMPARE(withMorphPrecision(s, EditScope::CurrentClip, "Talk", {"Face/blink"}, std::nullopt), s);
  }

  void anEditElsewhereKeepsAClipsOtherValues() {
    // A clip override that holds only an additive base or morph rules is not empty: an edit of
    // another clip or of every clip (which tidies the overrides) must keep it.
    CompressionSettings s = withAdditiveBase({}, "Breathe", "rest");
    s = withMorphPrecision(s, EditScope::CurrentClip, "Talk", {"Face/blink"}, 0.02f);
    s = withJointValue(s, EditScope::AllClips, "Walk", {"Spine"}, JointField::Precision, 0.05f);
    QCOMPARE(additiveBaseSetting(s, "Breathe"), std::string("rest"));
    QVERIFY(hasMorphOverride(s, EditScope::CurrentClip, "Talk", "Face/blink"));
  }

  void clipPrecisionScalesEveryJointOfThatClipOnly() {
    const Skeleton sk = rig();
    // Rules of every kind: top-level value, an exact joint, a wildcard, a wildcard clip override with a shell.
    auto parsed = CompressionSettings::fromJson(
        R"({"precision_cm":0.02,"joints":{"Left*":{"precision_cm":0.005},"Head":{"precision_cm":0.001,"pinned":true}},)"
        R"("clips":{"W*":{"shell_cm":7,"joints":{"Spine":{"precision_cm":0.04}}}}})",
        "test");
    QVERIFY2(parsed, parsed.status().message().c_str());
    const CompressionSettings s = *parsed;
    const EffectiveSettings before = resolve(s, sk, "Walk");
    const CompressionSettings scaled = withClipPrecisionScaled(s, "Walk", sk, 2.f);
    QVERIFY(scaled.validate().isOk());
    const EffectiveSettings after = resolve(scaled, sk, "Walk");
    for (std::size_t j = 0; j < sk.jointCount(); ++j) {
      QVERIFY2(std::abs(after.joints[j].precisionCm - 2 * before.joints[j].precisionCm) < 1e-7f, sk.names[j].c_str());
      QCOMPARE(after.joints[j].shellCm, before.joints[j].shellCm);
      QCOMPARE(after.joints[j].pinned, before.joints[j].pinned);
    }
    QCOMPARE(resolve(scaled, sk, "Wave"), resolve(s, sk, "Wave"));  // another clip of the same wildcard
    QCOMPARE(resolve(scaled, sk, "Run"), resolve(s, sk, "Run"));
    // Capped at the largest precision the settings accept.
    const CompressionSettings huge = withClipPrecisionScaled(s, "Walk", sk, 1e6f);
    QVERIFY(huge.validate().isOk());
    QCOMPARE(resolve(huge, sk, "Walk").joints[0].precisionCm, kMaxPrecisionCm);
  }

  void aSubtreeGetsItsRootsValues() {
    const Skeleton sk = rig();
    CompressionSettings s = withJointValue({}, EditScope::AllClips, "Walk", {"LeftLeg"}, JointField::Precision, 0.3f);
    s = withJointValue(s, EditScope::AllClips, "Walk", {"LeftLeg"}, JointField::Pinned, 1.f);
    const EffectiveSettings e = resolve(s, sk, "Walk");
    s = withSubtreeValues(s, EditScope::AllClips, "Walk", sk, e, {3});
    for (const char* name : {"LeftLeg", "LeftFoot"}) {
      QVERIFY2(hasOverride(s, EditScope::AllClips, "Walk", name, JointField::Precision), name);
      QVERIFY2(hasOverride(s, EditScope::AllClips, "Walk", name, JointField::Pinned), name);
    }
    QVERIFY(!hasOverride(s, EditScope::AllClips, "Walk", "RightLeg", JointField::Precision));
    const EffectiveSettings after = resolve(s, sk, "Walk");
    QCOMPARE(after.joints[4].precisionCm, 0.3f);
    QVERIFY(after.joints[4].pinned);  // pinning is not inherited: the subtree edit set it
    QVERIFY(!after.joints[5].pinned);
  }

  void shellsOnlyWhereAVertexIsInfluenced() {
    const Skeleton sk = rig();
    const std::vector<double> shells{12.5, 0.0, 7.0, 1e-4, 3.5, 2.0};
    const CompressionSettings s = withShells({}, EditScope::AllClips, "Walk", sk, shells, {0, 1, 3, 4, 9});
    const EffectiveSettings e = resolve(s, sk, "Walk");
    QCOMPARE(e.joints[0].shellCm, 12.5f);
    QVERIFY(!hasOverride(s, EditScope::AllClips, "Walk", "Spine", JointField::Shell));    // no vertex
    QVERIFY(!hasOverride(s, EditScope::AllClips, "Walk", "LeftLeg", JointField::Shell));  // 1e-4 cm: none either
    QCOMPARE(e.joints[4].shellCm, 3.5f);
    QVERIFY(!hasOverride(s, EditScope::AllClips, "Walk", "Head", JointField::Shell));  // not asked for
  }

  void presetsKeepTheFileUnitAndRate() {
    CompressionSettings current;
    current.unitToCm = 2.54;
    current.sampleRate = 60.0;
    current.precisionCm = 0.5f;
    CompressionSettings preset;
    preset.precisionCm = 0.05f;
    CompressionSettings s = withPreset(current, preset);
    QCOMPARE(*s.precisionCm, 0.05f);
    QCOMPARE(*s.unitToCm, 2.54);
    QCOMPARE(*s.sampleRate, 60.0);
    preset.unitToCm = 100.0;  // a preset that names a unit wins
    QCOMPARE(*withPreset(current, preset).unitToCm, 100.0);
    QCOMPARE(*withUnit(current, 1.0).unitToCm, 1.0);
    QCOMPARE(*withUnit(current, 1.0).precisionCm, 0.5f);
  }

  void defaultValuesGoToTheTopOrTheClip() {
    CompressionSettings s = withDefaultValue({}, EditScope::AllClips, "Walk", JointField::Precision, 0.04f);
    QCOMPARE(*s.precisionCm, 0.04f);
    s = withDefaultValue(s, EditScope::CurrentClip, "Walk", JointField::Shell, 9.f);
    QCOMPARE(s.clips.size(), std::size_t(1));
    QCOMPARE(*s.clips[0].second.shellCm, 9.f);
  }

  void upAxisNamesRoundTrip() {
    for (UpAxis a : {UpAxis::AsImported, UpAxis::ZUp, UpAxis::XUp}) QVERIFY(upAxisFromName(upAxisName(a)) == a);
    QCOMPARE(std::string(upAxisName(UpAxis::ZUp)), std::string("z_up"));
    QVERIFY(!upAxisFromName("sideways"));
  }

  void theRangesAreTheOnesValidateAccepts() {
    CompressionSettings s;
    s.precisionCm = kMinPrecisionCm * 1.01f;
    s.shellCm = kMaxShellCm;
    QVERIFY(s.validate());
    s.precisionCm = kMinPrecisionCm / 2;
    QVERIFY(!s.validate());
    s.precisionCm = kMaxPrecisionCm * 2;
    QVERIFY(!s.validate());
    s.precisionCm = kMaxPrecisionCm;
    s.shellCm = kMinShellCm / 2;
    QVERIFY(!s.validate());
  }
};

QTEST_MAIN(TestSettingsEdit)
#include "tst_settings_edit.moc"
