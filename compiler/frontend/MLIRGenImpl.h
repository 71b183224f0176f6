//===- MLIRGenImpl.h - the generator behind MLIRGen.h -----------*- C++ -*-===//
//
// This file implements the declaration of the Generator, the one class that
// walks a kernel's AST, checks it and emits mgp IR as it goes (like Triton's
// CodeGenerator): scopes and name resolution (MLIRGen.cpp), expressions
// (MLIRGenExpr.cpp), typed operations with promotion and broadcasting
// (MLIRGenOps.cpp), statements (MLIRGenStmt.cpp), control flow
// (MLIRGenControlFlow.cpp) and builtins (Builtins*.cpp). Private to the front
// end.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_COMPILER_FRONTEND_MLIRGENIMPL_H
#define MGP_COMPILER_FRONTEND_MLIRGENIMPL_H

#include "compiler/frontend/AST.h"
#include "compiler/frontend/MLIRGen.h"
#include "compiler/frontend/ModuleLoader.h"
#include "compiler/frontend/SemaValue.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace mgp {
namespace detail {

/// The evaluated arguments of a call, with the nodes they came from (for
/// error locations). A method call `x.f(a)` has `x` as its first argument.
struct CallArgs {
  std::vector<SemaValue> args;
  std::vector<const ast::Expr *> argExprs;
  std::vector<SemaValue> keywordValues;
  std::vector<const ast::Keyword *> keywords;
};

/// Arguments bound to a builtin's parameter names; absent ones are null.
struct BoundArgs {
  std::vector<std::optional<SemaValue>> values;
  std::vector<const ast::Expr *> exprs;
  const ast::CallExpr *call = nullptr;

  bool has(unsigned i) const { return values[i].has_value(); }
  const SemaValue &get(unsigned i) const { return *values[i]; }
  /// The node of argument `i`, or the call if it was not given.
  const ast::Expr &expr(unsigned i) const {
    return exprs[i] ? *exprs[i] : static_cast<const ast::Expr &>(*call);
  }
};

/// Where a binary operation is written, for errors and MLIR locations.
struct OpSite {
  llvm::SMLoc loc; ///< the operator (or the statement)
  llvm::SmallVector<llvm::SMRange, 2> ranges; ///< the operands
  mlir::Location mlirLoc;
};

/// How promoteOperands picks the computation type.
enum class PromoteMode {
  Arith,  ///< Triton's computation_type_impl
  DivMod, ///< the same for `/` and `%` (fp16/bf16 compute in fp32)
  Bitwise ///< both integers, integer promotion (literals take part)
};

/// One function being generated (the kernel or an inlined helper).
struct Frame {
  const ast::FunctionDef *function = nullptr;
  /// The module the function belongs to: its globals are this module's.
  const ast::Module *module = nullptr;
  llvm::StringMap<SemaValue> vars;
  llvm::StringSet<> constexprParams;
  unsigned loopDepth = 0;
  bool returned = false;
  std::optional<SemaValue> returnValue;
};

/// Walks a kernel and emits mgp IR; see MLIRGen.h.
class Generator {
public:
  Generator(mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr,
            const ast::Module &module, ModuleLoader *loader,
            KernelGenOptions options);

  /// The whole job of generateKernelModule.
  llvm::Expected<mlir::OwningOpRef<mlir::ModuleOp>>
  generate(llvm::StringRef kernelName, const Signature &signature,
           const llvm::StringMap<ConstValue> &defines);

  //===--- Diagnostics and locations (MLIRGen.cpp) ------------------------===//
  llvm::Error error(llvm::SMLoc loc, const llvm::Twine &message,
                    llvm::ArrayRef<llvm::SMRange> ranges = {});
  llvm::Error error(const ast::Expr &e, const llvm::Twine &message) {
    return error(e.getLoc(), message, e.getRange());
  }
  llvm::Error error(const ast::Stmt &s, const llvm::Twine &message) {
    return error(s.getLoc(), message);
  }
  mlir::Location loc(const ast::SourceLocation &l);
  mlir::Location loc(const ast::Expr &e) { return loc(e.getLocation()); }
  OpSite site(const ast::Expr &e);

  //===--- Scopes, names, helper calls (MLIRGen.cpp) ----------------------===//
  Frame &frame() { return frames.back(); }
  /// The module whose globals the current code sees.
  const ast::Module &currentModule() {
    return frames.empty() || !frames.back().module ? module
                                                   : *frames.back().module;
  }
  /// The module `fn` was parsed in.
  const ast::Module &getModuleOf(const ast::FunctionDef &fn);
  /// The global `name` of `m` (a function, module constant or import), or
  /// std::nullopt; `loc`/`range` locate errors.
  llvm::Expected<std::optional<SemaValue>> lookupGlobal(const ast::Module &m,
                                                        llvm::StringRef name,
                                                        llvm::SMLoc loc,
                                                        llvm::SMRange range);
  llvm::Expected<SemaValue> lookupName(const ast::NameExpr &name);
  llvm::Expected<SemaValue> getAttribute(const SemaValue &base,
                                         const ast::AttributeExpr &attr);
  llvm::Error assignName(llvm::StringRef name, SemaValue value,
                         const ast::Expr &target);
  llvm::Expected<SemaValue> callFunction(const ast::FunctionDef &fn,
                                         CallArgs &args,
                                         const ast::CallExpr &call);

  //===--- Modules (MLIRGenModules.cpp) -----------------------------------===//
  /// The value an import's dotted path stands for (`triton.language`, a
  /// libdevice module, `triton.language.extra.libdevice.tanh`, a module
  /// file, a helper of one, ...); `from` is the importing module, `loc` and
  /// `range` the use of the name.
  llvm::Expected<SemaValue> resolveImportPath(llvm::StringRef path,
                                              const ast::Import &import,
                                              const ast::Module &from,
                                              llvm::SMLoc loc,
                                              llvm::SMRange range);
  /// A module file as a value (`import pkg.utils as u`).
  llvm::Expected<SemaValue> getUserModule(llvm::StringRef file,
                                          llvm::StringRef dotted);
  /// `module.attr`.
  llvm::Expected<SemaValue> getModuleAttribute(const SemaValue &module,
                                               const ast::AttributeExpr &e);
  /// A call of prelude builtin `name` (rand, randint, softmax, ...): the
  /// prelude is parsed on first use (Prelude.h).
  llvm::Expected<SemaValue> callPreludeFunction(llvm::StringRef name,
                                                CallArgs &args,
                                                const ast::CallExpr &call);
  /// A call of `libdevice.NAME` (BuiltinsLibdevice.cpp). `exact`: tl.math's
  /// correctly rounded f32 functions (sqrt_rn) call PTX's exact instruction
  /// (an NVVM intrinsic), not libdevice's, which follows nvvm-reflect-ftz.
  llvm::Expected<SemaValue> genLibdeviceCall(llvm::StringRef name,
                                             CallArgs &args,
                                             const ast::CallExpr &call,
                                             bool exact = false);

  //===--- Dtype objects (MLIRGenDType.cpp) -------------------------------===//
  /// True for the names of dtype predicates (`is_fp16`, ...).
  static bool isDTypeMethod(llvm::StringRef name);
  llvm::Expected<SemaValue> getDTypeAttribute(const SemaValue &dtype,
                                              const ast::AttributeExpr &attr);
  llvm::Expected<SemaValue> callDTypeMethod(const SemaValue &dtype,
                                            llvm::StringRef name,
                                            CallArgs &args,
                                            const ast::CallExpr &call);
  /// `tl.float32(x)`.
  llvm::Expected<SemaValue> callDType(const SemaValue &dtype, CallArgs &args,
                                      const ast::CallExpr &call);
  /// `tl.pointer_type(dtype)`.
  /// An error at \p where if \p ptr derives (through pointer arithmetic
  /// and shape ops) from a `tl.const` kernel argument; \p what is "store"
  /// or the atomic's name.
  llvm::Error checkWritable(mlir::Value ptr, const ast::Expr &where,
                            llvm::StringRef what);
  llvm::Expected<SemaValue> genGather(CallArgs &args,
                                      const ast::CallExpr &call);
  llvm::Expected<SemaValue> genInlineAsm(CallArgs &args,
                                         const ast::CallExpr &call);
  llvm::Expected<SemaValue> genPointerType(CallArgs &args,
                                           const ast::CallExpr &call);

  //===--- Expressions (MLIRGenExpr.cpp) ----------------------------------===//
  llvm::Expected<SemaValue> genExpr(const ast::Expr &e);
  llvm::Expected<SemaValue> genCall(const ast::CallExpr &call);
  /// Evaluates the arguments of `call` (and prepends `receiver` if set).
  llvm::Expected<CallArgs> evalCallArgs(const ast::CallExpr &call,
                                        const SemaValue *receiver);
  llvm::Expected<SemaValue> genSubscript(const ast::SubscriptExpr &e);
  llvm::Expected<SemaValue> genBinOp(const ast::BinOpExpr &e);
  llvm::Expected<SemaValue> genUnaryOp(const ast::UnaryOpExpr &e);
  llvm::Expected<SemaValue> genCompare(const ast::CompareExpr &e);
  llvm::Expected<SemaValue> genBoolOp(const ast::BoolOpExpr &e);
  llvm::Expected<SemaValue> genIfExp(const ast::IfExpExpr &e);

  //===--- Typed operations (MLIRGenOps.cpp) ------------------------------===//
  /// `lhs op rhs` with constexpr folding, promotion and broadcasting.
  llvm::Expected<SemaValue> binaryOp(ast::BinaryOp op, const SemaValue &lhs,
                                     const SemaValue &rhs, const OpSite &s);
  /// `lhs op rhs` for ==, !=, <, <=, >, >=, is, is not.
  llvm::Expected<SemaValue> compareOp(ast::CmpOp op, const SemaValue &lhs,
                                      const SemaValue &rhs, const OpSite &s);
  /// A scalar constant of element type `type` holding compile-time `c`.
  mlir::Value materialize(const SemaValue &c, mlir::Type type,
                          mlir::Location l);
  /// A tensor constant filled with `c`.
  mlir::Value materializeSplat(const SemaValue &c, mlir::Type elementType,
                               llvm::ArrayRef<int64_t> shape, mlir::Location l);
  /// `v` as a runtime value: constexpr numbers take their literal type (a
  /// held number its own).
  llvm::Expected<mlir::Value> toRuntime(const SemaValue &v,
                                        const ast::Expr &where);
  /// `v` as a runtime value of element type `type` (constants are made in
  /// that type, runtime values converted).
  llvm::Expected<mlir::Value> toRuntimeAs(const SemaValue &v, mlir::Type type,
                                          const ast::Expr &where);
  /// Converts a number value (scalar or block) to element type `type`, as
  /// Triton's cast: integers widen by the source's signedness
  /// (`fromUnsigned`), floats become unsigned integers when `type` is an
  /// unsigned integer type (ui32: see SemaTypes.h), unsigned integers
  /// become floats as unsigned. The result's type is signless.
  mlir::Value castTo(mlir::Value v, mlir::Type type, mlir::Location l,
                     bool fromUnsigned = false);
  /// Triton's float8e4b15 conversions (MLIRGenFp8E4B15.cpp): `v` to fp16,
  /// and any float `v` to float8e4b15.
  mlir::Value castFromFp8E4B15(mlir::Value v, mlir::Location l);
  mlir::Value castToFp8E4B15(mlir::Value v, mlir::Location l);
  /// `v` as an i1 condition (scalar or block): constants become `true` or
  /// `false`, numbers `!= 0`; anything else is an error at `where`.
  llvm::Expected<mlir::Value> toCondition(const SemaValue &v,
                                          const ast::Expr &where);
  /// `v != 0` as i1 (identity on i1); `v` must be a number value.
  mlir::Value toBool(mlir::Value v, mlir::Location l);
  /// Splats / expands / broadcasts `v` to the logical shape `shape` (checked
  /// against v's logical shape; the result has the padded MLIR shape).
  llvm::Expected<mlir::Value>
  broadcastTo(mlir::Value v, llvm::ArrayRef<int64_t> shape, const OpSite &s);
  /// Broadcasts two values to their common shape.
  llvm::Error broadcastPair(mlir::Value &a, mlir::Value &b, const OpSite &s);
  /// Broadcasts every value of \p values to their common shape.
  llvm::Error broadcastAll(llvm::MutableArrayRef<mlir::Value> values,
                           const OpSite &s);
  /// Promotes two number operands as Triton does for arithmetic and
  /// broadcasts them; returns the operands in the computation type and, in
  /// `isUnsigned` when given, whether that type is an unsigned integer.
  llvm::Error promoteOperands(const SemaValue &lhs, const SemaValue &rhs,
                              PromoteMode mode, llvm::StringRef opName,
                              mlir::Value &a, mlir::Value &b, const OpSite &s,
                              bool *isUnsigned = nullptr);
  /// The element type of a number value as the typing rules see it: a
  /// literal's type (ui32 for 2^31..2^32-1), a runtime value's element type
  /// with its signedness (SemaTypes.h); null for anything else.
  mlir::Type getSemanticElementType(const SemaValue &v);
  /// What Triton makes of a value assigned to a local: a Python number (a
  /// literal) becomes a 0-d tensor of its default type (int32, uint32 or
  /// int64; fp32 or fp64; i1), element by element in a tuple; anything else
  /// stays as it is. mgp keeps the number known (SemaValue::getHeld).
  SemaValue holdAsTensor(const SemaValue &v);
  /// `r`, the scalar result of an operation on held numbers, folded back to
  /// a held number (its ops erased) where MLIR's folders compute it, with
  /// the result type's semantics (int32 wraps and truncates, fp32 rounds).
  SemaValue foldHeld(SemaValue r);

  //===--- Padded blocks (MLIRGenPadding.cpp) -----------------------------===//
  /// The logical shape of `v`: recorded, derived from its operands, or (if
  /// neither) its MLIR shape. Empty for a scalar.
  llvm::SmallVector<int64_t> getLogicalShape(mlir::Value v);
  /// Records that `v` (of padded MLIR type) is a block of logical shape
  /// `shape`; returns `v`.
  mlir::Value setLogicalShape(mlir::Value v, llvm::ArrayRef<int64_t> shape);
  /// True if `v` is a block some of whose dimensions are padded.
  bool isPadded(mlir::Value v);
  /// `v` as a SemaValue that knows its logical shape (and, with
  /// `isUnsigned`, that its integers are unsigned).
  SemaValue runtime(mlir::Value v, bool isUnsigned = false);
  /// Records (in budgetViolation) a block too large for the per-thread
  /// register budget at the kernel's num_warps.
  void noteBlockSize(mlir::Value v);
  /// The i1 block (of `v`'s MLIR shape) that is true on `v`'s logical
  /// elements; null when `v` is not padded.
  mlir::Value getValidMask(mlir::Value v, mlir::Location l);
  /// `v` with its padding replaced by `neutral` (a number of v's element
  /// type); `v` itself when it is not padded.
  mlir::Value fillPadding(mlir::Value v, const SemaValue &neutral,
                          mlir::Location l);
  /// Forgets what is recorded about the values defined in `block` (before
  /// the block is destroyed: their storage may be reused).
  void forgetValues(mlir::Block &block);

  //===--- Statements (MLIRGenStmt.cpp) -----------------------------------===//
  llvm::Error genBlock(const ast::StmtList &stmts);
  /// Generates `stmts` in order; stops after a return. An `if` with a
  /// runtime condition that contains a return takes the rest of the
  /// sequence into both of its branches (early return).
  llvm::Error genStmts(llvm::ArrayRef<const ast::Stmt *> stmts);
  /// A break/continue flag as an i1 value.
  mlir::Value materializeFlag(const SemaValue &flag, mlir::Location l);
  llvm::Error genStmt(const ast::Stmt &s);
  llvm::Error assignTarget(const ast::Expr &target, SemaValue value);

  //===--- Control flow (MLIRGenControlFlow.cpp) --------------------------===//
  /// `rest` is what follows the `if` in its sequence; `consumedRest` says
  /// whether the `if` generated it (inside its branches).
  llvm::Error genIf(const ast::IfStmt &s,
                    llvm::ArrayRef<const ast::Stmt *> rest, bool &consumedRest);
  /// An scf.if on `cond` whose branches `thenGen`/`elseGen` generate code;
  /// the variables in `names` that differ between the branches are yielded.
  /// `endsFunction`: both branches run to the end of the function (a branch
  /// that does not return returns None).
  llvm::Error genRuntimeIf(mlir::Value cond,
                           const llvm::SetVector<llvm::StringRef> &names,
                           llvm::function_ref<llvm::Error()> thenGen,
                           llvm::function_ref<llvm::Error()> elseGen,
                           const ast::Stmt &where, bool endsFunction = false);
  llvm::Error genFor(const ast::ForStmt &s);
  llvm::Error genWhile(const ast::WhileStmt &s);
  llvm::Error genStaticFor(const ast::ForStmt &s,
                           llvm::ArrayRef<SemaValue> items);
  llvm::Error genRangeFor(const ast::ForStmt &s, CallArgs &args,
                          const ast::CallExpr &call);

  //===--- Builtins (Builtins*.cpp) ---------------------------------------===//
  /// True if `name` is a builtin of `triton.language`/`mgp`.
  static bool isBuiltinName(llvm::StringRef name);
  /// Calls builtin `name`; results that hold the first argument's elements
  /// (reshape, trans, join, ...) keep its signedness.
  llvm::Expected<SemaValue> callBuiltin(llvm::StringRef name, CallArgs &args,
                                        const ast::CallExpr &call);
  llvm::Expected<SemaValue> callBuiltinImpl(llvm::StringRef name,
                                            CallArgs &args,
                                            const ast::CallExpr &call);
  /// Binds `args` to `params` (the first `numRequired` are required).
  llvm::Expected<BoundArgs> bindArgs(llvm::StringRef name, CallArgs &args,
                                     const ast::CallExpr &call,
                                     llvm::ArrayRef<llvm::StringRef> params,
                                     unsigned numRequired);
  llvm::Expected<int64_t> getConstInt(const BoundArgs &b, unsigned i,
                                      llvm::StringRef what);
  llvm::Expected<llvm::SmallVector<int64_t>>
  getConstShape(const SemaValue &v, const ast::Expr &where);
  llvm::Expected<mlir::Type> getDTypeArg(const BoundArgs &b, unsigned i);
  llvm::Expected<mlir::Value> getRuntimeArg(const BoundArgs &b, unsigned i);

  llvm::Expected<SemaValue> genMemoryBuiltin(llvm::StringRef name,
                                             CallArgs &args,
                                             const ast::CallExpr &call);
  /// Sets `load`'s cache modifier from argument `i` (`cache_modifier`) when
  /// given; an error unless it is "", ".ca", ".cg" or ".cv".
  llvm::Error setCacheModifier(const BoundArgs &b, unsigned i,
                               mlir::Operation *load);
  llvm::Expected<SemaValue> genCreationBuiltin(llvm::StringRef name,
                                               CallArgs &args,
                                               const ast::CallExpr &call);
  /// Element `index` along `axis` of the block `v` (power-of-two dims,
  /// unpadded): the block without that axis, picked exactly (through the
  /// bits: a one-hot select summed) (BuiltinsCompose.cpp).
  mlir::Value takeAlong(mlir::Value v, unsigned axis, int64_t index,
                        mlir::Location l);
  /// Blocks of one shape stacked along a new leading axis, exactly (the
  /// inverse of takeAlong on axis 0).
  mlir::Value stackLeading(llvm::ArrayRef<mlir::Value> parts,
                           mlir::Location l);
  /// dot, 2-D and batched 3-D (BuiltinsDot.cpp).
  llvm::Expected<SemaValue> genDotBuiltin(CallArgs &args,
                                          const ast::CallExpr &call);
  /// dot_scaled: checked here, computed by the prelude's _mx_dot_scaled.
  llvm::Expected<SemaValue> genDotScaled(CallArgs &args,
                                         const ast::CallExpr &call);
  llvm::Expected<SemaValue> genMathBuiltin(llvm::StringRef name, CallArgs &args,
                                           const ast::CallExpr &call);
  llvm::Expected<SemaValue> genShapeBuiltin(llvm::StringRef name,
                                            CallArgs &args,
                                            const ast::CallExpr &call);
  llvm::Expected<SemaValue> genReduceBuiltin(llvm::StringRef name,
                                             CallArgs &args,
                                             const ast::CallExpr &call);
  llvm::Expected<SemaValue> genPythonBuiltin(llvm::StringRef name,
                                             CallArgs &args,
                                             const ast::CallExpr &call);
  /// cumsum, cumprod, associative_scan, reduce, xor_sum, reduce_or
  /// (BuiltinsScan.cpp).
  /// `tl.map_elementwise(scalar_fn, *args, pack=1)`
  /// (BuiltinsMapElementwise.cpp).
  llvm::Expected<SemaValue> genMapElementwise(CallArgs &args,
                                              const ast::CallExpr &call);
  llvm::Expected<SemaValue> genScanBuiltin(llvm::StringRef name, CallArgs &args,
                                           const ast::CallExpr &call);
  /// atomic_add/max/min/and/or/xor/xchg/cas (BuiltinsAtomic.cpp).
  /// `halfMinMax`: a tensor descriptor's atomic_min/max, which Triton also
  /// takes on fp16 and bf16 elements (a float max/min of 16 bits).
  llvm::Expected<SemaValue> genAtomicBuiltin(llvm::StringRef name,
                                             CallArgs &args,
                                             const ast::CallExpr &call,
                                             bool halfMinMax = false);
  /// join, split, interleave, cat, flip, ravel, histogram
  /// (BuiltinsCompose.cpp).
  llvm::Expected<SemaValue> genComposedBuiltin(llvm::StringRef name,
                                               CallArgs &args,
                                               const ast::CallExpr &call);
  /// make_block_ptr, advance, make_tensor_descriptor, load/store through
  /// them (BuiltinsBlockPtr.cpp).
  llvm::Expected<SemaValue> genBlockPtrBuiltin(llvm::StringRef name,
                                               CallArgs &args,
                                               const ast::CallExpr &call);
  /// The block of pointers base + sum_d (offsets[d] + i_d) * strides[d] over
  /// `blockShape`, and in `mask` (null when `checked` is empty) where the
  /// dims in `checked` are in [0, shape[d]).
  llvm::Expected<SemaValue> blockAccess(
      const SemaValue &base, llvm::ArrayRef<SemaValue> shape,
      llvm::ArrayRef<SemaValue> strides, llvm::ArrayRef<SemaValue> offsets,
      llvm::ArrayRef<SemaValue> blockShape, llvm::ArrayRef<int64_t> checked,
      const ast::Expr &where, mlir::Value &mask);
  /// `desc.load(offsets)` (`store` null) or `desc.store(offsets, value)`
  /// (`store` the call's bound arguments) of a descriptor with a tensor map
  /// (`fields`: the descriptor's): mgp.tensor_map_load / _store.
  llvm::Expected<SemaValue> tensorMapAccess(llvm::ArrayRef<SemaValue> fields,
                                            llvm::ArrayRef<SemaValue> offsets,
                                            const BoundArgs *store,
                                            const ast::CallExpr &call);
  llvm::Expected<SemaValue> genMiscBuiltin(llvm::StringRef name, CallArgs &args,
                                           const ast::CallExpr &call);

  /// The 32-bit registers one block may take per thread (docs/language.md,
  /// "Block sizes"): beyond it a kernel is refused before the GPU passes,
  /// whose time and the spills grow with the block.
  static constexpr int64_t kRegisterBudget = 256;
  /// The multiply-adds one thread may unroll for a dot on CUDA cores
  /// (integer and fp64 dots; docs/language.md, "Block sizes"): LLVM's NVPTX
  /// code generation time grows faster than the unrolled chain (8192: about
  /// 5 s, 16384: 23 s, then minutes, and ptxas as much again).
  static constexpr int64_t kFmaDotBudget = 16384;

  /// "use num_warps=W or more, or smaller blocks" for the fewest warps W
  /// (from the kernel's, up to 32) at which `perThread(W)` fits `budget`, or
  /// the advice to use smaller blocks when none does.
  std::string warpsHint(llvm::function_ref<int64_t(int)> perThread,
                        int64_t budget) const;

  mlir::MLIRContext &context;
  llvm::SourceMgr &sourceMgr;
  KernelGenOptions genOptions;
  /// The message of the first block over the register budget, reported at
  /// the statement that made it.
  std::optional<std::string> budgetViolation;
  const ast::Module &module; ///< the kernel's
  ModuleLoader *loader;      ///< null: imports of module files fail
  /// The parsed prelude (Prelude.h), once a kernel calls into it.
  std::unique_ptr<ast::Module> prelude;
  /// The modules imported from files, by their value's name (`py:<file>`).
  struct UserModule {
    const ast::Module *module;
    std::string dotted;
  };
  llvm::StringMap<UserModule> userModules;
  /// The module of each function of an imported module.
  llvm::DenseMap<const ast::FunctionDef *, const ast::Module *> functionModules;
  mlir::OpBuilder builder;
  /// Kernel arguments that point to constant data (`tl.const`, `*k` in the
  /// signature), with their parameter names.
  llvm::DenseMap<mlir::Value, std::string> constPointers;
  std::deque<Frame> frames; // deque: references stay valid across calls
  std::map<std::pair<const ast::Module *, std::string>, SemaValue>
      constantCache;
  /// Logical shapes of block values, recorded or derived (MLIRGenPadding).
  llvm::DenseMap<mlir::Value, llvm::SmallVector<int64_t, 4>> logicalShapes;
  std::set<std::pair<const ast::Module *, std::string>> constantsInProgress;
};

/// The canonical module paths the front end knows.
inline constexpr llvm::StringLiteral kTritonModule = "triton";
inline constexpr llvm::StringLiteral kLanguageModule = "triton.language";
inline constexpr llvm::StringLiteral kMathModule = "triton.language.math";
/// tl.PropagateNan, whose members NONE and ALL are Triton's values.
inline constexpr llvm::StringLiteral kPropagateNanModule =
    "triton.language.PropagateNan";
inline constexpr llvm::StringLiteral kExtraModule = "triton.language.extra";
inline constexpr llvm::StringLiteral kExtraCudaModule =
    "triton.language.extra.cuda";
inline constexpr llvm::StringLiteral kLibdeviceModule = "libdevice";
/// triton.language.target_info: compile-time questions about the target.
inline constexpr llvm::StringLiteral kTargetInfoModule =
    "triton.language.target_info";
/// The prefix of the builtin names of target_info's functions.
inline constexpr llvm::StringLiteral kTargetInfoPrefix = "target_info.";
/// The prefix of the builtin names of libdevice functions.
inline constexpr llvm::StringLiteral kLibdevicePrefix = "libdevice.";

/// The builtins that Python's bare `min` and `max` name in a kernel.
inline constexpr llvm::StringLiteral kPyMin = "min()";
inline constexpr llvm::StringLiteral kPyMax = "max()";

/// The pseudo-variables that record a `break` / `continue` in the current
/// iteration of a loop lowered to scf.while (see MLIRGenControlFlow.cpp).
inline constexpr llvm::StringLiteral kBreakFlag = "$break";
inline constexpr llvm::StringLiteral kContinueFlag = "$continue";

/// The names `stmts` assign, plus the break/continue flags of their own loop
/// (not of nested loops).
void collectNamesOf(llvm::ArrayRef<const ast::Stmt *> stmts,
                    llvm::SetVector<llvm::StringRef> &names);

/// `shape` with each dimension rounded up to a power of two: the MLIR shape
/// of a block of logical shape `shape`.
llvm::SmallVector<int64_t> padShape(llvm::ArrayRef<int64_t> shape);

/// The runtime type a constant number takes by default (i32/i64, f32, i1;
/// a held number: its type).
mlir::Type getDefaultType(mlir::MLIRContext *ctx, const SemaValue &c);
/// True if `annotation` spells `constexpr` (`tl.constexpr`, `constexpr`).
bool isConstexprAnnotation(const ast::Expr *annotation);
/// `v` as a runtime value of exactly `type` at the builder's insertion point
/// (constants are materialized, splatted to `type`'s shape), or null.
mlir::Value coerceTo(Generator &g, const SemaValue &v, mlir::Type type,
                     mlir::Location l);
/// A variable's value for messages: its type if runtime, else describe().
std::string describeVar(const SemaValue &v);

/// The pointer argument 0 of `b`, checked (`name` for messages).
llvm::Expected<mlir::Value> getPointer(Generator &g, const BoundArgs &b,
                                       llvm::StringRef name);
/// The mask argument `i` (absent: null), broadcast with `ptr`.
llvm::Error getMask(Generator &g, const BoundArgs &b, unsigned i,
                    mlir::Value &ptr, mlir::Value &mask);
/// Ands the validity mask of a padded block of pointers into `mask` (none:
/// the validity mask), so that the padding is never accessed.
void maskPadding(Generator &g, mlir::Value ptr, mlir::Value &mask,
                 mlir::Location l);

/// The leaves of compound value `v` (its non-compound elements, nested)
/// with their paths of element indices, appended to `out`.
void collectLeaves(const SemaValue &v, std::vector<int> path,
                   std::vector<std::pair<std::vector<int>, SemaValue>> &out);
/// `v` with its leaf at `path` replaced by `leaf`.
SemaValue replaceLeaf(const SemaValue &v, llvm::ArrayRef<int> path,
                      const SemaValue &leaf);
/// The leaf of `v` at `path`.
const SemaValue *getLeaf(const SemaValue &v, llvm::ArrayRef<int> path);
/// Whether `a` and `b` are compounds with the same tags and sizes, nested.
bool sameStructure(const SemaValue &a, const SemaValue &b);

/// The statements of `stmts` as a sequence of pointers.
std::vector<const ast::Stmt *> toSequence(const ast::StmtList &stmts);

/// True if `stmts` contain a `return` (in nested `if`s too).
bool containsReturn(const ast::StmtList &stmts);

/// The names a statement list assigns (assignment targets, augmented
/// assignments; not loop targets), in first-assignment order.
void collectAssignedNames(const ast::StmtList &stmts,
                          llvm::SetVector<llvm::StringRef> &names);

} // namespace detail
} // namespace mgp

#endif // MGP_COMPILER_FRONTEND_MLIRGENIMPL_H
