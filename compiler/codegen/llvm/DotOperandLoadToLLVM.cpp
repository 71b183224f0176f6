//===- DotOperandLoadToLLVM.cpp - local_load into mma operands (ldmatrix) -===//
//
// This file implements the ldmatrix lowering of mgp.local_load whose result
// is `#mgp.dot_op` of an `#mgp.mma` v2 parent and whose buffer is K
// contiguous (8-bit operands, kWidth 4, 16-bit ones, kWidth 2, and tf32
// ones, kWidth 1), or M/N contiguous with 16-bit elements (`.trans`):
// `ldmatrix.sync.aligned.m8n8.x4.shared.b16` loads four 8-row x 16-byte
// matrices, lane l giving the address of row l % 8 of matrix l / 8, and
// leaves in each thread (g = lane / 4, t = lane % 4) the 32-bit word t of row
// g of every matrix: exactly the a0..a3 (A: rows +0/+8, K halves) and b0, b1
// (B: K chunks) fragment registers of mma.sync. Which register of the result
// holds which element comes from the layout function at lane 0 / warp 0;
// the warp's offset from its warp bases. Other local_loads (8- and 32-bit
// M/N-contiguous buffers, FMA operands) keep LocalMemOpToLLVM.cpp's
// element-wise loads.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/codegen/llvm/SharedAccess.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mgp;

namespace {

using Coord = std::pair<int64_t, int64_t>;

/// Whether `op` can be lowered with ldmatrix: a 2-D K-contiguous buffer (or
/// M/N-contiguous, 16-bit: .trans) whose 16-byte row chunks stay contiguous
/// under its swizzle, read into an mma v2 operand with kWidth = 32 / element
/// bits.
bool canUseLdMatrix(LocalLoadOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(type.getEncoding());
  if (!dot || type.getRank() != 2)
    return false;
  auto mma = dyn_cast<MmaEncodingAttr>(dot.getParent());
  if (!mma || mma.getVersion() != 2)
    return false;
  unsigned bits = type.getElementTypeBitWidth();
  if (!((bits == 8 && dot.getKWidth() == 4) ||
        (bits == 16 && dot.getKWidth() == 2) ||
        (bits == 32 && dot.getKWidth() == 1)) ||
      !type.getElementType().isIntOrFloat())
    return false;
  auto buffer = cast<MemDescType>(op.getSrc().getType());
  auto shared = dyn_cast<SharedEncodingAttr>(buffer.getEncoding());
  unsigned kDim = dot.getOpIdx() == 0 ? 1 : 0;
  if (!shared || buffer.getShape().size() != 2)
    return false;
  // M/N contiguous: ldmatrix.trans, which exists for 16-bit elements.
  if (shared.getOrder()[0] != kDim && bits != 16)
    return false;
  if (shared.getMaxPhase() != 1 && shared.getVec() * bits < 128)
    return false;
  int64_t kInstr = 256 / bits;
  int64_t nonKTile = dot.getOpIdx() == 0 ? 16 : 8;
  return type.getShape()[kDim] % kInstr == 0 &&
         type.getShape()[1 - kDim] % nonKTile == 0;
}

struct DotOperandLoadConversion : ConvertOpToLLVMPattern<LocalLoadOp> {
  DotOperandLoadConversion(MgpLLVMTypeConverter &converter,
                           const TargetInfo &target)
      : ConvertOpToLLVMPattern(converter, kMgpPatternBenefit + 1),
        target(target) {}

  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!canUseLdMatrix(op))
      return rewriter.notifyMatchFailure(op, "not a K-contiguous mma operand");
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    Type structType = getTypeConverter()->convertType(type);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    auto &converter =
        static_cast<const MgpLLVMTypeConverter &>(*getTypeConverter());
    Type elementType = converter.convertElementType(type.getElementType());
    auto dot = cast<DotOperandEncodingAttr>(type.getEncoding());
    auto mma = cast<MmaEncodingAttr>(dot.getParent());
    auto bufferType = cast<MemDescType>(op.getSrc().getType());
    bool isA = dot.getOpIdx() == 0;
    unsigned kDim = isA ? 1 : 0, nonKDim = 1 - kDim;
    unsigned bits = type.getElementTypeBitWidth();
    int64_t elemsPerReg = 32 / bits, chunk = 128 / bits; // K elems in 16 B
    int64_t kInstr = 2 * chunk;
    ArrayRef<int64_t> shape = type.getShape();
    int64_t tileNonK =
        isA ? 16 * mma.getWarpsPerCTA()[0] : 8 * mma.getWarpsPerCTA()[1];
    int64_t repNonK = std::max<int64_t>(1, shape[nonKDim] / tileNonK);
    int64_t kSteps = shape[kDim] / kInstr;

    SmallVector<Value> fields =
        unpackRegisters(rewriter, loc, adaptor.getSrc());
    Value base = fields.front();
    SmallVector<Value> starts(llvm::drop_begin(fields));
    Value lane = target.getLaneId(rewriter, loc);
    Value warp = target.getWarpId(rewriter, loc);
    auto c32 = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    // The warp's offset along each dim: the sum of its set bits' bases.
    LayoutBases bases = getLayoutBases(dot, shape);
    SmallVector<Value> warpOffset(2, c32(0));
    for (auto [bit, basis] : llvm::enumerate(bases.warp))
      for (unsigned d = 0; d < 2; ++d) {
        if (basis[d] == 0)
          continue;
        Value set = LLVM::AndOp::create(
            rewriter, loc, LLVM::LShrOp::create(rewriter, loc, warp, c32(bit)),
            c32(1));
        warpOffset[d] = LLVM::AddOp::create(
            rewriter, loc, warpOffset[d],
            LLVM::MulOp::create(rewriter, loc, set, c32(basis[d])));
      }
    // Lane l addresses row (l % 8) [+ 8 for A's matrices 1 and 3] and K
    // chunk: A: l / 16; B: l / 8 (four chunks = two K steps). An M/N
    // contiguous buffer is read with ldmatrix.trans: lane l addresses K row
    // (l % 8) of the matrix's chunk, whose 8 M/N elements are its 16 bytes,
    // and each thread receives the same elements as without .trans.
    bool trans = cast<SharedEncodingAttr>(bufferType.getEncoding())
                     .getOrder()[0] != kDim;
    Value rowInMatrix = LLVM::URemOp::create(rewriter, loc, lane, c32(8));
    Value matrix = LLVM::UDivOp::create(rewriter, loc, lane, c32(8));
    Value laneNonK, laneK;
    if (trans) {
      Value chunkIndex = matrix;
      laneNonK = c32(0);
      if (isA) {
        laneNonK = LLVM::MulOp::create(
            rewriter, loc, LLVM::URemOp::create(rewriter, loc, matrix, c32(2)),
            c32(8));
        chunkIndex = LLVM::UDivOp::create(rewriter, loc, matrix, c32(2));
      }
      laneK = LLVM::AddOp::create(
          rewriter, loc,
          LLVM::MulOp::create(rewriter, loc, chunkIndex, c32(chunk)),
          rowInMatrix);
    } else if (isA) {
      Value upper = LLVM::URemOp::create(rewriter, loc, matrix, c32(2));
      laneNonK = LLVM::AddOp::create(
          rewriter, loc, rowInMatrix,
          LLVM::MulOp::create(rewriter, loc, upper, c32(8)));
      laneK = LLVM::MulOp::create(
          rewriter, loc, LLVM::UDivOp::create(rewriter, loc, matrix, c32(2)),
          c32(chunk));
    } else {
      laneNonK = rowInMatrix;
      laneK = LLVM::MulOp::create(rewriter, loc, matrix, c32(chunk));
    }
    laneNonK =
        LLVM::AddOp::create(rewriter, loc, laneNonK, warpOffset[nonKDim]);
    laneK = LLVM::AddOp::create(rewriter, loc, laneK, warpOffset[kDim]);

    auto *ctx = rewriter.getContext();
    Type i32 = rewriter.getI32Type();
    DenseMap<Coord, Value> loaded;
    // One ldmatrix of `num` matrices at (nonK0, k0) (lane 0 / warp 0
    // coordinates); matrix q covers rows nonK0 + rowOff(q), K chunk kOff(q).
    auto load = [&](int64_t nonK0, int64_t k0, unsigned num) {
      SmallVector<Value> coords(2);
      coords[nonKDim] =
          LLVM::AddOp::create(rewriter, loc, laneNonK, c32(nonK0));
      coords[kDim] = LLVM::AddOp::create(rewriter, loc, laneK, c32(k0));
      for (unsigned d = 0; d < 2; ++d) {
        // Replicated warps and lanes (a tile larger than the tensor) wrap.
        coords[d] =
            LLVM::URemOp::create(rewriter, loc, coords[d], c32(shape[d]));
        coords[d] = LLVM::AddOp::create(rewriter, loc, coords[d], starts[d]);
      }
      Value offset = emitSwizzledOffset(rewriter, loc, bufferType, coords);
      Value address = LLVM::GEPOp::create(rewriter, loc, base.getType(),
                                          elementType, base, offset);
      Type resultType = num == 1 ? i32
                                 : LLVM::LLVMStructType::getLiteral(
                                       ctx, SmallVector<Type>(num, i32));
      Value result = NVVM::LdMatrixOp::create(
          rewriter, loc, resultType, address, num,
          trans ? NVVM::MMALayout::col : NVVM::MMALayout::row,
          NVVM::LdStMatrixShapeAttr::get(ctx, 8, 8),
          NVVM::LdStMatrixEltType::B16);
      SmallVector<Value> words = num == 1
                                     ? SmallVector<Value>{result}
                                     : unpackRegisters(rewriter, loc, result);
      for (auto [q, word] : llvm::enumerate(words)) {
        int64_t rowOff = isA ? 8 * (q % 2) : 0;
        int64_t kOff = (isA ? q / 2 : q) * chunk;
        SmallVector<Value> elems;
        if (elemsPerReg == 1) {
          elems.push_back(
              LLVM::BitcastOp::create(rewriter, loc, elementType, word));
        } else {
          Value vec = LLVM::BitcastOp::create(
              rewriter, loc, VectorType::get({elemsPerReg}, elementType), word);
          for (int64_t e = 0; e < elemsPerReg; ++e)
            elems.push_back(
                LLVM::ExtractElementOp::create(rewriter, loc, vec, c32(e)));
        }
        for (auto [e, value] : llvm::enumerate(elems)) {
          Coord at = isA ? Coord{nonK0 + rowOff, k0 + kOff + int64_t(e)}
                         : Coord{k0 + kOff + int64_t(e), nonK0};
          loaded[at] = value;
        }
      }
    };
    for (int64_t i = 0; i < repNonK; ++i) {
      int64_t nonK0 = i * tileNonK;
      if (isA) {
        for (int64_t kk = 0; kk < kSteps; ++kk)
          load(nonK0, kk * kInstr, 4);
        continue;
      }
      int64_t kk = 0;
      for (; kk + 1 < kSteps; kk += 2)
        load(nonK0, kk * kInstr, 4);
      if (kk < kSteps)
        load(nonK0, kk * kInstr, 2);
    }

    SmallVector<Value> registers;
    for (auto &c : getElementCoords(dot, shape, 0, 0)) {
      Value v = loaded.lookup({c[0], c[1]});
      if (!v)
        return op->emitError("ldmatrix does not cover a register of the dot "
                             "operand layout");
      registers.push_back(v);
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, registers));
    return success();
  }

  const TargetInfo &target;
};

} // namespace

void mgp::populateDotOperandLoadToLLVMPatterns(MgpLLVMTypeConverter &converter,
                                               RewritePatternSet &patterns,
                                               const TargetInfo &target) {
  patterns.add<DotOperandLoadConversion>(converter, target);
}
