//===- LoadStoreOpToLLVM.cpp - mgp.load and mgp.store ---------------------===//
//
// This file implements the lowering of global memory accesses. A tensor
// access is split into groups of `mgp.vector_width` registers (set by the
// coalescing pass; checked here against the layout: a group must be
// contiguous along one dim) and each group is one vector access. Unpredicated
// groups are plain LLVM vector loads/stores (NVPTX emits ld.global.v4.f32);
// masked ones, and stores that must skip replicated owners, are inline PTX
// with a predicate, as Triton does: `@p ld.global.v4.b32 {...}, [ptr]` after
// moving `other` into the outputs. A load with a cache modifier (`mgp.cache`)
// is always inline PTX, `ld.global.cg.v4.b32` and so on (true predicate when
// unmasked).
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mgp;

namespace {

/// The type an element has in memory: i1 is stored as i8, pointers as i64.
Type getMemoryType(Type elementType) {
  MLIRContext *ctx = elementType.getContext();
  if (elementType.isInteger(1))
    return IntegerType::get(ctx, 8);
  if (isa<LLVM::LLVMPointerType>(elementType))
    return IntegerType::get(ctx, 64);
  return elementType;
}

unsigned getBitWidth(Type memoryType) {
  return memoryType.getIntOrFloatBitWidth();
}

Value toMemory(OpBuilder &b, Location loc, Value value, Type memoryType) {
  if (value.getType() == memoryType)
    return value;
  if (isa<LLVM::LLVMPointerType>(value.getType()))
    return LLVM::PtrToIntOp::create(b, loc, memoryType, value);
  return LLVM::ZExtOp::create(b, loc, memoryType, value);
}

Value fromMemory(OpBuilder &b, Location loc, Value value, Type elementType) {
  if (value.getType() == elementType)
    return value;
  if (isa<LLVM::LLVMPointerType>(elementType))
    return LLVM::IntToPtrOp::create(b, loc, elementType, value);
  Value zero = intConstant(b, loc, value.getType(), 0);
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, value, zero);
}

/// How a group of `width` elements moves through inline PTX: as `words`
/// registers of `wordBits` (16 or 32; 8 for a single byte).
struct WordPlan {
  unsigned words, wordBits;
  const char *constraint; // register constraint letter
  std::string ptxType;    // b32, b16 or u8
};

WordPlan planWords(unsigned width, unsigned memBits) {
  unsigned total = width * memBits;
  if (total >= 32)
    return {total / 32, 32, "r", "b32"};
  if (total == 16)
    return {1, 16, "h", "b16"};
  return {1, 16, "h", "u8"};
}

std::string vectorSuffix(unsigned words) {
  return words == 1 ? "" : ".v" + std::to_string(words);
}

std::string addressSpaceName(Value pointer) {
  auto type = cast<LLVM::LLVMPointerType>(pointer.getType());
  return type.getAddressSpace() == 3 ? "shared" : "global";
}

/// Packs `elements` (memory types) into the plan's words.
SmallVector<Value> packWords(OpBuilder &b, Location loc,
                             ArrayRef<Value> elements, Type memoryType,
                             const WordPlan &plan) {
  Type wordType = b.getIntegerType(plan.wordBits);
  if (plan.ptxType == "u8")
    return {LLVM::ZExtOp::create(b, loc, wordType, elements[0])};
  auto vecType =
      VectorType::get({static_cast<int64_t>(elements.size())}, memoryType);
  Value vec = LLVM::UndefOp::create(b, loc, vecType);
  for (auto [i, element] : llvm::enumerate(elements))
    vec = LLVM::InsertElementOp::create(b, loc, vec, element,
                                        i32Constant(b, loc, i));
  auto wordsType = VectorType::get({plan.words}, wordType);
  Value words = LLVM::BitcastOp::create(b, loc, wordsType, vec);
  SmallVector<Value> result;
  for (unsigned i = 0; i < plan.words; ++i)
    result.push_back(
        LLVM::ExtractElementOp::create(b, loc, words, i32Constant(b, loc, i)));
  return result;
}

/// Unpacks words back into `width` elements of `memoryType`.
SmallVector<Value> unpackWords(OpBuilder &b, Location loc,
                               ArrayRef<Value> words, Type memoryType,
                               unsigned width, const WordPlan &plan) {
  if (plan.ptxType == "u8")
    return {LLVM::TruncOp::create(b, loc, memoryType, words[0])};
  Type wordType = b.getIntegerType(plan.wordBits);
  auto wordsType = VectorType::get({plan.words}, wordType);
  Value vec = LLVM::UndefOp::create(b, loc, wordsType);
  for (auto [i, word] : llvm::enumerate(words))
    vec = LLVM::InsertElementOp::create(b, loc, vec, word,
                                        i32Constant(b, loc, i));
  auto elemsType = VectorType::get({width}, memoryType);
  Value elems = LLVM::BitcastOp::create(b, loc, elemsType, vec);
  SmallVector<Value> result;
  for (unsigned i = 0; i < width; ++i)
    result.push_back(
        LLVM::ExtractElementOp::create(b, loc, elems, i32Constant(b, loc, i)));
  return result;
}

/// `width` elements at `pointer`, unpredicated.
SmallVector<Value> emitPlainLoad(OpBuilder &b, Location loc, Value pointer,
                                 Type memoryType, unsigned width) {
  unsigned bytes = getBitWidth(memoryType) / 8;
  if (width == 1)
    return {LLVM::LoadOp::create(b, loc, memoryType, pointer, bytes)};
  auto vecType = VectorType::get({width}, memoryType);
  Value vec = LLVM::LoadOp::create(b, loc, vecType, pointer, bytes * width);
  SmallVector<Value> result;
  for (unsigned i = 0; i < width; ++i)
    result.push_back(
        LLVM::ExtractElementOp::create(b, loc, vec, i32Constant(b, loc, i)));
  return result;
}

/// `width` elements at `pointer` where `predicate` holds, else `others`;
/// `cache` is a PTX cache operator ("ca", "cg", "cv") or empty.
SmallVector<Value> emitPredicatedLoad(OpBuilder &b, Location loc, Value pointer,
                                      Value predicate, ArrayRef<Value> others,
                                      Type memoryType, unsigned width,
                                      StringRef cache) {
  WordPlan plan = planWords(width, getBitWidth(memoryType));
  SmallVector<Value> otherWords = packWords(b, loc, others, memoryType, plan);
  std::string asmText, constraints;
  unsigned n = plan.words;
  for (unsigned i = 0; i < n; ++i) {
    asmText += "mov.b" + std::to_string(plan.wordBits) + " $" +
               std::to_string(i) + ", $" + std::to_string(n + 2 + i) + ";\n\t";
    constraints += std::string("=") + plan.constraint + ",";
  }
  // Cache operators are global-memory qualifiers.
  std::string space = addressSpaceName(pointer);
  std::string cacheOp =
      cache.empty() || space != "global" ? "" : "." + cache.str();
  asmText += "@$" + std::to_string(n + 1) + " ld." + space + cacheOp +
             vectorSuffix(n) + "." + plan.ptxType + " ";
  std::string outs;
  for (unsigned i = 0; i < n; ++i)
    outs += (i ? ", $" : "$") + std::to_string(i);
  asmText += (n == 1 ? outs : "{ " + outs + " }") + ", [ $" +
             std::to_string(n) + " + 0 ];";
  constraints += "l,b";
  for (unsigned i = 0; i < n; ++i)
    constraints += std::string(",") + plan.constraint;

  SmallVector<Value> operands{pointer, predicate};
  operands.append(otherWords.begin(), otherWords.end());
  Type wordType = b.getIntegerType(plan.wordBits);
  Type resultType =
      n == 1 ? wordType
             : LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                SmallVector<Type>(n, wordType));
  auto asmOp = LLVM::InlineAsmOp::create(
      b, loc, resultType, operands, asmText, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
  SmallVector<Value> words = unpackRegisters(b, loc, asmOp.getResult(0));
  return unpackWords(b, loc, words, memoryType, width, plan);
}

/// Stores `values` (memory types) at `pointer` where `predicate` holds
/// (always, when null).
void emitStore(OpBuilder &b, Location loc, Value pointer, Value predicate,
               ArrayRef<Value> values, Type memoryType) {
  unsigned width = values.size();
  unsigned bytes = getBitWidth(memoryType) / 8;
  if (!predicate) {
    if (width == 1) {
      LLVM::StoreOp::create(b, loc, values[0], pointer, bytes);
      return;
    }
    auto vecType = VectorType::get({width}, memoryType);
    Value vec = LLVM::UndefOp::create(b, loc, vecType);
    for (auto [i, value] : llvm::enumerate(values))
      vec = LLVM::InsertElementOp::create(b, loc, vec, value,
                                          i32Constant(b, loc, i));
    LLVM::StoreOp::create(b, loc, vec, pointer, bytes * width);
    return;
  }
  WordPlan plan = planWords(width, getBitWidth(memoryType));
  SmallVector<Value> words = packWords(b, loc, values, memoryType, plan);
  unsigned n = plan.words;
  std::string ins;
  for (unsigned i = 0; i < n; ++i)
    ins += (i ? ", $" : "$") + std::to_string(i + 1);
  std::string asmText = "@$" + std::to_string(n + 1) + " st." +
                        addressSpaceName(pointer) + vectorSuffix(n) + "." +
                        plan.ptxType + " [ $0 + 0 ], " +
                        (n == 1 ? ins : "{ " + ins + " }") + ";";
  std::string constraints = "l";
  for (unsigned i = 0; i < n; ++i)
    constraints += std::string(",") + plan.constraint;
  constraints += ",b";
  SmallVector<Value> operands{pointer};
  operands.append(words.begin(), words.end());
  operands.push_back(predicate);
  LLVM::InlineAsmOp::create(b, loc, TypeRange(), operands, asmText, constraints,
                            /*has_side_effects=*/true, /*is_align_stack=*/false,
                            LLVM::tailcallkind::TailCallKind::None,
                            LLVM::AsmDialectAttr(), ArrayAttr());
}

Value andPredicates(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (!lhs)
    return rhs;
  if (!rhs)
    return lhs;
  return LLVM::AndOp::create(b, loc, lhs, rhs);
}

/// (id & mask) == 0, or null when mask is 0.
Value isFirstOwner(OpBuilder &b, Location loc, Value id, unsigned mask) {
  if (!mask)
    return Value();
  Value bits = LLVM::AndOp::create(b, loc, id, i32Constant(b, loc, mask));
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bits,
                              i32Constant(b, loc, 0));
}

struct LoadOpConversion : TargetConversionPattern<LoadOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto &converter =
        static_cast<const MgpLLVMTypeConverter &>(*getTypeConverter());
    Type resultType = converter.convertType(op.getType());
    Type elementType =
        converter.convertElementType(mlir::getElementTypeOrSelf(op.getType()));
    if (!resultType || !elementType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    Type memoryType = getMemoryType(elementType);
    auto tensorType = dyn_cast<RankedTensorType>(op.getType());
    unsigned width =
        tensorType ? getAccessVectorWidth(op, tensorType, getBitWidth(memoryType))
                   : 1;

    SmallVector<Value> pointers =
        unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks, others;
    if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask());
    if (adaptor.getOther())
      others = unpackRegisters(rewriter, loc, adaptor.getOther());

    // A cache operator needs the inline-asm load (LLVM's load has none);
    // without a mask its predicate is true.
    StringRef cache;
    if (auto attr = op->getAttrOfType<StringAttr>(kCacheModifierAttr))
      cache = attr.getValue();
    if (!cache.empty() && masks.empty()) {
      Value all = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                           rewriter.getBoolAttr(true));
      masks.assign(pointers.size(), all);
    }
    SmallVector<Value> results;
    for (unsigned start = 0; start < pointers.size(); start += width) {
      SmallVector<Value> loaded;
      if (masks.empty()) {
        loaded =
            emitPlainLoad(rewriter, loc, pointers[start], memoryType, width);
      } else {
        SmallVector<Value> groupOthers;
        for (unsigned i = 0; i < width; ++i)
          groupOthers.push_back(
              others.empty()
                  ? zeroValue(rewriter, loc, memoryType)
                  : toMemory(rewriter, loc, others[start + i], memoryType));
        loaded =
            emitPredicatedLoad(rewriter, loc, pointers[start], masks[start],
                               groupOthers, memoryType, width, cache);
      }
      for (Value value : loaded)
        results.push_back(fromMemory(rewriter, loc, value, elementType));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, resultType, results));
    return success();
  }
};

struct StoreOpConversion : TargetConversionPattern<StoreOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto &converter =
        static_cast<const MgpLLVMTypeConverter &>(*getTypeConverter());
    Type valueType = op.getValue().getType();
    Type elementType =
        converter.convertElementType(mlir::getElementTypeOrSelf(valueType));
    if (!elementType || !converter.convertType(valueType))
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    Type memoryType = getMemoryType(elementType);

    // Only the first owner of each element stores it: thread 0 for scalars,
    // lanes/warps/registers off the layout's broadcast bits for tensors.
    Value ownerPredicate;
    unsigned regMask = 0;
    unsigned width = 1;
    if (auto tensorType = dyn_cast<RankedTensorType>(valueType)) {
      width = getAccessVectorWidth(op, tensorType, getBitWidth(memoryType));
      BroadcastMasks masks =
          getBroadcastMasks(tensorType.getEncoding(), tensorType.getShape());
      regMask = masks.reg;
      if (masks.lane || masks.warp) {
        Value lanePredicate = isFirstOwner(
            rewriter, loc, target.getLaneId(rewriter, loc), masks.lane);
        Value warpPredicate = isFirstOwner(
            rewriter, loc, target.getWarpId(rewriter, loc), masks.warp);
        ownerPredicate =
            andPredicates(rewriter, loc, lanePredicate, warpPredicate);
      }
    } else {
      ownerPredicate =
          isFirstOwner(rewriter, loc, target.getThreadId(rewriter, loc), ~0u);
    }

    SmallVector<Value> pointers =
        unpackRegisters(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> values =
        unpackRegisters(rewriter, loc, adaptor.getValue());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackRegisters(rewriter, loc, adaptor.getMask());
    for (unsigned start = 0; start < pointers.size(); start += width) {
      if (start & regMask)
        continue; // a replica of a lower register
      SmallVector<Value> group;
      for (unsigned i = 0; i < width; ++i)
        group.push_back(toMemory(rewriter, loc, values[start + i], memoryType));
      Value predicate = andPredicates(rewriter, loc, ownerPredicate,
                                      masks.empty() ? Value() : masks[start]);
      emitStore(rewriter, loc, pointers[start], predicate, group, memoryType);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mgp::populateLoadStoreOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const TargetInfo &target) {
  patterns.add<LoadOpConversion, StoreOpConversion>(converter, target);
}
