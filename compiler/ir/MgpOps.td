//===- MgpOps.td - mgp operations ------------------------------*- tablegen -*-===//
//
// The operations of the mgp dialect, one def per row of the table in
// docs/dialect.md. Verifiers live in MgpOps.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_OPS_TD
#define MGP_OPS_TD

include "compiler/ir/MgpDialect.td"
include "compiler/ir/MgpTypes.td"
include "compiler/ir/MgpAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Program indices
//===----------------------------------------------------------------------===//

def Mgp_ProgramIdOp : Mgp_Op<"program_id", [Pure]> {
  let summary = "The index of this program along a grid axis";
  let description = [{
    The block index (CUDA `blockIdx`) along grid axis 0, 1 or 2.
    Example: `%pid = mgp.program_id 0 : i32`
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def Mgp_NumProgramsOp : Mgp_Op<"num_programs", [Pure]> {
  let summary = "The number of programs along a grid axis";
  let description = [{
    The grid size (CUDA `gridDim`) along axis 0, 1 or 2.
    Example: `%n = mgp.num_programs 0 : i32`
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Block construction and shape manipulation
//===----------------------------------------------------------------------===//

def Mgp_MakeRangeOp : Mgp_Op<"make_range", [Pure]> {
  let summary = "The 1-D block start, start+1, ..., end-1";
  let description = [{
    `tl.arange(start, end)`: an i32 block of length `end - start`, a power of
    two. Example:
    `%r = mgp.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>`
  }];
  let arguments = (ins I32Attr:$start, I32Attr:$end);
  let results = (outs Mgp_I32Tensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "int32_t":$start, "int32_t":$end)>];
}

def Mgp_SplatOp : Mgp_Op<"splat", [Pure]> {
  let summary = "Broadcasts a scalar to a block";
  let description = [{
    Every element of the result is `src` (a number or a pointer). Example:
    `%t = mgp.splat %x : f32 -> tensor<128xf32>`
  }];
  let arguments = (ins Mgp_Scalar:$src);
  let results = (outs Mgp_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "::llvm::ArrayRef<int64_t>":$shape,
                                 CArg<"::mlir::Attribute", "{}">:$encoding)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Mgp_BroadcastOp : Mgp_Op<"broadcast", [Pure]> {
  let summary = "Broadcasts size-1 dimensions of a block";
  let description = [{
    The result has the operand's rank and element type; each dim is the
    operand's or, where the operand's is 1, any size. Example:
    `%t = mgp.broadcast %x : tensor<1x128xf32> -> tensor<64x128xf32>`
  }];
  let arguments = (ins Mgp_Tensor:$src);
  let results = (outs Mgp_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "::llvm::ArrayRef<int64_t>":$shape)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Mgp_ExpandDimsOp : Mgp_Op<"expand_dims", [Pure]> {
  let summary = "Inserts a size-1 dimension";
  let description = [{
    `x[:, None]` is `expand_dims` with `axis = 1`. Example:
    `%t = mgp.expand_dims %x {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>`
  }];
  let arguments = (ins Mgp_Tensor:$src, I32Attr:$axis);
  let results = (outs Mgp_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "int32_t":$axis)>];
}

def Mgp_ReshapeOp : Mgp_Op<"reshape", [Pure]> {
  let summary = "Reinterprets a block with another shape (row-major)";
  let description = [{
    Same element type and element count. Example:
    `%t = mgp.reshape %x : tensor<4x8xf32> -> tensor<32xf32>`
  }];
  let arguments = (ins Mgp_Tensor:$src);
  let results = (outs Mgp_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "::llvm::ArrayRef<int64_t>":$shape)>];
  let hasVerifier = 1;
}

def Mgp_TransOp : Mgp_Op<"trans", [Pure]> {
  let summary = "Permutes the dimensions of a block";
  let description = [{
    Result dim i is operand dim `order[i]`. Example:
    `%t = mgp.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>`
  }];
  let arguments = (ins Mgp_Tensor:$src, DenseI32ArrayAttr:$order);
  let results = (outs Mgp_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "::llvm::ArrayRef<int32_t>":$order)>];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Mgp_AddPtrOp : Mgp_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "Pointer arithmetic in elements";
  let description = [{
    `ptr + offset`, offset counted in elements of the pointee type; scalar
    or block form (then both have the same shape). Example:
    `%q = mgp.addptr %p, %off : tensor<128x!mgp.ptr<f32>>, tensor<128xi32>`
  }];
  let arguments = (ins Mgp_PtrLike:$ptr, Mgp_IntLike:$offset);
  let results = (outs Mgp_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
}

def Mgp_LoadOp : Mgp_Op<"load", [
    AttrSizedOperandSegments, MemoryEffects<[MemRead]>,
    TypesMatchWith<"result matches the pointee type of ptr", "ptr", "result",
                   "::mgp::getPointeeLikeType($_self)">,
    TypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                   "::mgp::getI1LikeType($_self)",
                   "(!::llvm::cast<::mgp::LoadOp>(&$_op).getMask()) || std::equal_to<>()">,
    TypesMatchWith<"other matches the result type", "ptr", "other",
                   "::mgp::getPointeeLikeType($_self)",
                   "(!::llvm::cast<::mgp::LoadOp>(&$_op).getOther()) || std::equal_to<>()">]> {
  let summary = "Loads a scalar or a block through pointers";
  let description = [{
    Loads `*ptr` element-wise. Where `mask` is false the result is `other`
    (0 when absent; `other` needs `mask`). Example:
    `%v = mgp.load %p, %m, %o : tensor<128x!mgp.ptr<f32>>`
  }];
  let arguments = (ins Mgp_PtrLike:$ptr, Optional<Mgp_BoolLike>:$mask, Optional<Mgp_Value>:$other);
  let results = (outs Mgp_Value:$result);
  let assemblyFormat = "$ptr (`,` $mask^)? (`,` $other^)? attr-dict `:` type($ptr)";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$ptr, CArg<"::mlir::Value", "{}">:$mask,
                                 CArg<"::mlir::Value", "{}">:$other)>];
}

def Mgp_StoreOp : Mgp_Op<"store", [
    MemoryEffects<[MemWrite]>,
    TypesMatchWith<"value matches the pointee type of ptr", "ptr", "value",
                   "::mgp::getPointeeLikeType($_self)">,
    TypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                   "::mgp::getI1LikeType($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">]> {
  let summary = "Stores a scalar or a block through pointers";
  let description = [{
    Stores `value` to `*ptr` element-wise where `mask` is true (everywhere
    when absent). Example:
    `mgp.store %p, %v, %m : tensor<128x!mgp.ptr<f32>>`
  }];
  let arguments = (ins Mgp_PtrLike:$ptr, Mgp_Value:$value, Optional<Mgp_BoolLike>:$mask);
  let assemblyFormat = "$ptr `,` $value (`,` $mask^)? attr-dict `:` type($ptr)";
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def Mgp_DotOp : Mgp_Op<"dot", [Pure, AllTypesMatch<["c", "d"]>]> {
  let summary = "Block matrix product with accumulator: d = a @ b + c";
  let description = [{
    `a` is [M, K], `b` is [K, N], `c` and `d` are [M, N]. `a` and `b` have the
    same element type; the accumulator is f32, the operand type, or i32 for
    integer inputs (i8 inputs are signed bytes, products sign-extended). `inputPrecision` (`tf32` or `ieee`) says how f32
    inputs may be rounded on tensor cores. Example:
    `%d = mgp.dot %a, %b, %c {inputPrecision = tf32} : tensor<16x32xf32> * tensor<32x16xf32> -> tensor<16x16xf32>`
  }];
  let arguments = (ins Mgp_Tensor:$a, Mgp_Tensor:$b, Mgp_Tensor:$c,
                       Mgp_InputPrecisionAttr:$inputPrecision);
  let results = (outs Mgp_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c custom<InputPrecision>($inputPrecision) attr-dict `:`
    type($a) `*` type($b) `->` type($d)
  }];
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$a, "::mlir::Value":$b, "::mlir::Value":$c,
                                 CArg<"::mgp::InputPrecision", "::mgp::InputPrecision::TF32">:$precision)>];
}

def Mgp_ReduceOp : Mgp_Op<"reduce", [Pure, SingleBlock]> {
  let summary = "Reduces blocks along an axis with a combiner region";
  let description = [{
    Reduces N operands of one shape together along `axis` (argmax reduces a
    value and an index). The region takes 2N scalars (the N running values,
    then the N new ones) and returns N. Each result drops `axis` (a scalar
    for 1-D operands); with an encoding `P` it is `#mgp.slice<{dim = axis,
    parent = P}>`. Example:
    `%r = "mgp.reduce"(%x) <{axis = 0 : i32}> ({
       ^bb0(%a: f32, %b: f32):
         %s = arith.addf %a, %b : f32
         mgp.reduce.return %s : f32
     }) : (tensor<128xf32>) -> f32`
  }];
  let arguments = (ins Variadic<Mgp_Tensor>:$srcs, I32Attr:$axis);
  let results = (outs Variadic<Mgp_Value>:$result);
  let regions = (region SizedRegion<1>:$combineOp);
  let hasRegionVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::ValueRange":$srcs, "int32_t":$axis)>];
  let extraClassDeclaration = [{
    /// The result types of reducing `srcs` along `axis`.
    static ::llvm::SmallVector<::mlir::Type> inferResultTypes(::mlir::ValueRange srcs, int32_t axis);
  }];
}

def Mgp_ReduceReturnOp : Mgp_Op<"reduce.return", [Pure, HasParent<"ReduceOp">, Terminator,
                                                ReturnLike]> {
  let summary = "Terminates the combiner region of mgp.reduce";
  let description = [{
    Returns the N combined scalars. Example: `mgp.reduce.return %s : f32`
  }];
  let arguments = (ins Variadic<AnyType>:$result);
  let assemblyFormat = "attr-dict ($result^ `:` type($result))?";
}

def Mgp_HintOp : Mgp_Op<"hint", [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "Identity carrying axis-analysis facts";
  let description = [{
    Returns `src`. `multipleOf` (`tl.multiple_of`) says every element is a
    multiple of it; `maxContiguous` (`tl.max_contiguous`) says runs of that
    many consecutive values occur. Example:
    `%y = mgp.hint %x {multipleOf = 16 : i64, maxContiguous = 16 : i64} : tensor<128xi32>`
  }];
  let arguments = (ins Mgp_Value:$src, OptionalAttr<I64Attr>:$multipleOf,
                       OptionalAttr<I64Attr>:$maxContiguous);
  let results = (outs Mgp_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// GPU stage: layouts and shared memory
//===----------------------------------------------------------------------===//

def Mgp_ConvertLayoutOp : Mgp_Op<"convert_layout", [Pure]> {
  let summary = "Moves a block to another layout encoding";
  let description = [{
    Same shape and element type, different encoding. Example:
    `%y = mgp.convert_layout %x : tensor<128xf32, #a> -> tensor<128xf32, #b>`
  }];
  let arguments = (ins Mgp_Tensor:$src);
  let results = (outs Mgp_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "::mlir::Attribute":$encoding)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Mgp_LocalAllocOp : Mgp_Op<"local_alloc", [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "Allocates a shared-memory buffer, optionally initialised";
  let description = [{
    With `src` the buffer holds a copy of it (same shape and element type);
    without, the result must be `mutable`. Example:
    `%m = mgp.local_alloc %t : (tensor<64x32xf32, #b>) -> !mgp.memdesc<64x32xf32, #s>`
  }];
  let arguments = (ins Optional<Mgp_Tensor>:$src);
  let results = (outs Mgp_MemDescType:$result);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Mgp_LocalLoadOp : Mgp_Op<"local_load", [MemoryEffects<[MemRead]>]> {
  let summary = "Reads a shared-memory buffer into a distributed block";
  let description = [{
    Same shape and element type. Example:
    `%t = mgp.local_load %m : !mgp.memdesc<64x32xf32, #s> -> tensor<64x32xf32, #b>`
  }];
  let arguments = (ins Mgp_MemDescType:$src);
  let results = (outs Mgp_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

def Mgp_LocalStoreOp : Mgp_Op<"local_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "Writes a distributed block into a mutable shared-memory buffer";
  let description = [{
    Same shape and element type. Example:
    `mgp.local_store %t, %m : tensor<64x32xf32, #b> -> !mgp.memdesc<64x32xf32, #s, mutable>`
  }];
  let arguments = (ins Mgp_Tensor:$src, Mgp_MemDescType:$dst);
  let assemblyFormat = "$src `,` $dst attr-dict `:` type($src) `->` qualified(type($dst))";
  let hasVerifier = 1;
}

def Mgp_BarrierOp : Mgp_Op<"barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "CTA-wide barrier";
  let description = [{
    `bar.sync 0`: every thread of the CTA waits here and shared-memory writes
    before it are visible after it. Example: `mgp.barrier`
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// GPU stage: asynchronous copies (software pipelining, sm_80+)
//===----------------------------------------------------------------------===//

def Mgp_MemDescSubviewOp : Mgp_Op<"memdesc_subview", [Pure]> {
  let summary = "One buffer of a multi-buffered shared-memory allocation";
  let description = [{
    Indexes the leading buffer dimension of `src`: the result is buffer
    `index` (an i32, `0 <= index < src.shape[0]`), with the trailing shape,
    element type, encoding and mutability of `src`. Example:
    `%s = mgp.memdesc_subview %m[%i] : !mgp.memdesc<3x64x32xf32, #s, mutable> -> !mgp.memdesc<64x32xf32, #s, mutable>`
  }];
  let arguments = (ins Mgp_MemDescType:$src, I32:$index);
  let results = (outs Mgp_MemDescType:$result);
  let assemblyFormat = [{
    $src `[` $index `]` attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "::mlir::Value":$index)>];
}

def Mgp_MemDescTransOp : Mgp_Op<"memdesc_trans", [Pure]> {
  let summary = "A 2-D shared-memory buffer seen transposed";
  let description = [{
    The same bytes as `src` (a [R, C] buffer), seen as [C, R]: element
    (i, j) of the result is element (j, i) of `src`. The encoding is that of
    `src` with its order reversed; element type and mutability are kept.
    Staging `x` and reading `trans(x)` through this view replaces a copy of
    the transposed value (a dot operand given as `tl.trans(k)`). Example:
    `%t = mgp.memdesc_trans %m : !mgp.memdesc<64x128xf16, #s> -> !mgp.memdesc<128x64xf16, #t>`
  }];
  let arguments = (ins Mgp_MemDescType:$src);
  let results = (outs Mgp_MemDescType:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$src)>];
}

def Mgp_AsyncCopyGlobalToLocalOp : Mgp_Op<"async_copy_global_to_local", [
    AttrSizedOperandSegments, MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"mask is i1 with the shape of ptr", "ptr", "mask",
                   "::mgp::getI1LikeType($_self)",
                   "(!::llvm::cast<::mgp::AsyncCopyGlobalToLocalOp>(&$_op).getMask()) || std::equal_to<>()">,
    TypesMatchWith<"other matches the pointee type of ptr", "ptr", "other",
                   "::mgp::getPointeeLikeType($_self)",
                   "(!::llvm::cast<::mgp::AsyncCopyGlobalToLocalOp>(&$_op).getOther()) || std::equal_to<>()">]> {
  let summary = "Starts an asynchronous copy of a block from global to shared memory";
  let description = [{
    Issues `cp.async` copies of `*ptr` into the mutable buffer `dst` (same
    shape and element type). Where `mask` is false the element is
    zero-filled; `other`, when present, must be zero (a nonzero `other` is
    applied after the `mgp.local_load` by whoever creates the copy). The data
    is visible only after an `mgp.async_wait` that covers the copy's commit
    group, followed by a barrier. Example:
    `mgp.async_copy_global_to_local %p, %s mask %m : tensor<64x32x!mgp.ptr<f32>, #b> -> !mgp.memdesc<64x32xf32, #s, mutable>`
  }];
  let arguments = (ins RankedTensorOf<[Mgp_PtrType]>:$ptr, Mgp_MemDescType:$dst,
                       Optional<RankedTensorOf<[I1]>>:$mask,
                       Optional<Mgp_Tensor>:$other);
  let assemblyFormat = [{
    $ptr `,` $dst (`mask` $mask^)? (`other` $other^)? attr-dict `:` type($ptr) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def Mgp_AsyncCommitGroupOp : Mgp_Op<"async_commit_group", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Closes the group of asynchronous copies issued since the last commit";
  let description = [{
    `cp.async.commit_group`: the copies this thread issued since the previous
    commit form one group, which `mgp.async_wait` counts. Example:
    `mgp.async_commit_group`
  }];
  let assemblyFormat = "attr-dict";
}

def Mgp_AsyncWaitOp : Mgp_Op<"async_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Waits until at most `num` commit groups are pending";
  let description = [{
    `cp.async.wait_group num`: blocks this thread until at most `num` of its
    most recent commit groups are still in flight. Other threads' copies are
    visible only after a barrier (mgp-insert-barriers puts one after each
    wait). Example: `mgp.async_wait 1`
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$num);
  let assemblyFormat = "$num attr-dict";
}

//===----------------------------------------------------------------------===//
// GPU stage: Hopper warp-group MMA (wgmma, sm_90a)
//===----------------------------------------------------------------------===//

def Mgp_WarpGroupDotOp : Mgp_Op<"warp_group_dot", [
    MemoryEffects<[MemRead]>, AllTypesMatch<["c", "d"]>]> {
  let summary = "d = a @ b + c on Hopper tensor cores, b in shared memory";
  let description = [{
    The wgmma form of `mgp.dot` (mgp-fuse-warp-group-dot makes it from a
    dot whose accumulator is `#mgp.mma` version 3 and whose operands are
    `mgp.local_load`s): `a` [M, K] and `b` [K, N] are swizzled shared
    buffers in the layouts wgmma reads (K-contiguous rows of 32, 64 or 128
    bytes or 128-byte column blocks; 16-bit ones may also be M- or
    N-contiguous, docs/wgmma.md); a 16-bit `a` may instead be a tensor in
    the `#mgp.dot_op` layout (opIdx 0, kWidth 2) of the accumulator's
    encoding, read from registers. `c` and `d` are [M, N] f32 (i32 for
    signed i8 operands) in the version-3 layout.
    Each warp group issues `wgmma.mma_async` per 64 rows and K step from
    matrix descriptors and waits for them before `d` is read; with
    `isAsync` (a loop-carried accumulator of a pipelined loop with a spare
    operand buffer, or whose copies follow the dot) it leaves its own group
    in flight and waits only for the previous one, and an
    mgp.warp_group_dot_wait after the loop makes the result readable. With
    `useC` (an i1, wgmma's scale-d predicate) false, `d = a @ b`: `c` is not
    read (the accumulator reset of a loop that stores a tile and starts the
    next, without a select on the in-flight accumulator). Example:
    `%d = mgp.warp_group_dot %a, %b, %c {inputPrecision = tf32} : !mgp.memdesc<128x32xf32, #s> * !mgp.memdesc<32x128xf32, #t> -> tensor<128x128xf32, #mma>`
    `%d = mgp.warp_group_dot %a, %b, %c useC %use {isAsync} : ...`
  }];
  let arguments = (ins AnyTypeOf<[Mgp_MemDescType, Mgp_Tensor]>:$a,
                       Mgp_MemDescType:$b, Mgp_Tensor:$c, Optional<I1>:$useC,
                       Mgp_InputPrecisionAttr:$inputPrecision,
                       UnitAttr:$isAsync);
  let results = (outs Mgp_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`useC` $useC^)? custom<InputPrecision>($inputPrecision)
    attr-dict `:` qualified(type($a)) `*` qualified(type($b)) `->` type($d)
  }];
  let hasVerifier = 1;
}

def Mgp_WarpGroupDotWaitOp : Mgp_Op<"warp_group_dot_wait", [
    MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["input", "output"]>]> {
  let summary = "Waits for asynchronous warp-group dots";
  let description = [{
    `wgmma.wait_group pendings`: blocks until at most `pendings` groups of
    this warp group's wgmmas are in flight; `output` is `input` (the
    accumulator of an `isAsync` mgp.warp_group_dot), readable from here on.
    An `isAsync` warp_group_dot itself waits with pendings = 1 after its
    own group, so the previous iteration's group is done (and its operand
    buffers free) while its own runs on. Example:
    `%r = mgp.warp_group_dot_wait %acc {pendings = 0 : i32} : tensor<128x128xf32, #mma>`
  }];
  let arguments = (ins Mgp_Tensor:$input,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let results = (outs Mgp_Tensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

def Mgp_FenceAsyncSharedOp : Mgp_Op<"fence_async_shared", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Orders this thread's shared-memory writes before async-proxy reads";
  let description = [{
    `fence.proxy.async.shared::cta`: shared-memory writes of this thread
    (st.shared, cp.async) become visible to the async proxy (wgmma reading
    through matrix descriptors). It goes before the barrier that precedes
    the reader. Example: `mgp.fence_async_shared`
  }];
  let assemblyFormat = "attr-dict";
}

include "compiler/ir/MgpLanguageOps.td"

#endif // MGP_OPS_TD
