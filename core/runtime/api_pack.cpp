// The public Pack and Clip (animpack/pack.h) over the runtime's own pack reader (core/runtime/pack.h).
#include <new>

#include "animpack/pack.h"
#include "core/runtime/pack.h"

namespace animpack {

std::string_view Clip::name() const { return m_clip ? m_clip->name() : std::string_view(); }
std::uint32_t Clip::jointCount() const { return m_clip ? m_clip->view.jointCount() : 0; }
std::uint32_t Clip::curveCount() const { return m_clip ? m_clip->view.curveCount() : 0; }
std::uint32_t Clip::frameCount() const { return m_clip ? m_clip->view.frameCount() : 0; }
float Clip::sampleRate() const { return m_clip ? m_clip->view.sampleRate() : 0.f; }
float Clip::duration() const { return m_clip ? m_clip->view.duration() : 0.f; }
bool Clip::loops() const { return m_clip && m_clip->view.loops(); }
bool Clip::wraps() const { return m_clip && m_clip->view.wraps(); }
bool Clip::additive() const { return m_clip && m_clip->view.additive(); }
bool Clip::hasRootMotion() const { return m_clip && m_clip->view.rootMotion().has_value(); }

Expected<Pack> Pack::adopt(Expected<runtime::Pack> opened, std::pmr::memory_resource* memory) {
  if (!opened) return Error{opened.message()};
  void* at = memory->allocate(sizeof(runtime::Pack), alignof(runtime::Pack));
  return Pack(new (at) runtime::Pack(std::move(opened.value())), memory);
}

Expected<Pack> Pack::open(std::span<const std::byte> bytes, std::pmr::memory_resource* memory) {
  if (memory == nullptr) memory = std::pmr::get_default_resource();
  const std::span<const std::uint8_t> view(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  return adopt(runtime::Pack::open(view, runtime::Pack::OpenOptions{nullptr, memory}), memory);
}

Expected<Pack> Pack::load(const char* path, std::pmr::memory_resource* memory) {
  if (memory == nullptr) memory = std::pmr::get_default_resource();
  if (path == nullptr) return Error{"Pack::load: no path (a null pointer)"};
  return adopt(runtime::Pack::load(path, runtime::Pack::OpenOptions{nullptr, memory}), memory);
}

void Pack::release() {
  if (!m_impl) return;
  m_impl->~Pack();
  m_memory->deallocate(m_impl, sizeof(runtime::Pack), alignof(runtime::Pack));
  m_impl = nullptr;
}

Pack::~Pack() { release(); }

Pack::Pack(Pack&& other) noexcept : m_impl(other.m_impl), m_memory(other.m_memory) { other.m_impl = nullptr; }

Pack& Pack::operator=(Pack&& other) noexcept {
  if (this == &other) return *this;
  release();
  m_impl = other.m_impl;
  m_memory = other.m_memory;
  other.m_impl = nullptr;
  return *this;
}

// A moved-from Pack answers as an empty one.
std::uint32_t Pack::version() const { return m_impl ? m_impl->version() : 0; }
std::size_t Pack::fileBytes() const { return m_impl ? m_impl->fileSize() : 0; }
std::size_t Pack::derivedBytes() const { return m_impl ? m_impl->derivedBytes() : 0; }
std::uint32_t Pack::clipCount() const { return m_impl ? static_cast<std::uint32_t>(m_impl->clips().size()) : 0; }

Clip Pack::clip(std::uint32_t index) const {
  Clip c;
  if (index >= clipCount()) return c;
  c.m_clip = &m_impl->clips()[index];
  c.m_pack = m_impl;
  c.m_skeleton = m_impl->skeleton().hash();
  return c;
}

Clip Pack::findClip(std::string_view name) const {
  if (!m_impl) return {};
  const runtime::PackClip* found = m_impl->findClip(name);
  return found ? clip(found->index()) : Clip();
}

std::uint32_t Pack::jointCount() const { return m_impl ? m_impl->skeleton().jointCount() : 0; }
std::string_view Pack::jointName(std::uint32_t joint) const {
  return joint < jointCount() ? m_impl->skeleton().name(joint) : std::string_view();
}
std::int32_t Pack::findJoint(std::string_view name) const { return m_impl ? m_impl->skeleton().find(name) : -1; }
std::span<const std::int32_t> Pack::parents() const {
  return m_impl ? m_impl->skeleton().parents() : std::span<const std::int32_t>();
}
std::span<const Transform> Pack::restPose() const {
  return m_impl ? m_impl->skeleton().restPose() : std::span<const Transform>();
}
float Pack::unitToCm() const { return m_impl ? m_impl->skeleton().unitToCm() : 1.f; }
std::uint64_t Pack::skeletonHash() const { return m_impl ? m_impl->skeleton().hash() : 0; }
std::uint32_t Pack::curveCount() const { return m_impl ? m_impl->skeleton().curveCount() : 0; }
std::string_view Pack::curveName(std::uint32_t curve) const {
  return curve < curveCount() ? m_impl->skeleton().curveName(curve) : std::string_view();
}
std::int32_t Pack::findCurve(std::string_view name) const { return m_impl ? m_impl->skeleton().findCurve(name) : -1; }
std::span<const float> Pack::restWeights() const {
  return m_impl ? m_impl->skeleton().restWeights() : std::span<const float>();
}

}  // namespace animpack
