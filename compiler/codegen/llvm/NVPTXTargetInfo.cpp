//===- NVPTXTargetInfo.cpp - TargetInfo for NVIDIA GPUs -------------------===//
//
// This file implements the NVPTX TargetInfo: special registers through
// `nvvm.read.ptx.sreg.*`, shuffles through `nvvm.shfl.sync` (values wider or
// narrower than 32 bits are split or widened), barriers through
// `nvvm.barrier0`, and shared memory as the external zero-length array
// `global_smem` in address space 3.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/TargetInfo.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mgp;

TargetInfo::~TargetInfo() = default;

namespace {

/// The name of the dynamic shared-memory array every kernel addresses.
constexpr const char *kSharedMemoryName = "global_smem";
/// Alignment of global_smem; 1024 suits swizzled (NVMMA) buffers later.
constexpr unsigned kSharedMemoryAlignment = 1024;

Value i32Const(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(),
                                  b.getI32IntegerAttr(value));
}

class NVPTXTargetInfo final : public TargetInfo {
public:
  Value getThreadId(OpBuilder &b, Location loc) const override {
    return NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  }

  Value getLaneId(OpBuilder &b, Location loc) const override {
    Value tid = getThreadId(b, loc);
    return LLVM::URemOp::create(b, loc, tid, i32Const(b, loc, getWarpSize()));
  }

  Value getWarpId(OpBuilder &b, Location loc) const override {
    // Computed once at the top of the function: the shfl.sync is convergent,
    // so LLVM would not hoist one emitted in a loop body (each ldmatrix and
    // cp.async group of a pipelined dot loop asked for its own).
    OpBuilder::InsertionGuard guard(b);
    Block *entry = entryBlock(b);
    if (entry) {
      if (Value cached = cachedWarpId(entry))
        return cached;
      b.setInsertionPointToStart(entry);
    }
    Value tid = getThreadId(b, loc);
    Value warp =
        LLVM::UDivOp::create(b, loc, tid, i32Const(b, loc, getWarpSize()));
    // Broadcasting lane 0's value tells the backend the warp id is uniform.
    return shuffleIdx(b, loc, warp, i32Const(b, loc, 0));
  }

  Value getProgramId(OpBuilder &b, Location loc, int axis) const override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return NVVM::BlockIdXOp::create(b, loc, i32);
    case 1:
      return NVVM::BlockIdYOp::create(b, loc, i32);
    default:
      assert(axis == 2 && "program axis out of range");
      return NVVM::BlockIdZOp::create(b, loc, i32);
    }
  }

  Value getNumPrograms(OpBuilder &b, Location loc, int axis) const override {
    Type i32 = b.getI32Type();
    switch (axis) {
    case 0:
      return NVVM::GridDimXOp::create(b, loc, i32);
    case 1:
      return NVVM::GridDimYOp::create(b, loc, i32);
    default:
      assert(axis == 2 && "program axis out of range");
      return NVVM::GridDimZOp::create(b, loc, i32);
    }
  }

  Value shuffleXor(OpBuilder &b, Location loc, Value value,
                   int mask) const override {
    return shuffle(b, loc, value, i32Const(b, loc, mask), NVVM::ShflKind::bfly,
                   0x1f);
  }

  Value shuffleIdx(OpBuilder &b, Location loc, Value value,
                   Value lane) const override {
    return shuffle(b, loc, value, lane, NVVM::ShflKind::idx, 0x1f);
  }

  void barrier(OpBuilder &b, Location loc) const override {
    NVVM::Barrier0Op::create(b, loc);
  }

  Value getSharedMemoryBase(OpBuilder &b, Location loc,
                            Operation *op) const override {
    auto module = isa<ModuleOp>(op) ? cast<ModuleOp>(op)
                                    : op->getParentOfType<ModuleOp>();
    assert(module && "shared memory needs an enclosing module");
    auto global = module.lookupSymbol<LLVM::GlobalOp>(kSharedMemoryName);
    if (!global) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      auto arrayType = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
      global = LLVM::GlobalOp::create(
          b, loc, arrayType, /*isConstant=*/false, LLVM::Linkage::External,
          kSharedMemoryName, Attribute(), kSharedMemoryAlignment,
          /*addrSpace=*/3);
    }
    return LLVM::AddressOfOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 3),
        kSharedMemoryName);
  }

private:
  /// The entry block of the function around the insertion point, if any.
  static Block *entryBlock(OpBuilder &b) {
    Block *block = b.getInsertionBlock();
    Operation *op = block ? block->getParentOp() : nullptr;
    while (op && !isa<FunctionOpInterface>(op))
      op = op->getParentOp();
    if (!op || op->getNumRegions() == 0 || op->getRegion(0).empty())
      return nullptr;
    return &op->getRegion(0).front();
  }

  /// The warp-id shuffle getWarpId placed in `entry` before, if any: a
  /// shfl.sync of (tid.x / warp size) from lane 0.
  Value cachedWarpId(Block *entry) const {
    for (Operation &op : *entry) {
      auto shfl = dyn_cast<NVVM::ShflOp>(op);
      if (!shfl || shfl.getKind() != NVVM::ShflKind::idx)
        continue;
      auto div = shfl.getVal().getDefiningOp<LLVM::UDivOp>();
      if (!div || !div.getLhs().getDefiningOp<NVVM::ThreadIdXOp>() ||
          !isI32Const(div.getRhs(), getWarpSize()) ||
          !isI32Const(shfl.getOffset(), 0))
        continue;
      return shfl.getResult();
    }
    return Value();
  }

  static bool isI32Const(Value value, int64_t expected) {
    auto constant = value.getDefiningOp<LLVM::ConstantOp>();
    auto attr =
        constant ? dyn_cast<IntegerAttr>(constant.getValue()) : IntegerAttr();
    return attr && attr.getInt() == expected;
  }

  /// One shfl.sync over the full warp on a 32-bit value.
  static Value shuffle32(OpBuilder &b, Location loc, Value value, Value offset,
                         NVVM::ShflKind kind, int clamp) {
    Value all = i32Const(b, loc, -1);
    return NVVM::ShflOp::create(b, loc, value.getType(), all, value, offset,
                                i32Const(b, loc, clamp), kind, UnitAttr());
  }

  /// Shuffles any int/float up to 64 bits by moving it through i32 pieces.
  static Value shuffle(OpBuilder &b, Location loc, Value value, Value offset,
                       NVVM::ShflKind kind, int clamp) {
    Type type = value.getType();
    Type i32 = b.getI32Type();
    if (type == i32 || type == b.getF32Type())
      return shuffle32(b, loc, value, offset, kind, clamp);
    if (isa<LLVM::LLVMPointerType>(type)) {
      Value asInt = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), value);
      Value result = shuffle(b, loc, asInt, offset, kind, clamp);
      return LLVM::IntToPtrOp::create(b, loc, type, result);
    }
    unsigned width = type.getIntOrFloatBitWidth();
    Type intType = b.getIntegerType(width);
    Value asInt =
        type == intType
            ? value
            : LLVM::BitcastOp::create(b, loc, intType, value).getResult();
    Value result;
    if (width == 64) {
      auto pairType = VectorType::get({2}, i32);
      Value pair = LLVM::BitcastOp::create(b, loc, pairType, asInt);
      Value out = LLVM::UndefOp::create(b, loc, pairType);
      for (int i = 0; i < 2; ++i) {
        Value index = i32Const(b, loc, i);
        Value half = LLVM::ExtractElementOp::create(b, loc, pair, index);
        half = shuffle32(b, loc, half, offset, kind, clamp);
        out = LLVM::InsertElementOp::create(b, loc, out, half, index);
      }
      result = LLVM::BitcastOp::create(b, loc, intType, out);
    } else {
      assert(width < 32 && "unexpected shuffle width");
      Value wide = LLVM::ZExtOp::create(b, loc, i32, asInt);
      wide = shuffle32(b, loc, wide, offset, kind, clamp);
      result = LLVM::TruncOp::create(b, loc, intType, wide);
    }
    return type == intType
               ? result
               : LLVM::BitcastOp::create(b, loc, type, result).getResult();
  }
};

} // namespace

std::unique_ptr<TargetInfo> mgp::createNVPTXTargetInfo() {
  return std::make_unique<NVPTXTargetInfo>();
}
