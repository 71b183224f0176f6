# lit configuration for mgp: FileCheck tests over mgpc and mgp-opt output.
import os
import lit.formats

config.name = "mgp"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".mgp", ".py", ".test"]
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mgp_obj_root, "tests", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.mgp_bin_dir, config.llvm_bin_dir, config.environment.get("PATH", "")])
config.environment["MGP_CACHE"] = "off"
config.substitutions.append(("%conformance", os.path.join(config.mgp_src_root, "tests", "conformance")))
config.substitutions.append(("%ptxas", config.ptxas))
if config.ptxas:
    config.available_features.add("ptxas")
# matplotlib for the plot of tools/bench_report.py (tests that need it say
# REQUIRES: matplotlib; without it they are reported unsupported).
import subprocess
try:
    if subprocess.run(["python3", "-c", "import matplotlib"], env=config.environment,
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
        config.available_features.add("matplotlib")
except OSError:
    pass
