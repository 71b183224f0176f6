//===- Ops.h - The operations a graph may use -------------------*- C++ -*-===//
//
// This file implements the op schema table: for every op of the `.graph`
// language its spelling, how many operands it takes, which of its operands are
// parameters of what role, and its attributes with their kinds and defaults.
// The parser checks nodes against it and every pass asks it instead of
// hard-coding op names.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_OPS_H
#define MGP_GRAPH_OPS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mgp::graph {

enum class OpKind {
  Conv2d,
  BatchNorm,
  Relu,
  Add,
  MaxPool2d,
  AvgPool2d,
  GlobalAvgPool,
  Flatten,
  Linear,
  /// conv2d + bias [+ residual add] [+ relu [+ maxpool2d]], produced by the
  /// fusion pass; the result is the pooled tensor when pool_kernel > 0.
  FusedConv2d,
};

/// An attribute an op accepts.
struct AttrSchema {
  const char *name;
  bool isFloat;
  bool required;
  double defaultValue; ///< Used when not required and not written.
  double minValue;     ///< Smallest legal value.
  double maxValue;     ///< Largest legal value.
};

/// What an op looks like in the text and what it accepts.
struct OpSchema {
  OpKind kind;
  const char *name;
  unsigned minOperands;
  unsigned maxOperands;
  const char *operandNames; ///< Comma-separated, for messages and docs.
  llvm::ArrayRef<AttrSchema> attrs;
};

/// The schema of `kind`.
const OpSchema &getOpSchema(OpKind kind);
/// The op spelled `name`, if any.
std::optional<OpKind> lookupOp(llvm::StringRef name);
/// The attribute `name` of `schema`, or nullptr.
const AttrSchema *findAttr(const OpSchema &schema, llvm::StringRef name);
/// All op schemas in a stable order.
llvm::ArrayRef<OpSchema> allOpSchemas();

} // namespace mgp::graph

#endif // MGP_GRAPH_OPS_H
