//===- SharedAccess.cpp - a thread's registers to and from shared ---------===//
//
// This file implements SharedAccess.h: per register, the element coordinates
// from ElementIndices.h, the offset from the caller, a store (first owner
// only, from Layout.h's broadcast masks) or a load in the memory type; and
// the vector runs of SharedScratch.h's VectorScratchLayout, whose offsets are
// the XOR of a thread part (lane and warp bits, once) and a register
// constant.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/SharedAccess.h"

#include "compiler/codegen/llvm/ElementIndices.h"
#include "compiler/codegen/llvm/RegisterStruct.h"
#include "compiler/codegen/llvm/TargetInfo.h"
#include "compiler/ir/Layout.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mgp;

Type mgp::getSharedMemoryType(Type elementType) {
  if (elementType.isInteger(1))
    return IntegerType::get(elementType.getContext(), 8);
  if (isa<LLVM::LLVMPointerType>(elementType))
    return IntegerType::get(elementType.getContext(), 64);
  return elementType;
}

static Value toMemory(OpBuilder &b, Location loc, Value value,
                      Type memoryType) {
  if (value.getType() == memoryType)
    return value;
  if (isa<LLVM::LLVMPointerType>(value.getType()))
    return LLVM::PtrToIntOp::create(b, loc, memoryType, value);
  return LLVM::ZExtOp::create(b, loc, memoryType, value);
}

static Value fromMemory(OpBuilder &b, Location loc, Value value,
                        Type elementType) {
  if (value.getType() == elementType)
    return value;
  if (isa<LLVM::LLVMPointerType>(elementType))
    return LLVM::IntToPtrOp::create(b, loc, elementType, value);
  return LLVM::TruncOp::create(b, loc, elementType, value);
}

/// (id & mask) == 0 as an i1, or null when mask is 0.
static Value isFirstOwner(OpBuilder &b, Location loc, Value id, unsigned mask) {
  if (!mask)
    return Value();
  Value bits = LLVM::AndOp::create(b, loc, id, i32Constant(b, loc, mask));
  return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, bits,
                              i32Constant(b, loc, 0));
}

void mgp::emitSharedStores(OpBuilder &b, Location loc, const TargetInfo &target,
                           RankedTensorType type, ArrayRef<Value> registers,
                           Value base, SharedOffsetFn offsetOf,
                           SharedAlignFn alignOf) {
  BroadcastMasks masks = getBroadcastMasks(type.getEncoding(), type.getShape());
  Value lane = target.getLaneId(b, loc);
  Value warp = target.getWarpId(b, loc);
  Value owner = isFirstOwner(b, loc, lane, masks.lane);
  if (Value warpOwner = isFirstOwner(b, loc, warp, masks.warp))
    owner = owner ? LLVM::AndOp::create(b, loc, owner, warpOwner) : warpOwner;
  Value ownerMask;
  Type memoryType = getSharedMemoryType(registers.front().getType());
  unsigned bytes = memoryType.getIntOrFloatBitWidth() / 8;
  if (owner) {
    ownerMask =
        LLVM::UndefOp::create(b, loc, VectorType::get({1}, b.getI1Type()));
    ownerMask = LLVM::InsertElementOp::create(b, loc, ownerMask, owner,
                                              i32Constant(b, loc, 0));
  }
  auto indices = emitElementIndices(b, loc, type, lane, warp);
  for (auto [reg, coords] : llvm::enumerate(indices)) {
    if (reg & masks.reg)
      continue; // a replica of a lower register
    Value address = LLVM::GEPOp::create(b, loc, base.getType(), memoryType,
                                        base, offsetOf(b, coords));
    Value value = toMemory(b, loc, registers[reg], memoryType);
    if (!owner) {
      LLVM::StoreOp::create(b, loc, value, address, alignOf ? alignOf(reg) : 0);
      continue;
    }
    auto vecType = VectorType::get({1}, memoryType);
    Value vec = LLVM::UndefOp::create(b, loc, vecType);
    vec = LLVM::InsertElementOp::create(b, loc, vec, value,
                                        i32Constant(b, loc, 0));
    LLVM::MaskedStoreOp::create(b, loc, vec, address, ownerMask,
                                b.getI32IntegerAttr(bytes));
  }
}

SmallVector<Value> mgp::emitSharedLoads(OpBuilder &b, Location loc,
                                        const TargetInfo &target,
                                        RankedTensorType type, Type elementType,
                                        Value base, SharedOffsetFn offsetOf,
                                        SharedAlignFn alignOf) {
  Type memoryType = getSharedMemoryType(elementType);
  Value lane = target.getLaneId(b, loc);
  Value warp = target.getWarpId(b, loc);
  SmallVector<Value> registers;
  for (auto [reg, coords] :
       llvm::enumerate(emitElementIndices(b, loc, type, lane, warp))) {
    Value address = LLVM::GEPOp::create(b, loc, base.getType(), memoryType,
                                        base, offsetOf(b, coords));
    Value value = LLVM::LoadOp::create(b, loc, memoryType, address,
                                       alignOf ? alignOf(reg) : 0);
    registers.push_back(fromMemory(b, loc, value, elementType));
  }
  return registers;
}

/// The thread's part of its elements' vector-scratch offsets: the XOR of the
/// offsets of the lane and warp bases whose bits are set (an i32).
static Value emitThreadScratchOffset(OpBuilder &b, Location loc,
                                     const LayoutBases &bases,
                                     const VectorScratchLayout &layout,
                                     Value lane, Value warp) {
  Value offset = i32Constant(b, loc, 0);
  auto addBits = [&](const auto &list, Value id) {
    for (auto [bit, basis] : llvm::enumerate(list)) {
      int64_t bitOffset = layout.getOffset(basis);
      if (bitOffset == 0)
        continue;
      Value set = LLVM::ICmpOp::create(
          b, loc, LLVM::ICmpPredicate::ne,
          LLVM::AndOp::create(b, loc, id, i32Constant(b, loc, 1 << bit)),
          i32Constant(b, loc, 0));
      Value term = LLVM::SelectOp::create(
          b, loc, set, i32Constant(b, loc, bitOffset), i32Constant(b, loc, 0));
      offset = LLVM::XOrOp::create(b, loc, offset, term);
    }
  };
  addBits(bases.lane, lane);
  addBits(bases.warp, warp);
  return offset;
}

/// The register of run `run` (its vector bits clear) holding element `element`.
static unsigned runRegister(unsigned run, unsigned element,
                            ArrayRef<unsigned> vectorBits) {
  for (auto [k, bit] : llvm::enumerate(vectorBits))
    if (element >> k & 1)
      run |= 1u << bit;
  return run;
}

/// The address of the run starting at register `run` of a thread.
static Value emitRunAddress(OpBuilder &b, Location loc, Value base,
                            Type memoryType, const LayoutBases &bases,
                            const VectorScratchLayout &layout,
                            Value threadOffset, unsigned run) {
  Value offset = LLVM::XOrOp::create(
      b, loc, threadOffset,
      i32Constant(b, loc, layout.getOffset(bases.apply(run, 0, 0))));
  return LLVM::GEPOp::create(b, loc, base.getType(), memoryType, base, offset);
}

void mgp::emitVectorScratchStores(OpBuilder &b, Location loc,
                                  const TargetInfo &target,
                                  RankedTensorType type,
                                  ArrayRef<Value> registers, Value base,
                                  const VectorScratchLayout &layout) {
  LayoutBases bases = getLayoutBases(type.getEncoding(), type.getShape());
  Value threadOffset =
      emitThreadScratchOffset(b, loc, bases, layout, target.getLaneId(b, loc),
                              target.getWarpId(b, loc));
  Type memoryType = getSharedMemoryType(registers.front().getType());
  auto vecType = VectorType::get({int64_t(layout.vector)}, memoryType);
  unsigned vectorMask = runRegister(0, layout.vector - 1, layout.srcVectorBits);
  unsigned replicaMask = 0;
  for (auto [bit, basis] : llvm::enumerate(bases.reg))
    if (llvm::all_of(basis, [](int64_t v) { return v == 0; }))
      replicaMask |= 1u << bit;
  for (unsigned run = 0; run < registers.size(); ++run) {
    if (run & (vectorMask | replicaMask))
      continue;
    Value vec = LLVM::UndefOp::create(b, loc, vecType);
    for (unsigned element = 0; element < layout.vector; ++element) {
      Value value = toMemory(
          b, loc, registers[runRegister(run, element, layout.srcVectorBits)],
          memoryType);
      vec = LLVM::InsertElementOp::create(b, loc, vec, value,
                                          i32Constant(b, loc, element));
    }
    Value address = emitRunAddress(b, loc, base, memoryType, bases, layout,
                                   threadOffset, run);
    LLVM::StoreOp::create(b, loc, vec, address,
                          layout.vector * layout.elemBytes);
  }
}

SmallVector<Value> mgp::emitVectorScratchLoads(
    OpBuilder &b, Location loc, const TargetInfo &target, RankedTensorType type,
    Type elementType, Value base, const VectorScratchLayout &layout) {
  LayoutBases bases = getLayoutBases(type.getEncoding(), type.getShape());
  Value threadOffset =
      emitThreadScratchOffset(b, loc, bases, layout, target.getLaneId(b, loc),
                              target.getWarpId(b, loc));
  Type memoryType = getSharedMemoryType(elementType);
  auto vecType = VectorType::get({int64_t(layout.vector)}, memoryType);
  unsigned vectorMask = runRegister(0, layout.vector - 1, layout.dstVectorBits);
  SmallVector<Value> registers(bases.getNumRegs());
  for (unsigned run = 0; run < registers.size(); ++run) {
    if (run & vectorMask)
      continue;
    Value address = emitRunAddress(b, loc, base, memoryType, bases, layout,
                                   threadOffset, run);
    Value vec = LLVM::LoadOp::create(b, loc, vecType, address,
                                     layout.vector * layout.elemBytes);
    for (unsigned element = 0; element < layout.vector; ++element) {
      Value value = LLVM::ExtractElementOp::create(
          b, loc, vec, i32Constant(b, loc, element));
      registers[runRegister(run, element, layout.dstVectorBits)] =
          fromMemory(b, loc, value, elementType);
    }
  }
  return registers;
}
