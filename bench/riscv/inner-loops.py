#!/usr/bin/env python3
"""Instructions per multiply-accumulate of the generated inner loops for a
64x64 int8 matrix times a batch of 4096 (static, from the disassembly).

Lowers one coopvec.batch_matvec with --convert-coopvec-to-riscv (isa
xxlvqmacc: Nuclei's intrinsics through xl_vqmacc.h; isa rvv: the generic
widening path) at LMUL 8, compiles the C with clang-22 -O2 for rv64gcv,
finds in `llvm-objdump -d` the innermost loop (the smallest backward branch
range) holding the multiply-accumulate, and divides its instruction count by
the multiply-accumulates one iteration does at each VLEN. The SiFive rows
lower with coopvec-riscv-sifive-pipeline (shape 4x8x4 / 2x8x2) to LLVM IR
calling the real
llvm.riscv.sf.vqmacc* intrinsics and compile it for
rv64gcv_xsfvqmaccqoq_xsfvqmaccdod (-mno-relax, so that the branches of the
object are resolved); each sf.vqmacc at LMUL L does VLEN * L / 4 MACs
(4x8x4: VLEN*L/512 tiles x 128, 2x8x2: VLEN*L/128 tiles x 32), and 4x8x4
needs VLEN >= 256.
The scalar row is the seed's own `normal_case` loop (shared/seeds/001) for
rv64gc.

  python3 bench/riscv/inner-loops.py [--build build]
"""

import argparse
import collections
import os
import re
import subprocess
import tempfile

PROG = """func.func @main(%x: memref<4096x64xi32>, %w: memref<?xi8>, %y: memref<4096x64xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 64 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 64x64, RowMajor> stride %s into %y
      : memref<4096x64xi32>, memref<?xi8> -> memref<4096x64xi32>
  return
}
"""
LLVM = "/usr/lib/llvm-22/bin"
CC = ["clang-22", "--target=riscv64-linux-gnu", "--gcc-toolchain=/usr", "-O2", "-c"]
VLENS = [128, 256, 512, 1024]


def disassemble(obj):
    out = subprocess.run([f"{LLVM}/llvm-objdump", "-d", "--no-show-raw-insn", obj],
                         capture_output=True, text=True, check=True).stdout
    insns = []
    for line in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
    return insns


def innermost_loop(insns, key):
    """The smallest [target, branch] range of a backward branch holding `key`."""
    best = None
    for addr, op, args in insns:
        m = re.search(r"0x([0-9a-f]+)", args)
        if not op.startswith("b") or not m:
            continue
        target = int(m.group(1), 16)
        if target > addr:
            continue
        body = [i for i in insns if target <= i[0] <= addr]
        if any(i[1] == key for i in body) and (best is None or len(body) < len(best)):
            best = body
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    headers = os.path.join(root, "lib", "Runtime", "riscv64")
    tmp = tempfile.mkdtemp(prefix="coopvec-rv-bench-")
    mlir = os.path.join(tmp, "p.mlir")
    with open(mlir, "w") as f:
        f.write(PROG)
    rows = []
    # (name, isa, key instruction, MACs per iteration at VLEN v)
    for name, isa, key, macs in [
            ("Nuclei vqmacc via xl_vqmacc.h (RVV 1.0 emulation)", "xxlvqmacc", "vwmul.vv",
             lambda v: 4 * (v // 4)),  # vl = VLEN/4 elements (e32m8): vl/16 tiles x 64
            ("generic RVV 1.0 (vwmacc.vx)", "rvv", "vwmacc.vx", lambda v: v // 4)]:
        lowered = subprocess.run([os.path.join(args.build, "bin", "coopvec-opt"), mlir,
                                  f"--convert-coopvec-to-riscv=isa={isa} lmul=8"],
                                 capture_output=True, text=True, check=True).stdout
        c = subprocess.run([f"{LLVM}/mlir-translate", "--mlir-to-cpp"], input=lowered,
                           capture_output=True, text=True, check=True).stdout
        src, obj = os.path.join(tmp, isa + ".c"), os.path.join(tmp, isa + ".o")
        with open(src, "w") as f:
            f.write(c)
        subprocess.run(CC + ["-march=rv64gcv", "-I", headers, src, "-o", obj], check=True)
        rows.append((name, innermost_loop(disassemble(obj), key), macs))
    opt = os.path.join(args.build, "bin", "coopvec-opt")
    for name, isa, key, lmul, min_vlen in [
            ("SiFive sf.vqmacc.4x8x4 (XSfvqmaccqoq), LMUL 8", "xsfvqmacc-4x8x4",
             "sf.vqmacc.4x8x4", 8, 256),
            ("SiFive sf.vqmacc.2x8x2 (XSfvqmaccdod), LMUL 8", "xsfvqmacc-2x8x2",
             "sf.vqmacc.2x8x2", 8, 128),
            ("SiFive sf.vqmacc.2x8x2 (XSfvqmaccdod), LMUL 4", "xsfvqmacc-2x8x2",
             "sf.vqmacc.2x8x2", 4, 128)]:
        lowered = subprocess.run([opt, mlir, "--coopvec-riscv-sifive-pipeline="
                                  f"shape={isa.removeprefix('xsfvqmacc-')} lmul={lmul}"],
                                 capture_output=True, text=True, check=True).stdout
        ir = subprocess.run([f"{LLVM}/mlir-translate", "--mlir-to-llvmir"], input=lowered,
                            capture_output=True, text=True, check=True).stdout
        src, obj = (os.path.join(tmp, f"{isa}{lmul}.ll"), os.path.join(tmp, f"{isa}{lmul}.o"))
        with open(src, "w") as f:
            f.write(ir)
        subprocess.run(CC + ["-march=rv64gcv_xsfvqmaccqoq_xsfvqmaccdod", "-mno-relax",
                             "-Wno-override-module", src, "-o", obj], check=True)
        loop = innermost_loop(disassemble(obj), key)
        rows.append((name, loop,
                     lambda v, n=sum(1 for i in loop if i[1] == key), lo=min_vlen, l=lmul:
                     n * v * l // 4 if v >= lo else None))
    seed = os.path.join(root, "test", "Runtime", "riscv64", "Inputs", "xl_vqmacc_seed_example.c")
    text = open(seed).read()
    scalar = "#include <stdint.h>\n" + re.search(r"void normal_case.*?\n}\n", text, re.S).group(0)
    src, obj = os.path.join(tmp, "scalar.c"), os.path.join(tmp, "scalar.o")
    with open(src, "w") as f:
        f.write(scalar)
    subprocess.run(CC + ["-march=rv64gc", src, "-o", obj], check=True)
    loop = innermost_loop(disassemble(obj), "mul")
    rows.append(("scalar (the seed's normal_case, rv64gc)", loop,
                 lambda v, n=sum(1 for i in loop if i[1] == "mul"): n))
    print("| inner loop | instructions / iteration | " +
          " | ".join(f"instr/MAC VLEN {v}" for v in VLENS) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in VLENS) + " |")
    for name, loop, macs in rows:
        mix = ", ".join(f"{n} {op}" for op, n in collections.Counter(i[1] for i in loop).most_common(4))
        print(f"| {name} | {len(loop)} ({mix}, ...) | " +
              " | ".join("n/a" if macs(v) is None else f"{len(loop) / macs(v):.3f}"
                         for v in VLENS) + " |")


if __name__ == "__main__":
    main()
