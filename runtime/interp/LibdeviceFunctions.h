//===- LibdeviceFunctions.h - libdevice functions on the host ---*- C++ -*-===//
//
// This file declares the host implementations of the libdevice functions the
// interpreter runs for mgp.extern_elementwise, looked up by symbol
// (`__nv_tanhf`). Arguments and results are LibValues: a float argument in
// `f` (a double holding the f32/f64 value), an integer in `i` (sign-extended);
// the caller rounds a float result to its type and wraps an integer one.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_INTERP_LIBDEVICEFUNCTIONS_H
#define MGP_RUNTIME_INTERP_LIBDEVICEFUNCTIONS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mgp::interp {

/// One argument or result of a libdevice function.
struct LibValue {
  double f = 0;
  int64_t i = 0;
};

using LibdeviceFn = LibValue (*)(const LibValue *args);

/// The host implementation of libdevice function \p symbol, or null.
LibdeviceFn lookupLibdeviceFunction(llvm::StringRef symbol);

} // namespace mgp::interp

#endif // MGP_RUNTIME_INTERP_LIBDEVICEFUNCTIONS_H
