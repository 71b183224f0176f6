//===- MiscOpToLLVM.cpp - pointer conversions, printing, assertions -------===//
//
// This file implements the lowering of the pointer conversions (ptrtoint,
// inttoptr, and the identity for a pointer cast: LLVM pointers are opaque),
// of mgp.print as CUDA's `vprintf` (one call per element a thread owns,
// `pid (x, y, z) idx (i, j) <prefix><values>`; floats printed as doubles,
// as C varargs promote them) and of mgp.assert as CUDA's `__assertfail`
// (called by a thread holding a false element; it reports the message,
// file, line and function and stops the kernel).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mgp;

namespace {

/// A conversion applied register by register.
template <typename OpTy, typename Fn>
LogicalResult convertPerRegister(OpTy op, Value operand,
                                 const MgpLLVMTypeConverter &converter,
                                 ConversionPatternRewriter &rewriter, Fn fn) {
  Location loc = op.getLoc();
  Type resultType = op.getResult().getType();
  Type scalarType =
      converter.convertElementType(getElementTypeOrSelf(resultType));
  SmallVector<Value> results;
  for (Value v : unpackRegisters(rewriter, loc, operand))
    results.push_back(fn(v, scalarType));
  return replaceWithRegisters(op, results, converter, rewriter);
}

struct PtrToIntOpConversion : ConvertOpToLLVMPattern<PtrToIntOp> {
  PtrToIntOpConversion(MgpLLVMTypeConverter &c)
      : ConvertOpToLLVMPattern(c, kMgpPatternBenefit) {}
  LogicalResult
  matchAndRewrite(PtrToIntOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return convertPerRegister(
        op, adaptor.getSrc(),
        static_cast<const MgpLLVMTypeConverter &>(*getTypeConverter()),
        rewriter, [&](Value v, Type t) -> Value {
          return LLVM::PtrToIntOp::create(rewriter, op.getLoc(), t, v);
        });
  }
};

struct IntToPtrOpConversion : ConvertOpToLLVMPattern<IntToPtrOp> {
  IntToPtrOpConversion(MgpLLVMTypeConverter &c)
      : ConvertOpToLLVMPattern(c, kMgpPatternBenefit) {}
  LogicalResult
  matchAndRewrite(IntToPtrOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return convertPerRegister(
        op, adaptor.getSrc(),
        static_cast<const MgpLLVMTypeConverter &>(*getTypeConverter()),
        rewriter, [&](Value v, Type t) -> Value {
          return LLVM::IntToPtrOp::create(rewriter, op.getLoc(), t, v);
        });
  }
};

struct PtrCastOpConversion : ConvertOpToLLVMPattern<PtrCastOp> {
  PtrCastOpConversion(MgpLLVMTypeConverter &c)
      : ConvertOpToLLVMPattern(c, kMgpPatternBenefit) {}
  LogicalResult
  matchAndRewrite(PtrCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Opaque pointers: the same registers.
    return convertPerRegister(
        op, adaptor.getSrc(),
        static_cast<const MgpLLVMTypeConverter &>(*getTypeConverter()),
        rewriter, [](Value v, Type) { return v; });
  }
};

/// The declaration of `name` in `op`'s module.
LLVM::LLVMFuncOp getOrInsertFunction(OpBuilder &b, Operation *op,
                                     StringRef name,
                                     LLVM::LLVMFunctionType type) {
  auto module = op->getParentOfType<ModuleOp>();
  if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, op->getLoc(), name, type);
}

/// A pointer to a NUL-terminated copy of `text` in global memory.
Value getStringPointer(OpBuilder &b, Operation *op, StringRef text) {
  auto module = op->getParentOfType<ModuleOp>();
  Location loc = op->getLoc();
  std::string contents = text.str();
  contents.push_back('\0');
  std::string name = "mgp_str_" + std::to_string(llvm::hash_value(contents));
  auto arrayType = LLVM::LLVMArrayType::get(b.getI8Type(), contents.size());
  if (!module.lookupSymbol<LLVM::GlobalOp>(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           b.getStringAttr(contents), /*alignment=*/1,
                           /*addrSpace=*/1);
  }
  Value global = LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext(), 1), name);
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), global);
}

struct PrintOpConversion : TargetConversionPattern<PrintOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    auto vprintf = getOrInsertFunction(
        rewriter, op, "vprintf",
        LLVM::LLVMFunctionType::get(rewriter.getI32Type(), {ptrType, ptrType}));
    // The first operand's layout decides which elements this thread prints.
    SmallVector<SmallVector<Value>> operands;
    for (Value v : adaptor.getArgs())
      operands.push_back(unpackRegisters(rewriter, loc, v));
    Value pid[3];
    for (int axis = 0; axis < 3; ++axis)
      pid[axis] = target.getProgramId(rewriter, loc, axis);
    unsigned count = operands.empty() ? 1 : operands[0].size();
    SmallVector<SmallVector<Value>> indices;
    RankedTensorType tensorType;
    if (!op.getArgs().empty())
      tensorType = dyn_cast<RankedTensorType>(op.getArgs()[0].getType());
    unsigned regMask = 0;
    if (tensorType) {
      indices = emitElementIndices(rewriter, loc, tensorType,
                                   target.getLaneId(rewriter, loc),
                                   target.getWarpId(rewriter, loc));
      regMask =
          getBroadcastMasks(tensorType.getEncoding(), tensorType.getShape())
              .reg;
    }
    for (unsigned reg = 0; reg < count; ++reg) {
      if (reg & regMask)
        continue;
      std::string format = "pid (%d, %d, %d)";
      SmallVector<Value> args(pid, pid + 3);
      if (tensorType) {
        format += " idx (";
        for (auto [d, index] : llvm::enumerate(indices[reg])) {
          format += d ? ", %d" : "%d";
          args.push_back(index);
        }
        format += ")";
      }
      format += op.getPrefix().str();
      for (auto [k, regs] : llvm::enumerate(operands)) {
        Value v = regs.size() == 1 ? regs[0] : regs[reg];
        Type t = v.getType();
        format += k ? ", " : "";
        if (isa<FloatType>(t)) {
          format += "%f";
          v = t.isF64() ? v
                        : LLVM::FPExtOp::create(rewriter, loc,
                                                rewriter.getF64Type(), v)
                              .getResult();
        } else if (isa<LLVM::LLVMPointerType>(t)) {
          format += "%p";
        } else {
          unsigned bits = t.getIntOrFloatBitWidth();
          bool isSigned = op.getIsSigned()[k] != 0;
          format += op.getHex() ? (bits > 32 ? "0x%llx" : "0x%x")
                                : (bits > 32 ? (isSigned ? "%lld" : "%llu")
                                             : (isSigned ? "%d" : "%u"));
          Type wide = bits > 32 ? rewriter.getI64Type() : rewriter.getI32Type();
          if (bits < 32)
            v = isSigned
                    ? LLVM::SExtOp::create(rewriter, loc, wide, v).getResult()
                    : LLVM::ZExtOp::create(rewriter, loc, wide, v).getResult();
        }
        args.push_back(v);
      }
      format += "\n";
      // The varargs buffer: each argument at its natural alignment.
      SmallVector<Type> fields;
      for (Value a : args)
        fields.push_back(a.getType());
      auto structType = LLVM::LLVMStructType::getLiteral(ctx, fields);
      Value one = i32Constant(rewriter, loc, 1);
      Value buffer =
          LLVM::AllocaOp::create(rewriter, loc, ptrType, structType, one, 8);
      for (auto [k, a] : llvm::enumerate(args)) {
        Value field = LLVM::GEPOp::create(
            rewriter, loc, ptrType, structType, buffer,
            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(k)});
        LLVM::StoreOp::create(rewriter, loc, a, field);
      }
      Value formatPtr = getStringPointer(rewriter, op, format);
      LLVM::CallOp::create(rewriter, loc, vprintf,
                           ValueRange{formatPtr, buffer});
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct AssertOpConversion : TargetConversionPattern<AssertOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    auto assertFail = getOrInsertFunction(
        rewriter, op, "__assertfail",
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                    {ptrType, ptrType, rewriter.getI32Type(),
                                     ptrType, rewriter.getI64Type()}));
    // Any false element of this thread fails.
    Value allTrue;
    for (Value v : unpackRegisters(rewriter, loc, adaptor.getCondition()))
      allTrue = allTrue
                    ? LLVM::AndOp::create(rewriter, loc, allTrue, v).getResult()
                    : v;
    Block *current = rewriter.getInsertionBlock();
    Block *after = rewriter.splitBlock(current, rewriter.getInsertionPoint());
    Block *fail = rewriter.createBlock(after);
    rewriter.setInsertionPointToEnd(current);
    LLVM::CondBrOp::create(rewriter, loc, allTrue, after, fail);
    rewriter.setInsertionPointToEnd(fail);
    Value message = getStringPointer(rewriter, op, op.getMessage());
    Value file = getStringPointer(rewriter, op, op.getFile());
    Value function = getStringPointer(rewriter, op, op.getFunction());
    Value line = i32Constant(rewriter, loc, op.getLine());
    Value charSize = LLVM::ConstantOp::create(
        rewriter, loc, rewriter.getI64Type(), rewriter.getI64IntegerAttr(1));
    LLVM::CallOp::create(rewriter, loc, assertFail,
                         ValueRange{message, file, line, function, charSize});
    LLVM::BrOp::create(rewriter, loc, after);
    rewriter.setInsertionPointToStart(after);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mgp::populateMiscOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const TargetInfo &target) {
  patterns.add<PtrToIntOpConversion, IntToPtrOpConversion, PtrCastOpConversion>(
      converter);
  patterns.add<PrintOpConversion, AssertOpConversion>(converter, target);
}
