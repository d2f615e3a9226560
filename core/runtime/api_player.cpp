// The public Player (animpack/player.h): every argument checked at the edge, then the runtime's own
// player (core/runtime/player.h) does the work.
#include <cmath>
#include <cstdint>
#include <functional>
#include <new>

#include "animpack/player.h"
#include "core/runtime/additive.h"
#include "core/runtime/curves.h"
#include "core/runtime/pack.h"
#include "core/runtime/player.h"
#include "core/runtime/root_motion.h"

namespace animpack {
namespace {

runtime::Player* impl(std::byte* bytes) { return std::launder(reinterpret_cast<runtime::Player*>(bytes)); }
const runtime::Player* impl(const std::byte* bytes) {
  return std::launder(reinterpret_cast<const runtime::Player*>(bytes));
}

runtime::BlendMode internal(BlendMode mode) {
  return mode == BlendMode::Naive ? runtime::BlendMode::Naive : runtime::BlendMode::Decomposed;
}

std::size_t align16(std::size_t n) { return (n + 15) & ~std::size_t(15); }

}  // namespace

const char* describe(Result result) {
  switch (result) {
    case Result::Ok: return "ok";
    case Result::NoClip: return "no clip: the clip handle is empty (a lookup that found nothing?)";
    case Result::PoseTooShort: return "the pose span holds fewer transforms than the clip has joints";
    case Result::WeightsTooShort: return "the weight span holds fewer floats than the clip has curves";
    case Result::ScratchTooShort: return "the scratch pose holds fewer transforms than the clip has joints";
    case Result::ScratchOverlapsPose: return "the scratch pose shares memory with the pose";
    case Result::TimeNotFinite: return "the time is NaN or infinite";
    case Result::TimeOutOfRange: return "the time is beyond +-1e6 s (or the frame beyond +-1e8): wrap it first";
    case Result::WeightNotFinite: return "the weight is NaN or infinite";
    case Result::ForeignClip: return "the clip's skeleton is not the one the player is bound to";
    case Result::SkeletonMismatch: return "the two clips have different skeletons";
    case Result::NotAdditive: return "the clip is not additive";
    case Result::StorageTooSmall: return "the player's storage is too small for this call";
    case Result::StorageMisaligned: return "the storage is not aligned to Player::kStorageAlignment (16 bytes)";
    case Result::ParentOrder: return "a joint's parent is not an earlier joint";
    case Result::JointCountOutOfRange: return "a joint count beyond the clip's joints";
  }
  return "unknown result";
}

static_assert(sizeof(runtime::Player) <= 64 && alignof(runtime::Player) <= 16,
              "animpack::Player::kImplBytes must hold the runtime's Player");
static_assert(int(BlendMode::Naive) == int(runtime::BlendMode::Naive) &&
              int(BlendMode::Decomposed) == int(runtime::BlendMode::Decomposed));

Player::Player(std::pmr::memory_resource* memory) { new (m_impl) runtime::Player(runtime::DecodePath::Simd, memory); }
Player::~Player() { impl(m_impl)->~Player(); }
Player::Player(Player&& other) noexcept : m_skeleton(other.m_skeleton) {
  new (m_impl) runtime::Player(std::move(*impl(other.m_impl)));
}
Player& Player::operator=(Player&& other) noexcept {
  *impl(m_impl) = std::move(*impl(other.m_impl));
  m_skeleton = other.m_skeleton;
  return *this;
}

Result Player::useStorage(std::span<std::byte> storage) {
  if (reinterpret_cast<std::uintptr_t>(storage.data()) % kStorageAlignment != 0) return Result::StorageMisaligned;
  *impl(m_impl) = runtime::Player(storage, runtime::DecodePath::Simd);
  return Result::Ok;
}

std::size_t Player::storageBytes(const Clip& clip) {
  return clip ? runtime::Player::storageBytes(clip.m_clip->view) : 0;
}
std::size_t Player::blendStorageBytes(const Clip& a, const Clip& b) {
  return a && b ? runtime::Player::blendStorageBytes(a.m_clip->view, b.m_clip->view) : 0;
}
std::size_t Player::stateBytes() const { return impl(m_impl)->stateBytes() - sizeof(runtime::Player) + sizeof(*this); }

Result Player::check(const Clip& clip, float time, float limit) const {
  if (!clip) return Result::NoClip;
  if (m_skeleton != 0 && clip.m_skeleton != m_skeleton) return Result::ForeignClip;
  if (!std::isfinite(time)) return Result::TimeNotFinite;
  if (std::fabs(time) > limit) return Result::TimeOutOfRange;
  return Result::Ok;
}

Result Player::sample(const Clip& clip, float seconds, std::span<Transform> pose) {
  if (Result r = check(clip, seconds, kMaxSeconds); r != Result::Ok) return r;
  if (pose.size() < clip.jointCount()) return Result::PoseTooShort;
  impl(m_impl)->sample(clip.m_clip->view, seconds, pose.first(clip.jointCount()));
  return Result::Ok;
}

Result Player::sample(const Clip& clip, float seconds, std::span<Transform> pose, std::span<float> weights) {
  if (Result r = check(clip, seconds, kMaxSeconds); r != Result::Ok) return r;
  if (!pose.empty() && pose.size() < clip.jointCount()) return Result::PoseTooShort;  // empty: weights alone
  if (weights.size() < clip.curveCount()) return Result::WeightsTooShort;
  const std::uint32_t joints = pose.empty() ? 0 : clip.jointCount();
  impl(m_impl)->sample(clip.m_clip->view, seconds, pose.first(joints), weights.first(clip.curveCount()));
  return Result::Ok;
}

Result Player::checkLevel(const Clip& clip, float time, float limit, std::uint32_t jointCount,
                          std::size_t poseSize) const {
  if (Result r = check(clip, time, limit); r != Result::Ok) return r;
  if (jointCount > clip.jointCount()) return Result::JointCountOutOfRange;
  return poseSize < jointCount ? Result::PoseTooShort : Result::Ok;
}

Result Player::sample(const Clip& clip, float seconds, std::uint32_t jointCount, std::span<Transform> pose) {
  const Result r = checkLevel(clip, seconds, kMaxSeconds, jointCount, pose.size());
  if (r == Result::Ok) impl(m_impl)->sampleJoints(clip.m_clip->view, seconds, jointCount, pose.first(jointCount));
  return r;
}

Result Player::sampleFrame(const Clip& clip, float frame, std::uint32_t jointCount, std::span<Transform> pose) {
  const Result r = checkLevel(clip, frame, kMaxFrame, jointCount, pose.size());
  if (r == Result::Ok) impl(m_impl)->sampleFrameJoints(clip.m_clip->view, frame, jointCount, pose.first(jointCount));
  return r;
}

Result Player::sampleFrame(const Clip& clip, float frame, std::span<Transform> pose) {
  if (Result r = check(clip, frame, kMaxFrame); r != Result::Ok) return r;
  if (pose.size() < clip.jointCount()) return Result::PoseTooShort;
  impl(m_impl)->sampleFrame(clip.m_clip->view, frame, pose.first(clip.jointCount()));
  return Result::Ok;
}

Result Player::sampleFrame(const Clip& clip, float frame, std::span<Transform> pose, std::span<float> weights) {
  if (Result r = check(clip, frame, kMaxFrame); r != Result::Ok) return r;
  if (!pose.empty() && pose.size() < clip.jointCount()) return Result::PoseTooShort;  // empty: weights alone
  if (weights.size() < clip.curveCount()) return Result::WeightsTooShort;
  if (!pose.empty()) impl(m_impl)->sampleFrame(clip.m_clip->view, frame, pose.first(clip.jointCount()));
  runtime::sampleCurvesAtFrame(clip.m_clip->view, frame, weights.first(clip.curveCount()));
  return Result::Ok;
}

Result Player::blend(const Clip& a, float secondsA, const Clip& b, float secondsB, float weight, BlendMode mode,
                     std::span<Transform> pose) {
  if (Result r = check(a, secondsA, kMaxSeconds); r != Result::Ok) return r;
  if (Result r = check(b, secondsB, kMaxSeconds); r != Result::Ok) return r;
  if (a.m_skeleton != b.m_skeleton || a.jointCount() != b.jointCount()) return Result::SkeletonMismatch;
  if (!std::isfinite(weight)) return Result::WeightNotFinite;
  if (pose.size() < a.jointCount()) return Result::PoseTooShort;
  runtime::Player& player = *impl(m_impl);
  if (!player.ownsStorage() && player.capacity() < align16(std::size_t(a.jointCount()) * sizeof(Transform)))
    return Result::StorageTooSmall;
  weight = weight < 0.f ? 0.f : weight > 1.f ? 1.f : weight;
  player.blend(a.m_clip->view, secondsA, b.m_clip->view, secondsB, weight, internal(mode), pose.first(a.jointCount()));
  return Result::Ok;
}

Result Player::addClip(const Clip& additive, float seconds, float weight, std::span<Transform> pose,
                       std::span<Transform> scratch) {
  if (Result r = check(additive, seconds, kMaxSeconds); r != Result::Ok) return r;
  if (!additive.additive()) return Result::NotAdditive;
  if (!std::isfinite(weight)) return Result::WeightNotFinite;
  const std::uint32_t joints = additive.jointCount();
  if (pose.size() < joints) return Result::PoseTooShort;
  if (scratch.size() < joints) return Result::ScratchTooShort;
  const auto* p = reinterpret_cast<const std::byte*>(pose.data());
  const auto* s = reinterpret_cast<const std::byte*>(scratch.data());
  if (std::less<>()(s, p + joints * sizeof(Transform)) && std::less<>()(p, s + joints * sizeof(Transform)))
    return Result::ScratchOverlapsPose;
  impl(m_impl)->sample(additive.m_clip->view, seconds, scratch.first(joints));
  runtime::applyAdditive(pose.first(joints), scratch.first(joints), weight, pose.first(joints));
  return Result::Ok;
}

Result Player::rootMotion(const Clip& clip, float fromSeconds, float toSeconds, Transform& motion) const {
  if (Result r = check(clip, fromSeconds, kMaxSeconds); r != Result::Ok) return r;
  if (!std::isfinite(toSeconds)) return Result::TimeNotFinite;
  if (std::fabs(toSeconds) > kMaxSeconds) return Result::TimeOutOfRange;
  motion = runtime::rootMotion(clip.m_clip->view, fromSeconds, toSeconds);
  return Result::Ok;
}

Result blendPoses(std::span<const Transform> a, std::span<const Transform> b, float weight, BlendMode mode,
                  std::span<const Transform> restPose, std::span<Transform> out) {
  if (b.size() != a.size()) return Result::SkeletonMismatch;
  if (out.size() < a.size() || restPose.size() < a.size()) return Result::PoseTooShort;
  if (!std::isfinite(weight)) return Result::WeightNotFinite;
  weight = weight < 0.f ? 0.f : weight > 1.f ? 1.f : weight;
  runtime::blendPoses(a, b, weight, internal(mode), restPose.first(a.size()), out.first(a.size()));
  return Result::Ok;
}

}  // namespace animpack
