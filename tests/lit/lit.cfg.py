# lit configuration for wmc's CLI tests: each test is a file with RUN lines piping the output of
# build/bin/wmc into FileCheck, run by bash (so `; echo "exit=$?"` works for exit codes).
import os
import lit.formats

config.name = "wmc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".test", ".yaml", ".jq"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

bin_dir = lit_config.params.get("wmc_bin_dir", "")
src_dir = lit_config.params.get("wmc_source_dir", "")
build_dir = lit_config.params.get("wmc_build_dir", "")
config.environment["PATH"] = os.pathsep.join(
    ["/usr/lib/llvm-19/bin", bin_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
# Test outputs (%t) go to the build tree, never into the sources.
if build_dir:
    config.test_exec_root = os.path.join(build_dir, "tests", "lit")
config.substitutions.append(("%wmc", os.path.join(bin_dir, "wmc")))
# The benchmark programs are not built in every configuration (the sanitizer builds leave them out).
if os.path.exists(os.path.join(bin_dir, "bench_engines")):
    config.available_features.add("bench")
config.substitutions.append(("%src", src_dir))
config.substitutions.append(("%build", build_dir))
config.substitutions.append(("%inputs", os.path.join(os.path.dirname(__file__), "Inputs")))
