"""The disk caches under concurrent writers: several processes of the Python
package compile the same kernels to PTX (mgp.compile, through the C API's
kernel cache) and autotune the same kernel (the autotuner's choice file) at
the same moment, on one fresh MGP_CACHE_DIR. Every process must get the same
PTX, nothing may crash, no temporary file may be left behind, every entry
must be whole (a later process reads each one back from the disk cache
instead of compiling), and the autotuner's choice file must be whole: a
later process takes its choice from it."""
import glob
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

WORKERS = 6

# One worker: waits for the start file, then compiles three kernels for
# sm_90 and autotunes one on the interpreter; prints one line per result.
WORKER = textwrap.dedent('''
    import hashlib, os, sys, time
    sys.path.insert(0, os.environ["MGP_TEST_DIR"])
    import mgp
    import mgp_kernels as K
    start = os.environ["MGP_TEST_START"]
    while not os.path.exists(start):
        time.sleep(0.001)
    for name, fn, sig in [
            ("add", K.add_kernel, "*fp32:16,*fp32:16,*fp32:16,i32,1024"),
            ("add_ragged", K.add_kernel, "*fp32,*fp32,*fp32,i32,128"),
            ("softmax", K.softmax_kernel, "*fp32:16,*fp32:16,i32,i32,i32,256")]:
        ptx = mgp.compile(fn, sig, arch="sm_90").asm["ptx"]
        print(name, hashlib.sha256(ptx.encode()).hexdigest(), flush=True)
    import numpy as np
    x = np.random.default_rng(int(time.time_ns() % 1000)).standard_normal(
        3000).astype(np.float32)
    out = np.zeros(3000, dtype=np.float32)
    K.scale_kernel[lambda meta: ((3000 + meta["BLOCK"] - 1) // meta["BLOCK"],)](
        x, out, 2.0, 3000)
    assert (out == x * 2.0).all(), "the autotuned kernel is wrong"
    print("tuned", K.scale_kernel.best_config.describe(), flush=True)
''')


class CacheConcurrencyTest(unittest.TestCase):
    def run_workers(self, cache, count):
        start = os.path.join(cache, "start")
        env = dict(os.environ, MGP_CACHE_DIR=cache, MGP_TEST_START=start,
                   MGP_TEST_DIR=os.path.dirname(os.path.abspath(__file__)),
                   MGP_INTERPRET="1", MGP_DEBUG="1")
        procs = [subprocess.Popen([sys.executable, "-c", WORKER], env=env,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
                 for _ in range(count)]
        time.sleep(0.5)  # let every worker import and wait at the line
        open(start, "w").close()
        results = []
        for proc in procs:
            out, err = proc.communicate(timeout=600)
            self.assertEqual(proc.returncode, 0, f"a worker failed:\n{err}")
            results.append((dict(line.split(" ", 1) for line in
                                 out.strip().splitlines()), err))
        os.remove(start)
        return results

    def test_concurrent_writers(self):
        with tempfile.TemporaryDirectory(prefix="mgp-cache-race-") as cache:
            results = self.run_workers(cache, WORKERS)
            first = results[0][0]
            self.assertEqual(set(first), {"add", "add_ragged", "softmax",
                                          "tuned"})
            ptx = {k: v for k, v in first.items() if k != "tuned"}
            for got, _ in results[1:]:
                self.assertEqual({k: v for k, v in got.items() if k != "tuned"},
                                 ptx, "the processes disagree on a PTX")
            leftovers = [p for p in glob.glob(os.path.join(cache, "**", "*"),
                                              recursive=True)
                         if ".tmp" in os.path.basename(p)]
            self.assertEqual(leftovers, [], "temporary files left behind")
            # Each process timed the configs itself and may have chosen
            # another; the file holds one whole choice, which a later
            # process takes without timing anything.
            choices = glob.glob(os.path.join(cache, "**", "scale_kernel-*.json"),
                                recursive=True)
            self.assertEqual(len(choices), 1, choices)
            with open(choices[0]) as f:
                saved = json.load(f)
            # A later process finds every kernel whole in the disk cache.
            again = self.run_workers(cache, 1)
            self.assertEqual({k: v for k, v in again[0][0].items()
                              if k != "tuned"}, ptx)
            self.assertEqual(again[0][0]["tuned"], saved["config"])
            log = again[0][1]
            self.assertEqual(log.count("from the disk cache"), 3, log)
            self.assertNotRegex(log, r"compiled \S+ sm_90",
                                "a PTX entry was compiled again")


if __name__ == "__main__":
    unittest.main()
