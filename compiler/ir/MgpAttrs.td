//===- MgpAttrs.td - mgp layout encodings ----------------------*- tablegen -*-===//
//
// The layout encodings that GPU passes attach to tensor types (distributed:
// blocked, slice, mma, dot_op) and to memdesc types (shared). Their meaning,
// "which element does (register, lane, warp) hold", lives in Layout.h.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_ATTRS_TD
#define MGP_ATTRS_TD

include "compiler/ir/MgpDialect.td"
include "mlir/IR/EnumAttr.td"

class Mgp_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Mgp_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Mgp_BlockedEncodingAttr : Mgp_Attr<"BlockedEncoding", "blocked"> {
  let summary = "Blocked distribution of a tensor over registers, lanes and warps";
  let description = [{
    Each thread holds `sizePerThread[d]` consecutive elements along dim d, a
    warp spans `threadsPerWarp` threads and the CTA `warpsPerCTA` warps; the
    CTA tile (S*T*W) repeats over larger tensors and wraps (replicates) over
    smaller ones. `order` lists the dims fastest first. Example:
    `#mgp.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>`.
  }];
  let parameters = (ins ArrayRefParameter<"unsigned">:$sizePerThread,
                        ArrayRefParameter<"unsigned">:$threadsPerWarp,
                        ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$order);
  let extraClassDeclaration = [{
    unsigned getRank() const { return getOrder().size(); }
  }];
}

def Mgp_SliceEncodingAttr : Mgp_Attr<"SliceEncoding", "slice"> {
  let summary = "A distributed layout with one dimension of its parent removed";
  let description = [{
    The layout of `reduce(axis = dim)` over a tensor in `parent`, and of the
    operand of `expand_dims(axis = dim)` producing `parent`. Example:
    `#mgp.slice<{dim = 1, parent = #mgp.blocked<{...}>}>`.
  }];
  let parameters = (ins "unsigned":$dim, "::mlir::Attribute":$parent);
}

def Mgp_MmaEncodingAttr : Mgp_Attr<"MmaEncoding", "mma"> {
  let summary = "Tensor-core accumulator layout (mma.sync v2, wgmma v3)";
  let description = [{
    The C/D fragment layout of `mma.sync.m16n8` (version 2, `instrShape =
    [16, 8]`) or of `wgmma` (version 3, `instrShape = [16, n, k]`), tiled over
    `warpsPerCTA`. Example:
    `#mgp.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>`.
  }];
  let parameters = (ins "unsigned":$version, ArrayRefParameter<"unsigned">:$warpsPerCTA,
                        ArrayRefParameter<"unsigned">:$instrShape);
}

def Mgp_DotOperandEncodingAttr : Mgp_Attr<"DotOperandEncoding", "dot_op"> {
  let summary = "Layout of an operand (A: opIdx 0, B: opIdx 1) of mgp.dot";
  let description = [{
    `parent` is the layout of the dot result. With a blocked parent (the FMA
    path) each thread holds its parent rows (A) or columns (B) over all of K.
    With an mma parent it is the mma operand fragment, `kWidth` consecutive K
    elements per 32-bit register. Example:
    `#mgp.dot_op<{opIdx = 0, parent = #mgp.blocked<{...}>, kWidth = 1}>`.
  }];
  let parameters = (ins "unsigned":$opIdx, "::mlir::Attribute":$parent, "unsigned":$kWidth);
}

def Mgp_SharedEncodingAttr : Mgp_Attr<"SharedEncoding", "shared"> {
  let summary = "Swizzled row-major layout of a buffer in shared memory";
  let description = [{
    Row-major along `order` (order[0] contiguous). In row r, the `vec`-element
    chunk c sits at chunk `c xor ((r / perPhase) mod maxPhase)`. `{1, 1, 1}` is
    no swizzle. A nonzero `blockCols` cuts the rows into column blocks of that
    many elements, stored one after another, each laid out as a buffer of its
    own with rows of `blockCols` elements (the wgmma layout of a K tile wider
    than one 128-byte swizzle atom); 0, the default, is one block. Example:
    `#mgp.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>`.
  }];
  let parameters = (ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                        ArrayRefParameter<"unsigned">:$order, "unsigned":$blockCols);
  let builders = [
    AttrBuilder<(ins "unsigned":$vec, "unsigned":$perPhase, "unsigned":$maxPhase,
                     "::llvm::ArrayRef<unsigned>":$order,
                     CArg<"unsigned", "0">:$blockCols), [{
      return $_get($_ctxt, vec, perPhase, maxPhase, order, blockCols);
    }]>
  ];
  let skipDefaultBuilders = 1;
}

def Mgp_InputPrecision : I32EnumAttr<"InputPrecision", "precision of f32 dot inputs", [
    I32EnumAttrCase<"TF32", 0, "tf32">,
    I32EnumAttrCase<"IEEE", 1, "ieee">]> {
  let cppNamespace = "::mgp";
  let genSpecializedAttr = 0;
}
def Mgp_InputPrecisionAttr : EnumAttr<Mgp_Dialect, Mgp_InputPrecision, "input_precision">;

def Mgp_AtomicRMWKind : I32EnumAttr<"AtomicRMWKind", "read-modify-write operation", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"FAdd", 1, "fadd">,
    I32EnumAttrCase<"Max", 2, "max">,
    I32EnumAttrCase<"Min", 3, "min">,
    I32EnumAttrCase<"UMax", 4, "umax">,
    I32EnumAttrCase<"UMin", 5, "umin">,
    I32EnumAttrCase<"FMax", 6, "fmax">,
    I32EnumAttrCase<"FMin", 7, "fmin">,
    I32EnumAttrCase<"And", 8, "and">,
    I32EnumAttrCase<"Or", 9, "or">,
    I32EnumAttrCase<"Xor", 10, "xor">,
    I32EnumAttrCase<"Xchg", 11, "xchg">]> {
  let cppNamespace = "::mgp";
  let genSpecializedAttr = 0;
}
def Mgp_AtomicRMWKindAttr : EnumAttr<Mgp_Dialect, Mgp_AtomicRMWKind, "atomic_rmw_kind">;

def Mgp_MemSemantic : I32EnumAttr<"MemSemantic", "memory ordering of an atomic", [
    I32EnumAttrCase<"Relaxed", 0, "relaxed">,
    I32EnumAttrCase<"Acquire", 1, "acquire">,
    I32EnumAttrCase<"Release", 2, "release">,
    I32EnumAttrCase<"AcqRel", 3, "acq_rel">]> {
  let cppNamespace = "::mgp";
  let genSpecializedAttr = 0;
}
def Mgp_MemSemanticAttr : EnumAttr<Mgp_Dialect, Mgp_MemSemantic, "sem">;

def Mgp_MemScope : I32EnumAttr<"MemScope", "threads an atomic is ordered with", [
    I32EnumAttrCase<"GPU", 0, "gpu">,
    I32EnumAttrCase<"CTA", 1, "cta">,
    I32EnumAttrCase<"System", 2, "sys">]> {
  let cppNamespace = "::mgp";
  let genSpecializedAttr = 0;
}
def Mgp_MemScopeAttr : EnumAttr<Mgp_Dialect, Mgp_MemScope, "scope">;

#endif // MGP_ATTRS_TD
