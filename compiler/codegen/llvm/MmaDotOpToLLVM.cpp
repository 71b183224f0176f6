//===- MmaDotOpToLLVM.cpp - mgp.dot on tensor cores (mma.sync) ------------===//
//
// This file implements the lowering of mgp.dot whose accumulator is
// `#mgp.mma` version 2 and whose operands are `#mgp.dot_op` of it: one
// `mma.sync.aligned.m16n8k8` (tf32), `m16n8k16` (f16, bf16) or `m16n8k32`
// (signed int8) per 16x8 tile of the accumulator a warp owns and per K step,
// fp32 accumulation (int32, wrapping, for int8), emitted as inline PTX. Operands are packed into 32-bit registers per the fragment
// tables of compiler/ir/Layout.h (notes §1.4; tf32 rounded by cvt.rna); which
// register holds an element is read off the layout function at lane 0 / warp 0
// (every other thread holds its fragment at the same registers), never assumed.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mgp;

namespace {

using Coord = std::pair<int64_t, int64_t>;

/// The operand element kinds mma.sync takes here.
enum class MmaKind { TF32, F16, BF16, S8 };

struct MmaShape {
  int64_t k;            ///< K of one instruction (8 or 16)
  unsigned elemsPerReg; ///< operand elements per 32-bit register
  const char *ptxType;
};

MmaShape getMmaShape(MmaKind kind) {
  switch (kind) {
  case MmaKind::TF32:
    return {8, 1, "tf32"};
  case MmaKind::F16:
    return {16, 2, "f16"};
  case MmaKind::BF16:
    return {16, 2, "bf16"};
  case MmaKind::S8:
    return {32, 4, "s8"};
  }
  llvm_unreachable("unknown mma kind");
}

struct MmaDotOpConversion : ConvertOpToLLVMPattern<DotOp> {
  explicit MmaDotOpConversion(MgpLLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern(converter, kMgpPatternBenefit + 1) {}

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto mma = dyn_cast_or_null<MmaEncodingAttr>(cType.getEncoding());
    if (!mma)
      return rewriter.notifyMatchFailure(op, "not an mma accumulator");
    Type structType = getTypeConverter()->convertType(cType);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    auto aEnc = dyn_cast<DotOperandEncodingAttr>(aType.getEncoding());
    auto bEnc = dyn_cast<DotOperandEncodingAttr>(bType.getEncoding());
    if (mma.getVersion() != 2 || !aEnc || !bEnc || aEnc.getParent() != mma ||
        bEnc.getParent() != mma)
      return op->emitError("the mma.sync lowering needs an #mgp.mma version 2 "
                           "accumulator and dot_op operands of it");
    Type element = aType.getElementType();
    MmaKind kind;
    if (element.isF32())
      kind = MmaKind::TF32;
    else if (element.isF16())
      kind = MmaKind::F16;
    else if (element.isBF16())
      kind = MmaKind::BF16;
    else if (element.isInteger(8))
      kind = MmaKind::S8;
    else
      return op->emitError("mma.sync takes f32 (tf32), f16, bf16 or i8 "
                           "operands");
    MmaShape shape = getMmaShape(kind);
    bool integer = kind == MmaKind::S8;
    Type accType = integer ? Type(rewriter.getI32Type())
                           : Type(rewriter.getF32Type());
    if (cType.getElementType() != accType ||
        aEnc.getKWidth() != shape.elemsPerReg ||
        bEnc.getKWidth() != shape.elemsPerReg)
      return op->emitError("mma.sync needs an f32 accumulator (i32 for i8) "
                           "and operands with kWidth = 32 / element bits");
    int64_t m = cType.getShape()[0], n = cType.getShape()[1],
            k = aType.getShape()[1];
    if (m % 16 || n % 8 || k % shape.k)
      return op->emitError("mma.sync needs M % 16 == 0, N % 8 == 0 and K a "
                           "multiple of the instruction's K");

    int64_t tileM = 16 * mma.getWarpsPerCTA()[0];
    int64_t tileN = 8 * mma.getWarpsPerCTA()[1];
    int64_t repM = std::max<int64_t>(1, m / tileM);
    int64_t repN = std::max<int64_t>(1, n / tileN);
    RegisterTable aTable = getLane0RegisterTable(aType), bTable = getLane0RegisterTable(bType),
                  cTable = getLane0RegisterTable(cType);
    SmallVector<Value> aRegs = unpackRegisters(rewriter, loc, adaptor.getA());
    SmallVector<Value> bRegs = unpackRegisters(rewriter, loc, adaptor.getB());
    SmallVector<Value> cRegs = unpackRegisters(rewriter, loc, adaptor.getC());

    bool missing = false;
    auto reg = [&](const RegisterTable &table, ArrayRef<Value> regs,
                   int64_t row, int64_t col) -> Value {
      auto it = table.find({row, col});
      if (it == table.end()) {
        missing = true;
        return regs.front();
      }
      return regs[it->second];
    };
    Type i32 = rewriter.getI32Type();
    // tf32 operands are rounded once per register (cvt.rna.tf32.f32, ties
    // away from zero, as the interpreter's roundTF32) instead of letting the
    // tensor core drop the low 13 bits.
    DenseMap<Value, Value> tf32Cache;
    auto toTF32 = [&](Value f) -> Value {
      Value &cached = tf32Cache[f];
      if (!cached)
        cached = LLVM::InlineAsmOp::create(
                     rewriter, loc, i32, ValueRange{f},
                     "cvt.rna.tf32.f32 $0, $1;", "=r,f",
                     /*has_side_effects=*/false, /*is_align_stack=*/false,
                     LLVM::tailcallkind::TailCallKind::None,
                     LLVM::AsmDialectAttr(), ArrayAttr())
                     .getResult(0);
      return cached;
    };
    // One 32-bit operand register: (row, col) and, for narrower elements,
    // its next K neighbours (col + e for A, row + e for B), lowest first.
    auto pack = [&](const RegisterTable &table, ArrayRef<Value> regs,
                    int64_t row, int64_t col, bool isA) -> Value {
      Value lo = reg(table, regs, row, col);
      if (shape.elemsPerReg == 1)
        return toTF32(lo);
      auto vecType = VectorType::get({shape.elemsPerReg}, lo.getType());
      Value vec = LLVM::UndefOp::create(rewriter, loc, vecType);
      for (unsigned e = 0; e < shape.elemsPerReg; ++e) {
        Value element = isA ? reg(table, regs, row, col + e)
                            : reg(table, regs, row + e, col);
        vec = LLVM::InsertElementOp::create(rewriter, loc, vec, element,
                                            i32Constant(rewriter, loc, e));
      }
      return LLVM::BitcastOp::create(rewriter, loc, i32, vec);
    };

    // Accumulators of tile (i, j): c0 (0,0) c1 (0,1) c2 (8,0) c3 (8,1).
    static constexpr int64_t cRow[4] = {0, 0, 8, 8}, cCol[4] = {0, 1, 0, 1};
    SmallVector<SmallVector<Value, 4>> acc(repM * repN);
    for (int64_t i = 0; i < repM; ++i)
      for (int64_t j = 0; j < repN; ++j)
        for (int e = 0; e < 4; ++e)
          acc[i * repN + j].push_back(
              reg(cTable, cRegs, i * tileM + cRow[e], j * tileN + cCol[e]));
    // A rows (g, g+8) x K chunks (0, kHalf); B K chunks (0, kHalf).
    int64_t kHalf = shape.k / 2;
    static constexpr int64_t aRow[4] = {0, 8, 0, 8};
    const int64_t aCol[4] = {0, 0, kHalf, kHalf};
    const char *accPtx = integer ? "s32" : "f32";
    std::string asmText = std::string("mma.sync.aligned.m16n8k") +
                          std::to_string(shape.k) + ".row.col." + accPtx +
                          "." + shape.ptxType + "." + shape.ptxType + "." +
                          accPtx +
                          " {$0, $1, $2, $3}, {$4, $5, $6, $7}, "
                          "{$8, $9}, {$10, $11, $12, $13};";
    std::string constraints = integer ? "=r,=r,=r,=r,r,r,r,r,r,r,0,1,2,3"
                                      : "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3";
    Type resultType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(4, accType));
    for (int64_t kk = 0; kk < k / shape.k; ++kk) {
      int64_t k0 = kk * shape.k;
      for (int64_t i = 0; i < repM; ++i) {
        SmallVector<Value> aOps;
        for (int r = 0; r < 4; ++r)
          aOps.push_back(
              pack(aTable, aRegs, i * tileM + aRow[r], k0 + aCol[r], true));
        for (int64_t j = 0; j < repN; ++j) {
          SmallVector<Value> operands(aOps);
          operands.push_back(pack(bTable, bRegs, k0, j * tileN, false));
          operands.push_back(pack(bTable, bRegs, k0 + kHalf, j * tileN, false));
          SmallVector<Value, 4> &c = acc[i * repN + j];
          operands.append(c.begin(), c.end());
          auto asmOp = LLVM::InlineAsmOp::create(
              rewriter, loc, resultType, operands, asmText, constraints,
              /*has_side_effects=*/false, /*is_align_stack=*/false,
              LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
              ArrayAttr());
          SmallVector<Value> d =
              unpackRegisters(rewriter, loc, asmOp.getResult(0));
          c.assign(d.begin(), d.end());
        }
      }
    }
    if (missing)
      return op->emitError("a thread does not hold the mma fragment the "
                           "layout function promises");

    // Every accumulator register takes the value of its coordinates.
    DenseMap<Coord, Value> computed;
    for (int64_t i = 0; i < repM; ++i)
      for (int64_t j = 0; j < repN; ++j)
        for (int e = 0; e < 4; ++e)
          computed[{i * tileM + cRow[e], j * tileN + cCol[e]}] =
              acc[i * repN + j][e];
    auto coords = getElementCoords(cType.getEncoding(), cType.getShape(), 0, 0);
    SmallVector<Value> results;
    for (auto &c : coords) {
      Value v = computed.lookup({c[0], c[1]});
      if (!v)
        return op->emitError("an accumulator register is outside the mma "
                             "tiles of its thread");
      results.push_back(v);
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, results));
    return success();
  }
};

} // namespace

void mgp::populateMmaDotOpToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                         RewritePatternSet &patterns) {
  patterns.add<MmaDotOpConversion>(converter);
}
