# Source input: -D and -k errors, and a conformance kernel to 4-wide PTX.
# RUN: not mgpc %conformance/relu.py -k _relu_forward_kernel -D BLOCK_SIZE 2>&1 | FileCheck %s --check-prefix=BADDEF
# BADDEF: mgpc: error: invalid -D 'BLOCK_SIZE': expected NAME=VALUE
# RUN: not mgpc %conformance/relu.py -k nope 2>&1 | FileCheck %s --check-prefix=KERNEL
# KERNEL: mgpc: error: no @jit kernel named 'nope' in {{.*}}relu.py (kernels: _relu_forward_kernel)
# RUN: mgpc %conformance/relu.py -k _relu_forward_kernel --signature "*fp32:16,*fp32:16,i32:16,1024" | FileCheck %s
# CHECK: .visible .entry _relu_forward_kernel(
# CHECK: ld.global.v4
