//===- AtomicOpToLLVM.cpp - mgp.atomic_rmw and mgp.atomic_cas -------------===//
//
// This file implements the lowering of the atomics, as Triton does: one
// inline-PTX `atom.<sem>.<scope>.global.<op>.<type>` per element register,
// predicated on the element's mask and on the thread being the element's
// first owner (registers, lanes and warps off the layout's broadcast bits;
// thread 0 for a scalar), so an element is updated once however many
// threads hold it. When the old values are used and other threads hold the
// element too (a scalar, a replicating layout), the owners write them to the
// op's shared scratch (SharedScratch.h: the result row-major), a barrier, and
// every thread reads its elements back. PTX has 16-bit float max/min atomics
// (a tensor descriptor's desc.atomic_max/min of fp16 or bf16) only as
// vectors on sm_90 (`.v2/.v4/.v8`, used for consecutive elements of a
// thread); a lone element runs a compare-and-swap loop on its 16 bits,
// `max.f16` / `max.bf16` of the value read and the operand swapped in until
// no other thread got between. Consecutive elements whose alignment or masks
// are only known at run time (`mgp.checked_vector_width`, a row length that
// is not a multiple of 16) check them per group: one vector atom when the
// group's first address is aligned and every element is in, else the loop
// for each element that is in.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/gpu/SharedScratch.h"
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

/// PTX spelling of the memory ordering and scope.
std::string getSemanticSuffix(MemSemantic sem, MemScope scope) {
  std::string s;
  switch (sem) {
  case MemSemantic::Relaxed:
    s = ".relaxed";
    break;
  case MemSemantic::Acquire:
    s = ".acquire";
    break;
  case MemSemantic::Release:
    s = ".release";
    break;
  case MemSemantic::AcqRel:
    s = ".acq_rel";
    break;
  }
  switch (scope) {
  case MemScope::GPU:
    return s + ".gpu";
  case MemScope::CTA:
    return s + ".cta";
  case MemScope::System:
    return s + ".sys";
  }
  return s;
}

/// The PTX `.op.type` of an atomic read-modify-write on `elem`.
std::string getRMWSuffix(AtomicRMWKind kind, Type elem) {
  unsigned bits = elem.getIntOrFloatBitWidth();
  std::string b = std::to_string(bits);
  switch (kind) {
  case AtomicRMWKind::Add:
    return ".add.u" + b;
  case AtomicRMWKind::FAdd:
    if (elem.isF16())
      return ".add.noftz.f16";
    if (elem.isBF16())
      return ".add.noftz.bf16";
    return ".add.f" + b;
  case AtomicRMWKind::Max:
    return ".max.s" + b;
  case AtomicRMWKind::Min:
    return ".min.s" + b;
  case AtomicRMWKind::UMax:
    return ".max.u" + b;
  case AtomicRMWKind::UMin:
    return ".min.u" + b;
  case AtomicRMWKind::FMax:
    return elem.isBF16() ? ".max.bf16" : ".max.f" + b;
  case AtomicRMWKind::FMin:
    return elem.isBF16() ? ".min.bf16" : ".min.f" + b;
  case AtomicRMWKind::And:
    return ".and.b" + b;
  case AtomicRMWKind::Or:
    return ".or.b" + b;
  case AtomicRMWKind::Xor:
    return ".xor.b" + b;
  case AtomicRMWKind::Xchg:
    return ".exch.b" + b;
  }
  return "";
}

/// True for a float max/min on 16-bit elements, which PTX lacks as an atom.
bool isHalfFloatMinMax(AtomicRMWKind kind, Type elem) {
  return (kind == AtomicRMWKind::FMax || kind == AtomicRMWKind::FMin) &&
         (elem.isF16() || elem.isBF16());
}

/// The compare-and-swap loop of a 16-bit float max/min, with the operands
/// of the single-atom text ($0 the old value, $1 the address, $2 the
/// predicate, $3 the operand). `${:uid}` makes the labels unique per copy.
std::string getHalfMinMaxLoop(AtomicRMWOp op, Type elem) {
  std::string cas = "atom" + getSemanticSuffix(op.getSem(), op.getScope()) +
                    ".global.cas.b16";
  std::string combine =
      std::string(op.getKind() == AtomicRMWKind::FMax ? "max" : "min") +
      (elem.isBF16() ? ".bf16" : ".f16");
  return "{\n\t"
         ".reg .pred %p;\n\t"
         ".reg .b16 %seen, %want;\n\t"
         "mov.b16 $0, 0;\n\t"
         "@!$2 bra mgp_hminmax_done_${:uid};\n\t"
         "ld.relaxed.gpu.global.b16 $0, [ $1 + 0 ];\n"
         "mgp_hminmax_loop_${:uid}:\n\t"
         "mov.b16 %seen, $0;\n\t" +
         combine + " %want, %seen, $3;\n\t" + cas +
         " $0, [ $1 + 0 ], %seen, %want;\n\t"
         "setp.ne.b16 %p, $0, %seen;\n\t"
         "@%p bra mgp_hminmax_loop_${:uid};\n"
         "mgp_hminmax_done_${:uid}:\n\t"
         "}";
}

/// One compare-and-swap loop of a 16-bit float max/min on `pointer`, run
/// when `predicate` holds; returns the old bits (0 when it does not run).
Value emitHalfMinMaxLoop(OpBuilder &b, AtomicRMWOp op, Type elem, Value pointer,
                         Value predicate, Value bits) {
  auto asmOp = LLVM::InlineAsmOp::create(
      b, op.getLoc(), b.getI16Type(), ValueRange{pointer, predicate, bits},
      getHalfMinMaxLoop(op, elem), "=h,l,b,h",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
  return asmOp.getResult(0);
}

/// The inline-asm register constraint and the integer type an element
/// travels in.
std::pair<char, Type> getRegisterClass(OpBuilder &b, Type elem) {
  switch (elem.getIntOrFloatBitWidth()) {
  case 16:
    return {'h', b.getI16Type()};
  case 32:
    return {'r', b.getI32Type()};
  default:
    return {'l', b.getI64Type()};
  }
}

Value toBits(OpBuilder &b, Location loc, Value v, Type bitsType) {
  return v.getType() == bitsType
             ? v
             : LLVM::BitcastOp::create(b, loc, bitsType, v).getResult();
}

Value isFirstOwner(OpBuilder &b, Location loc, Value id, unsigned mask) {
  if (!mask)
    return {};
  Value bits = LLVM::AndOp::create(b, loc, id, i32Constant(b, loc, mask));
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bits,
                              i32Constant(b, loc, 0));
}

Value andPredicates(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  return LLVM::AndOp::create(b, loc, lhs, rhs);
}

/// The predicate of the atomic on register `reg`: its thread owns the
/// element and the element's mask (when there is one) is true.
Value registerPredicate(OpBuilder &b, Location loc, Value owner,
                        ArrayRef<Value> masks, unsigned reg) {
  Value predicate =
      andPredicates(b, loc, owner, masks.empty() ? Value() : masks[reg]);
  if (!predicate)
    predicate =
        LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
  return predicate;
}

template <typename OpTy>
struct AtomicOpConversion : TargetConversionPattern<OpTy> {
  using TargetConversionPattern<OpTy>::TargetConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  /// Groups of `width` registers of `elem`, consecutive in memory, each
  /// updated by one predicated vector atom (old values 0 where the element's
  /// mask is false): fp32 adds as `atom...add.v<width>.f32`, fp16/bf16
  /// max/min as `atom...max.noftz.v<width>.f16` (sm_90).
  /// With `checked` (16-bit max/min only), each group's vector atom runs
  /// only when its first address is aligned to the group and every element
  /// is in; otherwise each element that is in runs its compare-and-swap loop.
  LogicalResult rewriteVector(OpTy op, ConversionPatternRewriter &rewriter,
                              const std::string &text, Type elem,
                              unsigned width, unsigned regMask, Value owner,
                              ArrayRef<Value> pointers, ArrayRef<Value> values,
                              ArrayRef<Value> masks, bool checked) const {
    Location loc = op.getLoc();
    auto [constraint, bitsType] = getRegisterClass(rewriter, elem);
    Type regType = elem.isF32() ? elem : bitsType;
    std::string reg(1, elem.isF32() ? 'f' : constraint);
    std::string bits = std::to_string(elem.getIntOrFloatBitWidth());
    // "mov.b32 $0, 0; ... @$p atom.<...>.add.v4.f32 {$0, ...}, [ $a + 0 ],
    // {$v0, ...};": results 0..width-1, the address, the predicate, the
    // values.
    std::string moves, results, inputs, constraints;
    for (unsigned i = 0; i < width; ++i) {
      moves += "mov.b" + bits + " $" + std::to_string(i) + ", 0;\n\t";
      results += (i ? ", $" : "$") + std::to_string(i);
      inputs += (i ? ", $" : "$") + std::to_string(width + 2 + i);
      constraints += "=" + reg + ",";
    }
    constraints += "l,b";
    for (unsigned i = 0; i < width; ++i)
      constraints += "," + reg;
    // The element type's suffix becomes the vector's (".f32" ->
    // ".v4.f32"); 16-bit max/min also take .noftz.
    std::string vectorText = text;
    size_t typeAt = vectorText.rfind('.');
    vectorText.insert(typeAt, ".v" + std::to_string(width));
    if (!elem.isF32())
      vectorText.insert(typeAt, ".noftz");
    std::string asmText = moves + "@$" + std::to_string(width + 1) + " " +
                          vectorText + " {" + results + "}, [ $" +
                          std::to_string(width) + " + 0 ], {" + inputs + "};";
    SmallVector<Type> fields(width, regType);
    auto resultType =
        LLVM::LLVMStructType::getLiteral(rewriter.getContext(), fields);
    SmallVector<Value> old(pointers.size());
    for (unsigned reg = 0; reg < pointers.size(); reg += width) {
      if (reg & regMask)
        continue; // replicas of lower registers
      Value predicate = registerPredicate(rewriter, loc, owner, masks, reg);
      if (checked) {
        // Aligned to the group's bytes, and every element in.
        Value address = LLVM::PtrToIntOp::create(
            rewriter, loc, rewriter.getI64Type(), pointers[reg]);
        int64_t groupBytes = width * elem.getIntOrFloatBitWidth() / 8;
        Value misaligned = LLVM::AndOp::create(
            rewriter, loc, address,
            LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                     groupBytes - 1));
        predicate = LLVM::AndOp::create(
            rewriter, loc, predicate,
            LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                 misaligned,
                                 LLVM::ConstantOp::create(
                                     rewriter, loc, rewriter.getI64Type(), 0)));
        for (unsigned i = 1; i < width && !masks.empty(); ++i)
          predicate =
              LLVM::AndOp::create(rewriter, loc, predicate, masks[reg + i]);
      }
      SmallVector<Value> operands{pointers[reg], predicate};
      for (unsigned i = 0; i < width; ++i)
        operands.push_back(toBits(rewriter, loc, values[reg + i], regType));
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, resultType, operands, asmText, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
          ArrayAttr());
      Value slow;
      if (checked)
        slow = LLVM::XOrOp::create(
            rewriter, loc, predicate,
            LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                     rewriter.getBoolAttr(true)));
      for (unsigned i = 0; i < width; ++i) {
        Value v =
            LLVM::ExtractValueOp::create(rewriter, loc, asmOp.getResult(0), i);
        if constexpr (std::is_same_v<OpTy, AtomicRMWOp>)
          if (checked) {
            // This element on its own when the group could not go as one.
            Value elementPredicate = LLVM::AndOp::create(
                rewriter, loc, slow,
                registerPredicate(rewriter, loc, owner, masks, reg + i));
            Value loopOld = emitHalfMinMaxLoop(
                rewriter, op, elem, pointers[reg + i], elementPredicate,
                toBits(rewriter, loc, values[reg + i], regType));
            v = LLVM::SelectOp::create(rewriter, loc, predicate, v, loopOld);
          }
        if (v.getType() != values[reg + i].getType())
          v = LLVM::BitcastOp::create(rewriter, loc, values[reg + i].getType(),
                                      v);
        old[reg + i] = v;
      }
    }
    for (unsigned reg = 0; reg < old.size(); ++reg)
      if (!old[reg])
        old[reg] = old[reg & ~regMask];
    // No replicas read old values here (atomicNeedsScratch is false).
    Type structType =
        this->getTypeConverter()->convertType(op.getResult().getType());
    if (!structType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, old));
    return success();
  }

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const TargetInfo &target = this->target;
    Type resultType = op.getResult().getType();
    Type elem = getElementTypeOrSelf(resultType);
    auto [constraint, bitsType] = getRegisterClass(rewriter, elem);
    std::string text =
        "atom" + getSemanticSuffix(op.getSem(), op.getScope()) + ".global";
    constexpr bool isCas = std::is_same_v<OpTy, AtomicCASOp>;
    if constexpr (isCas)
      text += ".cas.b" + std::to_string(elem.getIntOrFloatBitWidth());
    else
      text += getRMWSuffix(op.getKind(), elem);

    // Who updates which element.
    auto tensorType = dyn_cast<RankedTensorType>(resultType);
    Value owner;
    unsigned regMask = 0;
    if (tensorType) {
      BroadcastMasks masks =
          getBroadcastMasks(tensorType.getEncoding(), tensorType.getShape());
      regMask = masks.reg;
      owner = andPredicates(
          rewriter, loc,
          isFirstOwner(rewriter, loc, target.getLaneId(rewriter, loc),
                       masks.lane),
          isFirstOwner(rewriter, loc, target.getWarpId(rewriter, loc),
                       masks.warp));
    } else {
      owner =
          isFirstOwner(rewriter, loc, target.getThreadId(rewriter, loc), ~0u);
    }
    SmallVector<Value> pointers =
        unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values =
        unpackRegisters(rewriter, loc, adaptor.getVal());
    SmallVector<Value> cmps, masks;
    if constexpr (isCas)
      cmps = unpackRegisters(rewriter, loc, adaptor.getCmp());
    else if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask());

    // fp32 adds and fp16/bf16 max/min on consecutive elements (mgp-coalesce
    // set a vector width, sm_90): one vector atom per group, as Triton emits
    // for adds.
    unsigned width = 1;
    if constexpr (!isCas)
      if (tensorType && hasVectorAtomicForm(op.getKind(), elem))
        width =
            getAccessVectorWidth(op, tensorType, elem.getIntOrFloatBitWidth());
    // fp16/bf16 max/min on consecutive elements whose alignment or masks
    // only the run time knows: checked per group.
    bool checked = false;
    if constexpr (!isCas)
      if (auto attr = op->template getAttrOfType<IntegerAttr>(
              "mgp.checked_vector_width");
          attr && tensorType && isHalfFloatMinMax(op.getKind(), elem)) {
        unsigned checkedWidth = getRegisterGroupWidth(
            tensorType, attr.getInt(), elem.getIntOrFloatBitWidth());
        if (checkedWidth > width) {
          width = checkedWidth;
          checked = true;
        }
      }
    if ((regMask & (width - 1)) || atomicNeedsScratch(op))
      width = 1; // a group would hold replicas; replicas share old values
    if (width > 1)
      return rewriteVector(op, rewriter, text, elem, width, regMask, owner,
                           pointers, values, masks, checked);

    std::string asmText = std::string("mov.b") +
                          std::to_string(elem.getIntOrFloatBitWidth()) +
                          " $0, 0;\n\t@$2 " + text + " $0, [ $1 + 0 ], $3" +
                          (isCas ? ", $4;" : ";");
    if constexpr (!isCas)
      if (isHalfFloatMinMax(op.getKind(), elem))
        asmText = getHalfMinMaxLoop(op, elem);
    std::string constraints =
        std::string("=") + constraint + ",l,b," + constraint +
        (isCas ? std::string(",") + constraint : std::string());
    SmallVector<Value> old(pointers.size());
    for (unsigned reg = 0; reg < pointers.size(); ++reg) {
      if (reg & regMask)
        continue; // a replica of a lower register
      SmallVector<Value> operands{
          pointers[reg], registerPredicate(rewriter, loc, owner, masks, reg)};
      if constexpr (isCas)
        operands.push_back(toBits(rewriter, loc, cmps[reg], bitsType));
      operands.push_back(toBits(rewriter, loc, values[reg], bitsType));
      auto asmOp = LLVM::InlineAsmOp::create(
          rewriter, loc, bitsType, operands, asmText, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
          ArrayAttr());
      Value result = asmOp.getResult(0);
      if (result.getType() != values[reg].getType())
        result = LLVM::BitcastOp::create(rewriter, loc, values[reg].getType(),
                                         result);
      old[reg] = result;
    }
    for (unsigned reg = 0; reg < old.size(); ++reg)
      if (!old[reg])
        old[reg] = old[reg & ~regMask];

    if (atomicNeedsScratch(op)) {
      // Share the old values: owners write, everyone reads.
      std::optional<int64_t> offset = getAllocationOffset(op);
      if (!offset)
        return failure();
      Value base = getSharedPointer(rewriter, loc, target, op, *offset);
      Type memType = values[0].getType();
      SmallVector<Value> slots;
      if (tensorType) {
        auto indices = emitElementIndices(rewriter, loc, tensorType,
                                          target.getLaneId(rewriter, loc),
                                          target.getWarpId(rewriter, loc));
        for (auto &coords : indices)
          slots.push_back(
              emitLinearOffset(rewriter, loc, coords, tensorType.getShape()));
      } else {
        slots.push_back(i32Constant(rewriter, loc, 0));
      }
      for (unsigned reg = 0; reg < old.size(); ++reg) {
        if (reg & regMask)
          continue;
        Value address = LLVM::GEPOp::create(rewriter, loc, base.getType(),
                                            memType, base, slots[reg]);
        // Only the owner writes (a conditional block; scf is lowered by
        // now).
        Block *current = rewriter.getInsertionBlock();
        Block *after =
            rewriter.splitBlock(current, rewriter.getInsertionPoint());
        Block *store = rewriter.createBlock(after);
        rewriter.setInsertionPointToEnd(current);
        if (owner)
          LLVM::CondBrOp::create(rewriter, loc, owner, store, after);
        else
          LLVM::BrOp::create(rewriter, loc, store);
        rewriter.setInsertionPointToEnd(store);
        LLVM::StoreOp::create(rewriter, loc, old[reg], address);
        LLVM::BrOp::create(rewriter, loc, after);
        rewriter.setInsertionPointToStart(after);
      }
      target.barrier(rewriter, loc);
      for (unsigned reg = 0; reg < old.size(); ++reg) {
        Value address = LLVM::GEPOp::create(rewriter, loc, base.getType(),
                                            memType, base, slots[reg]);
        old[reg] = LLVM::LoadOp::create(rewriter, loc, memType, address);
      }
    }
    return replaceWithRegisters(
        op, old,
        static_cast<const MgpLLVMTypeConverter &>(*this->getTypeConverter()),
        rewriter);
  }
};

} // namespace

void mgp::populateAtomicOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const TargetInfo &target) {
  patterns
      .add<AtomicOpConversion<AtomicRMWOp>, AtomicOpConversion<AtomicCASOp>>(
          converter, target);
}
