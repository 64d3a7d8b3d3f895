#!/usr/bin/env python3
"""Dynamic instruction counts of the RISC-V lowerings under qemu: executed
instructions per multiply-accumulate of a whole 64x64 int8 matrix times a
batch of int8 vectors (default 4096), packing, bias and stores included.

qemu-user 7.2 has no instruction-counting plugin in Debian, but
`-singlestep -d exec,nochain` logs one line per executed instruction (every
translation block is one instruction); this script pipes that log through a
counter and keeps the instructions of the generated function
`coopvec_main` (qemu names the function of every traced pc; the harness,
libc and the loader are not counted).

  * Nuclei vqmacc: the C that `--convert-coopvec-to-riscv=isa=xxlvqmacc`
    emits, with lib/Runtime/riscv64/xl_vqmacc.h's intrinsics compiled out of
    line (COOPVEC_XL_INTRINSIC=noinline): each executed `call` stands for
    the one `xl.vqmacc` a Nuclei core issues there, and the emulation's own
    instructions are not counted. An upper bound for the real extension:
    the calling convention may add register moves around each call.
  * generic RVV 1.0: `isa=rvv`, everything counted.
  * SiFive sf.vqmacc.4x8x4 / 2x8x2: `--coopvec-riscv-sifive-pipeline` with
    `emulate=true`, whose calls to lib/Runtime/riscv64/sf_vqmacc.c stand for
    the instruction the same way (VLEN 128 holds no 4x8x4 A tile: n/a).
  * scalar: the same product as a plain C triple loop (int8 x int8 into
    int32), compiled for rv64gc without vectors.

  python3 bench/riscv/dynamic-counts.py [--build build] [--batch 4096] [--vlen 128,256,512,1024]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import threading

LLVM = "/usr/lib/llvm-22/bin"
CC = ["clang-22", "--target=riscv64-linux-gnu", "--gcc-toolchain=/usr", "-fuse-ld=lld",
      "-static", "-O2"]
M = K = 64

PROG = """func.func @main(%x: memref<{b}x64xi32>, %w: memref<?xi8>, %y: memref<{b}x64xi32>) {{
  %c0 = arith.constant 0 : index
  %s = arith.constant 64 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 64x64, RowMajor> stride %s into %y
      : memref<{b}x64xi32>, memref<?xi8> -> memref<{b}x64xi32>
  return
}}
"""

HARNESS = """#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef SIFIVE /* MLIR's calling convention: each memref expanded */
void coopvec_main(int32_t *, int32_t *, int64_t, int64_t, int64_t, int64_t, int64_t,
                  int8_t *, int8_t *, int64_t, int64_t, int64_t,
                  int32_t *, int32_t *, int64_t, int64_t, int64_t, int64_t, int64_t);
#define CALL(x, w, y) coopvec_main(x, x, 0, {b}, 64, 64, 1, w, w, 0, 64 * 64, 1, \\
                                   y, y, 0, {b}, 64, 64, 1)
#else
void coopvec_main(int32_t *, int64_t, int8_t *, int64_t, int32_t *, int64_t);
#define CALL(x, w, y) coopvec_main(x, {b}, w, 64 * 64, y, {b})
#endif
void coopvec_rv_error(const char *site, const char *what) {{
  fprintf(stderr, "coopvec runtime error: %s: %s\\n", site, what);
  exit(1);
}}
int main(void) {{
  int32_t *x = malloc(sizeof(int32_t) * {b} * 64), *y = malloc(sizeof(int32_t) * {b} * 64);
  int8_t *w = malloc(64 * 64);
  for (int i = 0; i < {b} * 64; ++i) x[i] = (i * 37) % 255 - 127;
  for (int i = 0; i < 64 * 64; ++i) w[i] = (int8_t)(i * 11);
  CALL(x, w, y);
  long s = 0;
  for (int i = 0; i < {b} * 64; ++i) s += y[i];
  printf("%ld\\n", s);
  return 0;
}}
"""

SCALAR = """#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) void coopvec_main(const int8_t *x, const int8_t *w, int32_t *y, int b) {
  for (int r = 0; r < b; ++r)
    for (int m = 0; m < 64; ++m) {
      int32_t s = 0;
      for (int k = 0; k < 64; ++k)
        s += (int32_t)w[m * 64 + k] * x[r * 64 + k];
      y[r * 64 + m] = s;
    }
}
int main(void) {
  int b = %d;
  int8_t *x = malloc(b * 64), *w = malloc(64 * 64);
  int32_t *y = malloc(sizeof(int32_t) * b * 64);
  for (int i = 0; i < b * 64; ++i) x[i] = (int8_t)((i * 37) %% 255 - 127);
  for (int i = 0; i < 64 * 64; ++i) w[i] = (int8_t)(i * 11);
  coopvec_main(x, w, y, b);
  long s = 0;
  for (int i = 0; i < b * 64; ++i) s += y[i];
  printf("%%ld\\n", s);
  return 0;
}
"""


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode:
        sys.exit(f"dynamic-counts: {' '.join(cmd[:2])} failed:\n{p.stderr}")
    return p.stdout


def count(exe, vlen, symbol):
    """(instructions executed in `symbol`, the program's stdout)."""
    rd, wr = os.pipe()
    proc = subprocess.Popen(["qemu-riscv64", "-cpu", f"rv64,v=true,vlen={vlen}", "-singlestep",
                             "-d", "exec,nochain", "-D", f"/dev/fd/{wr}", exe],
                            pass_fds=(wr,), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(wr)
    # "Trace 0: 0xHOST [cs_base/pc/flags/cflags] symbol": one line per
    # instruction with -singlestep, ending in the name of the function that
    # holds the pc (the static binary keeps its symbol table).
    key = b" " + symbol.encode() + b"\n"
    total = [0]

    def reader():
        tail = b""
        with os.fdopen(rd, "rb", buffering=0) as f:
            while chunk := f.read(1 << 22):
                chunk = tail + chunk
                cut = chunk.rfind(b"\n") + 1
                total[0] += chunk.count(key, 0, cut)
                tail = chunk[cut:]

    t = threading.Thread(target=reader)
    t.start()
    out, err = proc.communicate()
    t.join()
    if proc.returncode:
        sys.exit(f"dynamic-counts: the program failed at VLEN {vlen}:\n{err.decode()}")
    return total[0], out.decode().strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--vlen", default="128,256,512,1024")
    ap.add_argument("--check-order", action="store_true",
                    help="exit 1 unless vqmacc < generic RVV < scalar at every VLEN")
    args = ap.parse_args()
    vlens = [int(v) for v in args.vlen.split(",")]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    headers = os.path.join(root, "lib", "Runtime", "riscv64")
    tmp = tempfile.mkdtemp(prefix="coopvec-rv-dyn-")
    mlir = os.path.join(tmp, "p.mlir")
    with open(mlir, "w") as f:
        f.write(PROG.format(b=args.batch))
    with open(os.path.join(tmp, "harness.c"), "w") as f:
        f.write(HARNESS.format(b=args.batch))
    exes = []
    for name, isa, defines in [
            ("Nuclei vqmacc (each call = one xl.vqmacc)", "xxlvqmacc",
             ["-DCOOPVEC_XL_INTRINSIC=static __attribute__((noinline))"]),
            ("generic RVV 1.0 (vwmacc.vx)", "rvv", [])]:
        lowered = run([os.path.join(args.build, "bin", "coopvec-opt"), mlir,
                       f"--convert-coopvec-to-riscv=isa={isa} lmul=8"])
        src, exe = os.path.join(tmp, isa + ".c"), os.path.join(tmp, isa)
        with open(src, "w") as f:
            f.write(run([f"{LLVM}/mlir-translate", "--mlir-to-cpp"], input=lowered))
        run(CC + ["-march=rv64gcv", *defines, "-I", headers, src,
                  os.path.join(tmp, "harness.c"), "-o", exe])
        exes.append((name, exe))
    for shape in ("4x8x4", "2x8x2"):
        lowered = run([os.path.join(args.build, "bin", "coopvec-opt"), mlir,
                       f"--coopvec-riscv-sifive-pipeline=shape={shape} lmul=8 emulate=true"])
        ll, exe = os.path.join(tmp, shape + ".ll"), os.path.join(tmp, shape)
        with open(ll, "w") as f:
            f.write(run([f"{LLVM}/mlir-translate", "--mlir-to-llvmir"], input=lowered))
        run(CC + ["-march=rv64gcv", "-DSIFIVE", "-I", headers, "-Wno-override-module", ll,
                  os.path.join(headers, "sf_vqmacc.c"), os.path.join(tmp, "harness.c"),
                  "-o", exe])
        exes.append((f"SiFive sf.vqmacc.{shape} (each call = one sf.vqmacc)", exe))
    src, exe = os.path.join(tmp, "scalar.c"), os.path.join(tmp, "scalar")
    with open(src, "w") as f:
        f.write(SCALAR % args.batch)
    run(CC + ["-march=rv64gc", src, "-o", exe])
    exes.append(("scalar C loop (rv64gc)", exe))

    macs = M * K * args.batch
    print(f"Executed instructions per MAC, 64x64 int8 x batch {args.batch} "
          f"(qemu-riscv64 -singlestep -d exec,nochain; whole coopvec_main)\n")
    print("| code | " + " | ".join(f"VLEN {v}" for v in vlens) + " |")
    print("| --- | " + " | ".join("---" for _ in vlens) + " |")
    checks = set()
    table = []
    for name, exe in exes:
        cells = []
        for v in (vlens if "scalar" not in name else vlens[:1]):
            if "4x8x4" in name and v < 256:
                cells.append("n/a")  # its 32-byte A tile needs VLEN >= 256
                continue
            n, out = count(exe, v, "coopvec_main")
            checks.add(out)
            cells.append(f"{n / macs:.3f}")
        if len(cells) == 1:
            cells *= len(vlens)
        if "SiFive" not in name:
            table.append([float(c) for c in cells])
        print(f"| {name} | " + " | ".join(cells) + " |")
    if len(checks) != 1:
        sys.exit(f"dynamic-counts: the programs disagree on the result: {sorted(checks)}")
    if args.check_order and not all(q < g < s for q, g, s in zip(*table)):
        sys.exit("dynamic-counts: expected vqmacc < generic RVV < scalar at every VLEN")


if __name__ == "__main__":
    main()
