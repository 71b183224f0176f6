//===- KernelRun.h - mgp-run on one kernel (.mgp / .py input) ---*- C++ -*-===//
//
// This file implements the one-kernel mode of mgp-run (the seed's
// `make test-triton-relu`): `mgp-run kernel.mgp -k NAME --grid X[,Y,Z]
// --arg SPEC...` builds the arguments from their specs (random inputs,
// output buffers, scalars, constexprs), runs the kernel through mgp::jit on
// the GPU and on the CPU interpreter from the same inputs, and compares every
// buffer. Without a GPU it says "skipped GPU: no GPU" and runs the
// interpreter only. See docs/runtime.md, "One-kernel runs".
//
//===----------------------------------------------------------------------===//
#ifndef MGP_TOOLS_MGP_RUN_KERNELRUN_H
#define MGP_TOOLS_MGP_RUN_KERNELRUN_H

#include "llvm/ADT/StringRef.h"

namespace mgp::run {

/// True when \p argv names a kernel file (.mgp or .py) rather than a graph.
bool isKernelRun(int argc, char **argv);

/// Runs the one-kernel mode; returns the process exit code (0: every
/// buffer agreed or the interpreter alone ran; 1: a mismatch or an error).
int runKernelMain(int argc, char **argv);

} // namespace mgp::run

#endif // MGP_TOOLS_MGP_RUN_KERNELRUN_H
