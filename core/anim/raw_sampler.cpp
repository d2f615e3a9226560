#include "core/anim/raw_sampler.h"

#include <algorithm>
#include <cmath>

#include "core/runtime/loop.h"

namespace animpack::core {

KeyLookupTable::KeyLookupTable(std::span<const double> times, double tableRate) : m_times(times) {
  if (times.size() < 2) return;
  m_start = times.front();
  const double span = times.back() - m_start;
  m_rate = span > 0 ? tableRate : 1.0;
  const std::size_t entries = static_cast<std::size_t>(std::ceil(span * m_rate)) + 1;
  m_table.resize(entries);
  std::size_t key = 0;
  for (std::size_t e = 0; e < entries; ++e) {
    const double t = m_start + double(e) / m_rate;
    while (key + 2 < times.size() && times[key + 1] <= t) ++key;
    m_table[e] = static_cast<std::uint32_t>(key);
  }
}

std::size_t KeyLookupTable::interval(double t) const {
  if (m_times.size() < 2) return 0;
  const double pos = (t - m_start) * m_rate;
  std::size_t e = pos <= 0 ? 0 : std::min(static_cast<std::size_t>(pos), m_table.size() - 1);
  std::size_t key = m_table[e];
  while (key + 2 < m_times.size() && m_times[key + 1] <= t) ++key;
  return key;
}

void RawSampler::sample(const RawClip& clip, double seconds, std::span<Transform> out, bool loop) {
  double frame = seconds * clip.sampleRate;
  const double last = clip.frameCount > 0 ? double(clip.frameCount - 1) : 0.0;
  if (loop && last > 0) {
    frame = std::fmod(frame, last);
    if (frame < 0) frame += last;
  }
  sampleFrame(clip, frame, out);
}

void RawSampler::sampleWrapping(const RawClip& clip, double seconds, std::span<Transform> out) {
  const double cycle = double(clip.frameCount);
  if (clip.frameCount < 2) return sampleFrame(clip, 0.0, out);
  double frame = std::fmod(seconds * clip.sampleRate, cycle);
  if (frame < 0) frame += cycle;
  const double last = cycle - 1;
  if (frame <= last) return sampleFrame(clip, frame, out);
  // The wrap interval: the one interpolation the player uses there, so both poses agree.
  runtime::interpolatePoses(clip.frame(clip.frameCount - 1), clip.frame(0), float(frame - last), out);
}

void RawSampler::sampleFrame(const RawClip& clip, double frame, std::span<Transform> out) {
  const double last = clip.frameCount > 0 ? double(clip.frameCount - 1) : 0.0;
  if (!(frame >= 0)) frame = 0;
  if (frame > last) frame = last;
  // The frame grid is uniform, so the lookup is plain arithmetic.
  const std::uint32_t f0 = static_cast<std::uint32_t>(frame);
  const std::uint32_t f1 = std::min(f0 + 1, clip.frameCount - 1);
  const float t = static_cast<float>(frame - f0);
  const Transform* a = clip.samples.data() + std::size_t(f0) * clip.jointCount;
  const Transform* b = clip.samples.data() + std::size_t(f1) * clip.jointCount;
  if (t == 0.f) {
    std::copy(a, a + clip.jointCount, out.begin());
    return;
  }
  for (std::uint32_t j = 0; j < clip.jointCount; ++j) {
    out[j].translation = runtime::lerp(a[j].translation, b[j].translation, t);
    out[j].scale = runtime::lerp(a[j].scale, b[j].scale, t);
    out[j].rotation = runtime::slerp(a[j].rotation, b[j].rotation, t);
  }
}

}  // namespace animpack::core
