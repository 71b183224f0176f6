//===- Libdevice.cpp - the embedded CUDA libdevice bitcode ----------------===//
//
// This file implements getLibdeviceBitcode by including libdevice.10.bc into
// the read-only data section with `.incbin`; MGP_LIBDEVICE_PATH is set by
// compiler/codegen/llvm/CMakeLists.txt.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/Libdevice.h"

#ifndef MGP_LIBDEVICE_PATH
#error "MGP_LIBDEVICE_PATH must name libdevice.10.bc"
#endif

// The bitcode reader wants 4-byte aligned input.
asm(".section .rodata.mgp_libdevice,\"a\",@progbits\n"
    ".balign 16\n"
    ".globl mgpLibdeviceBegin\n"
    "mgpLibdeviceBegin:\n"
    ".incbin \"" MGP_LIBDEVICE_PATH "\"\n"
    ".globl mgpLibdeviceEnd\n"
    "mgpLibdeviceEnd:\n"
    ".byte 0\n"
    ".previous\n");

extern "C" const char mgpLibdeviceBegin[];
extern "C" const char mgpLibdeviceEnd[];

llvm::StringRef mgp::getLibdeviceBitcode() {
  return llvm::StringRef(mgpLibdeviceBegin,
                         mgpLibdeviceEnd - mgpLibdeviceBegin);
}
