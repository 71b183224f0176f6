# RUN: mgpc %s -k xor_seed --signature "*u64,18446744073709551615" -emit=mlir | FileCheck %s --check-prefix=SIG
# RUN: mgpc %s -k xor_seed --signature "*u64" -D SEED=0x9E3779B97F4A7C15 -emit=mlir | FileCheck %s --check-prefix=DEF
# RUN: mgpc %s -k xor_seed --signature "*u64,7" -emit=mlir | FileCheck %s --check-prefix=SMALL
# A constexpr from 2**63 to 2**64 - 1 (in the signature or a -D define, decimal
# or 0x) is a uint64 constant, as Triton types such integers; the block stays
# uint64 and the constant keeps its bits.
# SIG: arith.constant dense<-1> : tensor<16xi64>
# DEF: arith.constant dense<-7046029254386353131> : tensor<16xi64>
# SMALL: arith.constant dense<7> : tensor<16xi64>
# SIG: arith.xori
import triton
import triton.language as tl


@triton.jit
def xor_seed(out_ptr, SEED: tl.constexpr):
    offs = tl.arange(0, 16)
    tl.store(out_ptr + offs, offs.to(tl.uint64) ^ SEED)
