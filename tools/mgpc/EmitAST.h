//===- EmitAST.h - mgpc's source input and -emit=ast ------------*- C++ -*-===//
//
// This file implements the interface of mgpc's `-emit=ast` path: read a
// .mgp/.py file, parse it and write the AST dump.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TOOLS_MGPC_EMITAST_H
#define MGP_TOOLS_MGPC_EMITAST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mgp {

/// Parses `inputFilename` ("-" for stdin) and writes its AST dump to
/// `outputFilename` ("-" for stdout). Syntax errors come back formatted.
llvm::Error emitAST(llvm::StringRef inputFilename,
                    llvm::StringRef outputFilename);

} // namespace mgp

#endif // MGP_TOOLS_MGPC_EMITAST_H
