// A C++ program using the installed C++ API (<mgp/mgp.hpp>: mgp::jit,
// Kernel::launch) on the interpreter: a vector add on random inputs, every
// element checked. Usage: consumer_cxx KERNEL_FILE
#include <mgp/mgp.hpp>

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  std::ifstream file(argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  mgp::JitOptions options;
  options.device = mgp::DeviceKind::CPU;
  options.fileName = argv[1];
  auto kernel = mgp::jit(text.str(), "add_kernel", options);
  if (!kernel) {
    std::fprintf(stderr, "%s\n", llvm::toString(kernel.takeError()).c_str());
    return 1;
  }
  const int n = 777;
  std::vector<float> x(n), y(n), out(n);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  for (int i = 0; i < n; ++i) {
    x[i] = dist(rng);
    y[i] = dist(rng);
  }
  if (llvm::Error err = kernel->launch(
          mgp::Grid((n + 255) / 256), nullptr, mgp::host(x), mgp::host(y),
          mgp::host(out), n, mgp::kw("BLOCK", 256))) {
    std::fprintf(stderr, "%s\n", llvm::toString(std::move(err)).c_str());
    return 1;
  }
  for (int i = 0; i < n; ++i)
    if (out[i] != x[i] + y[i]) {
      std::fprintf(stderr, "element %d: %g != %g\n", i, out[i], x[i] + y[i]);
      return 1;
    }
  std::printf("PASS: C++ consumer, %d elements\n", n);
  return 0;
}
