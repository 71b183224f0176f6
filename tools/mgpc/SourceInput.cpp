//===- SourceInput.cpp - mgpc's .mgp/.py input to an mgp module -----------===//
//
// This file implements buildModuleFromSource: the front end parses the file,
// MLIRGen emits each selected kernel with the signature and defines, and the
// kernels are gathered into one module.
//
//===----------------------------------------------------------------------===//
#include "tools/mgpc/SourceInput.h"

#include "compiler/frontend/Frontend.h"
#include "compiler/frontend/MLIRGen.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace llvm;

Expected<mlir::OwningOpRef<mlir::ModuleOp>>
mgp::buildModuleFromSource(mlir::MLIRContext &context, StringRef filename,
                           const SourceOptions &options) {
  StringMap<ConstValue> defines;
  for (const auto &[name, text] : options.defines) {
    Expected<ConstValue> value = parseConstValue(text);
    if (!value)
      return createStringError(inconvertibleErrorCode(),
                               "invalid value of -D " + name + ": " +
                                   toString(value.takeError()));
    defines[name] = *value;
  }

  SourceMgr sourceMgr;
  Expected<unsigned> bufferId = addSourceFile(sourceMgr, filename);
  if (!bufferId)
    return bufferId.takeError();
  Expected<std::unique_ptr<ast::Module>> ast =
      parseSourceFile(sourceMgr, *bufferId);
  if (!ast)
    return ast.takeError();

  std::vector<std::string> kernels = listKernels(**ast);
  if (!options.kernelName.empty()) {
    if (!llvm::is_contained(kernels, options.kernelName))
      return createStringError(inconvertibleErrorCode(),
                               "no @jit kernel named '" + options.kernelName +
                                   "' in " + filename +
                                   " (kernels: " + join(kernels, ", ") + ")");
    kernels = {options.kernelName};
  }
  if (kernels.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no @jit kernel in " + filename);
  if (options.hasSignature && kernels.size() > 1)
    return createStringError(inconvertibleErrorCode(),
                             "--signature applies to one kernel: pick it with "
                             "-k (kernels: " +
                                 join(kernels, ", ") + ")");

  KernelGenOptions genOptions;
  genOptions.importPaths = options.importPaths;
  genOptions.numWarps = options.numWarps;
  genOptions.debug = options.debug;
  genOptions.computeCapability = options.computeCapability;
  mlir::OwningOpRef<mlir::ModuleOp> result;
  for (const std::string &kernel : kernels) {
    auto module = generateKernelModule(context, sourceMgr, **ast, kernel,
                                       options.signature, defines, genOptions);
    if (!module)
      return module.takeError();
    if (!result) {
      result = std::move(*module);
      continue;
    }
    // Move the kernel's functions into the first module.
    for (mlir::Operation &op :
         llvm::make_early_inc_range((*module)->getBody()->getOperations()))
      op.moveBefore(result->getBody(), result->getBody()->end());
  }
  return std::move(result);
}
