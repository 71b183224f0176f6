//===- InputBatch.cpp - The batch mgp-run feeds the model -----------------===//
//
// This file implements input loading and dimension binding for mgp-run.
//
//===----------------------------------------------------------------------===//

#include "tools/mgp-run/InputBatch.h"

#include "graph/io/ImageInput.h"
#include "graph/io/Npy.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mgp;
using namespace mgp::graph;
using llvm::Error;

template <typename... Ts> static Error inputError(const char *fmt, Ts... args) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 llvm::formatv(fmt, args...).str());
}

/// The largest --size side: far beyond any model, small enough that sizes
/// never overflow.
static constexpr int64_t kMaxSize = 16384;

llvm::Expected<std::pair<int64_t, int64_t>>
run::parseSize(llvm::StringRef text) {
  auto [hText, wText] = text.split('x');
  if (!text.contains('x'))
    wText = hText;
  int64_t h = 0, w = 0;
  if (hText.getAsInteger(10, h) || wText.getAsInteger(10, w) || h < 1 ||
      w < 1 || h > kMaxSize || w > kMaxSize)
    return inputError("invalid --size '{0}' (expected H or HxW, e.g. 224 or "
                      "64x96, each from 1 to {1})",
                      text, kMaxSize);
  return std::make_pair(h, w);
}

/// Binds the symbol of input dimension `dim` to `size`, or checks a fixed one.
static Error bindInputDim(const Value &input, size_t dim, int64_t size,
                          const char *what, DimBindings &bindings) {
  const DimRef &ref = input.declShape[dim];
  if (ref.symbol.empty()) {
    if (ref.value != size)
      return inputError("{0} is {1}, but the graph's input '{2}' fixes "
                        "dimension {3} at {4}",
                        what, size, input.name, dim, ref.value);
    return Error::success();
  }
  auto [it, inserted] = bindings.try_emplace(ref.symbol, size);
  if (!inserted && it->second != size)
    return inputError("{0} is {1}, but {2} = {3} was set before", what, size,
                      ref.symbol, it->second);
  return Error::success();
}

static llvm::Expected<Tensor> loadFiles(const std::vector<std::string> &files,
                                        int64_t cropH, int64_t cropW) {
  if (files.size() == 1 && llvm::StringRef(files[0]).ends_with(".npy")) {
    auto tensor = readNpyFloat32(files[0]);
    if (!tensor)
      return tensor.takeError();
    if (tensor->shape.size() != 4)
      return inputError("{0}: the input must be NCHW (rank 4), got shape {1}",
                        files[0], formatShape(tensor->shape));
    return tensor;
  }
  for (const std::string &file : files)
    if (llvm::StringRef(file).ends_with(".npy"))
      return inputError("{0}: a .npy input must be the only --input", file);
  Tensor batch(Shape{int64_t(files.size()), 3, cropH, cropW});
  for (size_t i = 0; i < files.size(); ++i) {
    auto image = loadImage(files[i], cropH, cropW);
    if (!image)
      return image.takeError();
    std::copy(image->data.begin(), image->data.end(),
              batch.data.begin() + i * image->size());
  }
  return batch;
}

llvm::Expected<std::optional<Tensor>>
run::loadInputs(const Graph &graph, const InputRequest &request,
                DimBindings &bindings) {
  if (graph.inputs.size() != 1)
    return inputError("mgp-run needs a graph with exactly one input, this one "
                      "has {0}",
                      graph.inputs.size());
  const Value &input = graph.values[graph.inputs[0]];
  if (input.declShape.size() != 4)
    return inputError("input '{0}' must be declared NCHW (rank 4)", input.name);
  if (request.batch)
    if (Error e = bindInputDim(input, 0, *request.batch, "--batch", bindings))
      return std::move(e);
  if (request.size) {
    if (Error e = bindInputDim(input, 2, request.size->first, "--size height",
                               bindings))
      return std::move(e);
    if (Error e = bindInputDim(input, 3, request.size->second, "--size width",
                               bindings))
      return std::move(e);
  }
  if (request.files.empty())
    return std::nullopt;
  int64_t cropH = request.size ? request.size->first : 224;
  int64_t cropW = request.size ? request.size->second : 224;
  auto batch = loadFiles(request.files, cropH, cropW);
  if (!batch)
    return batch.takeError();
  static const char *names[] = {"the input batch", "the input channels",
                                "the input height", "the input width"};
  for (size_t d = 0; d < 4; ++d)
    if (Error e = bindInputDim(input, d, batch->shape[d], names[d], bindings))
      return std::move(e);
  return std::optional<Tensor>(std::move(*batch));
}
