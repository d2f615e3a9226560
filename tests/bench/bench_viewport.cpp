// Viewport benchmark (viewport/), not a test: prints two tables.
//  1. CPU skinning (core's skinVertices, positions and normals) per mesh: the real Testwuson and
//     BCN_Epileptic meshes and a synthetic 10k-vertex mesh with four influences per vertex; the
//     target is <= 1 ms per 10k vertices.
//  2. Frame time of the 3D view (skinning + upload + render) over ~100 frames of playback, rendering
//     continuously, for the largest sample meshes drawn once (original only: 1x) and twice (original
//     plus compressed ghost: 2x). Both poses are skinned in every case (the vertex error needs them).
// Needs an X display (run under xvfb-run; `cmake --build build --target bench` does).
//   bench_viewport [--frames N] [--size WxH]
#include <QApplication>
#include <QElapsedTimer>
#include <QtTest>
#include <Qt3DCore/QEntity>
#include <Qt3DLogic/QFrameAction>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/io/asset_importer.h"
#include "core/runtime/player.h"
#include "core/runtime/pose_ops.h"
#include "tests/support/test_rigs.h"
#include "viewport/viewport_widget.h"

using namespace animpack;

namespace {

using Clock = std::chrono::steady_clock;

std::shared_ptr<const core::ImportedAsset> load(const std::string& file) {
  auto a = core::importAsset(test::model(file));
  if (!a) qFatal("%s", a.message().c_str());
  return std::make_shared<const core::ImportedAsset>(std::move(a.value()));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

/// Median milliseconds of `skinVertices` on `mesh` with `palette`, over `runs` calls.
double skinMs(const core::SkinnedMesh& mesh, std::span<const core::Mat34> palette, int runs) {
  std::vector<core::Vec3> positions(mesh.vertexCount()), normals(mesh.vertexCount());
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = Clock::now();
    runtime::skinVertices(palette, mesh.positions, mesh.normals, mesh.influences, positions, normals);
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  return median(ms);
}

/// Skin matrices of `asset` at frame `frame` of clip 0.
std::vector<core::Mat34> palette(const core::ImportedAsset& a, std::uint32_t frame) {
  const core::Skeleton& s = a.skeleton;
  std::vector<core::Mat34> object(s.jointCount()), skin(s.jointCount());
  runtime::localToObject<float>(s.parents, a.clips[0].frame(frame), object);
  runtime::skinMatrices(object, s.inverseBind, skin);
  return skin;
}

/// A random mesh of `vertices` bound to `joints` joints (random skin matrices in `skin`), four
/// influences per vertex whose weights sum to 1.
core::SkinnedMesh syntheticMesh(std::size_t vertices, int joints, std::vector<core::Mat34>& skin) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  std::uniform_int_distribution<int> joint(0, joints - 1);
  core::SkinnedMesh m;
  m.skinned = true;
  for (std::size_t v = 0; v < vertices; ++v) {
    m.positions.push_back({unit(rng) * 50, unit(rng) * 90 + 90, unit(rng) * 30});
    const core::Vec3 n{unit(rng), unit(rng), unit(rng) + 2.f};
    m.normals.push_back(n * (1.f / runtime::length(n)));
    core::VertexInfluences inf;
    float sum = 0;
    for (int i = 0; i < 4; ++i) {
      inf.joints[std::size_t(i)] = static_cast<std::uint16_t>(joint(rng));
      inf.weights[std::size_t(i)] = 0.1f + (unit(rng) + 1.f);
      sum += inf.weights[std::size_t(i)];
    }
    for (float& w : inf.weights) w /= sum;
    m.influences.push_back(inf);
  }
  skin.clear();
  for (int j = 0; j < joints; ++j) {
    core::Transform t;
    t.rotation = runtime::normalized({unit(rng), unit(rng), unit(rng), 2.f});
    t.translation = {unit(rng), unit(rng), unit(rng)};
    skin.push_back(core::Mat34::fromTransform(t));
  }
  return m;
}

void skinningTable(int runs) {
  std::printf("\nCPU skinning (core skinVertices, positions + normals; median of %d calls, one core)\n\n", runs);
  std::printf("| mesh | vertices | influences/vertex | joints | skinning ms | ms per 10k vertices |\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  const auto row = [&](const std::string& name, const core::SkinnedMesh& mesh, std::span<const core::Mat34> skin,
                       std::size_t joints) {
    int most = 0;
    for (const auto& inf : mesh.influences)
      most =
          std::max(most, int(std::count_if(inf.weights.begin(), inf.weights.end(), [](float w) { return w > 0.f; })));
    const double ms = skinMs(mesh, skin, runs);
    std::printf("| %s | %zu | %d | %zu | %.3f | %.3f |\n", name.c_str(), mesh.vertexCount(), most, joints, ms,
                ms * 10000.0 / double(mesh.vertexCount()));
  };
  for (const char* file : {"X/Testwuson.X", "X/BCN_Epileptic.X"}) {
    const auto a = load(file);
    const std::vector<core::Mat34> skin = palette(*a, 5);
    core::SkinnedMesh all;  // the asset's meshes as one, for a per-asset figure
    for (const core::SkinnedMesh& m : a->meshes) {
      row(std::string(file) + " '" + m.name + "'", m, skin, a->skeleton.jointCount());
      all.positions.insert(all.positions.end(), m.positions.begin(), m.positions.end());
      all.normals.insert(all.normals.end(), m.normals.begin(), m.normals.end());
      all.influences.insert(all.influences.end(), m.influences.begin(), m.influences.end());
    }
    if (a->meshes.size() > 1) row(std::string(file) + " (all meshes)", all, skin, a->skeleton.jointCount());
  }
  std::vector<core::Mat34> skin;
  const core::SkinnedMesh synthetic = syntheticMesh(10000, 60, skin);
  row("synthetic", synthetic, skin, skin.size());
}

struct FrameResult {
  double frameMs = 0;   // wall time per rendered frame
  double updateMs = 0;  // mean setPoses time (skinning + upload, both poses)
  int frames = 0;
};

/// Plays clip 0 of `asset` (original and decoded compressed poses precomputed) in a continuously
/// rendering viewport and times `frames` frames after a warm-up.
FrameResult frameTime(viewport::ViewportWidget& view, const core::ImportedAsset& a,
                      const std::vector<std::vector<core::Transform>>& compressed, int frames) {
  const core::RawClip& clip = a.clips[0];
  auto* ticker = new Qt3DLogic::QFrameAction(view.sceneRoot());
  view.sceneRoot()->addComponent(ticker);
  constexpr int kWarmUp = 20;
  int tick = 0;
  double updateSum = 0;
  QElapsedTimer timer;
  QEventLoop loop;
  QObject::connect(ticker, &Qt3DLogic::QFrameAction::triggered, &view, [&](float) {
    const std::uint32_t f = std::uint32_t(tick) % clip.frameCount;
    view.setPoses(clip.frame(f), compressed[f]);
    if (tick == kWarmUp) timer.start();
    if (tick > kWarmUp) updateSum += view.lastUpdateMs();
    if (++tick > kWarmUp + frames) loop.quit();
  });
  view.setContinuousRendering(true);
  loop.exec();
  const double elapsed = double(timer.nsecsElapsed()) * 1e-6;
  view.setContinuousRendering(false);
  view.sceneRoot()->removeComponent(ticker);
  delete ticker;
  return {elapsed / frames, updateSum / frames, frames};
}

void frameTable(int frames, QSize size) {
  std::printf(
      "\nFrame time: skinning + upload + render (Qt 3D %s renderer, llvmpipe, %dx%d view, %d frames, continuous)\n\n",
      qEnvironmentVariable("QT3D_RENDERER", "rhi").toUtf8().constData(), size.width(), size.height(), frames);
  std::printf("| asset | vertices per copy | copies drawn | setPoses ms (skin both + upload) | frame ms | fps |\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  viewport::ViewportWidget view;
  view.resize(size);
  view.move(0, 0);
  view.show();
  if (!QTest::qWaitForWindowExposed(&view)) qFatal("the viewport window was not exposed (no X display?)");
  for (const char* file : {"X/BCN_Epileptic.X", "X/Testwuson.X"}) {
    const auto a = load(file);
    auto job = core::makeCompressJob(*a, a->clips[0], core::resolve({}, a->skeleton, a->clips[0].name));
    auto c = job.run();
    if (!c) qFatal("%s", c.message().c_str());
    auto clipView = runtime::ClipView::open(c->data, a->skeleton.restLocal);
    if (!clipView) qFatal("%s", clipView.message().c_str());
    std::vector<std::vector<core::Transform>> decoded(a->clips[0].frameCount,
                                                      std::vector<core::Transform>(a->skeleton.jointCount()));
    runtime::Player player;
    for (std::uint32_t f = 0; f < decoded.size(); ++f) player.sampleFrame(*clipView, float(f), decoded[f]);
    std::size_t vertices = 0;
    for (const auto& m : a->meshes) vertices += m.vertexCount();
    view.setAsset(a);
    for (const int copies : {1, 2}) {
      view.setShowCompressed(copies == 2);
      view.frameAll();
      const FrameResult r = frameTime(view, *a, decoded, frames);
      std::printf("| %s | %zu | %dx | %.2f | %.1f | %.1f |\n", file, vertices, copies, r.updateMs, r.frameMs,
                  1000.0 / r.frameMs);
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  int frames = 100;
  QSize size(1024, 700);
  for (int i = 1; i + 1 < argc; i += 2) {
    const QString flag = argv[i];
    if (flag == "--frames") frames = std::max(10, atoi(argv[i + 1]));
    else if (flag == "--size") {
      const QStringList wh = QString(argv[i + 1]).split('x');
      if (wh.size() == 2) size = QSize(wh[0].toInt(), wh[1].toInt());
    }
  }
  skinningTable(200);
  frameTable(frames, size);
  return 0;
}
