//===- LaunchBuilder.h - Building a KernelLaunch param by param -*- C++ -*-===//
//
// This file implements the small builder the launch rules (KernelLaunch.cpp,
// ConvLaunch.cpp) use to list a kernel's parameters in order.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_LAUNCHBUILDER_H
#define MGP_GRAPH_LAUNCHBUILDER_H

#include "graph/KernelLaunch.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

namespace mgp::graph {

/// Builds one launch parameter by parameter.
struct LaunchBuilder {
  KernelLaunch launch;

  LaunchBuilder(int node, const char *file, const char *kernel) {
    launch.node = node;
    launch.file = file;
    launch.kernel = kernel;
  }
  LaunchBuilder &buffer(const char *name, int value) {
    launch.params.push_back({name, LaunchParam::Kind::Buffer, value, 0, 0});
    return *this;
  }
  /// The launch's scratch, fp32 or (typeOf >= 0) in the storage type of
  /// graph value `typeOf`.
  LaunchBuilder &workspace(const char *name, int typeOf = -1) {
    launch.params.push_back(
        {name, LaunchParam::Kind::Workspace, typeOf, 0, 0});
    return *this;
  }
  LaunchBuilder &integer(const char *name, int64_t v) {
    launch.params.push_back({name, LaunchParam::Kind::Int, -1, v, 0});
    return *this;
  }
  /// An integer the signature never specializes (LaunchParam::specialize).
  LaunchBuilder &unspecializedInteger(const char *name, int64_t v) {
    integer(name, v);
    launch.params.back().specialize = false;
    return *this;
  }
  LaunchBuilder &floating(const char *name, double v) {
    launch.params.push_back({name, LaunchParam::Kind::Float, -1, 0, v});
    return *this;
  }
  LaunchBuilder &constexpr_(const char *name, int64_t v) {
    launch.params.push_back({name, LaunchParam::Kind::Constexpr, -1, v, 0});
    return *this;
  }
  KernelLaunch grid(int64_t x, int64_t y = 1, int64_t z = 1) {
    launch.grid = {x, y, z};
    return std::move(launch);
  }
};

inline int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The power of two >= `n`, clamped to [lo, hi].
inline int64_t blockFor(int64_t n, int64_t lo, int64_t hi) {
  return std::clamp<int64_t>(int64_t(llvm::PowerOf2Ceil(uint64_t(n))), lo, hi);
}

} // namespace mgp::graph

#endif // MGP_GRAPH_LAUNCHBUILDER_H
