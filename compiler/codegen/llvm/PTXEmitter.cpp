//===- PTXEmitter.cpp - LLVM IR to PTX through the NVPTX backend ----------===//
//
// This file implements mgp::emitPTX: it links the embedded libdevice into a
// kernel module when the module calls `__nv_*` functions, internalizes every
// function that is not a kernel, optimises at O3 with the new pass manager,
// rewrites what ptxas would miscompile (PtxasWorkarounds.h) and prints PTX
// with an NVPTX target machine for the requested `sm_XX` (straight-line
// strength reduction only in functions with tensor-core dots). Only the
// NVPTX target is initialised.
//
//===----------------------------------------------------------------------===//
#include "compiler/codegen/llvm/PTXEmitter.h"
#include "compiler/api/KernelOptions.h"
#include "compiler/codegen/llvm/Libdevice.h"
#include "compiler/codegen/llvm/PtxasWorkarounds.h"
#include "compiler/pipeline/Pipeline.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/OptBisect.h"
#include "llvm/IR/PassTimingInfo.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <mutex>
#include <optional>

using namespace llvm;

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

static constexpr const char *kNVPTXTriple = "nvptx64-nvidia-cuda";

static void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // 32-bit pointers to shared, local and constant memory (as Triton
    // compiles): a shared address takes one register, not two.
    auto &options = cl::getRegisteredOptions();
    auto shortPointers = options.find("nvptx-short-ptr");
    if (shortPointers != options.end())
      static_cast<cl::opt<bool> *>(shortPointers->second)->setValue(true);
    // No scalar partial-redundancy elimination in GVN: it computes values
    // the code after a loop shares with the loop's preheader on the loop's
    // zero-trip edge too, and the block that edge then gets holds the
    // accumulator's initial copies apart from the preheader's; ptxas takes
    // those for non-wgmma definitions of a wgmma accumulator in flight and
    // serializes every wgmma of the kernel (C7515).
    auto pre = options.find("enable-pre");
    if (pre != options.end())
      static_cast<cl::opt<bool> *>(pre->second)->setValue(false);
  });
}

Expected<std::unique_ptr<TargetMachine>>
mgp::createNVPTXTargetMachine(const mgp::Target &gpu) {
  if (gpu.isCPU())
    return createStringError("the interpreter target 'cpu' has no PTX");
  StringRef arch = gpu.arch();
  initializeNVPTX();
  Triple triple(kNVPTXTriple);
  std::string error;
  const llvm::Target *target = TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return createStringError(inconvertibleErrorCode(),
                             "NVPTX target unavailable: " + error);
  TargetOptions targetOptions;
  targetOptions.AllowFPOpFusion = FPOpFusion::Fast;
  // sm_89 and sm_90 code may use PTX ISA 8.1 instructions (fp8 cvt on
  // sm_89, atom with vector types on sm_90; CUDA 12.1 drivers load it),
  // sm_80 and sm_86 code PTX ISA 7.4 ones (loads with an eviction priority;
  // CUDA 11.4 drivers).
  StringRef features = gpu.computeCapability() >= 89 ? "+ptx81" : "+ptx74";
  // Code generation at the default level (Triton uses Aggressive): the IR
  // is already through O3, and the aggressive level's extra GVN before
  // instruction selection only costs time (151 of the 152 suite kernels
  // and every ResNet18 specialization give the same PTX, up to register
  // numbers; the other fuses two more multiply-adds).
  std::unique_ptr<TargetMachine> machine(target->createTargetMachine(
      triple, arch, features, targetOptions, Reloc::PIC_, std::nullopt,
      CodeGenOptLevel::Default));
  if (!machine)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create an NVPTX target machine for " +
                                 arch);
  return std::move(machine);
}

void mgp::setNVPTXTarget(Module &module) {
  Triple triple(kNVPTXTriple);
  // "shortptr": the layout of nvptx-short-ptr, which initializeNVPTX sets.
  module.setDataLayout(triple.computeDataLayout("shortptr"));
  module.setTargetTriple(std::move(triple));
}

/// Links libdevice into `module` if it calls any `__nv_*` function, keeping
/// only what is needed.
static Error linkLibdeviceIfNeeded(Module &module) {
  bool needed = any_of(module.functions(), [](const Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
  if (!needed)
    return Error::success();
  // Lazily: the linker materializes only the function bodies it links (a
  // full parse of libdevice is most of a small kernel's compile time).
  MemoryBufferRef buffer(mgp::getLibdeviceBitcode(), "libdevice.10.bc");
  Expected<std::unique_ptr<Module>> libdevice =
      getLazyBitcodeModule(buffer, module.getContext());
  if (!libdevice)
    return libdevice.takeError();
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  (*libdevice)->setDataLayout(module.getDataLayout());
  if (Linker::linkModules(module, std::move(*libdevice),
                          Linker::Flags::LinkOnlyNeeded))
    return createStringError(inconvertibleErrorCode(),
                             "cannot link libdevice into the kernel module");
  // libdevice asks __nvvm_reflect whether to flush f32 denormals: the
  // module's `nvvm-reflect-ftz` (KernelOptions::reflectFtz, set by
  // runStages), else KernelOptions' default (Triton's: yes).
  if (!module.getModuleFlag("nvvm-reflect-ftz"))
    module.addModuleFlag(Module::Override, "nvvm-reflect-ftz",
                         uint32_t(mgp::KernelOptions().reflectFtz));
  return Error::success();
}

bool mgp::runsStrengthReduction(const Function &function) {
  for (const BasicBlock &block : function)
    for (const Instruction &inst : block)
      if (const auto *call = dyn_cast<CallInst>(&inst))
        if (const auto *code = dyn_cast<InlineAsm>(call->getCalledOperand()))
          if (StringRef(code->getAsmString()).contains("mma"))
            return true;
  return false;
}

namespace {
/// Skips straight-line strength reduction ("slsr") in the functions that
/// runsStrengthReduction rejects; every other pass runs.
class StrengthReductionGate : public OptPassGate {
public:
  explicit StrengthReductionGate(const Module &module) {
    for (const Function &function : module)
      if (!function.isDeclaration() && !mgp::runsStrengthReduction(function))
        skipped.insert(("function (" + function.getName() + ")").str());
  }
  bool isEnabled() const override { return !skipped.empty(); }
  bool shouldRunPass(StringRef pass, StringRef unit) const override {
    return pass != "slsr" || !skipped.contains(unit);
  }

private:
  StringSet<> skipped; ///< legacy passes' unit descriptions
};
} // namespace

/// Runs the O3 pipeline of the new pass manager, tuned by `machine`.
static void optimizeO3(Module &module, TargetMachine &machine) {
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  // `-time-passes` (a hidden option of the tools) times these passes too.
  PassInstrumentationCallbacks callbacks;
  std::optional<StandardInstrumentations> instrumentations;
  if (TimePassesIsEnabled) {
    instrumentations.emplace(module.getContext(), /*DebugLogging=*/false);
    instrumentations->registerCallbacks(callbacks, &mam);
  }
  PassBuilder builder(&machine, PipelineTuningOptions(), std::nullopt,
                      TimePassesIsEnabled ? &callbacks : nullptr);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  passes.run(module, mam);
}

mgp::PendingTargetMachine::PendingTargetMachine(const mgp::Target &target)
    : worker([this, target] {
        result.emplace(createNVPTXTargetMachine(target));
      }) {}

mgp::PendingTargetMachine::~PendingTargetMachine() {
  if (worker.joinable())
    worker.join();
  if (result && !*result)
    consumeError(result->takeError());
}

Expected<std::unique_ptr<TargetMachine>> mgp::PendingTargetMachine::take() {
  assert(worker.joinable() && "PendingTargetMachine::take called twice");
  worker.join();
  return std::move(*result);
}

Expected<std::string> mgp::emitPTX(Module &module, const mgp::Target &target,
                                   PendingTargetMachine *pending) {
  Expected<std::unique_ptr<TargetMachine>> machine =
      pending ? pending->take() : createNVPTXTargetMachine(target);
  if (!machine)
    return machine.takeError();
  module.setTargetTriple((*machine)->getTargetTriple());
  module.setDataLayout((*machine)->createDataLayout());

  // Everything defined before libdevice arrives is ours; kernels stay
  // external, the rest may be internalized and inlined away.
  if (Error err = linkLibdeviceIfNeeded(module))
    return std::move(err);
  internalizeModule(module, [](const GlobalValue &value) {
    if (const auto *function = dyn_cast<Function>(&value))
      return function->getCallingConv() == CallingConv::PTX_Kernel;
    return value.hasExternalLinkage() && value.isDeclaration();
  });

  std::string verifierMessage;
  raw_string_ostream verifierStream(verifierMessage);
  if (verifyModule(module, &verifierStream))
    return createStringError(inconvertibleErrorCode(),
                             "invalid LLVM IR before PTX emission: " +
                                 verifierMessage);

  optimizeO3(module, **machine);
  avoidPtxasNegatedMinMax(module);

  // The context keeps a reference to the gate: restore it on every return.
  StrengthReductionGate gate(module);
  OptPassGate &previousGate = module.getContext().getOptPassGate();
  module.getContext().setOptPassGate(gate);
  scope_exit restoreGate(
      [&] { module.getContext().setOptPassGate(previousGate); });
  std::string ptx;
  {
    raw_string_ostream stream(ptx);
    buffer_ostream buffered(stream);
    legacy::PassManager codegen;
    if ((*machine)->addPassesToEmitFile(codegen, buffered, nullptr,
                                        CodeGenFileType::AssemblyFile))
      return createStringError(inconvertibleErrorCode(),
                               "the NVPTX target cannot emit assembly");
    codegen.run(module);
  }
  return ptx;
}
