//===- Prelude.h - builtins written in the kernel language ------*- C++ -*-===//
//
// This file declares the prelude (Prelude.cpp): the source of the builtins
// written in mgp's own kernel language (Philox random numbers, softmax).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_PRELUDE_H
#define MGP_COMPILER_FRONTEND_PRELUDE_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mgp {

/// The prelude's source text (a .py module of @jit functions).
llvm::StringRef getPreludeSource();

/// True if `name` is a builtin that the prelude defines.
bool isPreludeFunction(llvm::StringRef name);

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_PRELUDE_H
