//===- Passes.td - the GPU passes of mgp -----------------------*- tablegen -*-===//
//
// This file declares the GPU passes: they run after the target-independent
// passes and turn block-level mgp IR into IR whose tensors carry layout
// encodings and whose shared memory is allocated and synchronised.
// docs/pipeline.md lists them in pipeline order.
//
//===----------------------------------------------------------------------===//
#ifndef MGP_CODEGEN_GPU_PASSES_TD
#define MGP_CODEGEN_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def MgpAssignLayouts : Pass<"mgp-assign-layouts", "mlir::ModuleOp"> {
  let summary = "Give every tensor a layout encoding";
  let description = [{
    Sets the module attributes `mgp.num_warps` and `mgp.threads_per_warp`
    and attaches a distributed encoding to every tensor type. Sources
    (make_range, splat, constants) get Triton's default blocked encoding,
    computed per rank from the largest tensor of that rank in the function;
    expand_dims wants its operand in `#mgp.slice<axis, P>` and produces `P`;
    reduce along `d` of `P` gives `#mgp.slice<d, P>`; broadcast keeps its
    operand's encoding; trans permutes a blocked encoding; dot gets a blocked
    result with 2x2 or 4x4 elements per thread (Triton's FMA configuration)
    and its operands in `#mgp.dot_op<{opIdx = 0|1, parent = P}>`. Operands
    whose encodings disagree get `mgp.convert_layout`. scf.for/while/if
    region arguments and results follow their operands; a loop-carried value
    whose body yields another encoding is carried in that encoding.
  }];
  let options = [
    Option<"numWarps", "num-warps", "int", /*default=*/"4",
           "warps per CTA (used when the module has no mgp.num_warps)">,
    Option<"computeCapability", "compute-capability", "int", /*default=*/"0",
           "target SM version (80 for sm_80, 90 for sm_90); >= 80 puts "
           "eligible dots on tensor cores (mma v2), 0 keeps every dot on FMA">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "sm_90a: dots that fit warp groups get #mgp.mma version 3 "
           "(wgmma, mgp-fuse-warp-group-dot) instead of version 2">,
  ];
}

def MgpCoalesce : Pass<"mgp-coalesce", "mlir::ModuleOp"> {
  let summary = "Choose memory-coalescing layouts for loads and stores";
  let description = [{
    For every mgp.load and mgp.store on a tensor of pointers, the axis
    analysis gives the pointer's contiguity and divisibility; the access gets
    a blocked layout ordered by contiguity with
    `sizePerThread[order[0]] = min(divisibility / elemBytes, contiguity,
    128 / elemBits)`, capped at numel / numThreads, and is wrapped in
    convert_layout ops. Every tensor load and store then carries
    `mgp.vector_width = N : i32`, the widest legal vector in elements (capped
    by the layout's contiguous elements per thread, the pointer alignment and
    contiguity, and the mask's constancy). With `vector-atomics` (sm_90:
    `atom.global.add.v2/v4.f32`, `atom.global.max.noftz.v2/v4/v8.f16`), fp32
    atomic adds and fp16/bf16 atomic max/min get the same treatment.
  }];
  let options = [
    Option<"vectorAtomics", "vector-atomics", "bool", /*default=*/"false",
           "Give fp32 atomic adds and fp16/bf16 atomic max/min vector "
           "layouts (sm_90's vector atom)">,
  ];
}

def MgpRemoveLayoutConversions : Pass<"mgp-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "Fold and rematerialise mgp.convert_layout ops";
  let description = [{
    Canonicalises converts (identity, convert of convert, convert of splat,
    constant or make_range) and removes the remaining ones whose source is a
    cheap chain (elementwise arith/math, addptr, splat, make_range,
    constants, broadcast, expand_dims) by recomputing that chain in the
    target layout.
  }];
}

def MgpStageDotOperands : Pass<"mgp-stage-dot-operands", "mlir::ModuleOp"> {
  let summary = "Stage mma dot operands through explicit shared-memory buffers";
  let description = [{
    Triton's ReduceDataDuplication: every `mgp.convert_layout` from a
    distributed layout to `#mgp.dot_op` of an `#mgp.mma` parent becomes
    `mgp.local_alloc` of the source into a `#mgp.shared` buffer (the swizzle
    of getDotOperandSharedEncoding: K contiguous for 32-bit operands, the
    source's order for 16-bit ones) followed by `mgp.local_load` into the
    dot operand layout. The software pipeliner multi-buffers exactly this
    form (`mgp.load` -> `mgp.local_alloc` -> `mgp.local_load` -> `mgp.dot`).
  }];
}

def MgpAllocateShared : Pass<"mgp-allocate-shared", "mlir::ModuleOp"> {
  let summary = "Assign shared-memory offsets to buffers and scratch";
  let description = [{
    Buffers are the results of mgp.local_alloc (live from the alloc to the
    last use of the memdesc) and the scratch of mgp.convert_layout and
    mgp.reduce (live only at the op; sizes from SharedScratch.h). Buffers are
    placed largest first at the lowest 16-byte aligned offset that does not
    overlap a buffer live at the same time. Each op gets
    `mgp.allocation.offset = <bytes> : i32` and the module gets
    `mgp.shared = <total bytes> : i32`.
  }];
}

def MgpInsertBarriers : Pass<"mgp-insert-barriers", "mlir::ModuleOp"> {
  let summary = "Insert mgp.barrier between conflicting shared-memory accesses";
  let description = [{
    Tracks the shared byte ranges read and written since the last barrier
    (from mgp.allocation.offset) and inserts mgp.barrier before an op whose
    accesses conflict with them (read after write, write after read, write
    after write). Scratch ops count as a write and a read of their scratch.
    Loops get a barrier before the back edge when the end of the body
    conflicts with the body's accesses; scf.if joins both branches.
    `mgp.warp_group_dot` reads its operands through the async proxy, so
    `mgp.fence_async_shared` goes before the nearest barrier above it in
    its block (the one ordering the operand writes before it), or a fence
    and a barrier go right before it when there is none (or an op with
    regions is in between).
  }];
}

def MgpFuseWarpGroupDot : Pass<"mgp-fuse-warp-group-dot", "mlir::ModuleOp"> {
  let summary = "Turn version-3 mma dots into mgp.warp_group_dot on shared operands";
  let description = [{
    Runs after mgp-stage-dot-operands and mgp-pipeline, before
    mgp-allocate-shared. An `mgp.dot` whose accumulator is `#mgp.mma`
    version 3 reads both operands with `mgp.local_load`; it becomes
    `mgp.warp_group_dot` of the two memdescs (wgmma reads shared memory
    itself) and the loads go, so the buffers live up to the dot. A
    version-3 dot of any other form is an error.
  }];
}

def MgpPipeline : Pass<"mgp-pipeline", "mlir::ModuleOp"> {
  let summary = "Software-pipeline the loads that feed dots with cp.async";
  let description = [{
    In each scf.for, an mgp.load whose block reaches an mgp.dot through
    shared memory (`local_alloc` + `local_load`, or `convert_layout` to
    `#mgp.dot_op`) becomes
    `mgp.async_copy_global_to_local` into one of `num-stages` buffers of a
    multi-buffered `mgp.local_alloc`, with `mgp.async_commit_group`, and its
    readers `mgp.async_wait` + `mgp.local_load` of the same slot. The loop is
    then expanded with scf::pipelineForLoop: the copies of iteration
    i + num-stages - 1 (and the address and mask arithmetic they need) run
    while iteration i computes; copies past the end are masked off;
    `mgp.async_wait 0` follows the loop. Loops whose early ops have side
    effects or regions are left alone. Masked-off elements are zero-filled;
    a nonzero `other` is put back by a select on the slot read in the load's
    layout. Needs sm_80 (cp.async).
  }];
  let options = [
    Option<"numStages", "num-stages", "int", /*default=*/"3",
           "pipeline depth (buffers per load); below 2 the pass does nothing">,
    Option<"sharedBudget", "shared-budget", "int", /*default=*/"98304",
           "the most bytes of shared memory one loop's buffers may take "
           "(96 KiB fits sm_86/sm_89's 99 KiB per block)">,
  ];
}

#endif // MGP_CODEGEN_GPU_PASSES_TD
