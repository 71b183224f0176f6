//===- TargetInfo.h - the target-specific primitives of lowering -*- C++
//-*-===//
//
// This file declares TargetInfo, the one small interface behind which every
// target-specific primitive of the mgp-to-LLVM lowering sits: special
// registers, warp shuffles, barriers and the shared-memory base pointer. The
// lowering patterns never emit NVVM ops directly for these.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_TARGETINFO_H
#define MGP_CODEGEN_LLVM_TARGETINFO_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <memory>

namespace mgp {

/// Target primitives used by the lowering. All returned integers are i32.
class TargetInfo {
public:
  virtual ~TargetInfo();

  /// Threads in a warp.
  virtual int getWarpSize() const { return 32; }
  /// The thread's index in the CTA (x dimension; mgp launches 1-D CTAs).
  virtual mlir::Value getThreadId(mlir::OpBuilder &b,
                                  mlir::Location loc) const = 0;
  /// The thread's lane in its warp.
  virtual mlir::Value getLaneId(mlir::OpBuilder &b,
                                mlir::Location loc) const = 0;
  /// The warp's index in the CTA, made provably uniform across the warp.
  virtual mlir::Value getWarpId(mlir::OpBuilder &b,
                                mlir::Location loc) const = 0;
  /// The program (CTA) index along grid axis 0..2.
  virtual mlir::Value getProgramId(mlir::OpBuilder &b, mlir::Location loc,
                                   int axis) const = 0;
  /// The number of programs along grid axis 0..2.
  virtual mlir::Value getNumPrograms(mlir::OpBuilder &b, mlir::Location loc,
                                     int axis) const = 0;
  /// The value held by lane (laneId ^ mask); any int/float type up to 64 bits.
  virtual mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value value, int mask) const = 0;
  /// The value held by lane `lane` (an i32); any int/float up to 64 bits.
  virtual mlir::Value shuffleIdx(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value value, mlir::Value lane) const = 0;
  /// A CTA-wide barrier that also orders shared-memory accesses.
  virtual void barrier(mlir::OpBuilder &b, mlir::Location loc) const = 0;
  /// A `!llvm.ptr<3>` to the start of the kernel's dynamic shared memory;
  /// declares the backing global in `module` on first use.
  virtual mlir::Value getSharedMemoryBase(mlir::OpBuilder &b,
                                          mlir::Location loc,
                                          mlir::Operation *module) const = 0;
};

/// The NVPTX implementation (NVVM ops).
std::unique_ptr<TargetInfo> createNVPTXTargetInfo();

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_TARGETINFO_H
