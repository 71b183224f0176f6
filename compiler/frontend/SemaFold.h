//===- SemaFold.h - folding operators on compile-time numbers ---*- C++ -*-===//
//
// This file implements the declaration of constant folding for the binary
// operators of the kernel language on compile-time numbers, with Python's
// semantics (floor division and modulo round toward negative infinity, `/`
// gives a float, bools act as ints except under & | ^).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_SEMAFOLD_H
#define MGP_COMPILER_FRONTEND_SEMAFOLD_H

#include "compiler/frontend/AST.h"
#include "compiler/frontend/SemaValue.h"

#include <optional>
#include <string>

namespace mgp {

/// Folds `a op b` on two compile-time numbers; std::nullopt with `why` set
/// if the operation is invalid (division by zero, bit operations on floats).
std::optional<SemaValue> foldBinary(ast::BinaryOp op, const SemaValue &a,
                                    const SemaValue &b, std::string &why);

} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_SEMAFOLD_H
