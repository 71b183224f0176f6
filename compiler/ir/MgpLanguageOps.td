//===- MgpLanguageOps.td - the mgp ops of the wider language ---*- tablegen -*-===//
//
// The operations that carry the rest of Triton's language: library calls
// (libdevice), atomics, scans, debug printing and assertions, and pointer
// conversions. Included by MgpOps.td; verifiers live in MgpLanguageOps.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_LANGUAGE_OPS_TD
#define MGP_LANGUAGE_OPS_TD

//===----------------------------------------------------------------------===//
// Library calls
//===----------------------------------------------------------------------===//

def Mgp_ExternElementwiseOp : Mgp_Op<"extern_elementwise", [Pure]> {
  let summary = "An element-wise call of a libdevice function";
  let description = [{
    Calls the libdevice function `symbol` once per element (Triton's
    `tl.extern_elementwise`, used by `triton.language.extra.libdevice`), or
    the NVVM intrinsic `symbol` (`llvm.nvvm.div.rn.f`: PTX's exact
    instructions where libdevice's would follow `nvvm-reflect-ftz`).
    Every operand has the result's shape; scalars are allowed. The GPU
    lowering calls the function (emitPTX links libdevice); the interpreter
    implements each supported symbol. Example:
    `%y = mgp.extern_elementwise "__nv_erfinvf"(%x) : (tensor<128xf32>) -> tensor<128xf32>`
  }];
  let arguments = (ins Variadic<Mgp_Value>:$srcs, StrAttr:$symbol);
  let results = (outs Mgp_Value:$result);
  let assemblyFormat = "$symbol `(` $srcs `)` attr-dict `:` functional-type($srcs, $result)";
  let hasVerifier = 1;
}

def Mgp_InlineAsmElementwiseOp : Mgp_Op<"inline_asm_elementwise", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Inline PTX applied to every element (tl.inline_asm_elementwise)";
  let description = [{
    Runs the PTX `asm_string` with the LLVM constraints `constraints` once
    per `pack` elements of each thread's registers. Operands and results
    share one shape (scalars allowed). Elements narrower than 32 bits are
    packed into 32-bit registers (as many as fit, at most `pack`), as
    Triton does; outputs come first in the constraints, then the packed
    inputs. Without `pure` the asm has side effects and is never removed.
    Example:
    `%z = mgp.inline_asm_elementwise "add.s32 $0, $1, $2;" (%x, %y) {constraints = "=r,r,r", pure = true, pack = 1 : i32} : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi32>`
  }];
  let arguments = (ins Variadic<Mgp_Value>:$srcs, StrAttr:$asm_string,
                       StrAttr:$constraints, BoolAttr:$pure, I32Attr:$pack);
  let results = (outs Variadic<Mgp_Value>:$results);
  let assemblyFormat =
      "$asm_string `(` $srcs `)` attr-dict `:` functional-type($srcs, $results)";
  let hasVerifier = 1;
}

def Mgp_MapElementwiseOp : Mgp_Op<"map_elementwise", [
    RecursiveMemoryEffects, RecursivelySpeculatable]> {
  let summary = "A scalar function applied to every element (tl.map_elementwise)";
  let description = [{
    Runs the region once per `pack` elements: its entry block takes `pack`
    scalars of each operand (operand i's element j is argument
    `i * pack + j`) and every `mgp.map_elementwise.return` gives `pack`
    scalars of each result in the same order. Operands and results share
    one shape (scalars allowed). The region may branch (an `if` in the
    function), so only the taken side runs for an element. The GPU
    lowering inlines the region per `pack` registers of a thread; a thread
    whose register count is not a multiple of `pack` runs the last call on
    zeros in the missing places. Example:
    `%y = "mgp.map_elementwise"(%x) <{pack = 1 : i32}> ({
       ^bb0(%a: f32):
         %s = math.exp %a : f32
         mgp.map_elementwise.return %s : f32
     }) : (tensor<128xf32>) -> tensor<128xf32>`
  }];
  let arguments = (ins Variadic<Mgp_Value>:$srcs, I32Attr:$pack);
  let results = (outs Variadic<Mgp_Value>:$results);
  let regions = (region AnyRegion:$scalarOp);
  let hasRegionVerifier = 1;
}

def Mgp_MapElementwiseReturnOp : Mgp_Op<"map_elementwise.return", [
    Pure, HasParent<"MapElementwiseOp">, Terminator, ReturnLike]> {
  let summary = "Terminates a path through the region of mgp.map_elementwise";
  let description = [{
    Returns `pack` scalars per result. Example:
    `mgp.map_elementwise.return %s : f32`
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//

def Mgp_AtomicRMWOp : Mgp_Op<"atomic_rmw", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"val matches the pointee type of ptr", "ptr", "val",
                   "::mgp::getPointeeLikeType($_self)">,
    TypesMatchWith<"result matches the pointee type of ptr", "ptr", "result",
                   "::mgp::getPointeeLikeType($_self)">,
    TypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                   "::mgp::getI1LikeType($_self)",
                   "(!::llvm::cast<::mgp::AtomicRMWOp>(&$_op).getMask()) || std::equal_to<>()">]> {
  let summary = "Atomic read-modify-write through pointers; returns the old values";
  let description = [{
    For each element where `mask` is true (everywhere when absent),
    atomically replaces `*ptr` by `kind(*ptr, val)` and returns the value it
    held; masked-off elements return 0 and touch no memory. `sem` orders the
    access (relaxed, acquire, release, acq_rel) with the threads of `scope`
    (gpu, cta, sys). Example:
    `%old = mgp.atomic_rmw %p, %v, %m {kind = #mgp.atomic_rmw_kind<fadd>, sem = #mgp.sem<acq_rel>, scope = #mgp.scope<gpu>} : tensor<128x!mgp.ptr<f32>>`
  }];
  let arguments = (ins Mgp_PtrLike:$ptr, Mgp_Value:$val, Optional<Mgp_BoolLike>:$mask,
                       Mgp_AtomicRMWKindAttr:$kind, Mgp_MemSemanticAttr:$sem,
                       Mgp_MemScopeAttr:$scope);
  let results = (outs Mgp_Value:$result);
  let assemblyFormat = "$ptr `,` $val (`,` $mask^)? attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

def Mgp_AtomicCASOp : Mgp_Op<"atomic_cas", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"cmp matches the pointee type of ptr", "ptr", "cmp",
                   "::mgp::getPointeeLikeType($_self)">,
    TypesMatchWith<"val matches the pointee type of ptr", "ptr", "val",
                   "::mgp::getPointeeLikeType($_self)">,
    TypesMatchWith<"result matches the pointee type of ptr", "ptr", "result",
                   "::mgp::getPointeeLikeType($_self)">]> {
  let summary = "Atomic compare-and-swap through pointers; returns the old values";
  let description = [{
    For each element, atomically: `old = *ptr; if (old == cmp) *ptr = val;`
    and returns `old` (integers of 16, 32 or 64 bits, compared bitwise).
    Example:
    `%old = mgp.atomic_cas %p, %c, %v {sem = #mgp.sem<acq_rel>, scope = #mgp.scope<gpu>} : !mgp.ptr<i32>`
  }];
  let arguments = (ins Mgp_PtrLike:$ptr, Mgp_Value:$cmp, Mgp_Value:$val,
                       Mgp_MemSemanticAttr:$sem, Mgp_MemScopeAttr:$scope);
  let results = (outs Mgp_Value:$result);
  let assemblyFormat = "$ptr `,` $cmp `,` $val attr-dict `:` type($ptr)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Scans
//===----------------------------------------------------------------------===//

def Mgp_ScanOp : Mgp_Op<"scan", [Pure, SingleBlock]> {
  let summary = "Inclusive prefix scan of blocks along an axis with a combiner region";
  let description = [{
    Scans N operands of one shape together along `axis` (from the last
    element backwards when `reverse`): element i of each result is the
    combination of elements 0..i. The region takes 2N scalars (the N running
    values, then the N new ones) and returns N. Results have the operands'
    types. Example (`tl.cumsum`):
    `%r = "mgp.scan"(%x) <{axis = 0 : i32, reverse = false}> ({
       ^bb0(%a: f32, %b: f32):
         %s = arith.addf %a, %b : f32
         mgp.scan.return %s : f32
     }) : (tensor<128xf32>) -> tensor<128xf32>`
  }];
  let arguments = (ins Variadic<Mgp_Tensor>:$srcs, I32Attr:$axis, BoolAttr:$reverse);
  let results = (outs Variadic<Mgp_Tensor>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasRegionVerifier = 1;
}

def Mgp_ScanReturnOp : Mgp_Op<"scan.return", [Pure, HasParent<"ScanOp">, Terminator,
                                            ReturnLike]> {
  let summary = "Terminates the combiner region of mgp.scan";
  let description = [{
    Returns the N combined scalars. Example: `mgp.scan.return %s : f32`
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

//===----------------------------------------------------------------------===//
// Debugging
//===----------------------------------------------------------------------===//

def Mgp_PrintOp : Mgp_Op<"print", [MemoryEffects<[MemWrite]>]> {
  let summary = "Prints values from every program (tl.device_print)";
  let description = [{
    Prints `prefix` followed by each operand, one line per element of a
    block (with the program id and the element's index), in hexadecimal
    when `hex`. `isSigned` has one entry per operand (unsigned integers
    print as such). Example:
    `mgp.print %x {prefix = "x: ", hex = false, isSigned = array<i32: 1>} : tensor<16xi32>`
  }];
  let arguments = (ins Variadic<Mgp_Value>:$args, StrAttr:$prefix, BoolAttr:$hex,
                       DenseI32ArrayAttr:$isSigned);
  let assemblyFormat = "($args^)? attr-dict (`:` type($args)^)?";
  let hasVerifier = 1;
}

def Mgp_AssertOp : Mgp_Op<"assert", [MemoryEffects<[MemWrite]>]> {
  let summary = "Stops the kernel where a condition is false (tl.device_assert)";
  let description = [{
    Where any element of `condition` is false, reports `message` with the
    source position (`file`, `line`, `function`) and stops the kernel (the
    GPU's __assertfail; the interpreter's run fails with the message).
    Example:
    `mgp.assert %c {message = "x > 0", file = "k.py", line = 7 : i32, function = "k"} : tensor<16xi1>`
  }];
  let arguments = (ins Mgp_BoolLike:$condition, StrAttr:$message, StrAttr:$file,
                       I32Attr:$line, StrAttr:$function);
  let assemblyFormat = "$condition attr-dict `:` type($condition)";
}

def Mgp_GatherOp : Mgp_Op<"gather", [Pure]> {
  let summary = "Elements of a block picked along one axis by a block of indices";
  let description = [{
    `tl.gather(src, index, axis)`: result[i..] = src[i.. with index[i..] at
    `axis`]. The index has the source's rank and matches its shape in every
    dimension but `axis`; the result has the index's shape and the source's
    element type. An index outside [0, src.shape[axis]) gives 0 (undefined
    in Triton). On the GPU the source goes through shared memory.
    Example: `%r = mgp.gather %x[%i] {axis = 1 : i32} : (tensor<16x64xf32>, tensor<16x8xi32>) -> tensor<16x8xf32>`
  }];
  let arguments = (ins Mgp_Tensor:$src, RankedTensorOf<[Mgp_Int]>:$indices,
                       I32Attr:$axis);
  let results = (outs Mgp_Tensor:$result);
  let assemblyFormat = "$src `[` $indices `]` attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor maps (TMA, sm_90)
//===----------------------------------------------------------------------===//

def Mgp_TensorMapLoadOp : Mgp_Op<"tensor_map_load", [MemoryEffects<[MemRead]>]> {
  let summary = "A block read through a TMA tensor map";
  let description = [{
    `desc.load(offsets)` of a tensor descriptor that has a tensor map: the
    block of the result's shape at `coords` (one i32 per dimension, outermost
    first) of the tensor the 128-byte CUtensorMap at `tensorMap` (global
    memory) describes; elements outside the tensor are the map's fill (zero
    or NaN). On sm_90 one thread issues `cp.async.bulk.tensor` into shared
    memory, every thread waits on an mbarrier and reads its elements.
    Example: `%t = mgp.tensor_map_load %m[%i, %j] : !mgp.ptr<i8> -> tensor<64x64xf16>`
  }];
  let arguments = (ins Mgp_PtrType:$tensorMap, Variadic<I32>:$coords);
  let results = (outs Mgp_Tensor:$result);
  let assemblyFormat = "$tensorMap `[` $coords `]` attr-dict `:` qualified(type($tensorMap)) `->` type($result)";
  let hasVerifier = 1;
}

def Mgp_TensorMapStoreOp : Mgp_Op<"tensor_map_store", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "A block written through a TMA tensor map";
  let description = [{
    `desc.store(offsets, value)` of a tensor descriptor that has a tensor
    map: `value` goes to the block at `coords` (one i32 per dimension,
    outermost first); elements outside the tensor are dropped. On sm_90 the
    threads write the block to shared memory and one thread issues the bulk
    tensor store and waits for it.
    Example: `mgp.tensor_map_store %m[%i, %j], %v : !mgp.ptr<i8>, tensor<64x64xf16>`
  }];
  let arguments = (ins Mgp_PtrType:$tensorMap, Variadic<I32>:$coords,
                       Mgp_Tensor:$value);
  let assemblyFormat = "$tensorMap `[` $coords `]` `,` $value attr-dict `:` qualified(type($tensorMap)) `,` type($value)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pointer conversions
//===----------------------------------------------------------------------===//

def Mgp_PtrToIntOp : Mgp_Op<"ptr_to_int", [Pure]> {
  let summary = "The address of a pointer as an i64";
  let description = [{
    Example: `%a = mgp.ptr_to_int %p : tensor<16x!mgp.ptr<f32>> -> tensor<16xi64>`
  }];
  let arguments = (ins Mgp_PtrLike:$src);
  let results = (outs Mgp_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Mgp_IntToPtrOp : Mgp_Op<"int_to_ptr", [Pure]> {
  let summary = "A pointer at an i64 address";
  let description = [{
    Example: `%p = mgp.int_to_ptr %a : i64 -> !mgp.ptr<f32>`
  }];
  let arguments = (ins Mgp_IntLike:$src);
  let results = (outs Mgp_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

def Mgp_PtrCastOp : Mgp_Op<"ptr_cast", [Pure]> {
  let summary = "The same address as a pointer to another element type";
  let description = [{
    `x.to(tl.pointer_type(tl.int8))`. Example:
    `%q = mgp.ptr_cast %p : !mgp.ptr<f32> -> !mgp.ptr<i8>`
  }];
  let arguments = (ins Mgp_PtrLike:$src);
  let results = (outs Mgp_PtrLike:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
}

#endif // MGP_LANGUAGE_OPS_TD
