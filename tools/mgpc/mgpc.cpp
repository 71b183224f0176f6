//===- mgpc.cpp - the mgp ahead-of-time compiler ---------------------------===//
//
// This file implements `mgpc`, which compiles the @jit kernels of a .mgp/.py
// file (or a .mlir module) to PTX, dumping any stage on request.
//
//===----------------------------------------------------------------------===//
#include "compiler/pipeline/Version.h"
#include "tools/mgpc/EmitAST.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string> inputFilename(cl::Positional, cl::desc("<input file>"),
                                          cl::init("-"));

static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"), cl::init("-"));

namespace {
/// The stage `-emit=` stops at and writes out.
enum class EmitKind { AST, MLIR, MLIRGPU, LLVM, PTX };
} // namespace

static cl::opt<EmitKind> emitKind(
    "emit", cl::desc("The stage to write out"), cl::init(EmitKind::PTX),
    cl::values(clEnumValN(EmitKind::AST, "ast", "the parsed syntax tree"),
               clEnumValN(EmitKind::MLIR, "mlir", "the mgp dialect (block level)"),
               clEnumValN(EmitKind::MLIRGPU, "mlir-gpu", "mgp with layout encodings"),
               clEnumValN(EmitKind::LLVM, "llvm", "LLVM IR"),
               clEnumValN(EmitKind::PTX, "ptx", "PTX assembly")));

/// Prints `err` (front-end errors are already formatted with their source
/// line) and returns the exit status.
static int reportError(Error err) {
  std::string message = toString(std::move(err));
  errs() << message;
  if (!StringRef(message).ends_with("\n"))
    errs() << "\n";
  return 1;
}

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  cl::SetVersionPrinter([](raw_ostream &os) { os << "mgpc " << mgp::kVersion << "\n"; });
  cl::ParseCommandLineOptions(argc, argv, "mgp ahead-of-time kernel compiler\n");
  if (emitKind == EmitKind::AST) {
    if (Error err = mgp::emitAST(inputFilename, outputFilename))
      return reportError(std::move(err));
    return 0;
  }
  return 0;
}
