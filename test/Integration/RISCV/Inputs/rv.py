#!/usr/bin/env python3
"""RISC-V execution test: each case is one integer coopvec.batch_matvec run
through coopvec-rv-run (--convert-coopvec-to-riscv: EmitC calling the Nuclei
vqmacc intrinsics, compiled with clang-22 against xl_vqmacc.h; the
generic RVV 1.0 path, isa=rvv; SiFive's sf.vqmacc 4x8x4 and 2x8x2 loop nests
as LLVM IR calling sf_vqmacc.c, isa=xsfvqmacc-*; run under qemu-riscv64 at
a given VLEN and LMUL) and through coopvec-run (the CPU
JIT) on the same inputs. Both must equal the exact NumPy sum (inputs
saturated to the input interpretation, I32 bias, saturated i32 result), bit
for bit. Every signedness combination (vqmacc, vqmaccu, vqmaccus,
vqmaccsu), i32 inputs saturated to I8/U8 and PackedS8x32/PackedU8x32 words,
M/K/N not multiples of 4 (padded edge tiles), batches longer
than one register group (several vl chunks, a short last one), RowMajor and
ColumnMajor matrices with garbage between rows, every LMUL at every VLEN
from 128 to 1024; an LMUL whose group holds no whole tile at that VLEN (or,
for 4x8x4, a VLEN whose register holds no 32-byte A tile) must be reported
as a runtime error, never give numbers.
Prints one line per case and "rv: N cases, M failures".
"""

import argparse
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "CPU", "Inputs"))
from cases import COLMAJOR, ROWMAJOR, store_matrix, strided_stride  # noqa: E402

# (matrix, input interp, input `unsigned`) -> the vqmacc form it takes
SIGNS = [("I8", "I8", False), ("U8", "U8", True), ("U8", "I8", False),
         ("I8", "U8", False), ("I8", "U8", True), ("U8", "I8", True),
         ("U8", "PackedS8x32", False), ("I8", "PackedU8x32", True)]
SIZES = [(7, 10, 11), (4, 16, 4), (13, 37, 70), (1, 3, 1), (33, 5, 129)]
VLENS = [128, 256, 512, 1024]
LMULS = [0, 1, 2, 4, 8]
ISAS = ["xxlvqmacc", "rvv", "xsfvqmacc-4x8x4", "xsfvqmacc-2x8x2"]


def rejected(isa, vlen, lmul):
    """The runtime error a VLEN too small for whole tiles must give, or None."""
    if isa == "xxlvqmacc" and vlen * lmul < 512:
        return "VLEN too small for whole 4x4 tiles"
    if isa == "xsfvqmacc-4x8x4" and (vlen < 256 or vlen * lmul < 512):
        return "VLEN too small for whole 4x8x4 tiles"
    return None


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stderr.strip()


def case(args, rng, idx, matrix, interp, uns, layout, bias, m, k, n):
    name = f"rv{idx}_{matrix}x{interp}{'u' if uns else ''}_{layout}_{'b' if bias else 'nb'}_{m}x{k}x{n}"
    base = os.path.join(args.tmp, name)
    w = rng.integers(*((0, 256) if matrix == "U8" else (-128, 128)), (m, k))
    w = w.astype(np.uint8 if matrix == "U8" else np.int8)
    stride = strided_stride(layout, m, k, 1)
    buf = store_matrix(w, layout, stride)
    # Garbage wherever no element is.
    mask = store_matrix(np.ones((m, k), np.uint8), layout, stride) == 0
    buf[mask] = rng.integers(0, 256, int(mask.sum()))
    np.save(base + ".w.npy", buf)
    packed = interp.startswith("Packed")
    if packed:
        words = (k + 3) // 4
        lanes = rng.integers(0, 256, (n, 4 * words)).astype(np.uint8)
        x = lanes.view(np.int32)
        logical = lanes[:, :k].view(np.int8 if interp == "PackedS8x32" else np.uint8)
        logical = logical.astype(np.int64)
    else:
        x = rng.integers(-400, 400, (n, k)).astype(np.int32)
        x[0, 0] = np.iinfo(np.int32).min
        raw = x.view(np.uint32).astype(np.int64) if uns else x.astype(np.int64)
        lo, hi = (0, 255) if interp == "U8" else (-128, 127)
        logical = np.clip(raw, lo, hi)
    np.save(base + ".x.npy", x)
    cols = x.shape[1]
    bvals = rng.integers(-2**31, 2**31, m).astype(np.int64)
    bvals[0] = 2**31 - 1  # saturates
    bbuf = rng.integers(0, 256, 64 + 4 * m + 64).astype(np.uint8)
    bbuf[64:64 + 4 * m] = bvals.astype(np.int32).view(np.uint8)
    np.save(base + ".b.npy", bbuf)
    np.save(base + ".y0.npy", np.zeros((n, m), np.int32))
    uns_txt = " unsigned" if uns else ""
    bias_txt = " bias %b[%c64] as I32" if bias else ""
    bias_ty = ", memref<?xi8>" if bias else ""
    prog = f"""func.func @main(%x: memref<?x{cols}xi32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x{m}xi32>) {{
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = arith.constant {stride} : index
  coopvec.batch_matvec %x{uns_txt} as {interp}, %w[%c0] matrix<{matrix}, {m}x{k}, {layout}> stride %s{bias_txt} into %y
      : memref<?x{cols}xi32>, memref<?xi8>{bias_ty} -> memref<?x{m}xi32>
  return
}}
"""
    with open(base + ".mlir", "w") as f:
        f.write(prog)
    ins = []
    for a in ("x", "w", "b", "y0"):
        ins += ["--arg", f"{base}.{a}.npy"]
    ref = logical @ w.astype(np.int64).T + (bvals if bias else 0)
    ref = np.clip(ref, -2**31, 2**31 - 1).astype(np.int32)
    rc, err = run([args.cpu_runner, base + ".mlir", "-e", "main", "--no-print",
                   "--out-arg=3=" + base + ".cpu.npy", *ins])
    if rc:
        return [f"FAIL {name} (cpu): {err}"]
    cpu = np.load(base + ".cpu.npy")
    if not np.array_equal(cpu, ref):
        return [f"FAIL {name}: the CPU JIT differs from the exact reference"]
    lines = []
    for isa, lmul in [(i, l) for i in args.isa.split(",") for l in LMULS]:
        rc, err = run([args.rv_runner, base + ".mlir", "--vlen", ",".join(map(str, VLENS)),
                       "--isa", isa, "--lmul", str(lmul),
                       f"--out-arg=3={base}.{isa}{lmul}_%v.npy", *ins])
        for vlen in VLENS:
            tag = f"{name} {isa} lmul={lmul} vlen={vlen}"
            errs = [line for line in err.splitlines() if line.startswith(f"vlen={vlen}: ")]
            want = rejected(isa, vlen, lmul or 8)  # dynamic batch: LMUL 8
            if want:
                ok = any(want in e for e in errs)
                lines.append(("ok " if ok else "FAIL ") + tag + ": " +
                             ("rejected at run time" if ok else f"not rejected: {err}"))
                continue
            out = f"{base}.{isa}{lmul}_{vlen}.npy"
            if errs or not os.path.exists(out):
                lines.append(f"FAIL {tag}: {err}")
                continue
            y = np.load(out)
            if y.dtype != cpu.dtype or y.tobytes() != cpu.tobytes():
                i = np.unravel_index(np.argmax(y != cpu), y.shape)
                lines.append(f"FAIL {tag}: y{i} = {y[i]}, CPU JIT {cpu[i]}")
            else:
                lines.append(f"ok {tag}: bit-identical to the CPU JIT")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu-runner", required=True)
    ap.add_argument("--rv-runner", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--isa", default=",".join(ISAS),
                    help="comma-separated: xxlvqmacc (Nuclei vqmacc), rvv (generic), "
                         "xsfvqmacc-4x8x4, xsfvqmacc-2x8x2 (SiFive, emulated)")
    ap.add_argument("--shard", default="0/1",
                    help="K/N: only the cases i with i %% N == K (to split a slow ISA)")
    args = ap.parse_args()
    shard, shards = (int(v) for v in args.shard.split("/"))
    os.makedirs(args.tmp, exist_ok=True)
    n = failures = 0
    for i, (matrix, interp, uns) in enumerate(SIGNS):
        m, k, b = SIZES[i % len(SIZES)]
        layout = ROWMAJOR if i % 2 == 0 else COLMAJOR
        if i % shards != shard:
            continue
        # One generator per case: a shard runs the cases of the full run.
        rng = np.random.default_rng([args.seed, i])
        for line in case(args, rng, i, matrix, interp, uns, layout, i % 3 != 2, m, k, b):
            print(line)
            failures += line.startswith("FAIL")
            n += 1
    print(f"rv: {n} cases, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
