//===- MgpDialect.cpp - the mgp dialect ------------------------------------===//
//
// This file implements the mgp dialect's registration, types and operations.
//
//===----------------------------------------------------------------------===//
#include "compiler/ir/MgpDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mgp;

#include "compiler/ir/MgpDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/ir/MgpTypes.cpp.inc"

#define GET_OP_CLASSES
#include "compiler/ir/MgpOps.cpp.inc"

void MgpDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "compiler/ir/MgpTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "compiler/ir/MgpOps.cpp.inc"
      >();
}
