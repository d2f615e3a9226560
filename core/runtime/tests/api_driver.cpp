#include "api_driver.h"

#include <animpack/pack.h>
#include <animpack/player.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

namespace animpack::test {
namespace {

/// Reads the call script byte after byte, cycling.
class Script {
 public:
  explicit Script(const std::uint8_t* bytes) : m_bytes(bytes) {}
  std::uint8_t next() { return m_bytes[m_at++ % kApiScriptBytes]; }

 private:
  const std::uint8_t* m_bytes;
  std::size_t m_at = 0;
};

constexpr float kMarker = -31337.f;

float pickTime(Script& s, const Clip& clip) {
  const float special[] = {0.f,
                           -1.f,
                           1e30f,
                           -1e30f,
                           std::numeric_limits<float>::quiet_NaN(),
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::denorm_min()};
  const std::uint8_t b = s.next();
  if (b < 64) return special[b % 8];
  return clip.duration() * float(b - 64) / 150.f + (b & 1 ? 1.f / 64.f : 0.f);
}

std::size_t pickSize(Script& s, std::size_t needed) {
  switch (s.next() % 6) {
    case 0: return 0;
    case 1: return 1;
    case 2: return needed > 0 ? needed - 1 : 0;
    case 3: return needed + 1 + s.next() % 8;
    default: return needed;
  }
}

Clip pickClip(Script& s, const Pack& pack) {
  return pack.clip(s.next() % (pack.clipCount() + 1));  // the last index: an empty handle
}

void fail(const char* what) {
  std::fprintf(stderr, "fuzz_api: %s\n", what);
  std::abort();
}

/// After a refused call nothing changed; after a good one nothing past `written` changed.
Transform marked() {
  Transform t;
  t.translation.x = kMarker;
  return t;
}
void expectUnchanged(const std::vector<Transform>& pose, std::size_t from) {
  const Transform mark = marked();
  for (std::size_t i = from; i < pose.size(); ++i)
    if (std::memcmp(&pose[i], &mark, sizeof(Transform)) != 0)
      fail("a pose transform was written that the call must not write");
}
void expectUnchanged(const std::vector<float>& weights, std::size_t from) {
  for (std::size_t i = from; i < weights.size(); ++i)
    if (weights[i] != kMarker) fail("a weight was written that the call must not write");
}

struct Buffers {
  std::vector<Transform> pose, scratch;
  std::vector<float> weights;
  Buffers(std::size_t poseSize, std::size_t scratchSize, std::size_t weightSize) {
    pose.assign(poseSize, marked());
    scratch.assign(scratchSize, marked());
    weights.assign(weightSize, kMarker);
  }
};

/// One call; returns whether it succeeded.
bool call(Script& s, const Pack& pack, Player& player, std::byte* storage, std::size_t storageBytes) {
  const std::uint8_t op = s.next() % 9;
  const Clip a = pickClip(s, pack), b = pickClip(s, pack);
  const std::size_t joints = a.jointCount(), curves = a.curveCount();
  Buffers io(pickSize(s, joints), pickSize(s, joints), pickSize(s, curves));
  const float t = pickTime(s, a), u = pickTime(s, b);
  const float weight = s.next() < 16 ? std::numeric_limits<float>::quiet_NaN() : float(s.next()) / 200.f - 0.1f;
  Result r = Result::Ok;
  std::size_t poseWritten = joints, weightsWritten = 0;
  switch (op) {
    case 0:
      if (s.next() % 4 == 0) {
        // A level of detail: the first N joints (N past the clip's joints is refused).
        const std::size_t n = pickSize(s, joints);
        r = player.sample(a, t, static_cast<std::uint32_t>(n), io.pose);
        poseWritten = n;
      } else {
        r = player.sample(a, t, io.pose);
      }
      break;
    case 1:
      r = player.sample(a, t, io.pose, io.weights);
      poseWritten = io.pose.empty() ? 0 : joints;
      weightsWritten = curves;
      break;
    case 2: r = player.sampleFrame(a, t * 10.f, io.pose); break;
    case 3:
      r = player.sampleFrame(a, t * 10.f, io.pose, io.weights);
      poseWritten = io.pose.empty() ? 0 : joints;
      weightsWritten = curves;
      break;
    case 4:
      r = player.blend(a, t, b, u, weight, s.next() & 1 ? BlendMode::Naive : BlendMode::Decomposed, io.pose);
      break;
    case 5: r = player.addClip(a, t, weight, io.pose, io.scratch); break;
    case 6: {
      Transform motion = marked();
      r = player.rootMotion(a, t, u, motion);
      const Transform mark = marked();
      if (r != Result::Ok && std::memcmp(&motion, &mark, sizeof(Transform)) != 0)
        fail("rootMotion wrote its output on a refused call");
      poseWritten = 0;
      break;
    }
    case 7: {
      const std::size_t offset = s.next() % 3 == 0 ? 8 : 0, bytes = std::size_t(s.next()) * 32;
      r = player.useStorage(std::span(storage + offset, std::min(bytes, storageBytes - offset)));
      poseWritten = 0;
      break;
    }
    default:
      if (s.next() & 1) player.bindSkeleton(pack);
      else player.unbindSkeleton();
      poseWritten = 0;
  }
  if (r != Result::Ok) poseWritten = weightsWritten = 0;
  if (r != Result::Ok && describe(r)[0] == '\0') fail("a result without a description");
  expectUnchanged(io.pose, std::min(poseWritten, io.pose.size()));
  expectUnchanged(io.weights, std::min(weightsWritten, io.weights.size()));
  if (r != Result::Ok) expectUnchanged(io.scratch, 0);
  return r == Result::Ok;
}

}  // namespace

int driveApi(const std::uint8_t* data, std::size_t size) {
  if (size < kApiScriptBytes) return 0;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data + kApiScriptBytes),
                                         size - kApiScriptBytes);
  auto pack = Pack::open(bytes);
  if (!pack || pack->clipCount() == 0) return 0;
  Script script(data);
  Player player;
  alignas(16) static std::byte storage[16384];
  int succeeded = 0;
  for (int i = 0; i < 64; ++i) succeeded += call(script, *pack, player, storage, sizeof(storage));
  return succeeded;
}

}  // namespace animpack::test
