//===- FakeCudaStubs.cpp - every driver function, not supported -----------===//
//
// This file implements the default of every function the runtime looks up
// in libcuda (MGP_CUDA_DRIVER_FUNCTIONS, under the versioned symbol cuda.h
// gives it): a weak definition that answers CUDA_ERROR_NOT_SUPPORTED, so
// that the fake library (tests/unit/support/FakeCudaDriver.h) keeps loading
// when the list grows. FakeCudaDriver.cpp overrides the functions it
// implements with strong definitions. The stubs take no parameters; a
// caller passing some is harmless in the x86-64 calling convention.
//
//===----------------------------------------------------------------------===//
#include "runtime/CudaDriver.h"

#define MGP_FAKE_STRINGIFY_IMPL(x) #x
#define MGP_FAKE_STRINGIFY(x) MGP_FAKE_STRINGIFY_IMPL(x)
// `mgpFakeStub_##fn` pastes the name as written (cuMemAlloc); the asm label
// is the expanded symbol (cuMemAlloc_v2) that CudaDriver looks up.
#define MGP_FAKE_STUB(fn)                                                      \
  extern "C" __attribute__((weak))                                             \
  CUresult mgpFakeStub_##fn() __asm__(MGP_FAKE_STRINGIFY(fn));                 \
  extern "C" CUresult mgpFakeStub_##fn() { return CUDA_ERROR_NOT_SUPPORTED; }
MGP_CUDA_DRIVER_FUNCTIONS(MGP_FAKE_STUB)
