//===- PtxasWorkarounds.cpp - PTX shapes that ptxas miscompiles -----------===//
//
// This file implements the rewrites of PtxasWorkarounds.h. The VIMNMX3 bug
// was found through JitGpu.PaddedBlocksAgreeWithTheInterpreter ("padded
// reduce 1000": `tl.min(-i)` over 8 registers a thread gave min(i) on the
// H200) and reproduced with ptxas 13.0.88 and nvdisasm on hand-written PTX:
//
//   neg.s32 %r12, %r2; min.s32 %r21, %r1, %r12; min.s32 %r30, %r21, %r3;
//
// assembles to `VIMNMX3 R9, R8, R9, R10, PT` with the same encoding as the PTX
// without the neg (sm_90 and sm_100; sm_80 has no VIMNMX3 and is right). A
// negation in the first or third operand, or `a - b`, comes out right; so does
// `not` + `add 1`, which ptxas does not fold back into a negation.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/PtxasWorkarounds.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;

/// Whether `value` reaches an integer min/max intrinsic through selects and
/// phis only.
static bool feedsMinMax(Value *value) {
  SmallVector<Value *, 8> work{value};
  SmallPtrSet<Value *, 16> seen{value};
  while (!work.empty()) {
    Value *v = work.pop_back_val();
    for (User *user : v->users()) {
      if (isa<MinMaxIntrinsic>(user))
        return true;
      bool passesOn =
          isa<PHINode>(user) || (isa<SelectInst>(user) &&
                                 cast<SelectInst>(user)->getCondition() != v);
      if (passesOn && seen.insert(user).second)
        work.push_back(user);
    }
  }
  return false;
}

/// `-x` as inline PTX `not` + `add 1`, for 16-, 32- and 64-bit integers;
/// nullptr for other types.
static InlineAsm *negationAsm(Type *type) {
  const char *bits = nullptr, *constraints = nullptr;
  switch (type->isIntegerTy() ? type->getIntegerBitWidth() : 0) {
  case 16:
    bits = "16", constraints = "=h,h";
    break;
  case 32:
    bits = "32", constraints = "=r,r";
    break;
  case 64:
    bits = "64", constraints = "=l,l";
    break;
  default:
    return nullptr;
  }
  std::string text =
      std::string("not.b") + bits + " $0, $1;\n\tadd.s" + bits + " $0, $0, 1;";
  return InlineAsm::get(FunctionType::get(type, {type}, false), text,
                        constraints, /*hasSideEffects=*/false);
}

unsigned mgp::avoidPtxasNegatedMinMax(Module &module) {
  SmallVector<Instruction *, 16> negations;
  for (Function &function : module)
    for (BasicBlock &block : function)
      for (Instruction &inst : block)
        if (match(&inst, m_Neg(m_Value())) && negationAsm(inst.getType()) &&
            feedsMinMax(&inst))
          negations.push_back(&inst);
  for (Instruction *negation : negations) {
    Value *operand = negation->getOperand(1);
    auto *call = CallInst::Create(negationAsm(negation->getType()), {operand},
                                  negation->getName(), negation->getIterator());
    negation->replaceAllUsesWith(call);
    negation->eraseFromParent();
  }
  return negations.size();
}
