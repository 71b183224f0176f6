//===- KernelsTest.cpp - kernels_dsl kernels on the interpreter -----------===//
//
// This file implements the tests of the kernels_dsl kernels and their launch
// rules: one-node graphs (every op, edge sizes that are not multiples of the
// blocks, every convolution path, strides, paddings, fused epilogues) run on
// the `cpu` backend without graph passes and are compared with the reference
// executor on random non-zero data; the launch plan of ResNet18; and the
// user-facing errors of the backend.
//
//===----------------------------------------------------------------------===//

#include "graph/backends/cpu/CpuBackend.h"
#include "graph/passes/FoldBatchNorm.h"
#include "graph/passes/FuseEpilogue.h"
#include "graph/ir/GraphParser.h"
#include "graph/KernelLaunch.h"
#include "graph/KernelSources.h"
#include "graph/ModelPlan.h"
#include "graph/LaunchRequest.h"
#include "graph/passes/ShapeInference.h"
#include "graph/io/WeightInit.h"

#include "runtime/jit/KernelCompiler.h"

#include "ModelTestSupport.h"

#include "gtest/gtest.h"

#include <cmath>
#include <map>
#include <random>

using namespace mgp;
using namespace mgp::graph;
using namespace mgp::graph::modeltest;

namespace {

/// Runs `text` on the reference executor and on the cpu backend (as
/// written, or folded and fused with `optimize`); returns the relative error.
double compareGraph(const Graph &graph, Precision precision, bool optimize,
                    uint64_t seed = 1) {
  WeightMap weights = initWeights(graph, seed);
  Tensor x = randomNormalTensor(graph.values[graph.inputs[0]].shape, seed);
  BackendOptions refOptions;
  auto reference = createReferenceBackend(refOptions);
  EXPECT_FALSE(bool(reference->prepare(graph, weights)));
  auto want = reference->run(x);
  EXPECT_TRUE(bool(want));
  BackendOptions options;
  options.precision = precision;
  auto cpu = createCpuBackend(options, optimize);
  auto got = prepareAndRun(*cpu, graph, weights, x);
  return got ? relativeError(got->front(), want->front()) : INFINITY;
}

double compareWithReference(llvm::StringRef text, Precision precision) {
  return compareGraph(parse(text), precision, /*optimize=*/false);
}

struct OpCase {
  const char *name;
  const char *graph;
};

class KernelTest : public ::testing::TestWithParam<OpCase> {};

TEST_P(KernelTest, MatchesReferenceFP32) {
  EXPECT_LT(compareWithReference(GetParam().graph, Precision::FP32), 1e-5);
}

TEST_P(KernelTest, MatchesReferenceTF32) {
  EXPECT_LT(compareWithReference(GetParam().graph, Precision::TF32), 5e-3);
}

// fp16/bf16: the input, activations and conv/linear weights stored 16-bit
// (graph/ir/StorageTypes.h), fp32 accumulation; fp16's 11 significant bits
// give about 1e-3, bf16's 8 bits about 8x that.
TEST_P(KernelTest, MatchesReferenceFP16) {
  EXPECT_LT(compareWithReference(GetParam().graph, Precision::FP16), 1e-2);
}

TEST_P(KernelTest, MatchesReferenceBF16) {
  EXPECT_LT(compareWithReference(GetParam().graph, Precision::BF16), 2e-2);
}

TEST(KernelPrecisionTest, TF32RoundsDotInputs) {
  // tf32 keeps 10 mantissa bits: its error is far above fp32's (three tf32
  // products per dot, 3xTF32: fp32 accuracy, about 2e-7 of max |y|).
  const char *conv = "input x: f32[2, 40, 13, 10]\nparam w: f32[70, 40, 3, 3]\n"
                     "y = conv2d(x, w, stride=1, padding=1)\noutput y";
  double fp32 = compareWithReference(conv, Precision::FP32);
  double tf32 = compareWithReference(conv, Precision::TF32);
  EXPECT_LT(fp32, 1e-6);
  EXPECT_GT(tf32, 1e-5);
  EXPECT_GT(tf32, 10 * fp32);
}

const OpCase kCases[] = {
    {"conv_general_7x7_s2",
     "input x: f32[2, 3, 19, 23]\nparam w: f32[20, 3, 7, 7]\n"
     "param b: f32[20]\ny = conv2d(x, w, b, stride=2, padding=3)\noutput y"},
    {"conv_general_5x5_nobias",
     "input x: f32[1, 6, 9, 8]\nparam w: f32[17, 6, 5, 5]\n"
     "y = conv2d(x, w, stride=1, padding=2)\noutput y"},
    {"conv_3x3_s1",
     "input x: f32[2, 5, 9, 11]\nparam w: f32[7, 5, 3, 3]\n"
     "param b: f32[7]\ny = conv2d(x, w, b, stride=1, padding=1)\noutput y"},
    {"conv_3x3_s2_two_chunks",
     "input x: f32[2, 40, 13, 10]\nparam w: f32[70, 40, 3, 3]\n"
     "param b: f32[70]\ny = conv2d(x, w, b, stride=2, padding=1)\noutput y"},
    {"conv_3x3_nopad", "input x: f32[1, 16, 6, 7]\nparam w: f32[16, 16, 3, 3]\n"
                       "y = conv2d(x, w, stride=1, padding=0)\noutput y"},
    {"conv_1x1_s2",
     "input x: f32[2, 40, 9, 9]\nparam w: f32[24, 40, 1, 1]\n"
     "param b: f32[24]\ny = conv2d(x, w, b, stride=2)\noutput y"},
    {"fused_3x3_residual_relu",
     "input x: f32[2, 33, 7, 7]\nparam w: f32[20, 33, 3, 3]\n"
     "param b: f32[20]\nparam w2: f32[20, 33, 1, 1]\n"
     "r = conv2d(x, w2)\n"
     "y = fused_conv2d(x, w, b, r, stride=1, padding=1, relu=1)\noutput y"},
    {"fused_1x1_relu",
     "input x: f32[1, 18, 5, 6]\nparam w: f32[9, 18, 1, 1]\n"
     "param b: f32[9]\ny = fused_conv2d(x, w, b, stride=1, padding=0, "
     "relu=1)\noutput y"},
    {"fused_general_residual",
     "input x: f32[2, 4, 8, 8]\nparam w: f32[4, 4, 5, 5]\n"
     "param b: f32[4]\ny = fused_conv2d(x, w, b, x, stride=1, padding=2, "
     "relu=0)\noutput y"},
    {"batchnorm", "input x: f32[2, 6, 5, 7]\nparam g: f32[6]\nparam b: f32[6]\n"
                  "param m: f32[6]\nparam v: f32[6]\n"
                  "y = batchnorm(x, g, b, m, v, eps=0.001)\noutput y"},
    {"relu", "input x: f32[3, 7, 11, 13]\ny = relu(x)\noutput y"},
    {"relu_add", "input x: f32[3, 7, 11, 13]\nparam p: f32[3, 7, 11, 13]\n"
                 "a = add(x, p)\ny = relu(a)\noutput y"},
    {"maxpool_3_s2_p1",
     "input x: f32[2, 5, 15, 12]\n"
     "y = maxpool2d(x, kernel=3, stride=2, padding=1)\noutput y"},
    {"avgpool_3_s2_p1",
     "input x: f32[2, 5, 15, 12]\n"
     "y = avgpool2d(x, kernel=3, stride=2, padding=1)\noutput y"},
    {"avgpool_2",
     "input x: f32[1, 3, 8, 9]\ny = avgpool2d(x, kernel=2)\noutput y"},
    {"global_avgpool_flatten_linear",
     "input x: f32[3, 40, 5, 6]\nparam w: f32[37, 40]\nparam b: f32[37]\n"
     "g = global_avgpool(x)\nf = flatten(g)\n"
     "y = linear(f, w, b)\noutput y"},
    {"linear_nobias", "input x: f32[5, 70, 1, 1]\nparam w: f32[20, 70]\n"
                      "f = flatten(x)\ny = linear(f, w)\noutput y"},
};

INSTANTIATE_TEST_SUITE_P(Ops, KernelTest, ::testing::ValuesIn(kCases),
                         [](const auto &info) {
                           return std::string(info.param.name);
                         });

/// ResNet18 at `batch` x 3 x `size` x `size`, BatchNorm folded (seeded
/// weights) and epilogues fused: the graph the kernel backends plan.
static Graph fusedResNet18(int64_t batch, int64_t size) {
  Graph graph = resnet18(batch, size);
  return fuseEpilogues(foldBatchNorm(graph, initWeights(graph, 0)).graph);
}

TEST(KernelLaunchTest, ResNet18Plan) {
  Graph fused = fusedResNet18(2, 224);
  auto launches = planLaunches(fused, LaunchOptions{true});
  ASSERT_TRUE(bool(launches));
  // Every node one launch, the stem two (its packing, then its GEMM).
  ASSERT_EQ(launches->size(), fused.nodes.size() + 1);
  std::map<std::string, int> byKernel;
  for (const KernelLaunch &launch : *launches)
    ++byKernel[launch.aliasOf >= 0 ? "alias" : launch.kernel];
  EXPECT_EQ(byKernel["conv_stem_pack_kernel"], 1); // the 7x7 stem
  EXPECT_EQ(byKernel["conv2d_stem_kernel"], 1);
  EXPECT_EQ(byKernel["conv2d_nhwc_gather_kernel"], 0);
  EXPECT_EQ(byKernel["conv2d_nhwc_kernel"], 19); // 16 3x3 + 3 1x1
  EXPECT_EQ(byKernel["pool2d_nhwc_kernel"], 1);
  EXPECT_EQ(byKernel["global_avgpool_nhwc_kernel"], 1);
  EXPECT_EQ(byKernel["linear_kernel"], 1);
  EXPECT_EQ(byKernel["alias"], 1);
  // The stem's packing: 64*7*8 weight rows and 2 images of 230*240 pixels
  // (224 plus 3 zero rows/columns on each side, the rows padded to a
  // multiple of 16 pixels) of 4 floats in the workspace, one row per lane in
  // blocks of 256.
  const KernelLaunch &pack = (*launches)[0];
  EXPECT_EQ(pack.kernel, "conv_stem_pack_kernel");
  EXPECT_TRUE(pack.auxiliary);
  EXPECT_FALSE(pack.lastOfNode);
  EXPECT_EQ(pack.workspace, (64 * 7 * 8 + 2 * 230 * 240) * 4);
  EXPECT_EQ(pack.grid,
            (std::array<int64_t, 3>{(3584 + 110400 + 255) / 256, 1, 1}));
  // The stem's GEMM: M = 2*112*112 output pixels in 128-row tiles, 64
  // channels; the reduction 7 rows x 8 padded taps x 4 channels in 7 chunks
  // of 32; the input copy starts after the 64*7*8*4 weight floats.
  const KernelLaunch &stem = (*launches)[1];
  EXPECT_EQ(stem.kernel, "conv2d_stem_kernel");
  EXPECT_EQ(stem.node, pack.node);
  EXPECT_EQ(stem.workspace, pack.workspace);
  EXPECT_EQ(stem.options.numWarps, 8);
  EXPECT_EQ(stem.grid, (std::array<int64_t, 3>{196, 1, 1}));
  EXPECT_EQ(stem.signature(),
            "*fp32:16,*fp32:16,*fp32:16,*fp32:16,i32:16,i32,i32:16,"
            "i32:16,i32:16,i32:16,i32,i32,i32,i32,7,7,8,2,3,14336,0,1,0,1,1,"
            "128,64,32,0");
  EXPECT_EQ(stem.specialization(),
            "R=7 S=7 SP=8 STRIDE=2 PAD=3 X_OFF=14336 RES_NCHW=0 HAS_BIAS=1 "
            "HAS_RESIDUAL=0 RELU=1 TF32=1 BLOCK_M=128 BLOCK_N=64 BLOCK_K=32 "
            "ROUND_TF32=0");
}

// divisionConstants: (x * magic) >> shift is x / d for every 31-bit x, at
// every divisor up to 4096, around every power of two and at random ones
// (against the hardware's division).
TEST(KernelLaunchTest, DivisionConstantsDivideExactly) {
  std::vector<int64_t> divisors;
  for (int64_t d = 1; d <= 4096; ++d)
    divisors.push_back(d);
  for (int bit = 12; bit < 31; ++bit)
    for (int64_t delta : {-1, 0, 1})
      divisors.push_back((int64_t(1) << bit) + delta);
  divisors.push_back(INT32_MAX);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i)
    divisors.push_back(int64_t(rng() % INT32_MAX) + 1);
  int failures = 0;
  for (int64_t d : divisors) {
    DivisionConstants c = divisionConstants(d);
    ASSERT_GE(c.shift, 31);
    ASSERT_LE(c.shift, 62);
    std::vector<uint64_t> xs = {0, 1, uint64_t(INT32_MAX),
                                uint64_t(INT32_MAX) - 1};
    for (int64_t q : {int64_t(1), int64_t(2), INT32_MAX / d - 1, INT32_MAX / d})
      for (int64_t delta : {-1, 0, 1})
        if (int64_t x = q * d + delta; x >= 0 && x <= INT32_MAX)
          xs.push_back(uint64_t(x));
    for (int i = 0; i < 64; ++i)
      xs.push_back(rng() % (uint64_t(INT32_MAX) + 1));
    for (uint64_t x : xs)
      if ((x * c.magic) >> c.shift != x / uint64_t(d) && ++failures <= 5)
        ADD_FAILURE() << x << " / " << d << ": magic " << c.magic << " shift "
                      << c.shift << " gives " << ((x * c.magic) >> c.shift);
  }
  EXPECT_EQ(failures, 0);
}

// ResNet18's 20 convolution launches pass the constants of their P*Q and Q.
TEST(KernelLaunchTest, ConvLaunchesPassDivisionConstants) {
  Graph fused = fusedResNet18(2, 224);
  auto launches = planLaunches(fused, LaunchOptions{true});
  ASSERT_TRUE(bool(launches));
  int checked = 0;
  for (const KernelLaunch &launch : *launches) {
    std::map<std::string, int64_t> ints;
    for (const LaunchParam &p : launch.params)
      if (p.kind == LaunchParam::Kind::Int)
        ints[p.name] = p.intValue;
    if (!ints.count("PQ_MAGIC"))
      continue;
    ++checked;
    DivisionConstants pq = divisionConstants(ints["P"] * ints["Q"]);
    DivisionConstants q = divisionConstants(ints["Q"]);
    EXPECT_EQ(ints["PQ_MAGIC"], int32_t(pq.magic)) << launch.kernel;
    EXPECT_EQ(ints["PQ_SHIFT"], pq.shift) << launch.kernel;
    EXPECT_EQ(ints["Q_MAGIC"], int32_t(q.magic)) << launch.kernel;
    EXPECT_EQ(ints["Q_SHIFT"], q.shift) << launch.kernel;
  }
  EXPECT_EQ(checked, 20); // the stem's GEMM and the other 19 convolutions
}

// The division constants are never specialized: at 64x64 every P*Q and Q is
// a power of two, whose magic (2^31) is divisible by 16, and some shifts
// (32, 48) too; the signature still says plain i32.
TEST(KernelLaunchTest, DivisionConstantsAreNotSpecialized) {
  auto smallLaunches = planLaunches(fusedResNet18(2, 64), LaunchOptions{true});
  ASSERT_TRUE(bool(smallLaunches));
  int plain = 0;
  for (const KernelLaunch &launch : *smallLaunches) {
    if (launch.params.empty()) // an alias (flatten): no kernel
      continue;
    llvm::SmallVector<llvm::StringRef> entries;
    std::string signature = launch.signature();
    llvm::StringRef(signature).split(entries, ',');
    ASSERT_EQ(entries.size(), launch.params.size());
    for (size_t i = 0; i < entries.size(); ++i)
      if (llvm::StringRef(launch.params[i].name).ends_with("_MAGIC") ||
          llvm::StringRef(launch.params[i].name).ends_with("_SHIFT")) {
        EXPECT_EQ(entries[i], "i32")
            << launch.kernel << " " << launch.params[i].name;
        ++plain;
      }
  }
  EXPECT_EQ(plain, 20 * 4);
}

// The plan's dot precision per --precision: every dot kernel (convolutions,
// the stem, the linear layer) gets TF32=3 (tf32x3) in fp32 on both kernel
// backends, TF32=1 in tf32/fp16/bf16, and the launches compile with the
// kernels' own choice (KernelOptions::precision TF32; IEEE would force
// every dot to exact fp32 FMA).
TEST(KernelLaunchTest, DotPrecisionPerPlanPrecision) {
  Graph fused = fusedResNet18(2, 64);
  const std::pair<Precision, const char *> cases[] = {
      {Precision::FP32, "TF32=3"},
      {Precision::TF32, "TF32=1"},
      {Precision::FP16, "TF32=1"},
      {Precision::BF16, "TF32=1"}};
  for (auto [precision, want] : cases)
    for (bool gpu : {false, true}) {
      PlanOptions options;
      options.precision = precision;
      options.gpu = gpu;
      auto plan = planModel(fused, options);
      ASSERT_TRUE(bool(plan)) << llvm::toString(plan.takeError());
      int dots = 0;
      for (const KernelLaunch &launch : plan->launches) {
        EXPECT_EQ(launch.options.precision, DotPrecision::TF32);
        std::string spec = " " + launch.specialization() + " ";
        if (spec.find(" TF32=") == std::string::npos)
          continue;
        ++dots;
        EXPECT_NE(spec.find(std::string(" ") + want + " "), std::string::npos)
            << launch.kernel << ": " << spec;
      }
      EXPECT_EQ(dots, 21) << "stem, 19 convolutions and the linear layer";
    }
}

TEST(KernelLaunchTest, TooLargeForInt32Indexing) {
  Graph graph = resnet18(1024, 512);
  auto launches = planLaunches(graph, LaunchOptions{});
  ASSERT_FALSE(bool(launches));
  EXPECT_NE(llvm::toString(launches.takeError()).find("32-bit integers"),
            std::string::npos);
}

TEST(CpuBackendTest, ResNet18FusedMatchesReference) {
  // The whole network folded and fused on the interpreter, batch 1 at 32x32.
  EXPECT_LT(compareGraph(resnet18(1, 32), Precision::FP32, /*optimize=*/true),
            1e-5);
}

TEST(CpuBackendTest, RejectsMissingWeights) {
  Graph graph = parse("input x: f32[1, 4]\nparam w: f32[3, 4]\n"
                      "y = linear(x, w)\noutput y");
  auto cpu = createCpuBackend(BackendOptions());
  llvm::Error e = cpu->prepare(graph, {});
  ASSERT_TRUE(bool(e));
  EXPECT_EQ(llvm::toString(std::move(e)), "no weights for parameter 'w'");
}

TEST(LaunchRequestTest, UnknownFileAndKernel) {
  KernelLaunch launch;
  launch.file = "nope.mgp";
  launch.kernel = "k";
  auto missingFile = getLaunchRequest(launch, Target::cpu());
  ASSERT_FALSE(bool(missingFile));
  EXPECT_NE(llvm::toString(missingFile.takeError())
                .find("no kernel file kernels_dsl/nope.mgp (have: add.mgp"),
            std::string::npos);
  launch.file = "relu.mgp";
  launch.kernel = "gelu_kernel";
  auto request = getLaunchRequest(launch, Target::cpu());
  ASSERT_TRUE(bool(request)) << llvm::toString(request.takeError());
  auto missingKernel = getCompiledKernel(*request);
  ASSERT_FALSE(bool(missingKernel));
  EXPECT_EQ(llvm::toString(missingKernel.takeError()),
            "compiling kernel 'gelu_kernel' for :\n"
            "kernels_dsl/relu.mgp: no @jit kernel 'gelu_kernel' (kernels: "
            "relu_kernel)");
}

TEST(LaunchRequestTest, OneInterpreterKernelPerSpecialization) {
  CacheConfig config; // memory only
  config.diskEnabled = false;
  KernelCache cache(config);
  auto relu = [&](const char *signature) {
    KernelRequest request;
    request.source = *findKernelSource("relu.mgp");
    request.fileName = "kernels_dsl/relu.mgp";
    request.kernelName = "relu_kernel";
    request.signature = std::move(*parseSignature(signature));
    request.target = Target::cpu();
    auto kernel = getCompiledKernel(request, cache);
    EXPECT_TRUE(bool(kernel)) << llvm::toString(kernel.takeError());
    return kernel ? *kernel : nullptr;
  };
  auto a = relu("*fp32:16,*fp32:16,i32,1024");
  auto b = relu("*fp32:16,*fp32:16,i32,1024");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a.get(), b.get());
  EXPECT_TRUE(a->interp);
  auto c = relu("*fp32:16,*fp32:16,i32,256");
  ASSERT_TRUE(c);
  EXPECT_NE(a.get(), c.get());
  EXPECT_EQ(cache.stats().compiles, 2u);
  EXPECT_EQ(cache.stats().memoryHits, 1u);
}

} // namespace
