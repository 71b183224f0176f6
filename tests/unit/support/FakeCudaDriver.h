//===- FakeCudaDriver.h - a host-only stand-in for libcuda ------*- C++ -*-===//
//
// This file implements the interface of libmgp-fake-cuda.so, a shared library
// whose SONAME is libcuda.so.1 and that defines every function of
// MGP_CUDA_DRIVER_FUNCTIONS, so that tests without a GPU can run the host
// side of the runtime through CudaDriver: a test dlopens it by path before
// the first CudaDriver::get(), whose dlopen("libcuda.so.1") then finds it by
// SONAME. "Device" memory is host memory (cuMemAlloc is malloc, a device
// pointer is the address), the copies are memcpy, pinned memory is malloc'ed
// and remembered, streams are tokens; every other function answers
// CUDA_ERROR_NOT_SUPPORTED. The copies are logged with whether their host
// side lies in a pinned block. Nothing is linked against it: it sits in a
// directory of its own, so a real driver is never shadowed.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TESTS_UNIT_SUPPORT_FAKECUDADRIVER_H
#define MGP_TESTS_UNIT_SUPPORT_FAKECUDADRIVER_H

#include <cstddef>
#include <cstdint>

extern "C" {

/// One cuMemcpy*Async call.
struct MgpFakeCudaCopy {
  bool toDevice;    ///< cuMemcpyHtoDAsync (else DtoH)
  uintptr_t device; ///< the device address
  const void *host; ///< the host address
  size_t bytes;
  bool hostPinned; ///< [host, host + bytes) lies in one pinned block
};

/// The copies so far (pointer to the first; count returned).
typedef size_t (*MgpFakeCudaCopiesFn)(const MgpFakeCudaCopy **copies);
/// Forgets the logged copies.
typedef void (*MgpFakeCudaResetFn)();
/// Pinned blocks allocated and not freed.
typedef size_t (*MgpFakeCudaLivePinnedFn)();
/// cuMemHostAlloc succeeds `count` more times, then fails with
/// CUDA_ERROR_OUT_OF_MEMORY; a negative count: never fails (the default).
typedef void (*MgpFakeCudaFailHostAllocAfterFn)(long count);
}

#endif // MGP_TESTS_UNIT_SUPPORT_FAKECUDADRIVER_H
