// The review packet (core/review): PNG encoding read back by Qt, the software stick-figure raster,
// and a packet built from a project of generated and real files: a row per clip (a source with
// another skeleton a failed row), the totals, the budget, approvals holding, rejected and outdated,
// pictures as data: URIs and no external URL.
#include <QImage>
#include <QRegularExpression>
#include <QtTest>

#include <fstream>

#include "core/base/assert.h"
#include "core/review/review_build.h"
#include "tests/support/test_rigs.h"

using namespace animpack;
using namespace animpack::core;

namespace {

QImage decodePng(const std::vector<std::uint8_t>& png) {
  return QImage::fromData(QByteArray(reinterpret_cast<const char*>(png.data()), qsizetype(png.size())), "PNG");
}

bool near(QRgb pixel, Rgb c, int tolerance = 40) {
  return std::abs(qRed(pixel) - c.r) + std::abs(qGreen(pixel) - c.g) + std::abs(qBlue(pixel) - c.b) <= tolerance;
}

int countPixels(const QImage& image, Rgb c) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) n += near(image.pixel(x, y), c);
  return n;
}

}  // namespace

class TestReviewPacket : public QObject {
  Q_OBJECT
 private:
  std::filesystem::path m_dir, m_rigA, m_rigB;

  Project project(std::optional<double> budgetKib = std::nullopt,
                  std::map<std::string, ClipApprovalRecord> approvals = {}) {
    Project p;
    for (const auto& path : {m_rigA, m_rigB, test::model("BVH/Boxing_Toes.bvh")})
      p.sources.push_back({path, std::nullopt});
    p.budgetKib = budgetKib;
    p.approvals = std::move(approvals);
    return p;
  }
  std::filesystem::path projectPath() const { return m_dir / "review.anproj"; }

 private slots:
  void initTestCase() {
    setAssertThrows(true);
    m_dir = test::scratchDir() / "review";
    std::filesystem::create_directories(m_dir);
    test::GltfScene a = test::armatureRig(100.f, 40, 30.f);
    test::GltfScene b = test::armatureRig(100.f, 50, 30.f);
    m_rigA = test::writeScene(a, "review_a.gltf");
    m_rigB = test::writeScene(b, "review_b.gltf");
  }

  void pngReadsBackPixelForPixel() {
    Image image(7, 5, Rgb{10, 20, 30});
    image.set(3, 2, Rgb{250, 0, 128});
    image.set(6, 4, Rgb{1, 2, 3});
    const QImage back = decodePng(encodePng(image));
    QCOMPARE(back.size(), QSize(7, 5));
    QCOMPARE(back.pixel(0, 0), qRgb(10, 20, 30));
    QCOMPARE(back.pixel(3, 2), qRgb(250, 0, 128));
    QCOMPARE(back.pixel(6, 4), qRgb(1, 2, 3));
    QVERIFY_THROWS_EXCEPTION(std::exception, encodePng(Image{}));
  }

  void base64MatchesTheRfcVectors() {
    auto b64 = [](const std::string& s) { return base64(std::vector<std::uint8_t>(s.begin(), s.end())); };
    QCOMPARE(b64(""), std::string());
    QCOMPARE(b64("f"), std::string("Zg=="));
    QCOMPARE(b64("fo"), std::string("Zm8="));
    QCOMPARE(b64("foobar"), std::string("Zm9vYmFy"));
  }

  void stickFigureDrawsBothPosesAndTheWorstJoint() {
    PoseOverlay overlay;
    overlay.parents = {-1, 0, 1};
    overlay.original = {{0, 0, 0}, {0, 100, 0}, {40, 140, 0}};
    overlay.compressed = {{0, 0, 0}, {0, 100, 0}, {60, 150, 0}};  // the hand is off
    overlay.worstJoint = 2;
    const QImage image = decodePng(encodePng(drawPoseOverlay(overlay, 300, 240)));
    QCOMPARE(image.size(), QSize(300, 240));
    // The spine: original (drawn under) and compressed in the same place; the hand apart: both show.
    QVERIFY(countPixels(image, Rgb{70, 110, 170}) > 50);
    QVERIFY(countPixels(image, Rgb{235, 120, 20}) > 50);
    QVERIFY(countPixels(image, Rgb{210, 30, 30}) > 20);
    // Without a worst joint there is no ring and no inset.
    overlay.worstJoint = -1;
    QCOMPARE(countPixels(decodePng(encodePng(drawPoseOverlay(overlay, 300, 240))), Rgb{210, 30, 30}), 0);
  }

  void packetHasARowPerClipTotalsAndPictures() {
    ReviewOptions options;
    options.jobs = 2;
    options.toolVersion = "test";
    const auto first = buildReviewPacket(project(0.5), projectPath(), options);
    QVERIFY2(first, first.status().message().c_str());
    QCOMPARE(first->clips.size(), std::size_t(5));  // two rigs of two clips each, and the BVH whose skeleton differs
    QVERIFY(first->clips[4].report.error.find("left out of the pack") != std::string::npos);
    const ReviewTotals totals = reviewTotals(first->clips);
    QCOMPARE(totals.clips, std::size_t(4));
    QCOMPARE(totals.failed, std::size_t(1));
    std::uint64_t sum = 0;
    for (int i = 0; i < 4; ++i) sum += first->clips[std::size_t(i)].report.compressedBytes;
    QCOMPARE(totals.compressedBytes, sum);
    QVERIFY(totals.compressedBytes > 0 && totals.compressedBytes < first->packBytes);
    QCOMPARE(first->pictures.size(), std::size_t(4));
    QVERIFY(first->picturesNote.empty());
    for (const ReviewPicture& p : first->pictures) {
      const QImage image = decodePng(p.png);
      QCOMPARE(image.size(), QSize(p.width, p.height));
      QVERIFY(countPixels(image, Rgb{235, 120, 20}) > 20);  // the compressed figure is drawn
    }

    // Clip 0 approved for exactly what it was compressed with, clip 1 rejected for it, clip 2
    // approved for other settings, clip 3 at a smaller error than it has.
    auto record = [&](const ReviewClip& c, ApprovalState state, std::uint64_t settingsHash, float errorScale = 1.f) {
      return ClipApprovalRecord{state,  settingsHash,           c.sourceHash,
                                "lead", "2026-11-30T10:00:00Z", c.report.maxErrorCm * errorScale};
    };
    const auto& rows = first->clips;
    QVERIFY(rows[0].report.clip != rows[2].report.clip);  // the same animation names in two files: unique pack names
    const auto packet = buildReviewPacket(
        project(0.5, {{rows[0].report.clip, record(rows[0], ApprovalState::Approved, rows[0].settingsHash)},
                      {rows[1].report.clip, record(rows[1], ApprovalState::Rejected, rows[1].settingsHash)},
                      {rows[2].report.clip, record(rows[2], ApprovalState::Approved, 12345)},
                      {rows[3].report.clip, record(rows[3], ApprovalState::Approved, rows[3].settingsHash, 0.5f)}}),
        projectPath(), options);
    QVERIFY2(packet, packet.status().message().c_str());
    const auto& approvals = packet->clips;
    QCOMPARE(approvals[0].approval.state, std::string("approved"));
    QVERIFY2(approvals[0].approval.outdated.empty(), approvals[0].approval.outdated.c_str());
    QCOMPARE(approvals[0].approval.by, std::string("lead"));
    QCOMPARE(approvals[1].approval.state, std::string("rejected"));
    QVERIFY(approvals[1].approval.outdated.empty());
    QVERIFY2(approvals[2].approval.outdated.find("settings changed") != std::string::npos,
             approvals[2].approval.outdated.c_str());
    // Approved at half the error it measures now: no longer holds.
    QVERIFY2(approvals[3].approval.outdated.find("max error") != std::string::npos,
             approvals[3].approval.outdated.c_str());
    QCOMPARE(reviewTotals(packet->clips).approved, std::size_t(1));
    QCOMPARE(reviewTotals(packet->clips).rejected, std::size_t(1));

    const QString html = QString::fromStdString(reviewPacketHtml(*packet));
    QCOMPARE(html.count("<tr class=\"clip\">"), 4);
    QCOMPARE(html.count("<tr class=\"clip failed\">"), 1);
    QVERIFY(html.contains(QString("%1 KiB").arg(double(totals.compressedBytes) / 1024.0, 0, 'f', 1)));
    QVERIFY(html.contains("over by"));
    QVERIFY(html.contains("class=\"meter over\""));
    QVERIFY(html.contains("<svg id=\"chart\""));
    QCOMPARE(html.count("class=\"point\""), 4);
    QCOMPARE(html.count("src=\"data:image/png;base64,"), 4);
    QVERIFY(html.contains(">lead<"));
    QVERIFY(html.contains("2026-11-30T10:00:00Z"));
    QVERIFY(html.contains(QString("approved at %1 cm").arg(double(rows[0].report.maxErrorCm), 0, 'f', 4)));
    QVERIFY(html.contains("needs review (its settings changed since it was approved)"));
    // Self-contained: nothing is fetched.
    QVERIFY(!html.contains(QRegularExpression("(src|href)=\"(?!data:)", QRegularExpression::CaseInsensitiveOption)));
    QVERIFY(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"));

    // Within budget: no red meter.
    ReviewPacket roomy = *packet;
    roomy.budgetKib = 4096;
    const QString roomyHtml = QString::fromStdString(reviewPacketHtml(roomy));
    QVERIFY(!roomyHtml.contains("meter over") && roomyHtml.contains("KiB left"));
  }

  void morphCurvesAreCountedApart() {
    // A rig with morph targets beside one without: the clips carry curve bytes, part of their own.
    Project p;
    p.sources.push_back({test::writeScene(test::morphRig(), "review_morph.gltf"), std::nullopt});
    ReviewOptions options;
    options.pictures = false;
    const auto packet = buildReviewPacket(p, projectPath(), options);
    QVERIFY2(packet, packet.status().message().c_str());
    const ReviewTotals totals = reviewTotals(packet->clips);
    QCOMPARE(totals.morphClips, totals.clips);
    std::uint64_t curveBytes = 0;
    float worst = 0;
    for (const ReviewClip& c : packet->clips) {
      QVERIFY(c.report.curveBytes > 0 && c.report.curveBytes < c.report.compressedBytes);
      curveBytes += c.report.curveBytes;
      worst = std::max(worst, c.report.maxMorphErrorCm);
    }
    QCOMPARE(totals.curveBytes, curveBytes);
    QCOMPARE(totals.maxMorphErrorCm, worst);
    const QString html = QString::fromStdString(reviewPacketHtml(*packet));
    QVERIFY(html.contains("<th>morph bytes</th><th>morph error</th>"));
    QVERIFY(html.contains("morph curves<b>" + QString("%1 KiB").arg(double(curveBytes) / 1024.0, 0, 'f', 1)));
    for (const ReviewClip& c : packet->clips) QVERIFY(html.contains(QString("<td>%1</td>").arg(c.report.curveBytes)));
    // Without morph targets the columns are not there.
    Project plain;
    plain.sources.push_back({m_rigA, std::nullopt});
    const auto without = buildReviewPacket(plain, projectPath(), options);
    QVERIFY(without);
    QCOMPARE(reviewTotals(without->clips).maxMorphErrorCm, -1.f);
    const QString plainHtml = QString::fromStdString(reviewPacketHtml(*without));
    QVERIFY(!plainHtml.contains("morph"));
  }

  void picturesLeftOutSayWhy() {
    ReviewOptions options;
    options.pictures = false;
    auto packet = buildReviewPacket(project(), projectPath(), options);
    QVERIFY(packet);
    QVERIFY(packet->pictures.empty());
    QVERIFY(QString::fromStdString(reviewPacketHtml(*packet)).contains("were left out"));
    options.pictures = true;
    options.renderer = [](const PoseOverlay&) -> Expected<Image> { return Error{"no display"}; };
    packet = buildReviewPacket(project(), projectPath(), options);
    QVERIFY(packet);
    QVERIFY(packet->pictures.empty());
    QVERIFY2(packet->picturesNote.find("no display") != std::string::npos, packet->picturesNote.c_str());
  }

  void nothingCompressedIsAnError() {
    Project p;
    p.sources.push_back({m_dir / "missing.bvh", std::nullopt});
    const auto packet = buildReviewPacket(p, projectPath(), {});
    QVERIFY(!packet);
    QVERIFY2(packet.message().find("missing.bvh") != std::string::npos, packet.message().c_str());
  }

  void writesAtomically() {
    ReviewPacket packet;
    packet.title = "t";
    QVERIFY(writeReviewPacket(packet, m_dir / "out.html").isOk());
    QVERIFY(std::filesystem::file_size(m_dir / "out.html") > 100);
    QVERIFY(!writeReviewPacket(packet, m_dir / "no-such-dir" / "out.html").isOk());
    QVERIFY(!std::filesystem::exists(m_dir / "no-such-dir"));
  }
};

QTEST_GUILESS_MAIN(TestReviewPacket)
#include "tst_review_packet.moc"
