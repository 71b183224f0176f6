//===- Ops.cpp - The operations a graph may use ---------------------------===//
//
// This file implements the op schema table of the `.graph` language.
//
//===----------------------------------------------------------------------===//

#include "graph/ir/Ops.h"

#include "llvm/Support/ErrorHandling.h"

using namespace mgp::graph;

namespace {
// stride and padding of convolutions; kernel 0 means "same as kernel" for
// pooling strides, resolved by the parser.
const AttrSchema convAttrs[] = {
    {"stride", false, false, 1, 1, 1e9},
    {"padding", false, false, 0, 0, 1e9},
};
const AttrSchema bnAttrs[] = {{"eps", true, false, 1e-5, 0, 1}};
const AttrSchema poolAttrs[] = {
    {"kernel", false, true, 0, 1, 1e9},
    {"stride", false, false, 0, 1, 1e9},
    {"padding", false, false, 0, 0, 1e9},
};
const AttrSchema fusedAttrs[] = {
    {"stride", false, false, 1, 1, 1e9},
    {"padding", false, false, 0, 0, 1e9},
    {"relu", false, false, 0, 0, 1},
    // A max pooling of the ReLU's result fused in (the pass's stem rule;
    // 0: none): its kernel, stride and padding.
    {"pool_kernel", false, false, 0, 0, 1e9},
    {"pool_stride", false, false, 0, 0, 1e9},
    {"pool_padding", false, false, 0, 0, 1e9},
};

const OpSchema schemas[] = {
    {OpKind::Conv2d, "conv2d", 2, 3, "input, weight, bias", convAttrs},
    {OpKind::BatchNorm, "batchnorm", 5, 5,
     "input, weight, bias, running_mean, running_var", bnAttrs},
    {OpKind::Relu, "relu", 1, 1, "input", {}},
    {OpKind::Add, "add", 2, 2, "lhs, rhs", {}},
    {OpKind::MaxPool2d, "maxpool2d", 1, 1, "input", poolAttrs},
    {OpKind::AvgPool2d, "avgpool2d", 1, 1, "input", poolAttrs},
    {OpKind::GlobalAvgPool, "global_avgpool", 1, 1, "input", {}},
    {OpKind::Flatten, "flatten", 1, 1, "input", {}},
    {OpKind::Linear, "linear", 2, 3, "input, weight, bias", {}},
    {OpKind::FusedConv2d, "fused_conv2d", 3, 4, "input, weight, bias, residual",
     fusedAttrs},
};
} // namespace

const OpSchema &mgp::graph::getOpSchema(OpKind kind) {
  for (const OpSchema &schema : schemas)
    if (schema.kind == kind)
      return schema;
  llvm_unreachable("op without a schema");
}

std::optional<OpKind> mgp::graph::lookupOp(llvm::StringRef name) {
  for (const OpSchema &schema : schemas)
    if (name == schema.name)
      return schema.kind;
  return std::nullopt;
}

const AttrSchema *mgp::graph::findAttr(const OpSchema &schema,
                                       llvm::StringRef name) {
  for (const AttrSchema &attr : schema.attrs)
    if (name == attr.name)
      return &attr;
  return nullptr;
}

llvm::ArrayRef<OpSchema> mgp::graph::allOpSchemas() { return schemas; }
