//===- Patterns.h - the mgp-to-LLVM lowering patterns -----------*- C++ -*-===//
//
// This file declares one populate function per op family of the mgp-to-LLVM
// lowering; MgpToLLVMPass.cpp assembles them. Each is implemented in the file
// named after it (FuncOpToLLVM.cpp, ...).
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_LLVM_PATTERNS_H
#define MGP_CODEGEN_LLVM_PATTERNS_H

#include "compiler/codegen/llvm/TargetInfo.h"
#include "compiler/codegen/llvm/TypeConverter.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/IR/PatternMatch.h"

namespace mgp {

/// The benefit of mgp patterns, above the upstream scalar patterns (1), so
/// tensor-typed arith/math ops are scalarised by us first.
inline constexpr unsigned kMgpPatternBenefit = 10;

/// The base of the lowering patterns that need the target: mgp's pattern
/// benefit and the TargetInfo, from a (converter, target) constructor.
template <typename SourceOp>
struct TargetConversionPattern : mlir::ConvertOpToLLVMPattern<SourceOp> {
  TargetConversionPattern(MgpLLVMTypeConverter &converter,
                          const TargetInfo &target)
      : mlir::ConvertOpToLLVMPattern<SourceOp>(converter, kMgpPatternBenefit),
        target(target) {}

  const TargetInfo &target;
};

/// Replaces `op`, whose one result is a tensor or a scalar, by its value
/// computed register by register: `registers` packed into the result's
/// struct, or the single register of a scalar result. Fails (no change) on
/// a tensor without a layout.
mlir::LogicalResult
replaceWithRegisters(mlir::Operation *op, mlir::ValueRange registers,
                     const MgpLLVMTypeConverter &converter,
                     mlir::ConversionPatternRewriter &rewriter);

/// func.func, func.return, func.call (kernel attributes are set afterwards by
/// finalizeKernelAttributes).
void populateFuncOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns);
/// Turns `mgp.kernel` llvm.funcs into NVVM kernels with maxntid.
void finalizeKernelAttributes(mlir::ModuleOp module);

/// arith/math ops on tensors -> per-register scalar ops; tensor constants;
/// math functions to libdevice; scalar arith/math to LLVM.
void populateElementwiseOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);
/// mgp.make_range.
/// mgp.map_elementwise: its region inlined per `pack` registers.
void populateMapElementwiseOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                            mlir::RewritePatternSet &patterns);
void populateMakeRangeOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       const TargetInfo &target);
/// mgp.splat, broadcast, expand_dims, reshape, trans, hint, addptr.
void populateViewOpsToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);
/// mgp.load and mgp.store, scalar and tensor, masked and vectorised.
void populateLoadStoreOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       const TargetInfo &target);
/// mgp.reduce: within a thread, across lanes, across warps via shared memory.
void populateReduceOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns,
                                    const TargetInfo &target);
/// mgp.scan: within a thread, across lanes (shuffles), across warps via
/// shared memory (ScanOpToLLVM.cpp).
void populateScanOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns,
                                  const TargetInfo &target);
/// mgp.atomic_rmw and mgp.atomic_cas: inline-PTX atom per owned element
/// (AtomicOpToLLVM.cpp).
void populateAtomicOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns,
                                    const TargetInfo &target);
/// mgp.extern_elementwise is in populateElementwiseOpToLLVMPatterns; the
/// pointer conversions and mgp.print / mgp.assert are
/// populateMiscOpToLLVMPatterns (MiscOpToLLVM.cpp).
void populateMiscOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                  mlir::RewritePatternSet &patterns,
                                  const TargetInfo &target);
/// mgp.convert_layout: register permutation or through shared memory.
void populateConvertLayoutOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                           mlir::RewritePatternSet &patterns,
                                           const TargetInfo &target);
/// mgp.local_alloc, local_load and local_store on #mgp.shared buffers.
void populateLocalMemOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns,
                                      const TargetInfo &target);
/// mgp.memdesc_subview, async_copy_global_to_local (cp.async),
/// async_commit_group and async_wait. Masked copies take the mask as
/// cp.async's ignore-src predicate (PTX ISA 7.5) from sm_89 on, whose code is
/// PTX 8.1, and as a src-size of 0 or the copy's bytes on sm_80 and sm_86
/// (PTX 7.4).
void populateAsyncCopyOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       const TargetInfo &target,
                                       int computeCapability);
/// mgp.tensor_map_load and mgp.tensor_map_store: TMA through the op's shared
/// scratch (TensorMapOpToLLVM.cpp).
void populateTensorMapOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       const TargetInfo &target);
/// mgp.dot on the FMA path.
void populateDotOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                 mlir::RewritePatternSet &patterns);
/// mgp.dot with an #mgp.mma (v2) accumulator: mma.sync (MmaDotOpToLLVM.cpp).
void populateMmaDotOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                    mlir::RewritePatternSet &patterns);
/// mgp.warp_group_dot (wgmma, sm_90a) and mgp.fence_async_shared
/// (WarpGroupDotOpToLLVM.cpp).
void populateWarpGroupDotOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns,
                                          const TargetInfo &target);
/// local_load of a K-contiguous buffer into an mma operand: ldmatrix
/// (DotOperandLoadToLLVM.cpp).
void populateDotOperandLoadToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                          mlir::RewritePatternSet &patterns,
                                          const TargetInfo &target);
/// mgp.program_id and mgp.num_programs.
void populateProgramIdOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns,
                                       const TargetInfo &target);
/// mgp.barrier.
void populateBarrierOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                     mlir::RewritePatternSet &patterns,
                                     const TargetInfo &target);

/// The byte offset of an op's shared-memory buffer (`mgp.allocation.offset`);
/// emits an error and returns std::nullopt when the GPU passes left it out.
std::optional<int64_t> getAllocationOffset(mlir::Operation *op);

/// A `!llvm.ptr<3>` to byte `offset` of the kernel's shared memory.
mlir::Value getSharedPointer(mlir::OpBuilder &b, mlir::Location loc,
                             const TargetInfo &target, mlir::Operation *op,
                             int64_t offset);

} // namespace mgp

#endif // MGP_CODEGEN_LLVM_PATTERNS_H
