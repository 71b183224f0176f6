//===- GpuTestSupport.h - scaffolding shared by the GPU tests ---*- C++ -*-===//
//
// This file implements the pieces the GPU tests (label gpu) repeated: whether
// a CUDA device is there (the tests report "skipped: no GPU" without one and
// fail when a driver is there but broken),
// the random inputs of the runtime and shared-memory tests (magnitudes in
// [0.25, 4), either sign, from a fixed seed), a device buffer from a host
// vector, and the check of a matmul result against a double-precision
// reference with a componentwise bound. Header only: the GPU test binaries
// link MgpRuntime already.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_SUPPORT_GPUTESTSUPPORT_H
#define MGP_TESTS_UNIT_SUPPORT_GPUTESTSUPPORT_H

#include "runtime/Device.h"
#include "runtime/DeviceBuffer.h"

#include "llvm/Support/Error.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

namespace mgp::test {

/// Whether the GPU tests can run here: true with a device, false without a
/// driver library or a device, an error when a driver is there but fails
/// (runtime/Device.h: hasGpu).
inline llvm::Expected<bool> haveGpu() { return hasGpu(); }

/// `n` floats of magnitude in [0.25, 4) and random sign, from `seed` (never
/// zero, so that a kernel that writes nothing cannot pass).
inline std::vector<float> randomSignedFloats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(0.25f, 4.0f);
  std::vector<float> values(n);
  for (float &v : values)
    v = std::bernoulli_distribution(0.5)(rng) ? dist(rng) : -dist(rng);
  return values;
}

/// A device buffer holding \p host (room for one float at least, so that an
/// empty operand still has an address); a failed allocation fails the test.
inline llvm::Expected<DeviceBuffer>
uploadFloats(const std::vector<float> &host) {
  auto buf = DeviceBuffer::allocate(std::max<size_t>(host.size(), 1) * 4);
  EXPECT_TRUE(bool(buf));
  if (buf && !host.empty())
    llvm::cantFail(buf->copyFromHost(host.data(), host.size() * 4));
  return buf;
}

/// How close a matmul came to its bound.
struct MatmulError {
  double worst = 0;  ///< max |C - ref| / bound
  double maxAbs = 0; ///< max |C - ref|
};

/// Checks \p c (m x n) = \p a (m x k) @ \p b (k x n), all row-major, against
/// a double-precision reference: |c_ij - ref_ij| <= rel * sum_k |a_ik b_kj| +
/// abs for every element; the first element past its bound fails the test
/// (a fatal failure: callers check HasFatalFailure()).
inline void checkMatmul(const std::vector<float> &a,
                        const std::vector<float> &b,
                        const std::vector<float> &c, int m, int n, int k,
                        double rel, double abs, MatmulError &error) {
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double ref = 0, mag = 0;
      for (int kk = 0; kk < k; ++kk) {
        double p = double(a[size_t(i) * k + kk]) * b[size_t(kk) * n + j];
        ref += p;
        mag += std::fabs(p);
      }
      double got = c[size_t(i) * n + j];
      double bound = rel * mag + abs;
      double e = std::fabs(got - ref);
      error.maxAbs = std::max(error.maxAbs, e);
      error.worst = std::max(error.worst, e / bound);
      ASSERT_LE(e, bound) << "C[" << i << ", " << j << "]: gpu " << got
                          << ", reference " << ref;
    }
}

} // namespace mgp::test

/// Ends the current gtest as skipped ("skipped: no GPU") when there is no
/// driver library or no device, and as failed when a driver is there but
/// cannot be used (a broken install, a failed cuInit or device query): only
/// a missing GPU may read as "skipped".
#define MGP_SKIP_WITHOUT_GPU()                                                 \
  do {                                                                         \
    llvm::Expected<bool> mgpHaveGpu = ::mgp::hasGpu();                         \
    if (!mgpHaveGpu)                                                           \
      GTEST_FAIL() << "a GPU driver is present but unusable: "                 \
                   << llvm::toString(mgpHaveGpu.takeError());                  \
    if (!*mgpHaveGpu)                                                          \
      GTEST_SKIP() << "skipped: no GPU";                                       \
  } while (false)

#endif // MGP_TESTS_UNIT_SUPPORT_GPUTESTSUPPORT_H
