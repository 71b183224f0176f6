//===- ElementwiseOpToLLVM.cpp - arith/math on tensors --------------------===//
//
// This file implements the lowering of element math: an arith or math op on
// distributed tensors becomes the same op once per register on scalars (a
// scalar operand, the i1 condition of a select over tensors, in every one)
// (which the upstream arith/math patterns then lower, so C semantics of
// divsi/remsi come from LLVM sdiv/srem); a splat tensor constant becomes one
// scalar constant in every register. Math functions without an LLVM
// instruction go to libdevice (`__nv_expf`, ...), linked by emitPTX, and so
// does mgp.extern_elementwise (one call per register);
// mgp.inline_asm_elementwise becomes llvm.inline_asm per `pack` registers;
// an fp32 division is div.full.f32 and an fp32 exp ex2.approx.f32 of x *
// log2(e), as in Triton.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/PackedRegisters.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mgp;

namespace {

bool isElementwiseDialect(Operation *op) {
  Dialect *dialect = op->getDialect();
  return dialect &&
         (isa<arith::ArithDialect>(dialect) || isa<math::MathDialect>(dialect));
}

/// Any arith/math op (but constants) whose results are tensors.
struct ElementwiseOpConversion : ConversionPattern {
  ElementwiseOpConversion(MgpLLVMTypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), kMgpPatternBenefit,
                          ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isElementwiseDialect(op) || isa<arith::ConstantOp>(op) ||
        op->getNumResults() != 1 || op->getNumRegions() != 0)
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    Location loc = op->getLoc();
    auto &converter = *getTypeConverter<MgpLLVMTypeConverter>();
    Type structType = converter.convertType(resultType);
    Type scalarType = converter.convertElementType(resultType.getElementType());
    if (!structType || !scalarType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");

    SmallVector<SmallVector<Value>> operandRegisters;
    for (Value operand : operands)
      operandRegisters.push_back(unpackRegisters(rewriter, loc, operand));
    // A scalar operand (arith.select's i1 condition over tensors) is one
    // register that every element uses.
    size_t count = 0;
    for (auto &registers : operandRegisters)
      count = std::max(count, registers.size());
    SmallVector<Value> results;
    for (size_t i = 0; i < count; ++i) {
      OperationState state(loc, op->getName());
      for (auto &registers : operandRegisters)
        state.addOperands(registers.size() == 1 ? registers[0] : registers[i]);
      state.addTypes(scalarType);
      state.addAttributes(op->getAttrs());
      results.push_back(rewriter.create(state)->getResult(0));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, results));
    return success();
  }
};

/// `arith.constant dense<v> : tensor<...>` -> v in every register.
struct SplatConstantOpConversion : ConvertOpToLLVMPattern<arith::ConstantOp> {
  SplatConstantOpConversion(MgpLLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, kMgpPatternBenefit) {}

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!type)
      return failure();
    auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!dense || !dense.isSplat())
      return rewriter.notifyMatchFailure(op, "only splat tensor constants");
    Type structType = getTypeConverter()->convertType(type);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    Location loc = op.getLoc();
    Type elementType = getTypeConverter()->convertType(type.getElementType());
    auto scalar = cast<TypedAttr>(dense.getSplatValue<Attribute>());
    // Types LLVM has no float for (fp8) are their bits in an integer.
    if (auto fp = dyn_cast<FloatAttr>(scalar); fp && isa<IntegerType>(elementType))
      scalar = IntegerAttr::get(elementType, fp.getValue().bitcastToAPInt());
    Value value = LLVM::ConstantOp::create(rewriter, loc, elementType, scalar);
    unsigned count =
        isa<LLVM::LLVMStructType>(structType)
            ? cast<LLVM::LLVMStructType>(structType).getBody().size()
            : 1;
    SmallVector<Value> registers(count, value);
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
    return success();
  }
};

/// The declaration of libdevice function `name` in the module of `op`
/// (emitPTX links libdevice into modules that call `__nv_*` functions).
LLVM::LLVMFuncOp getOrInsertLibdeviceFunction(OpBuilder &b, Operation *op,
                                              StringRef name, Type result,
                                              ArrayRef<Type> args) {
  auto module = op->getParentOfType<ModuleOp>();
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, op->getLoc(), name,
                                  LLVM::LLVMFunctionType::get(result, args));
}

/// mgp.extern_elementwise -> one call of the libdevice function per
/// register.
struct ExternElementwiseOpConversion
    : ConvertOpToLLVMPattern<ExternElementwiseOp> {
  ExternElementwiseOpConversion(MgpLLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, kMgpPatternBenefit) {}

  LogicalResult
  matchAndRewrite(ExternElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto &converter =
        static_cast<const MgpLLVMTypeConverter &>(*getTypeConverter());
    Type resultType = op.getResult().getType();
    Type scalarType =
        converter.convertElementType(getElementTypeOrSelf(resultType));
    SmallVector<Type> argTypes;
    for (Value src : op.getSrcs())
      argTypes.push_back(
          converter.convertElementType(getElementTypeOrSelf(src.getType())));
    LLVM::LLVMFuncOp fn = getOrInsertLibdeviceFunction(
        rewriter, op, op.getSymbol(), scalarType, argTypes);
    SmallVector<SmallVector<Value>> operandRegisters;
    for (Value operand : adaptor.getSrcs())
      operandRegisters.push_back(unpackRegisters(rewriter, loc, operand));
    size_t count =
        operandRegisters.empty() ? 1 : operandRegisters.front().size();
    SmallVector<Value> results;
    for (size_t i = 0; i < count; ++i) {
      SmallVector<Value> args;
      for (auto &registers : operandRegisters)
        args.push_back(registers[i]);
      results.push_back(
          LLVM::CallOp::create(rewriter, loc, fn, args).getResult());
    }
    return replaceWithRegisters(op, results, converter, rewriter);
  }
};

/// mgp.inline_asm_elementwise -> one llvm.inline_asm per `pack` registers
/// of each thread. Narrow elements travel packed in one integer register
/// (an i32 for four i8, ...); a thread whose register count is not a
/// multiple of `pack` runs the last call on zeros in the missing places
/// and drops their results.
struct InlineAsmElementwiseOpConversion
    : ConvertOpToLLVMPattern<InlineAsmElementwiseOp> {
  InlineAsmElementwiseOpConversion(MgpLLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, kMgpPatternBenefit) {}

  LogicalResult
  matchAndRewrite(InlineAsmElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto &converter =
        static_cast<const MgpLLVMTypeConverter &>(*getTypeConverter());
    unsigned pack = op.getPack();
    // Registers per thread, from the first result.
    size_t count = getThreadRegisterCount(converter, op.getResults()[0].getType());
    if (count == 0)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    size_t padded = (count + pack - 1) / pack * pack;

    struct Slot {
      Type element;      // the LLVM type of one element
      unsigned perReg;   // elements per asm register
      Type regType;      // the asm register's type
    };
    auto slotOf = [&](Type mlirType) {
      Type mlirElement = getElementTypeOrSelf(mlirType);
      Slot slot;
      slot.element = converter.convertElementType(mlirElement);
      slot.perReg = inlineAsmElementsPerRegister(mlirElement, pack);
      slot.regType =
          slot.perReg == 1
              ? slot.element
              : rewriter.getIntegerType(slot.perReg *
                                        mlirElement.getIntOrFloatBitWidth());
      return slot;
    };

    SmallVector<Slot> inSlots;
    for (Value src : op.getSrcs())
      inSlots.push_back(slotOf(src.getType()));
    SmallVector<SmallVector<Value>> inRegisters;
    if (!unpackPaddedOperands(rewriter, loc, converter, op.getSrcs(),
                              adaptor.getSrcs(), count, padded, inRegisters))
      return rewriter.notifyMatchFailure(op, "operands of another layout");
    SmallVector<Slot> outSlots;
    SmallVector<Type> asmTypes;
    for (Value result : op.getResults()) {
      outSlots.push_back(slotOf(result.getType()));
      for (unsigned j = 0; j < pack; j += outSlots.back().perReg)
        asmTypes.push_back(outSlots.back().regType);
    }
    Type asmType = asmTypes.size() == 1
                       ? asmTypes[0]
                       : LLVM::LLVMStructType::getLiteral(getContext(),
                                                          asmTypes);

    SmallVector<SmallVector<Value>> outRegisters(op.getNumResults());
    for (size_t base = 0; base < padded; base += pack) {
      SmallVector<Value> asmOperands;
      for (auto [slot, registers] : llvm::zip(inSlots, inRegisters))
        for (unsigned j = 0; j < pack; j += slot.perReg) {
          if (slot.perReg == 1) {
            asmOperands.push_back(registers[base + j]);
            continue;
          }
          auto vecType = VectorType::get({slot.perReg}, slot.element);
          Value vec = LLVM::UndefOp::create(rewriter, loc, vecType);
          for (unsigned k = 0; k < slot.perReg; ++k)
            vec = LLVM::InsertElementOp::create(
                rewriter, loc, vec, registers[base + j + k],
                LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                         k));
          asmOperands.push_back(
              LLVM::BitcastOp::create(rewriter, loc, slot.regType, vec));
        }
      Value asmResult =
          LLVM::InlineAsmOp::create(
              rewriter, loc, asmType, asmOperands, op.getAsmString(),
              op.getConstraints(), /*has_side_effects=*/!op.getPure(),
              /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
              LLVM::AsmDialectAttr(), ArrayAttr())
              .getResult(0);
      unsigned field = 0;
      for (auto [r, slot] : llvm::enumerate(outSlots))
        for (unsigned j = 0; j < pack; j += slot.perReg) {
          Value reg = asmTypes.size() == 1
                          ? asmResult
                          : LLVM::ExtractValueOp::create(rewriter, loc,
                                                         asmResult, field);
          ++field;
          if (slot.perReg == 1) {
            outRegisters[r].push_back(reg);
            continue;
          }
          auto vecType = VectorType::get({slot.perReg}, slot.element);
          Value vec = LLVM::BitcastOp::create(rewriter, loc, vecType, reg);
          for (unsigned k = 0; k < slot.perReg; ++k)
            outRegisters[r].push_back(LLVM::ExtractElementOp::create(
                rewriter, loc, vec,
                LLVM::ConstantOp::create(rewriter, loc, rewriter.getI32Type(),
                                         k)));
        }
    }
    rewriter.replaceOp(op, packResults(rewriter, loc, converter,
                                       op.getResults(), outRegisters, count));
    return success();
  }
};

/// arith.divf on fp32 scalars -> div.full.f32 (llvm.nvvm.div.full), as
/// Triton lowers `/` and tl.fdiv: a full-range division within 2 ulp, far
/// shorter than div.rn.f32's IEEE sequence (tl.math.div_rn reaches
/// __nv_fdiv_rn instead). Above the upstream arith pattern.
struct DivFOpConversion : ConvertOpToLLVMPattern<arith::DivFOp> {
  DivFOpConversion(MgpLLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(arith::DivFOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    auto call = LLVM::CallIntrinsicOp::create(
        rewriter, op.getLoc(), rewriter.getF32Type(),
        rewriter.getStringAttr("llvm.nvvm.div.full"),
        ValueRange{adaptor.getLhs(), adaptor.getRhs()});
    rewriter.replaceOp(op, call.getResults());
    return success();
  }
};

/// An fp32 `math.exp` is `ex2.approx.f32(x * log2(e))`, as Triton lowers
/// tl.exp (2 ulp near 0, relative error ~2^-22 elsewhere; the same bits as
/// Triton's kernel), instead of libdevice's longer `__nv_expf`.
struct ExpFOpConversion : ConvertOpToLLVMPattern<math::ExpOp> {
  ExpFOpConversion(MgpLLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, /*benefit=*/3) {}

  LogicalResult
  matchAndRewrite(math::ExpOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value log2e = LLVM::ConstantOp::create(
        rewriter, loc, f32, rewriter.getF32FloatAttr(1.4426950408889634f));
    Value scaled =
        LLVM::FMulOp::create(rewriter, loc, adaptor.getOperand(), log2e);
    auto call = LLVM::CallIntrinsicOp::create(
        rewriter, loc, f32, rewriter.getStringAttr("llvm.nvvm.ex2.approx.f32"),
        ValueRange{scaled});
    rewriter.replaceOp(op, call.getResults());
    return success();
  }
};

/// f32 abs, fma, maxnum, minnum and remainder as plain LLVM (llvm.fabs,
/// llvm.fma, llvm.maxnum, llvm.minnum, frem), as Triton lowers them, above
/// the libdevice patterns: libdevice's __nv_fabsf & co follow
/// nvvm-reflect-ftz (flushed by default, KernelOptions::reflectFtz), and
/// Triton's kernels keep denormals in these ops (`max.f32`, `fma.rn.f32`;
/// `%` is NVPTX's expansion of frem, Triton's bits, not fmodf's).
template <typename SourceOp, typename TargetOp>
struct NativeF32OpConversion : ConvertOpToLLVMPattern<SourceOp> {
  NativeF32OpConversion(MgpLLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<SourceOp>(converter, /*benefit=*/3) {}

  LogicalResult
  matchAndRewrite(SourceOp op, typename SourceOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return failure();
    rewriter.replaceOpWithNewOp<TargetOp>(op, op.getType(),
                                          adaptor.getOperands());
    return success();
  }
};

} // namespace

void mgp::populateElementwiseOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                              RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseOpConversion>(converter, ctx);
  patterns.add<SplatConstantOpConversion>(converter);
  patterns.add<ExternElementwiseOpConversion>(converter);
  patterns.add<InlineAsmElementwiseOpConversion>(converter);
  patterns.add<DivFOpConversion>(converter);
  patterns.add<ExpFOpConversion>(converter);
  patterns.add<NativeF32OpConversion<math::AbsFOp, LLVM::FAbsOp>,
               NativeF32OpConversion<math::FmaOp, LLVM::FMAOp>,
               NativeF32OpConversion<arith::MaxNumFOp, LLVM::MaxNumOp>,
               NativeF32OpConversion<arith::MinNumFOp, LLVM::MinNumOp>,
               NativeF32OpConversion<arith::RemFOp, LLVM::FRemOp>>(converter);
  // Scalars: libdevice for transcendental functions before the generic
  // math-to-llvm intrinsics (NVPTX has no instruction for llvm.exp & co).
  populateLibDeviceConversionPatterns(converter, patterns, /*benefit=*/2);
  arith::populateArithToLLVMConversionPatterns(converter, patterns);
  populateMathToLLVMConversionPatterns(converter, patterns);
}
