// REQUIRES: ptxas
// RUN: mgpc %S/Inputs/relu.mlir --arch sm_90 -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: mgpc %S/Inputs/relu.mlir --arch sm_80 | FileCheck %s --check-prefix=SM80

// relu from block-level mgp to PTX that ptxas accepts; the masked loads and
// stores of the :16 pointers are 4-wide.
// CHECK: .target sm_90
// CHECK: .visible .entry relu(
// CHECK: .maxntid 128, 1, 1
// CHECK: ld.global.v4.b32
// CHECK: max{{.*}}.f32
// CHECK: st.global.v4.b32
// SM80: .target sm_80
