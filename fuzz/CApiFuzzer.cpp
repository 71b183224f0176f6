//===- CApiFuzzer.cpp - libFuzzer target: the C API's compile entry -------===//
//
// This file implements the fuzz target of include/mgp/mgp.h's compile entry,
// mgp_kernel_compile, with everything a caller passes taken from the input:
// the first line is the signature, the second the kernel name, the third the
// options (num_warps, num_stages, precision as text), the rest the source.
// Each input is compiled for the interpreter (front end and the
// target-independent passes) and, when its first byte is even, also compile
// only for sm_90 (the GPU passes, LLVM and PTX); a kernel that compiles has
// every parameter queried. A failure must be a status with a non-empty
// message; a crash, a hang, a sanitizer report or a success with a null
// handle are findings.
//
//===----------------------------------------------------------------------===//

#include <mgp/mgp.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>

namespace {

/// The next line of \p text from \p pos (without its newline).
std::string nextLine(const std::string &text, size_t &pos) {
  size_t end = text.find('\n', pos);
  if (end == std::string::npos)
    end = text.size();
  std::string line = text.substr(pos, end - pos);
  pos = end < text.size() ? end + 1 : end;
  return line;
}

void check(mgp_status status, mgp_kernel kernel) {
  if (status == MGP_SUCCESS) {
    if (!kernel)
      std::abort(); // success without a kernel
    mgp_kernel_info info;
    if (mgp_kernel_get_info(kernel, &info) != MGP_SUCCESS)
      std::abort();
    for (int i = 0; i < info.num_params; ++i) {
      mgp_param_info param;
      if (mgp_kernel_get_param(kernel, i, &param) != MGP_SUCCESS ||
          !param.name || !param.type)
        std::abort();
    }
    mgp_kernel_destroy(kernel);
    return;
  }
  if (kernel || !mgp_last_error() || !*mgp_last_error())
    std::abort(); // a failure must leave no kernel and say why
}

} // namespace

/// No disk cache: every input compiles, and nothing is written to $HOME.
extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  setenv("MGP_CACHE", "off", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  size_t pos = 0;
  std::string signature = nextLine(text, pos);
  std::string name = nextLine(text, pos);
  std::istringstream options(nextLine(text, pos));
  std::string source = text.substr(pos);

  mgp_compile_options opts;
  std::memset(&opts, 0, sizeof(opts));
  std::string precision;
  options >> opts.num_warps >> opts.num_stages >> precision;
  if (!precision.empty())
    opts.precision = precision.c_str();

  static mgp_context cpu = [] {
    mgp_context context = nullptr;
    if (mgp_context_create(MGP_DEVICE_CPU, 0, &context) != MGP_SUCCESS)
      std::abort();
    return context;
  }();
  mgp_kernel kernel = nullptr;
  check(mgp_kernel_compile(cpu, source.c_str(), "fuzz.py", name.c_str(),
                           signature.c_str(), &opts, &kernel),
        kernel);
  if (size && data[0] % 2 == 0) {
    opts.arch = "sm_90";
    kernel = nullptr;
    check(mgp_kernel_compile(nullptr, source.c_str(), "fuzz.py", name.c_str(),
                             signature.c_str(), &opts, &kernel),
          kernel);
  }
  return 0;
}
