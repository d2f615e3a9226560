#include "app/cli/alloc_count.h"

#include <cstdlib>
#include <new>

namespace {

thread_local bool t_counting = false;
thread_local std::int64_t t_bytes = 0;
thread_local std::uint64_t t_allocations = 0;

/// Every block starts `header` bytes after the allocation: the header ends with the block's size
/// and the header's own size, so delete finds both.
void* allocate(std::size_t size, std::size_t align, bool nothrow) {
  const std::size_t header = align > 16 ? align : 16;
  const std::size_t total = header + size;
  void* raw = nullptr;
  // As the standard operator new: on failure the new-handler runs (the import child's reports the
  // memory cap), then the allocation is tried again; without one, bad_alloc.
  while (!(raw = align > 16 ? std::aligned_alloc(align, (total + align - 1) / align * align) : std::malloc(total))) {
    const std::new_handler handler = std::get_new_handler();
    if (!handler) {
      if (nothrow) return nullptr;
      throw std::bad_alloc();
    }
    handler();
  }
  auto* p = static_cast<unsigned char*>(raw) + header;
  reinterpret_cast<std::size_t*>(p)[-1] = size;
  reinterpret_cast<std::size_t*>(p)[-2] = header;
  if (t_counting) {
    t_bytes += static_cast<std::int64_t>(size);
    ++t_allocations;
  }
  return p;
}

void release(void* block) noexcept {
  if (!block) return;
  auto* p = static_cast<unsigned char*>(block);
  const std::size_t size = reinterpret_cast<std::size_t*>(p)[-1];
  const std::size_t header = reinterpret_cast<std::size_t*>(p)[-2];
  if (t_counting) t_bytes -= static_cast<std::int64_t>(size);
  std::free(p - header);
}

}  // namespace

namespace animpack::cli {

void AllocationCount::start() {
  t_bytes = 0;
  t_allocations = 0;
  t_counting = true;
}

std::int64_t AllocationCount::stop() {
  t_counting = false;
  return t_bytes;
}

std::uint64_t AllocationCount::allocations() { return t_allocations; }

}  // namespace animpack::cli

void* operator new(std::size_t size) { return allocate(size, 0, false); }
void* operator new[](std::size_t size) { return allocate(size, 0, false); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate(size, 0, true); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate(size, 0, true); }
void* operator new(std::size_t size, std::align_val_t align) { return allocate(size, std::size_t(align), false); }
void* operator new[](std::size_t size, std::align_val_t align) { return allocate(size, std::size_t(align), false); }
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return allocate(size, std::size_t(align), true);
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return allocate(size, std::size_t(align), true);
}
void operator delete(void* p) noexcept { release(p); }
void operator delete[](void* p) noexcept { release(p); }
void operator delete(void* p, std::size_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t) noexcept { release(p); }
void operator delete(void* p, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { release(p); }
