// The settings schema of docs/SETTINGS.md: parsing, every invalid case on its own, wildcards, precedence,
// merging layers and hashing.
#include <QtTest>

#include <set>

#include "core/compress/settings.h"

using namespace animpack;
using namespace animpack::core;

namespace {
Skeleton rig() {
  Skeleton s;
  s.names = {"Hips", "Spine", "LeftHand", "LeftHandIndex1", "RightHand", "foot_l", "foot_r", "foot_ll"};
  s.parents = {-1, 0, 1, 2, 1, 0, 0, 5};
  s.restLocal.resize(s.names.size());
  s.inverseBind.resize(s.names.size());
  return s;
}
void expectParseError(const char* json, const char* fragment) {
  const auto s = CompressionSettings::fromJson(json, "hero.json");
  QVERIFY2(!s, json);
  const QString m = QString::fromStdString(s.message());
  QVERIFY2(m.startsWith("hero.json: "), qPrintable(m));
  QVERIFY2(m.contains(fragment), qPrintable(m));
}
}  // namespace

class TestSettings : public QObject {
  Q_OBJECT
 private slots:
  void parsesTheFullSchema() {
    const char* json = R"({"description":"hero characters","precision_cm":0.02,"shell_cm":4,"rotation_format":"q32",
      "snapshot_interval_s":0.5,"unit_to_cm":2.54,"sample_rate":null,
      "joints":{"*Hand*":{"precision_cm":0.005},"foot_?":{"pinned":true,"shell_cm":10}},
      "clips":{"Run*":{"precision_cm":0.05,"joints":{"Spine":{"shell_cm":20}}}}})";
    const auto s = CompressionSettings::fromJson(json, "hero.json");
    QVERIFY2(s, s ? "" : s.message().c_str());
    QCOMPARE(*s->precisionCm, 0.02f);
    QCOMPARE(*s->rotationFormat, RotationFormat::Q32);
    QVERIFY(!s->sampleRate);
    QCOMPARE(s->joints.size(), std::size_t(2));
    QCOMPARE(s->clips[0].first, std::string("Run*"));
    QCOMPARE(s->description, std::string("hero characters"));
    // The JSON form parses back to the same settings.
    const auto again = CompressionSettings::fromJson(s->toJson(), "again.json");
    QVERIFY(again);
    QVERIFY(*again == *s);
    QCOMPARE(again->hash(), s->hash());
  }

  void eachInvalidCaseFailsOnItsOwn_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("not json") << "{precision" << "not valid JSON";
    QTest::newRow("not an object") << "[1,2]" << "object at the top level";
    QTest::newRow("unknown key") << R"({"precison_cm":0.1})" << "unknown key 'precison_cm' (did you mean 'precision_cm'?)";
    QTest::newRow("negative precision") << R"({"precision_cm":-1})" << "key 'precision_cm'";
    QTest::newRow("zero precision") << R"({"precision_cm":0})" << "key 'precision_cm'";
    QTest::newRow("absurd precision") << R"({"precision_cm":1e9})" << "key 'precision_cm'";
    QTest::newRow("zero shell") << R"({"shell_cm":0})" << "key 'shell_cm'";
    QTest::newRow("string precision") << R"({"precision_cm":"fine"})" << "expected a number";
    QTest::newRow("bad format") << R"({"rotation_format":"q64"})" << "\"q48\" or \"q32\"";
    QTest::newRow("bad snapshot") << R"({"snapshot_interval_s":0})" << "snapshot_interval_s";
    QTest::newRow("bad unit") << R"({"unit_to_cm":-2})" << "unit_to_cm";
    QTest::newRow("bad rate") << R"({"sample_rate":0})" << "sample_rate";
    QTest::newRow("joints not object") << R"({"joints":[1]})" << "key 'joints'";
    QTest::newRow("joint unknown key") << R"({"joints":{"Hips":{"precission":1}}})" << "unknown key 'joints.Hips.precission'";
    QTest::newRow("joint bad value") << R"({"joints":{"*Hand*":{"precision_cm":-0.1}}})" << "joints.*Hand*.precision_cm";
    QTest::newRow("pinned not bool") << R"({"joints":{"foot_l":{"pinned":"yes"}}})" << "true or false";
    QTest::newRow("empty pattern") << R"({"joints":{"":{"pinned":true}}})" << "empty";
    QTest::newRow("clip unknown key") << R"({"clips":{"Run":{"loop":true}}})" << "unknown key 'clips.Run.loop'";
    QTest::newRow("clip bad joint") << R"({"clips":{"Run":{"joints":{"Hips":{"shell_cm":-3}}}}})" << "clips.Run.joints.Hips.shell_cm";
    QTest::newRow("description not string") << R"({"description":3})" << "description";
  }
  void eachInvalidCaseFailsOnItsOwn() {
    QFETCH(QString, json);
    QFETCH(QString, fragment);
    const std::string text = json.toStdString();
    expectParseError(text.c_str(), fragment.toUtf8().constData());
  }

  void wildcards() {
    QVERIFY(wildcardMatch("*Hand*", "LeftHandIndex1"));
    QVERIFY(wildcardMatch("foot_?", "foot_l"));
    QVERIFY(!wildcardMatch("foot_?", "foot_ll"));
    QVERIFY(wildcardMatch("*", ""));
    QVERIFY(wildcardMatch("a*b*c", "aXbYbZc"));
    QVERIFY(!wildcardMatch("a*b*c", "aXbYbZ"));
    QVERIFY(!wildcardMatch("hand", "Hand"));  // case-sensitive
    QVERIFY(isWildcard("foot_?"));
    QVERIFY(!isWildcard("Hips"));
  }

  void precedence() {
    const Skeleton s = rig();
    CompressionSettings settings;
    settings.precisionCm = 0.02f;
    settings.joints = {{"*Hand*", {0.005f, {}, {}}},
                       {"LeftHand*", {0.004f, {}, {}}},  // longer wildcard wins for LeftHand...
                       {"LeftHandIndex1", {0.001f, {}, {}}},  // ...and an exact name beats both
                       {"Spine", {{}, 7.f, {}}},
                       {"foot_?", {{}, {}, true}}};
    const EffectiveSettings e = resolve(settings, s, "Walk");
    QCOMPARE(e.joints[0].precisionCm, 0.02f);   // default from the file
    QCOMPARE(e.joints[2].precisionCm, 0.004f);  // LeftHand: longest wildcard
    QCOMPARE(e.joints[3].precisionCm, 0.001f);  // exact
    QCOMPARE(e.joints[4].precisionCm, 0.005f);  // RightHand: *Hand*
    QCOMPARE(e.joints[1].shellCm, 7.f);
    QCOMPARE(e.joints[2].shellCm, 7.f);  // inherited from Spine
    QCOMPARE(e.joints[0].shellCm, kDefaultShellCm);
    QVERIFY(e.joints[5].pinned && e.joints[6].pinned);
    QVERIFY(!e.joints[7].pinned);  // foot_ll does not match foot_?, and pinning is not inherited

    // A clip override is strongest: its joint rules, then its own values, over the file's rules.
    settings.clips = {{"Run*", {0.05f, {}, RotationFormat::Q32, {}, {}, {}, {{"LeftHand", {0.03f, {}, {}}}}}}};
    const EffectiveSettings run = resolve(settings, s, "Run_Fast");
    QCOMPARE(run.joints[2].precisionCm, 0.03f);
    QCOMPARE(run.joints[3].precisionCm, 0.05f);  // clip value beats the exact file rule
    QCOMPARE(run.joints[0].precisionCm, 0.05f);
    QCOMPARE(run.rotationFormat, RotationFormat::Q32);
    QCOMPARE(resolve(settings, s, "Walk").rotationFormat, RotationFormat::Q48);
  }

  void mergeStacksLayers() {
    auto preset = CompressionSettings::fromJson(R"({"precision_cm":0.05,"joints":{"*Hand*":{"precision_cm":0.01}}})", "p");
    auto file = CompressionSettings::fromJson(R"({"shell_cm":5,"joints":{"*Hand*":{"pinned":true},"Hips":{"precision_cm":0.001}}})", "f");
    QVERIFY(preset && file);
    CompressionSettings s = *preset;
    s.merge(*file);
    QCOMPARE(*s.precisionCm, 0.05f);
    QCOMPARE(*s.shellCm, 5.f);
    QCOMPARE(s.joints.size(), std::size_t(2));
    QCOMPARE(*s.joints[0].second.precisionCm, 0.01f);
    QVERIFY(*s.joints[0].second.pinned);
  }

  void hashCoversEveryEffectiveValue() {
    const Skeleton s = rig();
    const EffectiveSettings base = resolve({}, s, "Walk");
    std::set<std::uint64_t> hashes{base.hash()};
    EffectiveSettings e = base;
    e.joints[3].precisionCm = 0.011f;
    hashes.insert(e.hash());
    e = base;
    e.joints[3].shellCm = 3.5f;
    hashes.insert(e.hash());
    e = base;
    e.joints[6].pinned = true;
    hashes.insert(e.hash());
    e = base;
    e.rotationFormat = RotationFormat::Q32;
    hashes.insert(e.hash());
    e = base;
    e.snapshotIntervalS = 2;
    hashes.insert(e.hash());
    e = base;
    e.unitToCm = 100;
    hashes.insert(e.hash());
    e = base;
    e.sampleRate = 60;
    hashes.insert(e.hash());
    QCOMPARE(hashes.size(), std::size_t(8));
    QCOMPARE(resolve({}, s, "Walk").hash(), base.hash());  // stable
  }
};

QTEST_GUILESS_MAIN(TestSettings)
#include "tst_settings.moc"
