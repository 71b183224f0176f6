//===- ArgBinding.h - launch arguments to interpreter values ----*- C++ -*-===//
//
// This file implements the check of interpreter launch arguments against a
// compiled kernel's parameters and their conversion into the initial values
// of the parameter slots and the launch's valid memory ranges.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_RUNTIME_INTERP_ARGBINDING_H
#define MGP_RUNTIME_INTERP_ARGBINDING_H

#include "runtime/interp/InterpProgram.h"

namespace mgp::interp {

/// Checks \p args against \p program's parameters (count; pointer with the
/// parameter's element type, as a host pointer; integer within the
/// parameter's width; float for a float parameter) and returns one value per
/// parameter. Fills \p memory with the pointer buffers and
/// \p options.extraRanges, sorted. Every mismatch is reported, one per line.
llvm::Expected<std::vector<Buf>> bindArguments(const InterpProgram &program,
                                               llvm::ArrayRef<InterpArg> args,
                                               const InterpOptions &options,
                                               MemoryMap &memory);

} // namespace mgp::interp

#endif // MGP_RUNTIME_INTERP_ARGBINDING_H
