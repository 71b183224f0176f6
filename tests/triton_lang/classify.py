"""Classification and summary of a run of Triton's language tests through mgp
(run_triton_tests.py): every collected test is one of

  pass      its kernels ran through mgp and every check passed
  fail      an error or a failed check (the first line of it is kept)
  na        not applicable, by one of mgp_swap.py's rules (a skip whose reason
            starts with "NA:": it reads Triton's IR or compiler metadata, or
            calls triton.compile)
  skip      Triton's test skips itself (or is Triton's xfail) in this mode:
            hardware, dtypes or features Triton's own run here does not cover
  not run   collected, but the file's time limit ended its run first

Features are test function names (test_bin_op, test_reduce, ...); failure
causes are the first error lines with numbers and names masked.
"""

import collections
import datetime
import json
import re
import subprocess

STATUSES = ["pass", "fail", "na", "skip", "not run"]


def read_known(path):
    known = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip() if line.lstrip().startswith("#") else line.strip()
            if line:
                test_id, _, reason = line.partition("  ")
                known[test_id.strip()] = reason.strip()
    return known


def feature_of(test_id):
    return test_id.split("::")[-1].split("[")[0]


def file_of(test_id):
    return test_id.split("::")[0].rsplit("/", 1)[-1]


def cause_of(message):
    """A failure's cause: its first error line with the specifics masked."""
    text = message.split("\\n", 1)[0]  # an error quoted inside another's message
    if ": error: " in text:
        text = text.split(": error: ", 1)[1]
    elif "Not equal to tolerance" in text or "Arrays are not equal" in text or \
            "Mismatched elements" in text:
        return "wrong values (the test's comparison with its reference fails)"
    text = re.sub(r"kernel '[^']*'", "kernel K", text)
    text = re.sub(r"argument '[^']*'", "argument A", text)
    text = re.sub(r"/[\w./-]+\.py(:\d+)*", "FILE", text)
    text = re.sub(r"\b\d+(\.\d+)?(e[-+]?\d+)?\b", "N", text)
    text = re.sub(r"tensor<[^>]*>", "tensor<...>", text)
    text = re.sub(r"pointer<[^>]*>", "pointer<T>", text)
    text = re.sub(r"<[0-9x]+x?[a-z0-9]*>", "<...>", text)
    text = re.sub(r"\b(u?int(1|8|16|32|64)|fp(16|32|64)|bf16|float(16|32|64)|bfloat16)\b",
                  "T", text)
    return text[:160]


# What a failure needs, by its first error line (and the test id for the
# unsigned types, whose failures are wrong values): the front end's work
# list. First match wins.
GROUPS = [
    ("unsigned integer semantics (u8..u64 are signless with signed semantics in mgp)",
     r"^(?=.*\buint(8|16|32|64)\b).*(Not equal|Mismatch|not equal|DID NOT RAISE)"),
    ("scans: associative_scan, cumsum, cumprod",
     r"'(associative_scan|cumsum|cumprod)'"),
    ("tensor descriptors: make_tensor_descriptor, host TensorDescriptor arguments",
     r"make_tensor_descriptor|TensorDescriptor|load_tensor_descriptor"),
    ("block pointers: make_block_ptr, advance", r"make_block_ptr|'advance'"),
    ("atomics: atomic_add/max/min/cas/xchg/and/or/xor", r"'atomic_\w+'"),
    ("random numbers: rand, randn, randint, philox", r"'(rand|randn|randint|random|philox\w*|rand4x|randint4x)'"),
    ("pointer dtype attributes: ptr.dtype.element_ty", r"element_ty"),
    ("dot: out_dtype other than fp32, integer dot, tf32x3, batched 3-D operands",
     r"out_dtype must be|integer dot|tf32x3|dot operands must be"),
    ("fp8 types (float8e4nv, float8e5, float8e4b15) as arguments",
     r"unsupported dtype fp8|float8"),
    ("invalid programs that mgp rejects with another message than the one Triton's test "
     "matches (bitwise operators on floats, ...)",
     r"operator '[&|^]' needs integer operands|Regex pattern did not match"),
    ("missing builtins: sort, flip, cat, gather, histogram, ravel, swizzle2d, broadcast, "
     "clamp, xor_sum, math (sin, cos, ceil, floor, ...), tensor.numel/.item/.T",
     r"unknown builtin|has no attribute '(numel|item|T)'|'\.T' is not supported"),
    ("'return' in one branch of a runtime if", r"'return' in only one branch"),
    ("constexpr scalars used as tensors (constexpr.dtype, constexpr masks)",
     r"constexpr \w+ \w+ has no attribute|got constexpr"),
    ("indexing a scalar pointer / slices", r"cannot subscript"),
    ("num_ctas > 1 (thread-block clusters)", r"num_ctas"),
    ("jit functions as constexpr arguments", r"constexpr parameter .* is not a compile-time constant"),
]


def group_of(row):
    text = row["id"] + " " + row["message"]
    for name, pattern in GROUPS:
        if re.search(pattern, text):
            return name
    return "other: " + cause_of(row["message"])[:100]


def classify(results_path, collected_path):
    records = collections.defaultdict(list)
    try:
        with open(results_path, encoding="utf-8") as f:
            for line in f:
                record = json.loads(line)
                records[record["id"]].append(record)
    except FileNotFoundError:
        pass
    ids = []
    try:
        with open(collected_path, encoding="utf-8") as f:
            ids = [line.strip() for line in f if line.strip()]
    except FileNotFoundError:
        pass
    seen = set(ids)
    ids += [i for i in records if i not in seen]
    rows = []
    for test_id in dict.fromkeys(ids):
        status, message = "not run", "the file's time limit ended its run first"
        launched = 0
        for r in records.get(test_id, []):
            launched = max(launched, r.get("launched", 0))
            if r["outcome"] == "failed":
                status, message = "fail", r["message"] or "failed"
                break
            if r["outcome"] == "skipped":
                if r["message"].startswith("NA: "):
                    status, message = "na", r["message"][4:]
                else:
                    status = "skip"
                    message = ("Triton's xfail: " if r["xfail"] else "") + r["message"]
                break
            if r["outcome"] == "passed" and r["when"] == "call":
                status, message = "pass", ""
        rows.append({"id": test_id, "file": file_of(test_id), "feature": feature_of(test_id),
                     "status": status, "message": message, "launched": launched})
    return rows


def apply_baseline(rows, baseline_rows):
    """A test that fails when Triton itself runs it here (the baseline) is
    not applicable: the test does not hold on this machine for Triton
    either (it needs CUDA, or Triton's interpreter lacks the feature)."""
    failing = {r["id"]: r["message"] for r in baseline_rows if r["status"] == "fail"}
    for row in rows:
        if row["id"] in failing and row["status"] == "fail":
            row["status"] = "na"
            row["message"] = "fails when Triton itself runs it here too"
            row["baseline"] = failing[row["id"]]


def _count_table(title, key, rows):
    counts = collections.OrderedDict()
    for row in rows:
        counts.setdefault(key(row), collections.Counter())[row["status"]] += 1
    lines = [f"| {title} | pass | fail | NA | skipped by Triton | not run | total |",
             "|---|---|---|---|---|---|---|"]
    total = collections.Counter()
    for name, c in counts.items():
        total.update(c)
        lines.append(f"| {name} | " + " | ".join(str(c[s]) for s in STATUSES) +
                     f" | {sum(c.values())} |")
    lines.append("| **all** | " + " | ".join(f"**{total[s]}**" for s in STATUSES) +
                 f" | **{sum(total.values())}** |")
    return lines, counts, total


def _git_commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def summary_markdown(rows, timings, args, known):
    out = [f"## Triton's language tests through mgp ({args.mode})", "",
           f"Run {datetime.date.today().isoformat()} at commit {_git_commit()}"
           + (f": `{args.command}`" if args.command else "") + ".",
           f"Selection: {'-m interpreter, ' if args.mode == 'interp' else ''}"
           f"{'-k ' + repr(args.keyword) + ', ' if args.keyword else ''}"
           f"{'one test in ' + str(args.sample) + ', ' if args.sample > 1 else ''}"
           f"{len(rows)} tests.", ""]
    seconds = ", ".join(f"{name} {t:.0f} s" + ("" if all(s != "timeout" for s in st)
                                                else " (time limit)")
                        for name, (t, st) in timings.items())
    if seconds:
        out += [f"Time per file: {seconds}.", ""]
    table, _, total = _count_table("file", lambda r: r["file"], rows)
    out += ["### Per file", ""] + table + [""]
    table, _, _ = _count_table("feature (test)", lambda r: f"{r['file']}: {r['feature']}", rows)
    out += ["### Per feature", ""] + table + [""]
    na = collections.Counter(r["message"] for r in rows if r["status"] == "na")
    if na:
        out += ["### Not applicable (mgp_swap.py's rules)", "", "| reason | tests |", "|---|---|"]
        out += [f"| {reason} | {n} |" for reason, n in na.most_common()]
        ran = sum(1 for r in rows if r["status"] == "na" and r["launched"])
        out += ["", f"{ran} of them ran their kernels through mgp before the test reached "
                "what is not applicable.", ""]
    skips = collections.Counter(r["message"] for r in rows if r["status"] == "skip")
    if skips:
        out += ["### Skipped by Triton's own tests", "", "| reason | tests |", "|---|---|"]
        out += [f"| {reason[:150]} | {n} |" for reason, n in skips.most_common(25)]
        out += [""]
    fails = [r for r in rows if r["status"] == "fail"]
    causes = collections.OrderedDict()
    for r in sorted(fails, key=lambda r: cause_of(r["message"])):
        causes.setdefault(cause_of(r["message"]), []).append(r)
    if fails:
        out += ["### Failures by cause", "", "| cause | tests | features | example |",
                "|---|---|---|---|"]
        for cause, group in sorted(causes.items(), key=lambda kv: -len(kv[1])):
            features = sorted({r["feature"] for r in group})
            shown = ", ".join(features[:6]) + (f", ... ({len(features)})" if len(features) > 6 else "")
            cause_text = cause.replace("|", "\\|")
            out.append(f"| {cause_text} | {len(group)} | {shown} | `{group[0]['id'].split('::')[-1]}` |")
        groups = collections.OrderedDict()
        for r in fails:
            groups.setdefault(group_of(r), []).append(r)
        out += ["", "### Failures by missing feature", "",
                "| missing feature | tests | features (tests) | example |", "|---|---|---|---|"]
        for name, group in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            features = sorted({r["feature"] for r in group})
            shown = ", ".join(features[:5]) + (f", ... ({len(features)})" if len(features) > 5 else "")
            out.append(f"| {name.replace('|', '/')} | {len(group)} | {shown} | "
                       f"`{group[0]['id'].split('::')[-1]}` |")
        out += ["", "### Failures", "",
                "Every failing test: per test function and first error line (one example "
                "shown, specifics masked), the parametrizations that fail with it.", ""]
        by_feature = collections.OrderedDict()
        for r in fails:
            by_feature.setdefault((r["file"], r["feature"]), collections.OrderedDict()) \
                .setdefault(cause_of(r["message"]), []).append(r)
        for (file, feature), by_cause in by_feature.items():
            for cause, group in by_cause.items():
                params = " ".join("`" + r["id"].split("::")[-1][len(feature):] + "`"
                                  for r in group)
                example = " ".join(group[0]["message"].split())[:200]
                out.append(f"- {file} **{feature}** ({len(group)}): {example} — "
                           f"{params if params.strip('` ') else ''}")
        out.append("")
    failing = {r["id"]: r["message"] for r in fails}
    passed = {r["id"] for r in rows if r["status"] == "pass"}
    unexpected = [(i, m) for i, m in failing.items() if i not in known]
    known_passing = sorted(i for i in known if i in passed)
    counts = {"total": dict(total), "by_file": {}, "failures": failing}
    for r in rows:
        counts["by_file"].setdefault(r["file"], collections.Counter())[r["status"]] += 1
    return {"text": "\n".join(out) + "\n", "counts": counts, "unexpected": unexpected,
            "known_passing": known_passing}
