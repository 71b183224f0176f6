//===- CpuBackend.cpp - The `cpu` device: mgp kernels on the interpreter --===//
//
// This file implements the interpreter backend. prepare() optionally folds and
// fuses the graph, plans the launches (graph/ModelPlan.h), compiles every
// distinct specialization once (printing progress), and binds the weights;
// run() allocates each activation when its node runs, launches the kernel over
// its grid on the interpreter, and frees activations after their last use.
// Kernels come from getCompiledKernel (runtime/jit/KernelCompiler.h), as the
// gpu backend's do, compiled for the interpreter.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/cpu/CpuBackend.h"

#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/FuseEpilogue.h"
#include "graph/KernelLaunch.h"
#include "graph/LaunchRequest.h"
#include "graph/ModelPlan.h"
#include "graph/passes/NhwcLayout.h"
#include "graph/ir/StorageTypes.h"

#include "runtime/interp/Interpreter.h"
#include "runtime/jit/KernelCompiler.h"

#include <climits>
#include <memory>

using namespace mgp;
using namespace mgp::graph;

namespace {
class CpuBackend : public Backend {
public:
  CpuBackend(const BackendOptions &options, bool optimizeGraph, int numSMs)
      : options(options), optimizeGraph(optimizeGraph), numSMs(numSMs) {}

  llvm::StringRef name() const override { return "cpu"; }
  llvm::Error prepare(const Graph &graph, const WeightMap &weights) override;
  llvm::Expected<std::vector<Tensor>>
  run(llvm::ArrayRef<Tensor> inputs) override;
  const ModelPlan *plan() const override { return &modelPlan; }

private:
  BackendOptions options;
  bool optimizeGraph;
  int numSMs;
  Model model;
  ModelPlan modelPlan; ///< the launches; the types by value: fp32, or fp16/bf16
  std::vector<bool> nhwc; ///< by value: stored NHWC
  /// The parameters' buffers, converted once (by value index).
  std::vector<std::shared_ptr<HostBuffer>> params;
  /// The compiled kernels by KernelLaunch::key(); each holds its
  /// interpreter kernel.
  llvm::StringMap<std::shared_ptr<const CompiledKernel>> kernels;
};
} // namespace

static llvm::Error backendError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Error CpuBackend::prepare(const Graph &graph, const WeightMap &weights) {
  for (int param : graph.params)
    if (!weights.count(graph.values[param].name))
      return backendError("no weights for parameter '" +
                          graph.values[param].name + "'");
  if (optimizeGraph) {
    model = foldBatchNorm(graph, weights);
    model.graph =
        fuseEpilogues(model.graph, kernelFuseOptions(options.precision));
  } else {
    model = Model{graph, weights};
  }
  repackConvWeights(model);
  nhwc = planNhwcValues(model.graph);
  // The plan --info prints for --device cpu (graph/ModelPlan.h).
  PlanOptions planOptions;
  planOptions.precision = options.precision;
  planOptions.numSMs = numSMs;
  auto planned = planModel(model.graph, planOptions);
  if (!planned)
    return planned.takeError();
  modelPlan = std::move(*planned);
  // fp16/bf16: activations and weights in the 16-bit type (StorageTypes.h),
  // the weights converted here, once.
  params.assign(model.graph.values.size(), nullptr);
  for (int param : model.graph.params) {
    Tensor &weight = model.weights.find(model.graph.values[param].name)->second;
    auto buffer = std::make_shared<HostBuffer>();
    if (modelPlan.types[param] == DType::F32)
      buffer->f32 = std::move(weight.data); // kernels only read parameters
    else
      *buffer = HostBuffer::fromF32(weight.data, modelPlan.types[param]);
    params[param] = std::move(buffer);
  }

  std::vector<const KernelLaunch *> distinct;
  llvm::StringMap<bool> seen;
  for (const KernelLaunch &launch : modelPlan.launches)
    if (launch.aliasOf < 0 && seen.try_emplace(launch.key(), true).second)
      distinct.push_back(&launch);
  // A progress line on a terminal; a log gets the summary only.
  llvm::raw_ostream *progress =
      options.progress && options.progress->is_displayed() ? options.progress
                                                           : nullptr;
  for (size_t i = 0; i < distinct.size(); ++i) {
    const KernelLaunch &launch = *distinct[i];
    if (progress)
      *progress << "\rcompiling " << (i + 1) << "/" << distinct.size()
                << " kernels (" << launch.kernel << ")" << std::string(16, ' ');
    // The same request the gpu backend makes, for the interpreter ("cpu").
    auto request = getLaunchRequest(launch, Target::cpu());
    if (!request)
      return request.takeError();
    auto kernel = getCompiledKernel(*request);
    if (!kernel)
      return kernel.takeError();
    kernels[launch.key()] = std::move(*kernel);
  }
  if (options.progress && !distinct.empty())
    *options.progress << (progress ? "\r" : "") << "cpu: compiled "
                      << distinct.size() << " kernel specializations"
                      << (progress ? std::string(40, ' ') : "") << "\n";
  return llvm::Error::success();
}

llvm::Expected<std::vector<Tensor>>
CpuBackend::run(llvm::ArrayRef<Tensor> inputs) {
  const Graph &graph = model.graph;
  if (llvm::Error e = checkInputCount(graph, inputs))
    return std::move(e);
  // One buffer per value; aliases (flatten) share their operand's storage.
  using Buffer = std::shared_ptr<HostBuffer>;
  std::vector<Buffer> buffers(graph.values.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Value &input = graph.values[graph.inputs[i]];
    if (inputs[i].shape != input.shape)
      return backendError("input '" + input.name + "' has shape " +
                          formatShape(inputs[i].shape) + ", expected " +
                          formatShape(input.shape));
    buffers[graph.inputs[i]] = std::make_shared<HostBuffer>(
        HostBuffer::fromF32(inputs[i].data, modelPlan.types[graph.inputs[i]]));
  }
  for (int param : graph.params)
    buffers[param] = params[param];

  InterpOptions interpOptions;
  // tf32 dots round their inputs as the tensor cores do: the tf32 mode's,
  // and the three products of fp32's tf32x3 dots.
  interpOptions.emulateTF32 = options.precision == Precision::TF32 ||
                              options.precision == Precision::FP32;
  std::vector<int> remaining = graph.useCounts();
  // Split-K partial sums, shared by the launches of one node.
  std::vector<float> workspace;
  for (const KernelLaunch &launch : modelPlan.launches) {
    const Node &node = graph.nodes[launch.node];
    if (launch.aliasOf >= 0) {
      buffers[node.result] = buffers[launch.aliasOf];
    } else {
      if (!buffers[node.result])
        buffers[node.result] = std::make_shared<HostBuffer>(
            modelPlan.types[node.result],
            numElements(graph.values[node.result].shape));
      if (launch.workspace > int64_t(workspace.size()))
        workspace.resize(launch.workspace);
      std::vector<InterpArg> args;
      for (const LaunchParam &p : launch.params) {
        switch (p.kind) {
        case LaunchParam::Kind::Workspace:
          // fp32 elements; a 16-bit workspace uses the first half.
          args.push_back(
              InterpArg::buffer(static_cast<void *>(workspace.data()),
                                workspace.size() * sizeof(float), p.type));
          break;
        case LaunchParam::Kind::Buffer: {
          HostBuffer &data = *buffers[p.value];
          args.push_back(InterpArg::buffer(
              data.data(), data.size() * dtypeBytes(data.type), data.type));
          break;
        }
        case LaunchParam::Kind::Int:
          args.push_back(InterpArg::integer(p.intValue));
          break;
        case LaunchParam::Kind::Float:
          args.push_back(InterpArg::floating(p.floatValue));
          break;
        case LaunchParam::Kind::Constexpr:
          break;
        }
      }
      // planLaunches keeps every tensor, hence every grid, below 2^31.
      assert(launch.grid[0] <= INT_MAX && "grid too large");
      std::array<int, 3> grid = {int(launch.grid[0]), int(launch.grid[1]),
                                 int(launch.grid[2])};
      const InterpKernel &kernel = *kernels.find(launch.key())->second->interp;
      if (llvm::Error e = kernel.run(grid, args, interpOptions))
        return backendError("node '" + graph.values[node.result].name + "' (" +
                            launch.kernel +
                            "): " + llvm::toString(std::move(e)));
    }
    if (!launch.lastOfNode)
      continue;
    for (int operand : node.operands)
      if (--remaining[operand] == 0 &&
          graph.values[operand].kind == ValueKind::Node)
        buffers[operand].reset();
  }
  std::vector<Tensor> outputs;
  for (int output : graph.outputs) {
    Tensor tensor;
    tensor.shape = graph.values[output].shape;
    tensor.data = buffers[output]->toF32(); // fp16/bf16 logits widen
    if (nhwc[output])
      nhwcToNchw(tensor);
    outputs.push_back(std::move(tensor));
  }
  return std::move(outputs);
}

std::unique_ptr<Backend>
mgp::graph::createCpuBackend(const BackendOptions &options, bool optimizeGraph,
                             int numSMs) {
  return std::make_unique<CpuBackend>(options, optimizeGraph, numSMs);
}

void mgp::graph::registerCpuBackend() {
  registerBackend("cpu",
                  [](const BackendOptions &options)
                      -> llvm::Expected<std::unique_ptr<Backend>> {
                    return createCpuBackend(options);
                  });
}
