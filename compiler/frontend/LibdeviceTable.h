//===- LibdeviceTable.h - the functions of Triton's libdevice ---*- C++ -*-===//
//
// This file declares the table of the functions that
// `triton.language.extra.libdevice` (and `tl.extra.cuda.libdevice`,
// `tl.math`) offers: for each name its overloads, each an argument type list,
// the libdevice symbol Triton calls for it and the result type. MLIRGen
// resolves a call against it and emits mgp.extern_elementwise with the same
// symbol, so the GPU runs the very function Triton runs.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_LIBDEVICETABLE_H
#define MGP_COMPILER_FRONTEND_LIBDEVICETABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mgp {

/// One overload. Types are spelled one character per argument: `f` fp32,
/// `d` fp64, `i` int32, `l` int64, `u` uint32, `U` uint64 (unsigned types
/// are their signed counterparts in mgp, so a `u` overload that follows an
/// `i` one with the same shape is only reachable by name: tl.umulhi).
struct LibdeviceOverload {
  const char *args;
  const char *symbol;
  char result;
};

/// One function of the library.
struct LibdeviceFunction {
  const char *name;
  llvm::ArrayRef<LibdeviceOverload> overloads;
  /// The int32 result is converted to a bool (isnan, isinf), as Triton does.
  bool toBool = false;
};

/// The function called `name`, or null.
const LibdeviceFunction *lookupLibdeviceFunction(llvm::StringRef name);

/// Every function, in the order of Triton's libdevice.py.
llvm::ArrayRef<LibdeviceFunction> getLibdeviceFunctions();

/// tl.math's correctly rounded f32 functions (div_rn, sqrt_rn) call PTX's
/// exact instruction through its NVVM intrinsic, keeping denormals as
/// Triton's precise ops do, where libdevice's own `symbol` follows
/// nvvm-reflect-ftz: "__nv_fdiv_rn" -> "llvm.nvvm.div.rn.f",
/// "__nv_fsqrt_rn" -> "llvm.nvvm.sqrt.rn.f"; any other symbol is returned
/// as it is. (BuiltinsLibdevice.cpp)
llvm::StringRef exactRoundedSymbol(llvm::StringRef symbol);

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_LIBDEVICETABLE_H
