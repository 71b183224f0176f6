// Each -emit stage of a .mlir input, and --time.
// RUN: mgpc %S/Inputs/relu.mlir -emit=mlir | FileCheck %s --check-prefix=MLIR
// MLIR: func.func @relu
// MLIR-NOT: #mgp.blocked
// RUN: mgpc %S/Inputs/relu.mlir -emit=mlir-gpu | FileCheck %s --check-prefix=GPU
// GPU: #mgp.blocked
// GPU: mgp.load {{.*}}mgp.vector_width = 4 : i32
// RUN: mgpc %S/Inputs/relu.mlir -emit=llvm | FileCheck %s --check-prefix=LLVM
// LLVM: define ptx_kernel void @relu(ptr addrspace(1) align 16 %0, ptr addrspace(1) align 16 %1, i32 %2)
// RUN: mgpc %S/Inputs/relu.mlir -emit=mlir-gpu -o %t.gpu.mlir
// RUN: mgpc %t.gpu.mlir -emit=ptx | FileCheck %s --check-prefix=REENTER
// REENTER: .visible .entry relu(
// RUN: mgpc %S/Inputs/relu.mlir --time -o %t.ptx 2>&1 | FileCheck %s --check-prefix=TIME
// TIME: mgpc: parse
// TIME: mgpc: gpu
// TIME: mgpc: ptx
// TIME: mgpc: total
// LLVM's -time-passes (a hidden option) reports the O3 pipeline's passes and
// those of code generation, though mgpc skips the exit handlers that would
// print the reports.
// RUN: mgpc %S/Inputs/relu.mlir -time-passes -o %t.ptx 2>&1 | FileCheck %s --check-prefix=PASSES
// PASSES-DAG: InstCombinePass
// PASSES-DAG: NVPTX DAG->DAG Pattern Instruction Selection
