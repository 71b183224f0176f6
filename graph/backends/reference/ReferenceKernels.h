//===- ReferenceKernels.h - Plain C++ operators (the answer key) -*- C++
//-*-===//
//
// This file implements the operators of the reference executor on NCHW float
// tensors: convolution (with optional bias, residual and ReLU epilogue),
// BatchNorm, ReLU, add, max/average pooling, global average pooling, flatten
// and linear. Sums are accumulated in double; the work is spread over the
// batch and output channels with llvm::parallelFor.
//
//===----------------------------------------------------------------------===//

#ifndef MGP_GRAPH_REFERENCEKERNELS_H
#define MGP_GRAPH_REFERENCEKERNELS_H

#include "graph/ir/Tensor.h"

namespace mgp::graph::ref {

/// y = relu?(conv(x, w) + bias + residual); bias and residual may be null.
Tensor conv2d(const Tensor &x, const Tensor &w, const Tensor *bias,
              int64_t stride, int64_t padding, const Tensor *residual = nullptr,
              bool relu = false);
/// y = (x - mean) / sqrt(var + eps) * gamma + beta per channel (dim 1).
Tensor batchnorm(const Tensor &x, const Tensor &gamma, const Tensor &beta,
                 const Tensor &mean, const Tensor &var, double eps);
Tensor relu(const Tensor &x);
Tensor add(const Tensor &a, const Tensor &b);
/// Max pooling; padded positions never win.
Tensor maxpool2d(const Tensor &x, int64_t kernel, int64_t stride,
                 int64_t padding);
/// Average pooling counting padded zeros (PyTorch's count_include_pad).
Tensor avgpool2d(const Tensor &x, int64_t kernel, int64_t stride,
                 int64_t padding);
/// [N,C,H,W] -> [N,C,1,1].
Tensor globalAvgPool(const Tensor &x);
/// [N,...] -> [N, product of the rest].
Tensor flatten(const Tensor &x);
/// y = x w^T + bias; x [N,F], w [K,F].
Tensor linear(const Tensor &x, const Tensor &w, const Tensor *bias);

} // namespace mgp::graph::ref

#endif // MGP_GRAPH_REFERENCEKERNELS_H
