"""Runs registered cases on one launcher and prints the result table.

This file implements the suite's run loop: for each case and shape, seeded
inputs on the CPU, a copy on the launcher's device through the host launcher
(with the launcher's kernels swapped in), the reference on CPU copies, every
output compared (suite/registry.py), one table row per (case, shape).
"""

import time
import traceback
import zlib

from .registry import Close, compare


def seed_of(case, shape_index):
    return zlib.crc32(f"{case.name}/{shape_index}".encode())


def make_inputs(case, shape_index, shape):
    import torch
    gen = torch.Generator().manual_seed(seed_of(case, shape_index))
    return list(case.inputs(gen, *shape))


def _clone(value, device):
    import torch
    if isinstance(value, torch.Tensor):
        return value.detach().clone().to(device)
    if isinstance(value, (list, tuple)):  # e.g. the groups of a grouped GEMM
        return type(value)(_clone(v, device) for v in value)
    return value


def _as_tuple(value):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def shape_text(shape):
    return "x".join(str(s) for s in shape) if all(isinstance(s, int) for s in shape) \
        else ",".join(str(s) for s in shape)


def _saved_path(folder, case, shape_index):
    import os
    return os.path.join(folder, f"{case.name}.{shape_index}.npz")


def between_results(check):
    """The check of one result against another launcher's (Triton's): exact
    stays exact; a tolerance doubles, as both results are held to it against
    the reference (|a - b| <= |a - ref| + |ref - b|), so two correct roundings
    of an inexact computation (a tf32 dot rounding its operands to nearest
    against one truncating them) are not told apart from a wrong one by
    chance."""
    if isinstance(check, Close):
        return Close(2 * check.rtol, 2 * check.atol)
    return check


def run_case_shape(case, shape_index, shape, launcher, save=None, against=None,
                   bench=0, times=None, paired=None):
    """(ok, max_error, note) of one shape of one case. `save`: a folder to
    write the outputs to (NumPy .npz); `against`: a folder of another
    launcher's saved outputs, compared too (same seeded inputs). `bench`: when
    the shape passes, the median microseconds of that many timed calls of the
    host launcher on the same inputs go to times[(case, shape)]
    (suite/bench.py). `paired`: (another launcher, its times): both are
    timed alternately in this process (bench.paired_median_us), unless the
    case skips the other launcher (then only this one is timed)."""
    import os
    import numpy as np
    import torch
    from .registry import to_numpy
    inputs = make_inputs(case, shape_index, shape)
    device_inputs = [_clone(v, launcher.device) for v in inputs]
    with launcher.swapped(case), torch.no_grad():
        outputs = getattr(case.module, case.host)(*device_inputs)
    launcher.synchronize()
    with torch.no_grad():
        references = case.reference(*[_clone(v, "cpu") for v in inputs])
    outputs, references = _as_tuple(outputs), _as_tuple(references)
    if len(outputs) != len(references):
        return False, float("nan"), f"{len(outputs)} outputs, reference has {len(references)}"
    if save:
        np.savez(_saved_path(save, case, shape_index),
                 *[to_numpy(o) for o in outputs])
    worst, notes, ok = 0.0, [], True
    for index, (out, ref, check) in enumerate(
            zip(outputs, references, case.checks(len(outputs)))):
        good, err, note = compare(out, ref, check)
        worst = max(worst, err) if err == err else err
        if not good:
            ok = False
            notes.append(f"output {index}: {note}" if len(outputs) > 1 else note)
    if against:
        path = _saved_path(against, case, shape_index)
        if not os.path.exists(path):
            notes.append(f"no saved output in {against}")
        else:
            saved = np.load(path)
            for index, (out, check) in enumerate(zip(outputs, case.checks(len(outputs)))):
                good, _, note = compare(out, saved[f"arr_{index}"], between_results(check))
                if not good:
                    ok = False
                    notes.append(f"output {index} against {against}: {note}")
    if ok and bench and times is not None:
        from .bench import median_us, paired_median_us
        host = getattr(case.module, case.host)
        key = (case.name, shape_text(shape))
        if paired and not case.skip.get(paired[0].name):
            other, other_times = paired

            def call_with(which):
                def call():
                    with which.swapped(case), torch.no_grad():
                        host(*device_inputs)
                return call
            times[key], other_times[key] = paired_median_us(
                [call_with(launcher), call_with(other)], bench)
        else:
            with launcher.swapped(case), torch.no_grad():
                times[key] = median_us(lambda: host(*device_inputs), bench, launcher.device)
    return ok, worst, "; ".join(notes)


def first_error_line(error):
    """The line that says what went wrong: mgp's compile errors put
    "compiling kernel ...:" first and "file:line:col: error: ..." next."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    located = [line for line in lines if ": error: " in line]
    return (located or lines or [""])[0]


def run(cases, launcher, verbose=False, out=print, save=None, against=None,
        bench=0, times=None, on_row=None, paired=None):
    """Runs every (case, shape) and prints the table; returns (failed, rows).
    With `bench`, passing shapes are timed into `times` (run_case_shape);
    `on_row(rows)` after each row (to keep partial results)."""
    reason = launcher.unavailable()
    if reason:
        reason = " ".join(reason.split())
        out(f"launcher {launcher.name} cannot run here: {reason}")
    header = f"{'case':<34} {'shape':<22} {'launcher':<14} {'result':<6} {'max err':>10}  note"
    out(header)
    out("-" * len(header))
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    rows = []
    start_all = time.time()
    for case in cases:
        why_not = reason or case.skip.get(getattr(launcher, "skip_key", launcher.name))
        for shape_index, shape in enumerate(case.shapes):
            start = time.time()
            if why_not:
                result, err = "SKIP", ""
                note = "launcher unavailable (see above)" if reason else why_not
            else:
                try:
                    ok, max_err, note = run_case_shape(case, shape_index, shape, launcher,
                                                       save, against, bench, times,
                                                       paired)
                    result, err = ("PASS" if ok else "FAIL"), f"{max_err:.3g}"
                except Exception as error:
                    result, err = "FAIL", ""
                    note = f"{type(error).__name__}: {first_error_line(error)}"
                    if verbose:
                        note += "\n" + traceback.format_exc()
                if verbose:
                    note = f"({time.time() - start:.2f}s) {note}"
            counts[result] += 1
            rows.append((case.name, shape_text(shape), launcher.name, result, err, note))
            timed = (times or {}).get((case.name, shape_text(shape)))
            if timed is not None:
                note = f"[{timed:.1f} us] {note}"
            out(f"{case.name:<34} {shape_text(shape):<22} {launcher.name:<14} {result:<6} "
                f"{err:>10}  {note}")
            if on_row is not None:
                on_row(rows)
    kernels = {(c.module.__name__, k) for c in cases for k in c.kernels}
    out(f"\n{len(cases)} cases, {len(kernels)} kernels, {len(rows)} shapes on {launcher.name}: "
        f"{counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} skipped "
        f"({time.time() - start_all:.1f} s)")
    return counts["FAIL"], rows
