// Every user-facing error of mgpc's command line.
// RUN: not mgpc %S/Inputs/relu.mlir -emit=bogus 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: Cannot find option named 'bogus'
// RUN: not mgpc %S/Inputs/relu.mlir --signature "*float32,i32" 2>&1 | FileCheck %s --check-prefix=SIG
// SIG: mgpc: error: invalid signature entry 0 '*float32': unknown pointee type 'float32'
// RUN: not mgpc %S/Inputs/relu.mlir --signature "i32:8" 2>&1 | FileCheck %s --check-prefix=HINT
// HINT: mgpc: error: invalid signature entry 0 'i32:8': unknown hint ':8'
// RUN: not mgpc %S/Inputs/relu.mlir --arch sm_70 2>&1 | FileCheck %s --check-prefix=ARCH
// ARCH: mgpc: error: unsupported GPU architecture 'sm_70' (expected sm_80, sm_86, sm_89, sm_90, sm_90a or cpu)
// RUN: not mgpc %S/Inputs/relu.mlir --arch cpu 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: mgpc: error: --arch cpu: mgpc writes GPU code; the interpreter runs kernels through mgp-run --device cpu
// RUN: not mgpc %S/Inputs/relu.mlir --precision fp8 2>&1 | FileCheck %s --check-prefix=PREC
// PREC: mgpc: error: unknown precision 'fp8': expected tf32 or ieee
// RUN: not mgpc %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: mgpc: error: cannot open input file '{{.*}}does-not-exist.mlir'
// RUN: not mgpc %S/Inputs/relu.mlir --num-warps 3 2>&1 | FileCheck %s --check-prefix=WARPS
// WARPS: mgpc: error: num_warps must be a power of two in 1..32, got 3
// RUN: not mgpc %S/Inputs/relu.mlir --num-stages 0 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: mgpc: error: num_stages must be at least 1, got 0
// RUN: not mgpc %S/Inputs/relu.mlir -k nope 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL: mgpc: error: no kernel named 'nope' in {{.*}}relu.mlir (functions: relu)
// An output path that is a directory: the rename fails and the temporary
// file is removed, so nothing is left behind.
// RUN: rm -rf %t.dir && mkdir -p %t.dir/out.ptx
// RUN: not mgpc %S/Inputs/relu.mlir -o %t.dir/out.ptx 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: mgpc: error: cannot write output file '{{.*}}out.ptx'
// RUN: ls %t.dir | count 1
// RUN: ls %t.dir/out.ptx | count 0
// RUN: not mgpc %S/Inputs/relu.mlir -o %t.dir/missing/out.ptx 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: mgpc: error: cannot write output file '{{.*}}missing/out.ptx': No such file or directory
// A failed compile leaves no output file.
// RUN: not mgpc %S/Inputs/relu.mlir -k nope -o %t.dir/failed.ptx
// RUN: not ls %t.dir/failed.ptx
