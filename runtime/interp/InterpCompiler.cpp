//===- InterpCompiler.cpp - from mgp IR to interpreter instructions -------===//
//
// This file implements the interpreter's compiler core: slots for values,
// regions, the dispatch of ops to the op families, the structured control
// flow (scf.for, scf.while, scf.if) and the helpers every family shares
// (locations in messages, element kinds and shapes of types).
//
//===----------------------------------------------------------------------===//
#include "runtime/interp/InterpProgram.h"

#include "compiler/ir/MgpDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <memory>

using namespace mgp;
using namespace mgp::interp;

std::string mgp::interp::describeOp(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::Location loc = op->getLoc();
  if (auto fused = llvm::dyn_cast<mlir::FusedLoc>(loc))
    if (!fused.getLocations().empty())
      loc = fused.getLocations().front();
  if (auto named = llvm::dyn_cast<mlir::NameLoc>(loc))
    loc = named.getChildLoc();
  if (auto callSite = llvm::dyn_cast<mlir::CallSiteLoc>(loc))
    loc = callSite.getCallee();
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc))
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    loc.print(os);
  os << ": '" << op->getName().getStringRef() << "'";
  return text;
}

llvm::Error mgp::interp::opError(mlir::Operation *op, const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 describeOp(op) + ": " + message.str());
}

bool mgp::interp::fail(Frame &frame, const std::string &where,
                       const std::string &message) {
  frame.error = llvm::formatv("{0}: program ({1}, {2}, {3}): {4}", where,
                              frame.programId[0], frame.programId[1],
                              frame.programId[2], message)
                    .str();
  return false;
}

llvm::Expected<DType> mgp::interp::elemKindOf(mlir::Operation *op,
                                                 mlir::Type type) {
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type))
    type = tensor.getElementType();
  else if (auto buffer = llvm::dyn_cast<mgp::MemDescType>(type))
    type = buffer.getElementType(); // a buffer held as its elements
  if (llvm::isa<mgp::PointerType>(type))
    return kPointerKind;
  if (llvm::isa<mlir::Float8E4M3FNType>(type))
    return DType::F8E4NV;
  if (llvm::isa<mlir::Float8E5M2Type>(type))
    return DType::F8E5;
  if (type.isIndex())
    return DType::I64;
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  if (type.isInteger(1))
    return DType::I1;
  if (type.isInteger(8))
    return DType::I8;
  if (type.isInteger(16))
    return DType::I16;
  if (type.isInteger(32))
    return DType::I32;
  if (type.isInteger(64))
    return DType::I64;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return opError(op, "the interpreter does not support values of type " + text);
}

std::vector<int64_t> mgp::interp::shapeOf(mlir::Type type) {
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type))
    return std::vector<int64_t>(tensor.getShape().begin(), tensor.getShape().end());
  if (auto buffer = llvm::dyn_cast<mgp::MemDescType>(type))
    return std::vector<int64_t>(buffer.getShape().begin(), buffer.getShape().end());
  return {};
}

int64_t mgp::interp::numElements(llvm::ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

void mgp::interp::assignSlots(Frame &frame, llvm::ArrayRef<int> from,
                              llvm::ArrayRef<int> to) {
  assert(from.size() == to.size() && "slot lists differ in length");
  bool overlap = false;
  for (int t : to)
    overlap |= llvm::is_contained(from, t);
  if (!overlap) {
    for (size_t k = 0; k < from.size(); ++k)
      frame.slots[to[k]] = frame.slots[from[k]];
    return;
  }
  std::vector<Buf> temps;
  temps.reserve(from.size());
  for (int f : from)
    temps.push_back(frame.slots[f]);
  for (size_t k = 0; k < to.size(); ++k)
    frame.slots[to[k]] = std::move(temps[k]);
}

int Compiler::slot(mlir::Value value) {
  auto [it, inserted] = slots.try_emplace(value, nextSlot);
  if (inserted)
    ++nextSlot;
  return it->second;
}

static std::vector<int> slotsOf(Compiler &c, mlir::ValueRange values) {
  std::vector<int> result;
  for (mlir::Value v : values)
    result.push_back(c.slot(v));
  return result;
}

llvm::Error Compiler::compileRegion(mlir::Region &region, CompiledRegion &out) {
  if (!region.hasOneBlock())
    return opError(region.getParentOp(),
                   "the interpreter needs single-block regions");
  mlir::Block &block = region.front();
  out.args = slotsOf(*this, block.getArguments());
  for (mlir::Operation &op : block.without_terminator())
    if (llvm::Error err = compileOp(&op, out.body))
      return err;
  if (mlir::Operation *term = block.getTerminator())
    out.yields = slotsOf(*this, term->getOperands());
  return llvm::Error::success();
}

/// The first element of a scalar integer slot.
static int64_t scalarInt(Frame &frame, int slot) { return frame.slots[slot].i[0]; }

static llvm::Error compileFor(Compiler &c, mlir::scf::ForOp forOp,
                              std::vector<Instr> &out) {
  auto body = std::make_shared<CompiledRegion>();
  if (llvm::Error err = c.compileRegion(forOp.getRegion(), *body))
    return err;
  int lb = c.slot(forOp.getLowerBound()), ub = c.slot(forOp.getUpperBound()),
      step = c.slot(forOp.getStep());
  std::vector<int> inits = slotsOf(c, forOp.getInitArgs());
  std::vector<int> results = slotsOf(c, forOp.getResults());
  int ivSlot = body->args[0];
  std::vector<int> iterArgs(body->args.begin() + 1, body->args.end());
  std::string where = describeOp(forOp);
  out.push_back([=](Frame &frame) {
    int64_t lo = scalarInt(frame, lb), hi = scalarInt(frame, ub),
            st = scalarInt(frame, step);
    if (st <= 0)
      return fail(frame, where, "loop step " + std::to_string(st) +
                                    " is not positive");
    assignSlots(frame, inits, iterArgs);
    for (int64_t iv = lo; iv < hi; iv += st) {
      frame.slots[ivSlot].i.assign(1, iv);
      if (!runBody(*body, frame))
        return false;
      assignSlots(frame, body->yields, iterArgs);
    }
    assignSlots(frame, iterArgs, results);
    return true;
  });
  return llvm::Error::success();
}

static llvm::Error compileWhile(Compiler &c, mlir::scf::WhileOp whileOp,
                                std::vector<Instr> &out) {
  auto before = std::make_shared<CompiledRegion>();
  auto after = std::make_shared<CompiledRegion>();
  if (llvm::Error err = c.compileRegion(whileOp.getBefore(), *before))
    return err;
  if (llvm::Error err = c.compileRegion(whileOp.getAfter(), *after))
    return err;
  std::vector<int> inits = slotsOf(c, whileOp.getInits());
  std::vector<int> results = slotsOf(c, whileOp.getResults());
  int condSlot = before->yields[0];
  std::vector<int> forwarded(before->yields.begin() + 1, before->yields.end());
  out.push_back([=](Frame &frame) {
    assignSlots(frame, inits, before->args);
    while (true) {
      if (!runBody(*before, frame))
        return false;
      if (!frame.slots[condSlot].i[0]) {
        assignSlots(frame, forwarded, results);
        return true;
      }
      assignSlots(frame, forwarded, after->args);
      if (!runBody(*after, frame))
        return false;
      assignSlots(frame, after->yields, before->args);
    }
  });
  return llvm::Error::success();
}

static llvm::Error compileIf(Compiler &c, mlir::scf::IfOp ifOp,
                             std::vector<Instr> &out) {
  auto thenRegion = std::make_shared<CompiledRegion>();
  auto elseRegion = std::make_shared<CompiledRegion>();
  if (llvm::Error err = c.compileRegion(ifOp.getThenRegion(), *thenRegion))
    return err;
  if (!ifOp.getElseRegion().empty())
    if (llvm::Error err = c.compileRegion(ifOp.getElseRegion(), *elseRegion))
      return err;
  int cond = c.slot(ifOp.getCondition());
  std::vector<int> results = slotsOf(c, ifOp.getResults());
  out.push_back([=](Frame &frame) {
    const CompiledRegion &taken =
        frame.slots[cond].i[0] ? *thenRegion : *elseRegion;
    if (!runBody(taken, frame))
      return false;
    if (!results.empty())
      assignSlots(frame, taken.yields, results);
    return true;
  });
  return llvm::Error::success();
}

llvm::Error Compiler::compileOp(mlir::Operation *op, std::vector<Instr> &out) {
  for (mlir::Type type : op->getResultTypes())
    if (llvm::Error err = elemKindOf(op, type).takeError())
      return err;
  if (auto forOp = llvm::dyn_cast<mlir::scf::ForOp>(op))
    return compileFor(*this, forOp, out);
  if (auto whileOp = llvm::dyn_cast<mlir::scf::WhileOp>(op))
    return compileWhile(*this, whileOp, out);
  if (auto ifOp = llvm::dyn_cast<mlir::scf::IfOp>(op))
    return compileIf(*this, ifOp, out);
  if (llvm::isa<mlir::func::CallOp>(op))
    return opError(op, "calls must be inlined before interpretation "
                       "(run the target-independent passes)");
  using TryFn = llvm::Expected<bool> (*)(Compiler &, mlir::Operation *,
                                         std::vector<Instr> &);
  for (TryFn tryCompile :
       {tryCompileElementwise, tryCompileShapeOp, tryCompileMemoryOp,
        tryCompileDotReduce, tryCompileLanguageOp, tryCompileAtomicOrDebugOp}) {
    llvm::Expected<bool> handled = tryCompile(*this, op, out);
    if (!handled)
      return handled.takeError();
    if (*handled)
      return llvm::Error::success();
  }
  return opError(op, "the interpreter does not support this op");
}
