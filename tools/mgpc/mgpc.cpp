//===- mgpc.cpp - the mgp ahead-of-time compiler ---------------------------===//
//
// This file implements `mgpc`, which compiles the @jit kernels of a .mgp/.py
// file (or a .mlir module) to PTX, dumping any stage on request.
//
//===----------------------------------------------------------------------===//
#include "compiler/pipeline/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input file>"),
                                          cl::init("-"));

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::SetVersionPrinter([](raw_ostream &os) { os << "mgpc " << mgp::kVersion << "\n"; });
  cl::ParseCommandLineOptions(argc, argv, "mgp ahead-of-time kernel compiler\n");
  return 0;
}
