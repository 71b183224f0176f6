//===- MgpDialect.h - the mgp dialect ---------------------------*- C++ -*-===//
//
// This file declares the mgp dialect, its types and its operations.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_IR_MGPDIALECT_H
#define MGP_IR_MGPDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "compiler/ir/MgpDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "compiler/ir/MgpTypes.h.inc"

#define GET_OP_CLASSES
#include "compiler/ir/MgpOps.h.inc"

#endif // MGP_IR_MGPDIALECT_H
