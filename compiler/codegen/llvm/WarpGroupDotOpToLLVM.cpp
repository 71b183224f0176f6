//===- WarpGroupDotOpToLLVM.cpp - mgp.warp_group_dot to wgmma -------------===//
//
// This file implements the lowering of mgp.warp_group_dot (sm_90a) and of
// mgp.fence_async_shared, as inline PTX (docs/wgmma.md):
//   wgmma.fence
//   per 64-row m-rep of the thread's warp group, per n-rep and K step:
//     wgmma.mma_async.sync.aligned.m64n<N>k<K>.f32.<t>.<t> {acc}, descA, descB
//     (.s32.s8.s8 for signed bytes, without operand scales)
//   wgmma.commit_group; wgmma.wait_group 0 (1 when isAsync: this group
//   stays in flight; mgp.warp_group_dot_wait after the loop waits for it;
//   none when the dot is chained into the next one, `mgp.wgmma_chained`)
// Each operand is a shared tile in one of the layouts the verifier admits
// (OperandTile below, compiler/ir/NvmmaLayout.h): K-major, rows of one
// swizzle atom (32, 64 or 128 bytes) or a K tile of a multiple of 128 bytes
// cut into 128-byte column blocks; or, for 16-bit elements, MN-major, K
// rows of 128 bytes along M or N in 64-element column blocks, read with the
// instruction's transpose bit (imm-trans-a / imm-trans-b). A matrix
// descriptor has swizzle = the row pitch, stride byte offset = 8 rows,
// leading byte offset = one column block, and its start address is the
// unswizzled address of the sub-tile's first element. A 16-bit A may come
// from registers instead (the RS form): four 32-bit registers per 64-row
// m-rep and K step, taken from its #mgp.dot_op layout.
// The hardware applies the swizzle to the absolute address, which is why
// mgp-allocate-shared aligns swizzled buffers to 1024 bytes. The
// accumulator registers of a (m-rep, n-rep) are the wgmma D fragment in
// order (row g / g + 8, columns 2t, 2t + 1 of each 8-column group), read
// off the #mgp.mma version 3 layout at lane 0 / warp 0, never assumed. The
// wait takes every accumulator as a tied operand so that no read of them is
// scheduled before it.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/Patterns.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/ir/Layout.h"
#include "compiler/ir/MgpDialect.h"
#include "compiler/ir/NvmmaLayout.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mgp;

namespace {

/// Inline PTX with side effects (never reordered against the other wgmma
/// statements), all operands in registers of the given constraints.
LLVM::InlineAsmOp emitAsm(OpBuilder &b, Location loc, Type resultType,
                          ValueRange operands, StringRef text,
                          StringRef constraints) {
  return LLVM::InlineAsmOp::create(
      b, loc, resultType, operands, text, constraints,
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
      ArrayAttr());
}

/// `count` results (f32 in "f" registers, i32 in "r") tied to the first
/// `count` inputs, then `extra`.
std::string tiedConstraints(unsigned count, Type type, StringRef extra) {
  std::string text;
  std::string out = type.isF32() ? "=f," : "=r,";
  for (unsigned i = 0; i < count; ++i)
    text += out;
  for (unsigned i = 0; i < count; ++i)
    text += std::to_string(i) + ",";
  text += extra;
  if (!text.empty() && text.back() == ',')
    text.pop_back();
  return text;
}

/// `wgmma.wait_group pendings` with `values` (f32 or i32 accumulators) tied
/// through it, so that no read of them is scheduled before it.
SmallVector<Value> emitWait(OpBuilder &b, Location loc, ArrayRef<Value> values,
                            unsigned pendings) {
  Type element = values.front().getType();
  Type type = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(values.size(), element));
  auto wait = emitAsm(b, loc, type, values,
                      "wgmma.wait_group.sync.aligned " +
                          std::to_string(pendings) + ";",
                      tiedConstraints(values.size(), element, ""));
  return unpackRegisters(b, loc, wait.getResult(0));
}

std::string registerList(unsigned first, unsigned count) {
  std::string text = "{";
  for (unsigned i = 0; i < count; ++i)
    text += (i ? ", $" : "$") + std::to_string(first + i);
  return text + "}";
}

/// Where an operand's wgmma sub-tiles sit in its shared buffer (the layouts
/// the mgp.warp_group_dot verifier admits, compiler/ir/NvmmaLayout.h):
/// K-major, rows along M (A) or N (B) of `pitch` bytes (the swizzle width),
/// a K tile wider than 128 bytes in 128-byte column blocks; or, for 16-bit
/// elements, MN-major, K rows of 128 bytes along M or N in 64-element column
/// blocks (read with the instruction's transpose bit).
struct OperandTile {
  bool mnMajor;
  int64_t pitch;       ///< bytes per row of a column block
  int64_t rowElems;    ///< elements per row of the memdesc's row-major view
  int64_t blockStride; ///< bytes from one column block to the next
  int64_t descRows;    ///< rows of one column block
  int64_t stepBytes;   ///< K bytes of one wgmma (32)
  unsigned elemBytes;
  unsigned rowDim, colDim; ///< memdesc dims along the rows, contiguous

  OperandTile(MemDescType type, unsigned kDim, int64_t mnExtent, int64_t k) {
    elemBytes = type.getElementTypeBitWidth() / 8;
    colDim = cast<SharedEncodingAttr>(type.getEncoding()).getOrder()[0];
    rowDim = 1 - colDim;
    mnMajor = colDim != kDim;
    int64_t rowBytes = (mnMajor ? mnExtent : k) * elemBytes;
    pitch = std::min<int64_t>(rowBytes, 128);
    rowElems = pitch / elemBytes;
    descRows = mnMajor ? k : mnExtent;
    blockStride = descRows * pitch;
    stepBytes = 32;
  }

  /// The descriptor's fixed fields: swizzle = pitch, SBO = 8 rows; LBO = a
  /// column block (used by MN-major tiles wider than one block).
  MatrixDescriptor descriptor() const {
    return getNvmmaOperandDescriptor(0, descRows, unsigned(pitch));
  }

  /// The byte offset of the sub-tile at M or N index `mn` (a multiple of 64
  /// elements when MN-major) and K step `step`.
  int64_t offset(int64_t mn, int64_t step) const {
    if (mnMajor) {
      int64_t mnBytes = mn * elemBytes;
      int64_t kRows = step * stepBytes / elemBytes;
      return mnBytes / pitch * blockStride + kRows * pitch + mnBytes % pitch;
    }
    int64_t kBytes = step * stepBytes;
    return kBytes / pitch * blockStride + mn * pitch + kBytes % pitch;
  }
};

struct WarpGroupDotOpConversion
    : TargetConversionPattern<WarpGroupDotOp> {
  using TargetConversionPattern::TargetConversionPattern;

  LogicalResult
  matchAndRewrite(WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = cast<ShapedType>(op.getA().getType());
    auto aBuffer = dyn_cast<MemDescType>(aType);
    auto cType = cast<RankedTensorType>(op.getC().getType());
    auto mma = cast<MmaEncodingAttr>(cType.getEncoding());
    Type structType = getTypeConverter()->convertType(cType);
    if (!structType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    Type element = aType.getElementType();
    unsigned bits = element.getIntOrFloatBitWidth();
    bool bytes = element.isInteger(8);
    const char *ptxType = element.isF32()   ? "tf32"
                          : element.isF16() ? "f16"
                          : bytes           ? "s8"
                                            : "bf16";
    int64_t m = cType.getShape()[0], n = cType.getShape()[1],
            k = aType.getShape()[1];
    int64_t instrN = mma.getInstrShape()[1], instrK = 256 / bits;
    unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
    if (wm % 4 || m % (16 * wm) || n % (instrN * wn) ||
        mma.getInstrShape()[2] != instrK)
      return op->emitError("wgmma needs whole warp groups along M and tiles "
                           "that divide the block");
    int64_t tileM = 16 * wm, tileN = instrN * wn;
    int64_t repM = m / tileM, repN = n / tileN;

    // The accumulator registers of each (m-rep, n-rep) in D fragment order.
    RegisterTable table = getLane0RegisterTable(cType);
    unsigned numRegs = getRegisterCount(cType);
    SmallVector<Value> cRegs = unpackRegisters(rewriter, loc, adaptor.getC());
    unsigned fragment = instrN / 2;
    SmallVector<SmallVector<unsigned>> regOf(repM * repN);
    for (int64_t i = 0; i < repM; ++i)
      for (int64_t j = 0; j < repN; ++j)
        for (unsigned e = 0; e < fragment; ++e) {
          int64_t row = i * tileM + ((e >> 1) & 1) * 8;
          int64_t col = j * tileN + (e >> 2) * 8 + (e & 1);
          auto it = table.find({row, col});
          if (it == table.end())
            return op->emitError("a thread does not hold the wgmma fragment "
                                 "the layout function promises");
          regOf[i * repN + j].push_back(it->second);
        }
    if (numRegs != unsigned(repM * repN * fragment))
      return op->emitError("the accumulator layout holds registers outside "
                           "the wgmma fragments");

    // Operand base addresses (bytes in the shared window), moved to the
    // warp group's first row of A (M) and of B (N).
    Type i32 = rewriter.getI32Type(), i64 = rewriter.getI64Type();
    std::optional<OperandTile> aTile;
    if (aBuffer)
      aTile.emplace(aBuffer, 1, m, k);
    OperandTile bTile(op.getB().getType(), 0, n, k);
    auto baseAddress = [&](Value desc, const OperandTile &tile) {
      SmallVector<Value> fields = unpackRegisters(rewriter, loc, desc);
      Value address = LLVM::PtrToIntOp::create(rewriter, loc, i32, fields[0]);
      // Start offsets (zero for whole buffers and pipeline slots).
      Value elems = LLVM::AddOp::create(
          rewriter, loc,
          LLVM::MulOp::create(rewriter, loc, fields[1 + tile.rowDim],
                              i32Constant(rewriter, loc, tile.rowElems)),
          fields[1 + tile.colDim]);
      return LLVM::AddOp::create(
          rewriter, loc, address,
          LLVM::MulOp::create(rewriter, loc, elems,
                              i32Constant(rewriter, loc, bits / 8)));
    };
    Value warp = target.getWarpId(rewriter, loc);
    // Warp bits: log2(wm) along M (4 per warp group), then log2(wn) along N.
    Value groupM = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::LShrOp::create(rewriter, loc, warp, i32Constant(rewriter, loc, 2)),
        i32Constant(rewriter, loc, wm / 4 - 1));
    Value groupN = LLVM::AndOp::create(
        rewriter, loc,
        LLVM::LShrOp::create(rewriter, loc, warp,
                             i32Constant(rewriter, loc, llvm::Log2_32(wm))),
        i32Constant(rewriter, loc, wn - 1));
    Value aBase;
    if (aTile)
      aBase = LLVM::AddOp::create(
          rewriter, loc, baseAddress(adaptor.getA(), *aTile),
          LLVM::MulOp::create(rewriter, loc, groupM,
                              i32Constant(rewriter, loc, aTile->offset(64, 0))));
    Value bBase = LLVM::AddOp::create(
        rewriter, loc, baseAddress(adaptor.getB(), bTile),
        LLVM::MulOp::create(
            rewriter, loc, groupN,
            i32Constant(rewriter, loc, bTile.offset(instrN, 0))));
    uint64_t aHigh = aTile ? encodeMatrixDescriptor(aTile->descriptor()) : 0;
    // An A in registers: per 64-row m-rep and K step, the fragment's four
    // 32-bit registers {a0, a1, a2, a3} = rows g / g + 8 of K columns
    // 2t, 2t + 1, then the same rows of K columns 2t + 8, 2t + 9 (the
    // #mgp.dot_op layout's registers, read off it at lane 0 / warp 0).
    SmallVector<Value> aRegs;
    RegisterTable aTable;
    if (!aTile) {
      aRegs = unpackRegisters(rewriter, loc, adaptor.getA());
      aTable = getLane0RegisterTable(cast<RankedTensorType>(aType));
    }
    Type i16x2 = VectorType::get({2}, getTypeConverter()->convertType(element));
    auto aFragment = [&](int64_t row0, int64_t kk,
                         SmallVector<Value> &out) -> LogicalResult {
      for (int64_t half : {0, 8})
        for (int64_t rowOff : {0, 8}) {
          Value pair = LLVM::UndefOp::create(rewriter, loc, i16x2);
          for (int64_t e : {0, 1}) {
            auto it = aTable.find({row0 + rowOff, kk * instrK + half + e});
            if (it == aTable.end())
              return failure();
            pair = LLVM::InsertElementOp::create(
                rewriter, loc, pair, aRegs[it->second],
                i32Constant(rewriter, loc, e));
          }
          out.push_back(LLVM::BitcastOp::create(rewriter, loc, i32, pair));
        }
      return success();
    };
    uint64_t bHigh = encodeMatrixDescriptor(bTile.descriptor());
    // The descriptor of an operand's first sub-tile:
    // high | (base & 0x3FFFF) >> 4, computed once; a sub-tile `offset` bytes
    // further adds offset >> 4 to it (one 64-bit add, as Triton's lowering
    // does): shared-window addresses stay below 256 KiB, so the start
    // address field never carries into the leading byte offset.
    auto baseDescriptor = [&](Value base, uint64_t high) {
      Value field = LLVM::LShrOp::create(
          rewriter, loc,
          LLVM::AndOp::create(rewriter, loc, base,
                              i32Constant(rewriter, loc, 0x3FFFF)),
          i32Constant(rewriter, loc, 4));
      Value wide = LLVM::ZExtOp::create(rewriter, loc, i64, field);
      return LLVM::OrOp::create(
          rewriter, loc, wide,
          LLVM::ConstantOp::create(rewriter, loc, i64,
                                   rewriter.getI64IntegerAttr(int64_t(high))));
    };
    auto descriptor = [&](Value first, int64_t offset) -> Value {
      assert(offset % 16 == 0 && "sub-tiles start at 16-byte multiples");
      if (offset == 0)
        return first;
      return LLVM::AddOp::create(
          rewriter, loc, first,
          LLVM::ConstantOp::create(rewriter, loc, i64,
                                   rewriter.getI64IntegerAttr(offset >> 4)));
    };
    Value aDesc = aTile ? baseDescriptor(aBase, aHigh) : Value();
    Value bDesc = baseDescriptor(bBase, bHigh);

    // A's registers are packed before the fence: ptxas otherwise sees them
    // written between the fence and the wgmma that reads them.
    SmallVector<SmallVector<Value>> aFragments;
    for (int64_t kk = 0; !aTile && kk < k / instrK; ++kk)
      for (int64_t i = 0; i < repM; ++i)
        if (failed(aFragment(i * tileM, kk, aFragments.emplace_back())))
          return op->emitError("a thread does not hold the wgmma A fragment "
                               "the layout function promises");
    Type voidType = LLVM::LLVMVoidType::get(rewriter.getContext());
    emitAsm(rewriter, loc, voidType, {}, "wgmma.fence.sync.aligned;", "");
    // Integer wgmma (s32 += s8 x s8) has no operand scales or transposes.
    Type accType = bytes ? Type(i32) : Type(rewriter.getF32Type());
    Type fragmentType = LLVM::LLVMStructType::getLiteral(
        rewriter.getContext(), SmallVector<Type>(fragment, accType));
    // Operands after the tied accumulators: A (a descriptor, or four
    // registers), B's descriptor, the scale-d flag. Register A has no
    // transpose immediate.
    unsigned aCount = aTile ? 1 : 4;
    unsigned bIndex = 2 * fragment + aCount, predIndex = bIndex + 1;
    std::string aText = aTile ? "$" + std::to_string(2 * fragment)
                              : registerList(2 * fragment, 4);
    std::string transText;
    if (bits == 16) {
      if (aTile)
        transText += std::string(", ") + (aTile->mnMajor ? "1" : "0");
      transText += std::string(", ") + (bTile.mnMajor ? "1" : "0");
    }
    std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" +
                       std::to_string(predIndex) +
                       ", 0;\nwgmma.mma_async.sync.aligned.m64n" +
                       std::to_string(instrN) + "k" + std::to_string(instrK) +
                       (bytes ? ".s32." : ".f32.") + ptxType + "." + ptxType +
                       " " + registerList(0, fragment) + ", " + aText +
                       ", $" + std::to_string(bIndex) + ", p" +
                       (bytes ? "" : ", 1, 1") + transText + ";\n}";
    std::string constraints = tiedConstraints(
        fragment, accType, aTile ? "l,l,r" : "r,r,r,r,l,r");
    // scale-d: 1 (d += a * b), or for the first K step the dot's useC.
    Value one = i32Constant(rewriter, loc, 1);
    Value firstScale = one;
    if (adaptor.getUseC())
      firstScale = LLVM::ZExtOp::create(rewriter, loc, i32, adaptor.getUseC());
    SmallVector<SmallVector<Value>> acc(repM * repN);
    for (int64_t t = 0; t < repM * repN; ++t)
      for (unsigned reg : regOf[t])
        acc[t].push_back(cRegs[reg]);
    for (int64_t kk = 0; kk < k / instrK; ++kk) {
      for (int64_t i = 0; i < repM; ++i) {
        SmallVector<Value> aOperands;
        if (aTile)
          aOperands.push_back(
              descriptor(aDesc, aTile->offset(i * tileM, kk)));
        else
          aOperands = aFragments[kk * repM + i];
        for (int64_t j = 0; j < repN; ++j) {
          Value descB = descriptor(bDesc, bTile.offset(j * tileN, kk));
          SmallVector<Value> &d = acc[i * repN + j];
          SmallVector<Value> operands(d);
          operands.append(aOperands);
          operands.append({descB, kk == 0 ? firstScale : one});
          auto asmOp = emitAsm(rewriter, loc, fragmentType, operands, text,
                               constraints);
          d = unpackRegisters(rewriter, loc, asmOp.getResult(0));
        }
      }
    }
    emitAsm(rewriter, loc, voidType, {}, "wgmma.commit_group.sync.aligned;",
            "");
    // The wait, with every accumulator tied through it: for all groups, or
    // (isAsync) for all but this one. A chained dot (mgp-fuse-warp-group-dot:
    // its result is only the accumulator of the next dot, with register ops
    // alone between them) does not wait: the next one's wait covers it.
    SmallVector<Value> all;
    for (auto &d : acc)
      all.append(d.begin(), d.end());
    SmallVector<Value> waited =
        op->hasAttr(kWgmmaChainedAttr)
            ? all
            : emitWait(rewriter, loc, all, op.getIsAsync() ? 1 : 0);
    SmallVector<Value> results(numRegs);
    unsigned next = 0;
    for (int64_t t = 0; t < repM * repN; ++t)
      for (unsigned reg : regOf[t])
        results[reg] = waited[next++];
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, results));
    return success();
  }
};

struct WarpGroupDotWaitOpConversion
    : ConvertOpToLLVMPattern<WarpGroupDotWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(WarpGroupDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type structType = getTypeConverter()->convertType(op.getOutput().getType());
    if (!structType)
      return rewriter.notifyMatchFailure(op, "tensor without a layout");
    SmallVector<Value> values =
        unpackRegisters(rewriter, loc, adaptor.getInput());
    if (values.empty() ||
        !llvm::all_of(values, [&](Value v) {
          return v.getType() == values.front().getType() &&
                 (v.getType().isF32() || v.getType().isInteger(32));
        }))
      return op.emitError("warp_group_dot_wait takes f32 or i32 accumulators");
    SmallVector<Value> waited = emitWait(rewriter, loc, values, op.getPendings());
    rewriter.replaceOp(op, packRegisters(rewriter, loc, structType, waited));
    return success();
  }
};

struct FenceAsyncSharedOpConversion
    : ConvertOpToLLVMPattern<FenceAsyncSharedOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(FenceAsyncSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitAsm(rewriter, op.getLoc(),
            LLVM::LLVMVoidType::get(rewriter.getContext()), {},
            "fence.proxy.async.shared::cta;", "");
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mgp::populateWarpGroupDotOpToLLVMPatterns(
    MgpLLVMTypeConverter &converter, RewritePatternSet &patterns,
    const TargetInfo &target) {
  patterns.add<WarpGroupDotOpConversion>(converter, target);
  patterns.add<FenceAsyncSharedOpConversion, WarpGroupDotWaitOpConversion>(
      converter, kMgpPatternBenefit);
}
