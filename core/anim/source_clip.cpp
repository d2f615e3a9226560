#include "core/anim/source_clip.h"

#include <algorithm>
#include <cmath>

#include "core/anim/raw_clip.h"

namespace animpack::core {
namespace {

std::array<double, 4> normalizedQ(std::array<double, 4> q) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(n > 0)) return {0, 0, 0, 1};
  for (double& c : q) c /= n;
  return q;
}

/// Key interval and fraction at `ticks`, snapping to a key as the importer does (frame times
/// computed as start + f * step may miss a key time by rounding).
double bracket(const std::vector<double>& times, double ticks, std::size_t& i) {
  if (times.size() < 2 || ticks <= times.front()) {
    i = 0;
    return 0;
  }
  if (ticks >= times.back()) {
    i = times.size() - 2;
    return 1;
  }
  i = std::size_t(std::upper_bound(times.begin(), times.end(), ticks) - times.begin()) - 1;
  const double t0 = times[i], t1 = times[i + 1];
  const double eps = 1e-6 * std::max(1.0, std::fabs(ticks));
  return ticks <= t0 + eps ? 0.0 : ticks >= t1 - eps ? 1.0 : (ticks - t0) / (t1 - t0);
}

std::array<double, 3> lerp3(const std::array<double, 3>& a, const std::array<double, 3>& b, double t) {
  return {a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t};
}

}  // namespace

std::array<double, 4> slerpExact(const std::array<double, 4>& a, const std::array<double, 4>& bIn, double t) {
  std::array<double, 4> b = bIn;
  double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (d < 0) {
    for (double& c : b) c = -c;
    d = -d;
  }
  if (d > 1 - 1e-15)
    return normalizedQ(
        {a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t, a[3] + (b[3] - a[3]) * t});
  const double theta = std::acos(std::min(d, 1.0));
  const double s = 1 / std::sin(theta);
  const double wa = std::sin((1 - t) * theta) * s, wb = std::sin(t * theta) * s;
  return normalizedQ({a[0] * wa + b[0] * wb, a[1] * wa + b[1] * wb, a[2] * wa + b[2] * wb, a[3] * wa + b[3] * wb});
}

Mat34d TransformD::matrix() const {
  const auto q = normalizedQ(rotation);
  const double x = q[0], y = q[1], z = q[2], w = q[3];
  Mat34d a;
  a.m[0] = (1 - 2 * (y * y + z * z)) * scale[0];
  a.m[1] = (2 * (x * y + z * w)) * scale[0];
  a.m[2] = (2 * (x * z - y * w)) * scale[0];
  a.m[3] = (2 * (x * y - z * w)) * scale[1];
  a.m[4] = (1 - 2 * (x * x + z * z)) * scale[1];
  a.m[5] = (2 * (y * z + x * w)) * scale[1];
  a.m[6] = (2 * (x * z + y * w)) * scale[2];
  a.m[7] = (2 * (y * z - x * w)) * scale[2];
  a.m[8] = (1 - 2 * (x * x + y * y)) * scale[2];
  a.m[9] = translation[0];
  a.m[10] = translation[1];
  a.m[11] = translation[2];
  return a;
}

TransformD SourceNode::at(double ticks) const {
  TransformD out = rest;
  std::size_t i = 0;
  if (!rotations.empty()) {
    const double a = bracket(times[0], ticks, i);
    out.rotation = rotations.size() < 2 || a == 0 ? rotations[i]
                   : a == 1                       ? rotations[i + 1]
                                                  : slerpExact(rotations[i], rotations[i + 1], a);
  }
  if (!positions.empty()) {
    const double a = bracket(times[1], ticks, i);
    out.translation = positions.size() < 2 || a == 0 ? positions[i] : lerp3(positions[i], positions[i + 1], a);
  }
  if (!scales.empty()) {
    const double a = bracket(times[2], ticks, i);
    out.scale = scales.size() < 2 || a == 0 ? scales[i] : lerp3(scales[i], scales[i + 1], a);
  }
  return out;
}

SourceClip::SourceClip(std::vector<SourceNode> nodes, std::vector<std::vector<std::uint32_t>> chains, double startTicks,
                       double ticksPerFrame, double endTicks)
    : m_nodes(std::move(nodes)),
      m_chains(std::move(chains)),
      m_startTicks(startTicks),
      m_ticksPerFrame(ticksPerFrame),
      m_endTicks(endTicks) {}

void SourceClip::localMatrices(double frame, std::span<Mat34d> out) const {
  const double ticks = std::min(m_startTicks + frame * m_ticksPerFrame, m_endTicks);
  for (std::size_t j = 0; j < m_chains.size(); ++j) {
    Mat34d m = Mat34d::identity();
    for (std::size_t k = 0; k < m_chains[j].size(); ++k) {
      const Mat34d node = m_nodes[m_chains[j][k]].matrixAt(ticks);
      m = k == 0 ? node : m * node;
    }
    out[j] = m;
  }
}

void SourceClip::objectMatrices(std::span<const std::int32_t> parents, double frame, std::span<Mat34d> out) const {
  localMatrices(frame, out);
  for (std::size_t j = 0; j < out.size(); ++j)
    if (parents[j] >= 0) out[j] = out[std::size_t(parents[j])] * out[j];
}

bool SourceClip::valid(std::uint32_t joints) const {
  auto finite = [](const auto& values) {
    for (const auto& v : values)
      for (double x : v)
        if (!std::isfinite(x)) return false;
    return true;
  };
  if (m_chains.size() != joints || !std::isfinite(m_startTicks) || !std::isfinite(m_endTicks) ||
      !(m_ticksPerFrame > 0) || !std::isfinite(m_ticksPerFrame))
    return false;
  for (const auto& chain : m_chains) {
    if (chain.empty()) return false;
    for (std::uint32_t n : chain)
      if (n >= m_nodes.size()) return false;
  }
  for (const SourceNode& n : m_nodes) {
    if (n.times[0].size() != n.rotations.size() || n.times[1].size() != n.positions.size() ||
        n.times[2].size() != n.scales.size() || !finite(n.rotations) || !finite(n.positions) || !finite(n.scales))
      return false;
    for (double x : n.staticMatrix.m)
      if (!std::isfinite(x)) return false;
    for (const auto& t : n.times)
      for (std::size_t k = 0; k < t.size(); ++k)
        if (!std::isfinite(t[k]) || (k > 0 && t[k] < t[k - 1])) return false;
  }
  return true;
}

std::vector<double> SourceClip::keyFramePositions() const {
  std::vector<double> out;
  for (const SourceNode& n : m_nodes)
    if (n.animated)
      for (const auto& times : n.times)
        for (double t : times) out.push_back((t - m_startTicks) / m_ticksPerFrame);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::optional<double> SourceClip::firstJumpFrame() const {
  std::optional<double> first;
  const double close = 1e-6 * m_ticksPerFrame;
  auto differ = [](const auto& a, const auto& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::fabs(a[i] - b[i]) > 1e-9) return true;
    return false;
  };
  for (const SourceNode& n : m_nodes)
    for (int c = 0; c < 3 && n.animated; ++c)
      for (std::size_t k = 1; k < n.times[std::size_t(c)].size(); ++k) {
        const auto& t = n.times[std::size_t(c)];
        if (t[k] - t[k - 1] > close) continue;
        const auto& q = n.rotations;  // q and -q are one rotation
        const bool jump = c == 0   ? std::fabs(q[k][0] * q[k - 1][0] + q[k][1] * q[k - 1][1] + q[k][2] * q[k - 1][2] +
                                               q[k][3] * q[k - 1][3]) < 1 - 1e-9
                          : c == 1 ? differ(n.positions[k], n.positions[k - 1])
                                   : differ(n.scales[k], n.scales[k - 1]);
        if (jump) first = std::min(first.value_or(t[k]), t[k]);
      }
  if (!first) return std::nullopt;
  return (*first - m_startTicks) / m_ticksPerFrame;
}

SourceClip sourceFromFrames(const RawClip& clip) {
  std::vector<SourceNode> nodes(clip.jointCount);
  std::vector<std::vector<std::uint32_t>> chains(clip.jointCount);
  for (std::uint32_t j = 0; j < clip.jointCount; ++j) {
    SourceNode& n = nodes[j];
    n.animated = true;
    for (auto& t : n.times) t.resize(clip.frameCount);
    for (std::uint32_t f = 0; f < clip.frameCount; ++f) {
      const Transform& t = clip.at(j, f);
      for (auto& times : n.times) times[f] = f;
      n.rotations.push_back({t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w});
      n.positions.push_back({t.translation.x, t.translation.y, t.translation.z});
      n.scales.push_back({t.scale.x, t.scale.y, t.scale.z});
    }
    chains[j] = {j};
  }
  return SourceClip(std::move(nodes), std::move(chains), 0, 1, clip.frameCount > 0 ? clip.frameCount - 1 : 0);
}

}  // namespace animpack::core
