//===- OutputFile.h - atomic writes of mgpc's output ------------*- C++ -*-===//
//
// This file declares writeFileAtomically: the output appears complete or not
// at all (temporary file in the same directory, then rename), so a failed
// compile never leaves a partial .ptx behind.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TOOLS_MGPC_OUTPUTFILE_H
#define MGP_TOOLS_MGPC_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mgp {

/// Writes `contents` to `path` ("-": stdout) atomically.
llvm::Error writeFileAtomically(llvm::StringRef path, llvm::StringRef contents);

} // namespace mgp

#endif // MGP_TOOLS_MGPC_OUTPUTFILE_H
