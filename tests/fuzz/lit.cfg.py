# lit configuration of tests/fuzz: inputs that fuzzing found or that the
# hostile-input issue lists, run through the normal tools (docs/errors.md).
# It loads tests/lit's configuration (tools on PATH, substitutions) from the
# site file given as --param mgp_site=<build>/tests/lit/lit.site.cfg.py and
# then points the suite at this directory.
import os

lit_config.load_config(config, lit_config.params["mgp_site"])
config.name = "mgp-fuzz-regressions"
config.suffixes = [".mgp", ".py", ".graph", ".test"]
config.excludes = ["lit.cfg.py", "Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mgp_obj_root, "tests", "fuzz")
config.substitutions.append(("%models", os.path.join(config.mgp_src_root, "models")))
config.substitutions.append(("%lit_models", os.path.join(config.mgp_src_root, "tests", "lit", "models")))
