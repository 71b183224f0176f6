//===- mgp.hpp - the C++ API of mgp, installed ------------------*- C++ -*-===//
//
// This file gathers the headers of mgp's C++ API for users of an installed
// mgp (`find_package(mgp)`, target mgp::mgp): mgp::jit and Kernel::launch,
// the device, its buffers, streams and events. They use LLVM 22's
// llvm::Error / Expected / StringRef / ArrayRef and CUDA's cuda.h types, so
// a C++ user compiles with LLVM's and CUDA's include directories and links
// libLLVM (the CMake package does both). The C API (mgp.h) needs neither.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_MGP_HPP
#define MGP_MGP_HPP

#include "runtime/Device.h"
#include "runtime/DeviceBuffer.h"
#include "runtime/Event.h"
#include "runtime/Stream.h"
#include "runtime/jit/Jit.h"

#endif // MGP_MGP_HPP
