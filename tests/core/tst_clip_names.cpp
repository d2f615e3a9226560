// Pack clip names (docs/CLIP_NAMES.md): generic names take the file stem, collisions become
// STEM/NAME, shared stems their relative paths, settings overrides win, and --clip selection.
#include <QtTest>

#include "core/batch/clip_names.h"

using namespace animpack::core;

namespace {

std::vector<std::string> names(const std::vector<ClipNameSource>& sources) {
  auto r = packClipNames(sources);
  if (!r) return {"error: " + r.message()};
  std::vector<std::string> out;
  for (const PackClipName& n : *r) out.push_back(n.name);
  return out;
}

}  // namespace

class TestClipNames : public QObject {
  Q_OBJECT
 private slots:
  void genericList() {
    QVERIFY(isGenericClipName(""));
    QVERIFY(isGenericClipName("Motion"));
    QVERIFY(isGenericClipName("take 001"));
    QVERIFY(isGenericClipName("mixamo.com"));
    QVERIFY(isGenericClipName("clip#0"));
    QVERIFY(!isGenericClipName("clip#x"));
    QVERIFY(!isGenericClipName("Walk"));
    QVERIFY(genericClipNames().size() >= 10);
  }

  void genericSingleClipsTakeTheStem() {
    const auto n = names({{"walk.bvh", "Motion", 0, 1, nullptr}, {"run.bvh", "Motion", 0, 1, nullptr}});
    QCOMPARE(n, (std::vector<std::string>{"walk", "run"}));
  }

  void aNamedClipKeepsItsName() {
    // Many clips in a file: even a generic name stays (the stem would not be unique).
    const auto n = names({{"hero.fbx", "Walk", 0, 2, nullptr}, {"hero.fbx", "Take 001", 1, 2, nullptr}});
    QCOMPARE(n, (std::vector<std::string>{"Walk", "Take 001"}));
  }

  void collisionsBecomeStemSlashName() {
    const auto n = names({{"hero.fbx", "Walk", 0, 2, nullptr},
                          {"hero.fbx", "Run", 1, 2, nullptr},
                          {"villain.fbx", "Walk", 0, 1, nullptr}});
    QCOMPARE(n, (std::vector<std::string>{"hero/Walk", "Run", "villain/Walk"}));
  }

  void sharedStemsTakeRelativePaths() {
    const auto n = names({{"chars/a/walk.bvh", "Motion", 0, 1, nullptr},
                          {"chars/b/walk.bvh", "Motion", 0, 1, nullptr},
                          {"chars/run.bvh", "Motion", 0, 1, nullptr}});
    QCOMPARE(n, (std::vector<std::string>{"a/walk", "b/walk", "run"}));
  }

  void settingsNameOverrides() {
    auto settings =
        CompressionSettings::fromJson(R"({"clips":{"walk":{"name":"locomotion/walk","precision_cm":0.05}}})", "t");
    QVERIFY2(settings, settings ? "" : settings.message().c_str());
    auto r = packClipNames(std::vector<ClipNameSource>{{"walk.bvh", "Motion", 0, 1, &*settings}});
    QVERIFY(r);
    QCOMPARE((*r)[0].name, std::string("locomotion/walk"));
    QCOMPARE((*r)[0].renamedBy, std::string("walk"));
    // The entry that renamed the clip applies to it under its new name.
    const CompressionSettings under = settingsForPackName(*settings, (*r)[0]);
    QCOMPARE(under.clips[0].first, std::string("locomotion/walk"));
  }

  void overridesThatCollideAreErrors() {
    auto settings = CompressionSettings::fromJson(R"({"clips":{"walk":{"name":"run"}}})", "t");
    QVERIFY(settings);
    auto r = packClipNames(
        std::vector<ClipNameSource>{{"walk.bvh", "Motion", 0, 1, &*settings}, {"run.bvh", "Motion", 0, 1, &*settings}});
    QVERIFY(!r);
    QVERIFY2(r.message().find("'run'") != std::string::npos && r.message().find("walk.bvh") != std::string::npos,
             r.message().c_str());
  }

  void wildcardCannotName() {
    auto settings = CompressionSettings::fromJson(R"({"clips":{"w*":{"name":"x"}}})", "t");
    QVERIFY(!settings);
    QVERIFY2(settings.message().find("wildcard") != std::string::npos, settings.message().c_str());
    QVERIFY(!CompressionSettings::fromJson(R"({"clips":{"w":{"name":""}}})", "t"));
  }

  void matchingClips() {
    const std::vector<ClipChoice> c = {{"walk", "Motion"}, {"run", "Motion"}, {"hero/Idle", "Idle"}};
    QCOMPARE(*matchOneClip("walk", c), std::size_t(0));
    QCOMPARE(*matchOneClip("Idle", c), std::size_t(2));  // a source name
    QCOMPARE(*matchOneClip("#1", c), std::size_t(1));
    QCOMPARE(matchClips("Motion", c)->size(), std::size_t(2));
    auto ambiguous = matchOneClip("Motion", c);
    QVERIFY(!ambiguous);
    QVERIFY2(ambiguous.message().find("walk, run") != std::string::npos, ambiguous.message().c_str());
    QCOMPARE(*matchOneClip("r*n", c), std::size_t(1));
    QVERIFY(!matchOneClip("#3", c));
    auto none = matchOneClip("jump", c);
    QVERIFY(!none);
    QVERIFY2(none.message().find("walk, run, hero/Idle") != std::string::npos, none.message().c_str());
  }
};

QTEST_APPLESS_MAIN(TestClipNames)
#include "tst_clip_names.moc"
