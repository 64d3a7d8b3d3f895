# lit configuration for the coopvec test suite.
import os
import shutil
import sys

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

# Per-test time limit: lit kills a test still running after it (with
# psutil, scripts/install-deps.sh) and reports TIMEOUT, so that a hang fails
# one test instead of the whole run. Well above the slowest test (see
# `lit --time-tests`; Integration/DXIL/differential-cases.test, about 100 s
# alone, went past 600 s on two cores shared by a load of 20), twice as long
# in the sanitized build.
# `--param coopvec_test_timeout=N` sets another (test/Lit/timeout.test), and
# lit's --timeout overrides both.
lit_config.maxIndividualTestTime = int(lit_config.params.get(
    "coopvec_test_timeout", 1800 if config.coopvec_sanitizers else 900))
# The lit running this suite, for tests that run a nested suite.
config.substitutions.append(("%lit", "%s %s" % (sys.executable, sys.argv[0])))

# Upstream's FileCheck defaults.
config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false")

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Sanitized build (scripts/build.sh with SANITIZE=1: ASan with LeakSanitizer,
# and UBSan). Every report is fatal and ends the program with abort(), a
# crash, so that `not` (which accepts any non-zero exit status but no crash)
# fails on a report too. allow_user_poisoning=0: LLVM's BumpPtrAllocator
# (llvm/Support/Allocator.h) poisons a new slab and unpoisons each allocation
# only where it is compiled with ASan. Our code inlines such copies; Debian's
# libMLIR.so, which the tools link, is built without ASan. An allocator both
# use (a context's, the parser's) hands out bytes of a slab that our copy
# poisoned through libMLIR's copy, which does not unpoison them: ASan would
# report a use-after-poison in MLIR's parser. The option ignores only these
# manual poisonings; ASan's own checks of heap, stack and globals stay.
tool_dirs = [config.coopvec_tools_dir, config.llvm_tools_dir]
runner = "mlir-runner"
if config.coopvec_sanitizers:
    # Tests that only repeat slow JIT work under the sanitizers opt out.
    config.available_features.add("sanitizers")
    config.environment["ASAN_OPTIONS"] = ":".join([
        "detect_leaks=1", "halt_on_error=1", "abort_on_error=1",
        "allow_user_poisoning=0", "detect_stack_use_after_return=1"])
    config.environment["UBSAN_OPTIONS"] = ":".join([
        "print_stacktrace=1", "halt_on_error=1", "abort_on_error=1"])
    config.environment["LSAN_OPTIONS"] = "abort_on_error=1"
    # mlir-runner is Debian's, uninstrumented: a library it loads that was
    # built with ASan (the DXIL driver, the CPU runtime) needs ASan's runtime
    # loaded first. Preloaded for mlir-runner alone, not for every program.
    runner = ToolSubst("mlir-runner", command="env LD_PRELOAD=%s %s" % (
        config.coopvec_asan_runtime,
        os.path.join(config.llvm_tools_dir, "mlir-runner")))
tools = [
    "coopvec-opt",
    "mlir-translate",
    runner,
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
# clang-22 cross-compiling static rv64gcv programs against Debian's riscv64
# sysroot (gcc-riscv64-linux-gnu, libc6-dev-riscv64-cross) with lld.
riscv64_cc = ("clang-22 --target=riscv64-linux-gnu -march=rv64gcv "
              "--gcc-toolchain=/usr -fuse-ld=lld -static")
if (shutil.which("clang-22")
        and os.path.exists(os.path.join(config.llvm_tools_dir, "ld.lld"))
        and os.path.exists("/usr/riscv64-linux-gnu/lib/libc.a")):
    config.available_features.add("riscv64-cross")
config.substitutions.append(("%riscv64_cc", riscv64_cc))
if os.path.exists("/usr/local/cuda/bin/ptxas") or shutil.which("ptxas"):
    config.available_features.add("ptxas")
# cuda-gpu: the CUDA driver (libcuda.so.1) loads and reports a device, as
# coopvec-run --probe-gpu finds through libcoopvec_cuda_runtime.so. The
# chip it prints is %cuda_chip.
coopvec_run = os.path.join(config.coopvec_tools_dir, "coopvec-run")
if os.path.exists(coopvec_run):
    import subprocess
    try:
        probe = subprocess.run([coopvec_run, "--probe-gpu"], capture_output=True,
                               text=True, timeout=120)
        if probe.returncode == 0 and probe.stdout.strip().startswith("sm_"):
            config.available_features.add("cuda-gpu")
            config.substitutions.append(("%cuda_chip", probe.stdout.strip()))
    except (OSError, subprocess.TimeoutExpired):
        pass
# vulkan-runtime: libcoopvec_vulkan_runtime.so was built (CMake found the
# Vulkan loader). vulkan: it finds a Vulkan 1.3 device too (lavapipe does,
# on the CPU), as coopvec-vulkan-runtime-test --probe reports; the device
# it prints is %vulkan_device.
vulkan_test = os.path.join(config.coopvec_tools_dir, "coopvec-vulkan-runtime-test")
if os.path.exists(vulkan_test):
    config.available_features.add("vulkan-runtime")
    import subprocess
    try:
        probe = subprocess.run([vulkan_test, "--probe"], capture_output=True,
                               text=True, timeout=120)
        if probe.returncode == 0:
            config.available_features.add("vulkan")
            config.substitutions.append(("%vulkan_device", probe.stdout.strip()))
    except (OSError, subprocess.TimeoutExpired):
        pass
if shutil.which("spirv-val"):
    config.available_features.add("spirv-tools")
if config.coopvec_fuzzers_built:
    config.available_features.add("fuzzers")
# The host CPU's SIMD levels, for tests that must see a level in use.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        cpu_flags = next((line.split(":", 1)[1].split() for line in cpuinfo
                          if line.startswith("flags")), [])
except OSError:
    cpu_flags = []
if {"avx2", "fma", "f16c"} <= set(cpu_flags):
    config.available_features.add("x86-avx2")
if {"avx512f", "avx512bw", "avx512vl"} <= set(cpu_flags):
    config.available_features.add("x86-avx512")
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
