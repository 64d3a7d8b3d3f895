# lit configuration for the coopvec test suite.
import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "COOPVEC"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".ll"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.coopvec_obj_root, "test")
config.excludes = ["Inputs", "mutate.py", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%coopvec_src", config.coopvec_src_root))
config.substitutions.append(("%coopvec_libs", config.coopvec_lib_dir))
# MLIR's async runtime, which parallel loops lowered by async-parallel-for
# call (mlir-runner needs it in --shared-libs).
config.substitutions.append(("%mlir_async_runtime", os.path.join(
    os.path.dirname(config.llvm_tools_dir), "lib", "libmlir_async_runtime.so")))
config.substitutions.append(("%coopvec_obj", config.coopvec_obj_root))
config.substitutions.append(("%python", config.python_executable))

# Upstream's FileCheck defaults.
config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false")

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.coopvec_tools_dir, config.llvm_tools_dir]
tools = [
    "coopvec-opt",
    "mlir-translate",
    "mlir-runner",
    ToolSubst("%coopvec-bin", config.coopvec_tools_dir, unresolved="ignore"),
]
for name in ["coopvec-run", "coopvec-translate", "coopvec-parse-fuzzer",
             "coopvec-pass-fuzzer", "coopvec-npy-fuzzer",
             "coopvec-dxil-fuzzer", "coopvec-numerics-fuzzer"]:
    if os.path.exists(os.path.join(config.coopvec_tools_dir, name)):
        tools.append(name)
llvm_config.add_tool_substitutions(tools, tool_dirs)
llvm_config.with_environment("PATH", config.coopvec_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Optional tools: tests that need one say `REQUIRES:`.
if shutil.which("qemu-riscv64"):
    config.available_features.add("qemu-riscv64")
# The runtime cross-compiled for riscv64 (test/lib/Riscv64): its static
# test drivers, which test/Runtime/riscv64 runs under qemu-riscv64.
riscv64_bin = os.path.join(config.coopvec_obj_root, "riscv64", "bin")
if os.path.exists(os.path.join(riscv64_bin, "coopvec-matvec-test")):
    config.available_features.add("riscv64-runtime")
config.substitutions.append(("%riscv64_bin", riscv64_bin))
config.substitutions.append(("%riscv64_obj", os.path.dirname(riscv64_bin)))
if os.path.exists("/usr/local/cuda/bin/ptxas") or shutil.which("ptxas"):
    config.available_features.add("ptxas")
if shutil.which("nvidia-smi") and os.path.exists("/dev/nvidia0"):
    config.available_features.add("cuda-gpu")
if shutil.which("spirv-val"):
    config.available_features.add("spirv-tools")
if config.coopvec_fuzzers_built:
    config.available_features.add("fuzzers")
if os.environ.get("COOPVEC_EXHAUSTIVE"):
    config.available_features.add("exhaustive")

# CPU target (coopvec-run): integration tests need the JIT runner; reference
# values come from NumPy, which may live in another Python than lit's.
if os.path.exists(os.path.join(config.coopvec_tools_dir, "coopvec-run")):
    config.available_features.add("coopvec-run")
import subprocess
for candidate in [config.python_executable, "/usr/bin/python3"]:
    if candidate and subprocess.call([candidate, "-c", "import numpy"],
                                     stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL) == 0:
        config.available_features.add("numpy")
        config.substitutions.append(("%numpy_python", candidate))
        break
