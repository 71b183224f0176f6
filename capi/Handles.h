//===- Handles.h - the C API's handles, checked on every use ----*- C++ -*-===//
//
// This file implements the registry behind the C API's opaque handles. A
// handle is not the object's address but a number from a counter that never
// repeats, mapped to the object while it lives: a handle used after its
// destroy call (or never created, or of the other kind) is found missing and
// reported as an error instead of touching freed memory, and a later object
// can never take over a stale handle's value. A call holds the object by a
// shared pointer for its duration, so a destroy on another thread cannot pull
// it away mid-call.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CAPI_HANDLES_H
#define MGP_CAPI_HANDLES_H

#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <memory>
#include <mutex>

namespace mgp::capi {

/// Live objects of one kind, by handle. \p Handle is the C handle type (a
/// pointer to an incomplete struct); \p Tag tells the kinds' numbers apart.
template <typename Handle, typename Object, uint64_t Tag> class HandleTable {
public:
  /// Registers \p object and returns its new handle.
  Handle add(std::shared_ptr<Object> object) {
    std::lock_guard<std::mutex> lock(mutex);
    uint64_t id = (next++ << 8) | Tag; // never 0, never an aligned address
    live[id] = std::move(object);
    return reinterpret_cast<Handle>(static_cast<uintptr_t>(id));
  }

  /// The object of \p handle, or null when it is not live.
  std::shared_ptr<Object> find(Handle handle) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = live.find(key(handle));
    return it == live.end() ? nullptr : it->second;
  }

  /// Unregisters \p handle; the object goes when its last call returns.
  /// Returns the object (null when \p handle was not live).
  std::shared_ptr<Object> remove(Handle handle) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = live.find(key(handle));
    if (it == live.end())
      return nullptr;
    std::shared_ptr<Object> object = std::move(it->second);
    live.erase(it);
    return object;
  }

private:
  static uint64_t key(Handle handle) {
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(handle));
  }
  std::mutex mutex;
  uint64_t next = 1;
  llvm::DenseMap<uint64_t, std::shared_ptr<Object>> live;
};

} // namespace mgp::capi

#endif // MGP_CAPI_HANDLES_H
