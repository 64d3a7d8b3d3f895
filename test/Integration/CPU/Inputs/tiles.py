#!/usr/bin/env python3
"""Tile-level execution test: every case is one coopvec.batch_matvec run
twice through coopvec-run, untiled (the runtime's kernels) and through
--coopvec-tile at a given tile shape (tile_pack + loop nest + tile_mma
lowered by the CPU target), on the same inputs. Both are checked against a
NumPy reference computed here:
  * integer paths: the tiled result is bit-identical to the untiled one,
    and both to the exact NumPy sum;
  * float paths: both within the bound of cases.py,
    |y - ref| <= (K + 2) * 2^-24 * (sum_k |w_k x_k| + |bias|) + ulp_out/2;
    the largest |tiled - untiled| is printed.
Prints one line per case and "<group>: N cases, M failures".
"""

import argparse
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import (COLMAJOR, INFOPT, ROWMAJOR, SUBBYTE, TRAINOPT, ceil_div,  # noqa: E402
                   decode_matrix, pack_nibbles, rtne_sat, store_matrix,
                   strided_stride)

# (tile-m, tile-n, tile-k): PTX-like shapes, and the CPU kernels' own (one
# 8-row panel of InferencingOptimal, the AVX2 float microkernel's 6 vectors,
# the 8-bit panels' 2-column groups).
SHAPES = [(4, 4, 4), (4, 8, 4), (16, 8, 16), (16, 8, 32), (16, 8, 64), (8, 6, 2)]
# (matrix, layout, transpose, input physical, input interp, input unsigned,
#  bias, output)
INT = [("I8", ROWMAJOR, False, "f32", "I8", False, "I32", "i32"),
       ("U8", INFOPT, True, "i32", "PackedS8x32", False, None, "i32"),
       ("I8", TRAINOPT, False, "i32", "PackedU8x32", True, "I32", "f32"),
       ("U8", COLMAJOR, False, "i32", "U8", True, None, "i32"),
       ("I4", ROWMAJOR, False, "f16", "I8", False, "I32", "i32"),
       ("U4", INFOPT, True, "i32", "I8", False, None, "f32")]
FLOAT = [("F32", INFOPT, False, "f32", "F32", False, "F32", "f32"),
         ("F16", ROWMAJOR, False, "f16", "F16", False, "F16", "f16"),
         ("F16", TRAINOPT, True, "f32", "F16", False, None, "f32"),
         ("BF16", COLMAJOR, False, "f16", "F32", False, "F32", "f32"),
         ("F32", INFOPT, True, "f32", "F32", False, None, "f16")]
SIZES = [(13, 40), (32, 64), (5, 70)]
BATCH = 11
NPT = {"f32": np.float32, "f16": np.float16, "i32": np.int32}


def run(args, mlir, inputs, out_arg, pipeline):
    """Runs @main, writing argument 3 (the output batch) to `out_arg`."""
    cmd = [args.runner, mlir, "-e", "main", "--no-print", "--out-arg=3=" + out_arg]
    if pipeline:
        cmd.append("--pass-pipeline=" + pipeline)
    for a in inputs:
        cmd += ["--arg", a]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    if pipeline and "not tiled" in p.stderr:
        # The pass left the op as it was: nothing tiled to compare.
        return None, p.stderr.strip()
    return np.load(out_arg), ""


def matrix_values(rng, matrix, m, k):
    if matrix in ("F32", "F16"):
        return rng.uniform(-1, 1, (m, k)).astype(np.float32 if matrix == "F32" else np.float16)
    if matrix == "BF16":
        return (rng.uniform(-4, 4, (m, k)).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    lo, hi, dt = {"I8": (-128, 128, np.int8), "U8": (0, 256, np.uint8),
                  "I4": (-8, 8, np.int8), "U4": (0, 16, np.uint8)}[matrix]
    return rng.integers(lo, hi, (m, k)).astype(dt)


def input_values(rng, phys, interp, uns, k):
    """Physical batch rows and their logical values (float64)."""
    if interp.startswith("Packed"):
        words = ceil_div(k, 4)
        lanes = rng.integers(0, 256, (BATCH, 4 * words)).astype(np.uint8)
        x = lanes.view(np.int32)
        logical = lanes[:, :k].view(np.int8 if interp == "PackedS8x32" else np.uint8)
        return x, logical.astype(np.float64)
    if phys == "i32":
        x = rng.integers(-400, 400, (BATCH, k)).astype(np.int32)
        raw = x.view(np.uint32).astype(np.float64) if uns else x.astype(np.float64)
        lo, hi = (-128, 127) if interp == "I8" else (0, 255)
        return x, np.clip(raw, lo, hi)
    if interp in ("I8", "U8"):
        x = rng.uniform(-300, 300, (BATCH, k)).astype(NPT[phys])
        x[0, :4] = [2.5, -3.5, 0.5, 127.5]  # RTNE ties
        x[1, 0] = np.nan  # reads as 0
        lo, hi = (-128, 127) if interp == "I8" else (0, 255)
        xf = np.nan_to_num(x.astype(np.float64), nan=0.0)
        return x, rtne_sat(xf, lo, hi)
    x = rng.uniform(-1, 1, (BATCH, k)).astype(NPT[phys])
    logical = x.astype(np.float16) if interp == "F16" else x
    return x, logical.astype(np.float64)


def tile_case(args, rng, name, shape, m, k, matrix, layout, transpose, phys,
              interp, uns, bias, out):
    es = 2 if matrix in ("F16", "BF16") else 4 if matrix == "F32" else 1
    srows, scols = (k, m) if transpose else (m, k)
    ucols = ceil_div(scols, 2) if matrix in SUBBYTE else scols
    strided = layout in (ROWMAJOR, COLMAJOR)
    stride = strided_stride(layout, srows, ucols, es) if strided else 0
    w = matrix_values(rng, matrix, m, k)
    stored = np.ascontiguousarray(w.T if transpose else w)
    if matrix in SUBBYTE:
        stored = pack_nibbles(stored)
    base = os.path.join(args.tmp, name)
    np.save(base + ".w.npy", store_matrix(stored, layout, stride))
    x, logical = input_values(rng, phys, interp, uns, k)
    np.save(base + ".x.npy", x)
    if bias == "I32":
        bvals = rng.integers(-100000, 100000, m).astype(np.int32)
    elif bias:
        bvals = rng.uniform(-1, 1, m).astype(np.float32 if bias == "F32" else np.float16)
    else:
        bvals = None
    bbuf = np.zeros(64 + (bvals.nbytes if bvals is not None else 0) + 64, np.uint8)
    if bvals is not None:
        bbuf[64:64 + bvals.nbytes] = bvals.view(np.uint8)
    np.save(base + ".b.npy", bbuf)
    np.save(base + ".y0.npy", np.zeros((BATCH, m), NPT[out]))
    cols = x.shape[1]
    uns_txt = " unsigned" if uns else ""
    stride_txt = f" stride %s" if strided else ""
    bias_txt = f" bias %b[%c64] as {bias}" if bias else ""
    bias_ty = ", memref<?xi8>" if bias else ""
    desc = f"matrix<{matrix}, {m}x{k}, {layout}{', transpose' if transpose else ''}>"
    prog = f"""func.func @main(%x: memref<?x{cols}x{phys}>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x{m}x{out}>) {{
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = arith.constant {stride} : index
  coopvec.batch_matvec %x{uns_txt} as {interp}, %w[%c0] {desc}{stride_txt}{bias_txt} into %y
      : memref<?x{cols}x{phys}>, memref<?xi8>{bias_ty} -> memref<?x{m}x{out}>
  return
}}
"""
    mlir = base + ".mlir"
    with open(mlir, "w") as f:
        f.write(prog)
    ins = [base + ".x.npy", base + ".w.npy", base + ".b.npy", base + ".y0.npy"]
    results = []
    tm, tn, tk = shape
    for tag, pipeline in [("untiled", None),
                          ("tiled", f"builtin.module(coopvec-tile{{tile-m={tm} tile-n={tn} "
                                    f"tile-k={tk}}},coopvec-cpu-pipeline)")]:
        y, err = run(args, mlir, ins, base + f".{tag}.npy", pipeline)
        if y is None:
            return f"FAIL {name} ({tag}): {err}"
        results.append(y)
    untiled, tiled = results
    wf = decode_matrix(w, matrix)
    bf = decode_matrix(bvals, bias) if bvals is not None else 0
    if matrix in ("F32", "F16", "BF16"):
        ref = logical @ wf.T + bf
        mag = np.abs(logical) @ np.abs(wf).T + np.abs(bf)
        out_eps = 2.0**-11 if out == "f16" else 2.0**-24
        tol = (k + 2) * 2.0**-24 * mag + out_eps * np.abs(ref) + (2.0**-24 if out == "f16" else 0)
        for tag, y in (("untiled", untiled), ("tiled", tiled)):
            diff = np.abs(y.astype(np.float64) - ref)
            if not np.all(diff <= tol):
                i = np.unravel_index(np.argmax(diff - tol), diff.shape)
                return f"FAIL {name} ({tag}): y{i} = {y[i]!r}, reference {ref[i]!r}, bound {tol[i]!r}"
        gap = np.max(np.abs(tiled.astype(np.float64) - untiled.astype(np.float64)))
        same = "bit-identical" if tiled.tobytes() == untiled.tobytes() else f"max |tiled - untiled| = {gap:.3g}"
        return f"ok {name}: within bound, {same}"
    acc = logical.astype(np.int64) @ w.astype(np.int64).T + (bvals.astype(np.int64) if bvals is not None else 0)
    ref = acc.astype(np.int32) if out == "i32" else acc.astype(np.float32)
    if not np.array_equal(untiled, ref):
        return f"FAIL {name}: untiled differs from the exact reference"
    if tiled.dtype != untiled.dtype or tiled.tobytes() != untiled.tobytes():
        i = np.unravel_index(np.argmax(tiled != untiled), tiled.shape)
        return f"FAIL {name}: tiled y{i} = {tiled[i]!r}, untiled {untiled[i]!r}"
    return f"ok {name}: bit-identical"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group", choices=["int", "float"])
    ap.add_argument("--runner", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.makedirs(args.tmp, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    combos = INT if args.group == "int" else FLOAT
    n = failures = 0
    for s, shape in enumerate(SHAPES):
        for j, combo in enumerate(combos):
            if combo[4].startswith("Packed") and shape[2] % 4:
                continue  # packed words need tile-k % 4 == 0 (left untiled)
            m, k = SIZES[(s + j) % len(SIZES)]
            name = f"tile{args.group}{n}_{'x'.join(map(str, shape))}_{combo[0]}_{combo[1]}" \
                   f"{'_T' if combo[2] else ''}_{combo[3]}{combo[4]}_{combo[6]}_{combo[7]}_{m}x{k}"
            line = tile_case(args, rng, name, shape, m, k, *combo)
            failures += line.startswith("FAIL")
            n += 1
            print(line, flush=True)
    print(f"tiles-{args.group}: {n} cases, {failures} failures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
