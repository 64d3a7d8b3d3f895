#!/usr/bin/env python3
"""coopvec.convert / coopvec.pack on an NVIDIA GPU against the CPU runtime,
for a GPU machine without LLVM.

  prepare (here, with a build): writes the check program for --chip with
    test/Integration/GPU/Inputs/make-convert-check.py, lowers it with
    coopvec-run --print-lowered (kernels assembled by ptxas), compiles the
    host code with clang and links it with convert_main.c against
    libcoopvec_cuda_runtime.so and libcoopvec_runtime.so, copied beside it.
  On the GPU machine: LD_LIBRARY_PATH=<out> <out>/convert-check
"""

import argparse
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--chip", default="sm_90")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    gen = os.path.join(ROOT, "test", "Integration", "GPU", "Inputs",
                       "make-convert-check.py")
    src = os.path.join(args.out, "check.mlir")
    with open(src, "w") as f:
        subprocess.run(["python3", gen, "--chip", args.chip], stdout=f,
                       check=True)
    lowered = subprocess.run(
        [os.path.join(args.build, "bin", "coopvec-run"), src, "-e", "check",
         "--gpu-chip", args.chip, "--print-lowered"],
        check=True, capture_output=True, text=True).stdout
    low = os.path.join(args.out, "lowered.mlir")
    with open(low, "w") as f:
        f.write(lowered)
    ll = os.path.join(args.out, "check.ll")
    obj = os.path.join(args.out, "check.o")
    subprocess.run(["/usr/lib/llvm-22/bin/mlir-translate", "--mlir-to-llvmir",
                    low, "-o", ll], check=True)
    subprocess.run(["clang-22", "-c", "-O1", "-fPIC", "-Wno-override-module",
                    ll, "-o", obj], check=True)
    for name in ("libcoopvec_cuda_runtime.so", "libcoopvec_runtime.so"):
        subprocess.run(["cp", os.path.join(args.build, "lib", name), args.out],
                       check=True)
    subprocess.run(["clang-22", os.path.join(HERE, "convert_main.c"), obj,
                    "-L" + args.out, "-lcoopvec_cuda_runtime",
                    "-lcoopvec_runtime", "-lstdc++", "-lm", "-o",
                    os.path.join(args.out, "convert-check")], check=True)
    print("prepared", os.path.join(args.out, "convert-check"))


if __name__ == "__main__":
    main()
