//===- ReferenceKernels.cpp - Plain C++ operators (the answer key) --------===//
//
// This file implements the reference operators. The convolution walks, for
// each (image, output channel), every (input channel, kernel row, kernel
// column) and adds a scaled input row into a double accumulator plane: simple
// enough to trust, contiguous enough to vectorise.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/reference/ReferenceKernels.h"

#include "llvm/Support/Parallel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace mgp::graph;

static int64_t ceilDiv(int64_t a, int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

Tensor ref::conv2d(const Tensor &x, const Tensor &w, const Tensor *bias,
                   int64_t stride, int64_t padding, const Tensor *residual,
                   bool relu) {
  const int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], wd = x.shape[3];
  const int64_t k = w.shape[0], r = w.shape[2], s = w.shape[3];
  assert(w.shape[1] == c && "channel mismatch");
  const int64_t oh = (h + 2 * padding - r) / stride + 1;
  const int64_t ow = (wd + 2 * padding - s) / stride + 1;
  Tensor y(Shape{n, k, oh, ow});
  llvm::parallelFor(0, size_t(n * k), [&](size_t task) {
    int64_t img = int64_t(task) / k, oc = int64_t(task) % k;
    std::vector<double> acc(oh * ow, bias ? double(bias->data[oc]) : 0.0);
    for (int64_t ic = 0; ic < c; ++ic) {
      const float *plane = x.data.data() + (img * c + ic) * h * wd;
      const float *kernel = w.data.data() + (oc * c + ic) * r * s;
      for (int64_t kr = 0; kr < r; ++kr) {
        for (int64_t ks = 0; ks < s; ++ks) {
          double wv = kernel[kr * s + ks];
          // Output columns whose input column is inside the image.
          int64_t lo = std::max<int64_t>(0, ceilDiv(padding - ks, stride));
          int64_t hi =
              std::min<int64_t>(ow, (wd - 1 + padding - ks) / stride + 1);
          if (wd - 1 + padding - ks < 0)
            hi = 0;
          for (int64_t orow = 0; orow < oh; ++orow) {
            int64_t irow = orow * stride - padding + kr;
            if (irow < 0 || irow >= h)
              continue;
            const float *in = plane + irow * wd - padding + ks;
            double *out = acc.data() + orow * ow;
            if (stride == 1) {
              for (int64_t col = lo; col < hi; ++col)
                out[col] += wv * double(in[col]);
            } else {
              for (int64_t col = lo; col < hi; ++col)
                out[col] += wv * double(in[col * stride]);
            }
          }
        }
      }
    }
    float *dst = y.data.data() + task * oh * ow;
    const float *res =
        residual ? residual->data.data() + task * oh * ow : nullptr;
    for (int64_t i = 0; i < oh * ow; ++i) {
      double v = acc[i] + (res ? double(res[i]) : 0.0);
      dst[i] = float(relu && v < 0 ? 0.0 : v);
    }
  });
  return y;
}

Tensor ref::batchnorm(const Tensor &x, const Tensor &gamma, const Tensor &beta,
                      const Tensor &mean, const Tensor &var, double eps) {
  Tensor y(x.shape);
  int64_t n = x.shape[0], c = x.shape[1];
  int64_t inner = x.size() / (n * c);
  llvm::parallelFor(0, size_t(n * c), [&](size_t task) {
    int64_t ch = int64_t(task) % c;
    double scale =
        double(gamma.data[ch]) / std::sqrt(double(var.data[ch]) + eps);
    double m = mean.data[ch], b = beta.data[ch];
    for (int64_t i = task * inner; i < int64_t(task + 1) * inner; ++i)
      y.data[i] = float((double(x.data[i]) - m) * scale + b);
  });
  return y;
}

Tensor ref::relu(const Tensor &x) {
  Tensor y(x.shape);
  for (int64_t i = 0; i < x.size(); ++i)
    y.data[i] = x.data[i] > 0 ? x.data[i] : 0.0f;
  return y;
}

Tensor ref::add(const Tensor &a, const Tensor &b) {
  assert(a.shape == b.shape && "add of different shapes");
  Tensor y(a.shape);
  for (int64_t i = 0; i < a.size(); ++i)
    y.data[i] = float(double(a.data[i]) + double(b.data[i]));
  return y;
}

/// Shared loop of the two poolings.
template <typename Reduce>
static Tensor pool(const Tensor &x, int64_t kernel, int64_t stride,
                   int64_t padding, Reduce reduce) {
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  int64_t oh = (h + 2 * padding - kernel) / stride + 1;
  int64_t ow = (w + 2 * padding - kernel) / stride + 1;
  Tensor y(Shape{n, c, oh, ow});
  llvm::parallelFor(0, size_t(n * c), [&](size_t task) {
    const float *plane = x.data.data() + task * h * w;
    float *out = y.data.data() + task * oh * ow;
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j)
        out[i * ow + j] =
            reduce(plane, i * stride - padding, j * stride - padding, h, w);
  });
  return y;
}

Tensor ref::maxpool2d(const Tensor &x, int64_t kernel, int64_t stride,
                      int64_t padding) {
  return pool(
      x, kernel, stride, padding,
      [&](const float *plane, int64_t y0, int64_t x0, int64_t h, int64_t w) {
        float best = -std::numeric_limits<float>::infinity();
        for (int64_t yy = std::max<int64_t>(y0, 0);
             yy < std::min(y0 + kernel, h); ++yy)
          for (int64_t xx = std::max<int64_t>(x0, 0);
               xx < std::min(x0 + kernel, w); ++xx)
            best = std::max(best, plane[yy * w + xx]);
        return best;
      });
}

Tensor ref::avgpool2d(const Tensor &x, int64_t kernel, int64_t stride,
                      int64_t padding) {
  return pool(
      x, kernel, stride, padding,
      [&](const float *plane, int64_t y0, int64_t x0, int64_t h, int64_t w) {
        double sum = 0;
        for (int64_t yy = std::max<int64_t>(y0, 0);
             yy < std::min(y0 + kernel, h); ++yy)
          for (int64_t xx = std::max<int64_t>(x0, 0);
               xx < std::min(x0 + kernel, w); ++xx)
            sum += plane[yy * w + xx];
        return float(sum / double(kernel * kernel));
      });
}

Tensor ref::globalAvgPool(const Tensor &x) {
  int64_t n = x.shape[0], c = x.shape[1], hw = x.shape[2] * x.shape[3];
  Tensor y(Shape{n, c, 1, 1});
  for (int64_t i = 0; i < n * c; ++i) {
    double sum = 0;
    for (int64_t j = 0; j < hw; ++j)
      sum += x.data[i * hw + j];
    y.data[i] = float(sum / double(hw));
  }
  return y;
}

Tensor ref::flatten(const Tensor &x) {
  Tensor y = x;
  y.shape = {x.shape[0], x.size() / x.shape[0]};
  return y;
}

Tensor ref::linear(const Tensor &x, const Tensor &w, const Tensor *bias) {
  int64_t n = x.shape[0], f = x.shape[1], k = w.shape[0];
  assert(w.shape[1] == f && "feature mismatch");
  Tensor y(Shape{n, k});
  llvm::parallelFor(0, size_t(n * k), [&](size_t task) {
    int64_t img = int64_t(task) / k, out = int64_t(task) % k;
    double sum = bias ? double(bias->data[out]) : 0.0;
    const float *xi = x.data.data() + img * f, *wo = w.data.data() + out * f;
    for (int64_t i = 0; i < f; ++i)
      sum += double(xi[i]) * double(wo[i]);
    y.data[task] = float(sum);
  });
  return y;
}
