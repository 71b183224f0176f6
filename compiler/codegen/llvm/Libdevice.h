//===- Libdevice.h - the embedded CUDA libdevice bitcode --------*- C++ -*-===//
//
// This file declares access to libdevice.10.bc, which the build embeds into
// the binary so that a portable mgp needs no CUDA toolkit where it runs.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_LIBDEVICE_H
#define MGP_CODEGEN_LLVM_LIBDEVICE_H

#include "llvm/ADT/StringRef.h"

namespace mgp {

/// The bytes of libdevice.10.bc as embedded at build time.
llvm::StringRef getLibdeviceBitcode();

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_LIBDEVICE_H
