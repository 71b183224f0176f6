"""Timing of one (case, shape): its host launcher's kernel launches.

This file implements run_suite.py --bench N. After a shape has passed, its
host launcher is called again on the same device inputs (the ones the
check used: the same seeded values for every launcher), with the
launcher's kernels swapped in, and timed the way triton.testing.do_bench
times a function: warm-up calls (3, then as many as fill 25 ms of GPU
time), then N timed calls, each after a 1 GiB
memset that empties the L2 cache and keeps the GPU busy while the host
enqueues the call, so that CUDA events around the call measure GPU time
rather than launch overhead; the result is the median in microseconds. The
NumPy/PyTorch reference is not timed. On the CPU (the interpreters) the
host clock times each call: the code path works, the numbers mean nothing.
run_suite.py --paired-triton times mgp's kernels and Triton's in one
process, alternately, call by call (paired_median_us): the fair comparison,
since two processes run at different times may see the GPU in different
states (clocks, temperature).
"""

import json
import statistics
import time

WARMUP = 3
WARMUP_MS = 25.0
# 1 GiB: about 250 us of memset on an H200, longer than the host takes to
# enqueue a multi-kernel launcher (20-80 us through Python), so that no
# timed call waits on the host (256 MB left 2-4x stalls on such rows).
FLUSH_BYTES = 1024 * 1024 * 1024


def median_us(fn, reps, device):
    """Median microseconds of ``fn()`` over ``reps`` timed calls."""
    import torch
    reps = max(1, reps)
    for _ in range(WARMUP):
        fn()
    if device != "cuda":
        times = []
        for _ in range(reps):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1e6)
        return statistics.median(times)
    torch.cuda.synchronize()
    flush = torch.empty(FLUSH_BYTES, dtype=torch.int8, device="cuda")
    # Keep the GPU busy for WARMUP_MS first (flush and call, as timed), so
    # that every row starts at the clocks the previous row's host work (the
    # reference, a compile) may have let drop.
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    flush.zero_()
    fn()
    end.record()
    torch.cuda.synchronize()
    for _ in range(min(1000, int(WARMUP_MS / max(start.elapsed_time(end), 1e-3)))):
        flush.zero_()
        fn()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        flush.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) * 1000.0 for s, e in zip(starts, ends))


def paired_median_us(fns, reps):
    """Median GPU microseconds of each of ``fns`` (CUDA only), timed
    alternately on the same inputs: each gets the warm-up of median_us, then
    every round times each once (after its own flush), the order reversed
    every other round, so that clock and thermal drift fall on all alike."""
    import torch
    reps = max(1, reps)
    for _ in range(WARMUP):
        for fn in fns:
            fn()
    torch.cuda.synchronize()
    flush = torch.empty(FLUSH_BYTES, dtype=torch.int8, device="cuda")
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for fn in fns:
        flush.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    for _ in range(min(1000, int(WARMUP_MS / max(start.elapsed_time(end), 1e-3)))):
        for fn in fns:
            flush.zero_()
            fn()
    events = [[(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
               for _ in range(reps)] for _ in fns]
    for i in range(reps):
        order = range(len(fns)) if i % 2 == 0 else reversed(range(len(fns)))
        for k in order:
            flush.zero_()
            events[k][i][0].record()
            fns[k]()
            events[k][i][1].record()
    torch.cuda.synchronize()
    return [statistics.median(s.elapsed_time(e) * 1000.0 for s, e in pairs)
            for pairs in events]


def device_name(device):
    if device != "cuda":
        return "cpu"
    import torch
    return torch.cuda.get_device_name()


def write_json(path, launcher, reps, rows, times, paired=False):
    """rows: the harness's (case, shape, launcher, result, err, note);
    times: (case, shape) -> median microseconds of the passing ones;
    paired: timed alternately with another launcher in one process."""
    import platform
    results = []
    for case, shape, _, result, err, note in rows:
        results.append({"case": case, "shape": shape, "result": result,
                        "max_err": err, "note": note,
                        "us": times.get((case, shape))})
    data = {"launcher": launcher.name, "device": device_name(launcher.device),
            "reps": reps, "warmup": WARMUP, "warmup_ms": WARMUP_MS, "paired": paired,
            "host": platform.node(),
            "results": results}
    with open(path, "w") as f:
        json.dump(data, f, indent=1)
