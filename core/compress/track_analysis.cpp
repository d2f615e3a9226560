#include "core/compress/track_analysis.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace animpack::core {
namespace {

double columnNorm(const Mat34d& m, int c) {
  return std::sqrt(m.at(0, c) * m.at(0, c) + m.at(1, c) * m.at(1, c) + m.at(2, c) * m.at(2, c));
}

}  // namespace

HierarchyLevers measureLevers(const Skeleton& skeleton, const RawClip& clip, const ErrorMetric& metric,
                              const EffectiveSettings& settings) {
  const std::uint32_t joints = clip.jointCount, frames = clip.frameCount;
  HierarchyLevers l;
  l.chain.resize(joints);
  l.parentScale.assign(joints, 0.0);  // roots become 1 below
  l.localScale.assign(joints, std::numeric_limits<double>::max());
  for (std::uint32_t j = 0; j < joints; ++j) {
    l.chain[j].emplace_back(j, 0.0);
    if (!settings.joints[j].pinned)
      for (std::int32_t a = skeleton.parents[j]; a >= 0; a = skeleton.parents[std::size_t(a)]) {
        l.chain[j].emplace_back(static_cast<std::uint32_t>(a), 0.0);
        if (settings.joints[std::size_t(a)].pinned) break;
      }
  }
  for (std::uint32_t f = 0; f < frames; ++f) {
    for (std::uint32_t j = 0; j < joints; ++j) {
      const Mat34d& mj = metric.originalObject(j, f);
      for (auto& [a, distance] : l.chain[j]) {
        if (a == j) continue;
        const Mat34d& ma = metric.originalObject(a, f);
        const double dx = mj.m[9] - ma.m[9], dy = mj.m[10] - ma.m[10], dz = mj.m[11] - ma.m[11];
        distance = std::max(distance, std::sqrt(dx * dx + dy * dy + dz * dz));
      }
      const std::int32_t p = skeleton.parents[j];
      if (p >= 0) {
        const Mat34d& mp = metric.originalObject(static_cast<std::uint32_t>(p), f);
        for (int c = 0; c < 3; ++c) l.parentScale[j] = std::max(l.parentScale[j], columnNorm(mp, c));
      }
      const Vec3 s = clip.at(j, f).scale;
      l.localScale[j] =
          std::min({l.localScale[j], double(std::fabs(s.x)), double(std::fabs(s.y)), double(std::fabs(s.z))});
    }
  }
  for (double& s : l.parentScale)
    if (!(s > 0) || !std::isfinite(s)) s = 1.0;
  for (double& s : l.localScale)
    if (!(s > 1e-9) || !std::isfinite(s)) s = 1e-9;
  return l;
}

std::vector<bool> varyingSubTracks(const RawClip& clip) {
  std::vector<bool> varying(std::size_t(clip.jointCount) * 3, false);
  for (std::uint32_t j = 0; j < clip.jointCount; ++j) {
    const Transform& first = clip.at(j, 0);
    for (std::uint32_t f = 1; f < clip.frameCount; ++f) {
      const Transform& t = clip.at(j, f);
      auto differs = [](float a, float b) { return std::fabs(a - b) > 1e-6f * std::max(1.f, std::fabs(a)); };
      if (differs(t.rotation.x, first.rotation.x) || differs(t.rotation.y, first.rotation.y) ||
          differs(t.rotation.z, first.rotation.z) || differs(t.rotation.w, first.rotation.w))
        varying[j * 3 + 0] = true;
      if (differs(t.translation.x, first.translation.x) || differs(t.translation.y, first.translation.y) ||
          differs(t.translation.z, first.translation.z))
        varying[j * 3 + 1] = true;
      if (differs(t.scale.x, first.scale.x) || differs(t.scale.y, first.scale.y) || differs(t.scale.z, first.scale.z))
        varying[j * 3 + 2] = true;
    }
  }
  return varying;
}

std::vector<double> localTolerances(const Skeleton& skeleton, const HierarchyLevers& levers,
                                    const std::vector<bool>& varying, const EffectiveSettings& settings,
                                    double unitToCm, double aggressiveness) {
  const std::size_t joints = skeleton.jointCount();
  std::vector<double> tolerance(joints * 3, std::numeric_limits<double>::max());
  for (std::size_t k = 0; k < joints; ++k) {
    // Animated sub-tracks on k's chain share its budget; a pinned joint's own track is always
    // recomputed, so it counts as animated.
    int shared = 0;
    for (const auto& [a, distance] : levers.chain[k])
      for (int c = 0; c < 3; ++c)
        shared += varying[a * 3 + std::size_t(c)] || (settings.joints[a].pinned && c != 2) ? 1 : 0;
    const double share = std::min(1.0, aggressiveness / std::max(shared, 1));
    const double budget = share * double(settings.joints[k].precisionCm) / unitToCm;
    const double shell = double(settings.joints[k].shellCm) / unitToCm;
    for (const auto& [a, distance] : levers.chain[k]) {
      const double lever = distance + shell;
      tolerance[a * 3 + 0] = std::min(tolerance[a * 3 + 0], budget / lever);
      tolerance[a * 3 + 1] = std::min(tolerance[a * 3 + 1], budget / levers.parentScale[a]);
      tolerance[a * 3 + 2] = std::min(tolerance[a * 3 + 2], budget * levers.localScale[a] / lever);
    }
  }
  return tolerance;
}

}  // namespace animpack::core
