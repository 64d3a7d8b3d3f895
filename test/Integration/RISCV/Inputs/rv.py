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

`--group layouts`: the same batch_matvec with InferencingOptimal and
TrainingOptimal matrices, plain and transposed, on every isa, LMUL
automatic and 2 ("rv-layouts: ...").

`--group float`: the same batch_matvec on every isa with f32 inputs
(rounded to nearest even, saturated, NaN 0: ties, infinities, -0), f32
results (the exact sum plus bias rounded once) or f16 results (the exact
sum plus bias saturated to 65504, then rounded once), LMUL automatic and 2
("rv-float: ...").

`--group matvec`: coopvec.matvec programs (vector arguments and results:
the C function takes the input vector as a pointer and writes the result
through a pointer after the other arguments; the SiFive isas' LLVM function
takes memrefs the same way and runs a batch_matvec of one row), i32 inputs read as I8/U8,
packed words and f32 inputs (rounded to nearest even, saturated, NaN 0),
i32, f32 and f16 results, with and without an I32 bias ("rv-matvec: ...").

`--group quant`: the quantized form of coopvec.batch_matvec (I8/U8/I4/U4
matrices, zero points, reductions, grouped F32/F16/BF16 scales, I32/F32/F16
bias) with i32, f32, f16 and bf16 results, groups whose gcd is not a
multiple of the tile's K (blocks padded to whole tiles), on every isa, checked bit-exact against the
CPU JIT and the f32 steps of CPU/Inputs/quant.py ("rv-quant: ...").
"""

import argparse
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "CPU", "Inputs"))
from cases import COLMAJOR, INFOPT, ROWMAJOR, TRAINOPT, store_matrix, strided_stride  # noqa: E402
import quant  # noqa: E402

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


def save_matrix(rng, base, matrix, layout, m, k, transpose=False):
    """A random I8/U8 m x k matrix stored in `layout` (as its k x m transpose
    when `transpose`) with garbage wherever no element is, saved as
    base.w.npy; returns (values, stride)."""
    w = rng.integers(*((0, 256) if matrix == "U8" else (-128, 128)), (m, k))
    w = w.astype(np.uint8 if matrix == "U8" else np.int8)
    stored = w.T.copy() if transpose else w
    stride = strided_stride(layout, *stored.shape, 1)
    buf = store_matrix(stored, layout, stride)
    mask = store_matrix(np.ones(stored.shape, np.uint8), layout, stride) == 0
    buf[mask] = rng.integers(0, 256, int(mask.sum()))
    np.save(base + ".w.npy", buf)
    return w, stride


def case(args, rng, idx, matrix, interp, uns, layout, bias, m, k, n, phys="i32", out="i32",
         lmuls=LMULS, transpose=False):
    name = (f"rv{idx}_{matrix}x{phys}{interp}{'u' if uns else ''}_{layout}{'T' if transpose else ''}"
            f"_{'b' if bias else 'nb'}_{out}_{m}x{k}x{n}")
    base = os.path.join(args.tmp, name)
    w, stride = save_matrix(rng, base, matrix, layout, m, k, transpose)
    packed = interp.startswith("Packed")
    lo, hi = (0, 255) if interp == "U8" else (-128, 127)
    if phys == "f32":
        x = rng.uniform(-300, 300, (n, k)).astype(np.float32)
        # Ties to even both ways, saturation both ways, NaN, -0.
        specials = [2.5, -3.5, 0.5, 127.5, np.nan, -0.5, 254.5, -128.5, 1e30, -np.inf, -0.0]
        x.reshape(-1)[:len(specials)] = specials[:x.size]
        logical = np.clip(np.rint(np.nan_to_num(x.astype(np.float64), nan=0.0)), lo, hi)
        logical = logical.astype(np.int64)
    elif packed:
        words = (k + 3) // 4
        lanes = rng.integers(0, 256, (n, 4 * words)).astype(np.uint8)
        x = lanes.view(np.int32)
        logical = lanes[:, :k].view(np.int8 if interp == "PackedS8x32" else np.uint8)
        logical = logical.astype(np.int64)
    else:
        x = rng.integers(-400, 400, (n, k)).astype(np.int32)
        x[0, 0] = np.iinfo(np.int32).min
        raw = x.view(np.uint32).astype(np.int64) if uns else x.astype(np.int64)
        logical = np.clip(raw, lo, hi)
    np.save(base + ".x.npy", x)
    cols = x.shape[1]
    # Biases of f16 results mostly keep the sums within f16's range.
    span = 3000 if out == "f16" else 2**31
    bvals = rng.integers(-span, span, m).astype(np.int64)
    bvals[0] = 2**31 - 1  # saturates
    bbuf = rng.integers(0, 256, 64 + 4 * m + 64).astype(np.uint8)
    bbuf[64:64 + 4 * m] = bvals.astype(np.int32).view(np.uint8)
    np.save(base + ".b.npy", bbuf)
    np.save(base + ".y0.npy", np.zeros((n, m), {"f32": np.float32, "f16": np.float16}.get(out, np.int32)))
    uns_txt = " unsigned" if uns else ""
    bias_txt = " bias %b[%c64] as I32" if bias else ""
    bias_ty = ", memref<?xi8>" if bias else ""
    transpose_txt = ", transpose" if transpose else ""
    # The optimal layouts take no stride.
    stride_txt = " stride %s" if layout in (ROWMAJOR, COLMAJOR) else ""
    prog = f"""func.func @main(%x: memref<?x{cols}x{phys}>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x{m}x{out}>) {{
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = arith.constant {stride} : index
  coopvec.batch_matvec %x{uns_txt} as {interp}, %w[%c0] matrix<{matrix}, {m}x{k}, {layout}{transpose_txt}>{stride_txt}{bias_txt} into %y
      : memref<?x{cols}x{phys}>, memref<?xi8>{bias_ty} -> memref<?x{m}x{out}>
  return
}}
"""
    with open(base + ".mlir", "w") as f:
        f.write(prog)
    ins = []
    for a in ("x", "w", "b", "y0"):
        ins += ["--arg", f"{base}.{a}.npy"]
    ref = logical @ w.astype(np.int64).T + (bvals if bias else 0)
    # An f32 result rounds the exact sum once (exact in float64: |ref| <
    # 2^53); an f16 one saturates to f16's finite range, then rounds once
    # (nearest even, NumPy's float64 to float16); an i32 one saturates.
    if out == "f32":
        ref = ref.astype(np.float64).astype(np.float32)
    elif out == "f16":
        ref = np.clip(ref, -65504, 65504).astype(np.float64).astype(np.float16)
    else:
        ref = np.clip(ref, -2**31, 2**31 - 1).astype(np.int32)
    rc, err = run([args.cpu_runner, base + ".mlir", "-e", "main", "--no-print",
                   "--out-arg=3=" + base + ".cpu.npy", *ins])
    if rc:
        return [f"FAIL {name} (cpu): {err}"]
    cpu = np.load(base + ".cpu.npy")
    if cpu.dtype != ref.dtype or cpu.tobytes() != ref.tobytes():
        return [f"FAIL {name}: the CPU JIT differs from the exact reference"]
    lines = []
    for isa, lmul in [(i, l) for i in args.isa.split(",") for l in lmuls]:
        rc, err = run([args.rv_runner, base + ".mlir", "--vlen", ",".join(map(str, VLENS)),
                       "--isa", isa, "--lmul", str(lmul),
                       f"--out-arg=3={base}.{isa}{lmul}_%v.npy", *ins])
        # A dynamic batch takes LMUL 8 where none is given.
        lines += compare(args, name, cpu, isa, lmul, err, f"{base}.{isa}{lmul}_%d.npy",
                         lambda v: rejected(isa, v, lmul or 8))
    return lines


def compare(args, name, cpu, isa, lmul, err, outs, rejected):
    """One line per VLEN: the RISC-V result `outs % vlen` against the CPU's,
    or the runtime error `rejected(vlen)` names (None: none expected)."""
    lines = []
    for vlen in VLENS:
        tag = f"{name} {isa} lmul={lmul} vlen={vlen}"
        errs = [line for line in err.splitlines() if line.startswith(f"vlen={vlen}: ")]
        want = rejected(vlen)
        if want:
            ok = any(want in e for e in errs)
            lines.append(("ok " if ok else "FAIL ") + tag + ": " +
                         ("rejected at run time" if ok else f"not rejected: {err}"))
            continue
        out = outs % vlen
        if errs or not os.path.exists(out):
            lines.append(f"FAIL {tag}: {err}")
            continue
        y = np.load(out)
        if y.dtype != cpu.dtype or y.tobytes() != cpu.tobytes():
            bits = {2: np.uint16, 4: np.uint32}[cpu.itemsize]
            i = np.unravel_index(np.argmax(y.view(bits) != cpu.view(bits)), y.shape)
            lines.append(f"FAIL {tag}: y{i} = {y[i]}, CPU JIT {cpu[i]}")
        else:
            lines.append(f"ok {tag}: bit-identical to the CPU JIT")
    return lines


# `--group layouts`: the batch cases in the optimal layouts
# (InferencingOptimal, TrainingOptimal; Layout.h's formulas for bytes),
# plain and transposed, on every isa: (matrix, input interp, `unsigned`,
# layout, transpose, M, K, N).
LAYOUTS = [("I8", "I8", False, INFOPT, False, 13, 37, 70),
           ("U8", "U8", True, INFOPT, True, 7, 10, 11),
           ("U8", "I8", False, TRAINOPT, False, 33, 5, 129),
           ("I8", "PackedU8x32", False, TRAINOPT, True, 9, 17, 6),
           ("I8", "U8", False, INFOPT, True, 1, 3, 1),
           ("U8", "PackedS8x32", False, TRAINOPT, False, 64, 100, 9)]

# `--group float`: batch_matvec with f32 inputs (DXIL's rule: nearest even,
# saturated, NaN 0), f32 results (the exact sum rounded once) or f16 results
# (saturated to 65504, then rounded once; small K, so that most sums fall
# between 2048 and 65504 where f16 rounds and ties are common), on every
# isa: (matrix, input interp, `unsigned`, input type, result, M, K, N).
FLOAT = [("I8", "I8", False, "f32", "f32", 7, 10, 11),
         ("U8", "U8", False, "f32", "i32", 13, 37, 70),
         ("U8", "I8", False, "f32", "f32", 1, 3, 1),
         ("I8", "U8", True, "i32", "f32", 33, 5, 129),
         ("U8", "PackedS8x32", False, "i32", "f32", 4, 16, 4),
         ("I8", "U8", False, "f32", "f32", 64, 100, 9),
         ("I8", "I8", False, "i32", "f16", 9, 3, 17),
         ("U8", "U8", False, "f32", "f16", 5, 2, 40),
         ("I8", "PackedU8x32", False, "i32", "f16", 20, 8, 33)]

# (matrix, input type, input interp, `unsigned`, bias, result, M, K)
MATVEC = [("I8", "i32", "I8", False, True, "i32", 7, 10),
          ("U8", "i32", "U8", True, False, "f32", 13, 37),
          ("U8", "f32", "I8", False, True, "f32", 1, 3),
          ("I8", "f32", "U8", False, False, "i32", 33, 5),
          ("U8", "i32", "PackedS8x32", False, True, "i32", 4, 16),
          ("I8", "i32", "PackedU8x32", True, True, "f32", 64, 100),
          ("U8", "f32", "U8", False, True, "i32", 20, 64),
          ("I8", "f32", "I8", False, False, "f32", 5, 33),
          ("I8", "i32", "I8", False, True, "f16", 12, 3),
          ("U8", "f32", "U8", False, False, "f16", 40, 2)]


def matvec_case(args, rng, idx, matrix, phys, interp, uns, bias, out, m, k):
    layout = ROWMAJOR if idx % 2 == 0 else COLMAJOR
    name = f"mv{idx}_{matrix}x{phys}{interp}{'u' if uns else ''}_{layout}_{'b' if bias else 'nb'}_{out}_{m}x{k}"
    base = os.path.join(args.tmp, name)
    _, stride = save_matrix(rng, base, matrix, layout, m, k)
    if interp.startswith("Packed"):
        x = rng.integers(0, 256, 4 * ((k + 3) // 4)).astype(np.uint8).view(np.int32)
    elif phys == "f32":
        x = rng.uniform(-300, 300, k).astype(np.float32)
        # Ties to even, saturation both ways, NaN.
        x[:6] = [2.5, -3.5, 0.5, 127.5, np.nan, -0.5][:min(6, k)]
    else:
        x = rng.integers(-400, 400, k).astype(np.int32)
        x[0] = np.iinfo(np.int32).min
    np.save(base + ".x.npy", x)
    # Biases of f16 results mostly keep the sums within f16's range.
    span = 3000 if out == "f16" else 2**31
    bvals = rng.integers(-span, span, m).astype(np.int64)
    bvals[0] = 2**31 - 1  # saturates
    bbuf = rng.integers(0, 256, 64 + 4 * m + 64).astype(np.uint8)
    bbuf[64:64 + 4 * m] = bvals.astype(np.int32).view(np.uint8)
    np.save(base + ".b.npy", bbuf)
    uns_txt = " unsigned" if uns else ""
    bias_txt = " bias %b[%c64] as I32" if bias else ""
    bias_ty = ", memref<?xi8>" if bias else ""
    n = x.shape[0]
    prog = f"""func.func @main(%x: vector<{n}x{phys}>, %w: memref<?xi8>, %b: memref<?xi8>) -> vector<{m}x{out}> {{
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = arith.constant {stride} : index
  %y = coopvec.matvec %x{uns_txt} as {interp}, %w[%c0] matrix<{matrix}, {m}x{k}, {layout}> stride %s{bias_txt}
         : vector<{n}x{phys}>, memref<?xi8>{bias_ty} -> vector<{m}x{out}>
  return %y : vector<{m}x{out}>
}}
"""
    with open(base + ".mlir", "w") as f:
        f.write(prog)
    ins = []
    for a in ("x", "w", "b"):
        ins += ["--arg", f"{base}.{a}.npy"]
    rc, err = run([args.cpu_runner, base + ".mlir", "-e", "main", "--no-print",
                   "-o", base + ".cpu.npy", *ins])
    if rc:
        return [f"FAIL {name} (cpu): {err}"]
    cpu = np.load(base + ".cpu.npy")
    lines = []
    for isa, lmul in [(i, l) for i in args.isa.split(",") for l in (0, 2)]:
        rc, err = run([args.rv_runner, base + ".mlir", "--vlen", ",".join(map(str, VLENS)),
                       "--isa", isa, "--lmul", str(lmul), "--no-print",
                       "-o", f"{base}.{isa}{lmul}_%v.npy", *ins])
        # The chosen LMUL holds whole tiles at every VLEN the isa runs at
        # (SiFive 4x8x4 needs VLEN 256, as with LMUL 8).
        lines += compare(args, name, cpu, isa, lmul, err, f"{base}.{isa}{lmul}_%d.npy",
                         lambda v: rejected(isa, v, lmul or 8))
    return lines


# (matrix, inputs, result, (weight scales), (input scales),
#  (weight zero points), (input zero points), (reductions), bias); K = 48:
# the groups' gcd (the block summed in int32) is 48, 48, 4, 6, 8, 2, 16,
# 16, 12, 48, 3, 2, 2, 16, 6, 3 and 2: padded to whole 4-column tiles where
# it is not a multiple of 4. I4/U4 matrices (two columns to a byte, read
# into the int8 tiles) take K = 64 (a row of 32 bytes: strides are multiples
# of 16 bytes) and blocks of 16, 8, 2 and 4.
QUANT = [("I8", "I8", "i32", None, None, ("U8", 0), None, None, None),
         ("U8", "U8", "i32", None, None, ("I8", 48), ("I32", 0), None, "I32"),
         ("U8", "I8", "i32", None, None, ("U8", 16), ("U8", 12), None, None),
         ("I8", "U8", "i32", None, None, ("U8", 24), None, ("I32", 6), "I32"),
         ("I8", "I8", "i32", None, None, ("I32", 24), ("I32", 0), ("I32", 8), None),
         ("U8", "U8", "i32", None, None, ("U8", 48), ("U8", 6), ("I32", 16), "I32"),
         ("U8", "I8", "f32", ("F16", 48), ("F32", 16), ("U8", 48), None, ("I32", 16), None),
         ("I8", "U8", "f32", ("F32", 16), ("F16", 16), ("U8", 16), ("I32", 0), None, "F32"),
         ("I8", "I8", "f32", ("BF16", 24), ("F32", 0), ("I8", 12), ("U8", 12), ("I32", 12), "F16"),
         ("U8", "U8", "f32", ("F16", 0), None, None, None, None, "F32"),
         ("U8", "I8", "f32", ("F32", 6), ("F32", 24), ("I8", 6), ("U8", 3), ("I32", 6), None),
         ("I8", "U8", "f32", ("F32", 16), None, ("U8", 2), None, None, "F32"),
         ("I8", "I8", "f32", None, ("F32", 2), ("I32", 0), ("I32", 0), None, None),
         ("U8", "I8", "f16", ("F16", 16), ("F32", 48), ("U8", 16), ("I8", 0), ("I32", 16), "F16"),
         ("I8", "U8", "f16", ("BF16", 6), None, ("I8", 6), None, None, "F32"),
         ("U8", "U8", "bf16", ("F32", 12), ("F16", 24), ("U8", 24), ("U8", 3), None, "F32"),
         ("I8", "I8", "bf16", None, ("F32", 0), ("U8", 2), None, ("I32", 2), None),
         ("I4", "I8", "i32", None, None, ("I8", 16), ("I8", 0), None, "I32"),
         ("U4", "U8", "f32", ("F32", 16), None, ("U8", 16), None, ("I32", 8), "F32"),
         ("I4", "U8", "f16", None, ("F16", 32), ("I32", 0), ("U8", 2), None, None),
         ("U4", "I8", "i32", None, None, ("U8", 0), ("I32", 4), None, None),
         # A BF16 bias into a bf16 result, blocks of 4 (half a SiFive K
         # tile).
         ("U8", "I8", "bf16", ("BF16", 16), ("F16", 16), ("I8", 8), ("I32", 4),
          None, "BF16"),
         # I8 and U8 reductions (of one column each, so that they fit):
         # blocks of one column, each padded to a whole tile.
         ("I8", "I8", "i32", None, None, ("I8", 0), None, ("I8", 1), None),
         ("U8", "U8", "f32", ("F32", 16), None, ("U8", 16), None, ("U8", 1), "F32"),
         # Optimal layouts (and transposed: the stored K x M matrix pairs
         # its columns, so m picks the nibble), as the CPU runtime stores
         # the byte matrix of a 4-bit one.
         ("I4", "I8", "i32", None, None, ("I8", 16), ("I8", 0), None, "I32",
          ("InferencingOptimal", False)),
         ("U4", "U8", "f32", ("F32", 16), None, ("U8", 16), None, ("I32", 8),
          None, ("TrainingOptimal", True)),
         ("I4", "U8", "i32", None, None, ("U8", 0), None, None, None,
          ("InferencingOptimal", True)),
         ("U8", "I8", "f32", ("F32", 16), None, ("U8", 48), None, ("I32", 16),
          "F32", ("TrainingOptimal", False))]


def quant_case(args, rng, idx, wint, xin, out, sw, sx, zw, zx, red, bias,
               layout=("RowMajor", False)):
    quant.B, quant.M, quant.K = 7, 13, 64 if wint in ("I4", "U4") else 48
    # coopvec-run takes no bf16 memrefs: for a bf16 result the CPU JIT runs
    # the same product with an f32 result, which its bf16 store rounds once
    # (to nearest even); that rounding, in NumPy, is the CPU's bf16 result.
    cpu_out = "f32" if out == "bf16" else out
    case = quant.Case(rng, f"q{idx}_{wint}x{xin}_{out}", xin, wint, cpu_out, zw=zw, sw=sw,
                      zx=zx, sx=sx, red=red, bias=bias, layout=layout[0],
                      transpose=layout[1])
    base = os.path.join(args.tmp, case.name)
    with open(base + ".cpu.mlir", "w") as f:
        f.write(case.program())
    paths = case.files(base)
    ins = []
    for path in paths:
        ins += ["--arg", path]
    yi = len(paths) - 1
    rc, err = run([args.cpu_runner, base + ".cpu.mlir", "-e", case.name, "--no-print",
                   f"--out-arg={yi}={base}.cpu.npy", *ins])
    if rc:
        return [f"FAIL {case.name} (cpu): {err}"]
    cpu = np.load(base + ".cpu.npy")
    why = case.check(cpu)
    if why:
        return [f"FAIL {case.name}: the CPU JIT: {why}"]
    if out == "bf16":
        case.out = out
        cpu = (quant.to_bf16(cpu).view(np.uint32) >> 16).astype(np.uint16)
        np.save(paths[yi], np.zeros(cpu.shape, np.uint16))
    with open(base + ".mlir", "w") as f:
        f.write(case.program())
    lines = []
    for isa in args.isa.split(","):
        rc, err = run([args.rv_runner, base + ".mlir", "-e", case.name,
                       "--vlen", ",".join(map(str, VLENS)), "--isa", isa,
                       f"--out-arg={yi}={base}.{isa}_%v.npy", *ins])
        # LMUL automatic, 8 for the dynamic batch.
        lines += compare(args, case.name, cpu, isa, 0, err, f"{base}.{isa}_%d.npy",
                         lambda v, isa=isa: rejected(isa, v, 8))
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu-runner", required=True)
    ap.add_argument("--rv-runner", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--group", default="batch",
                    choices=["batch", "float", "layouts", "matvec", "quant"])
    ap.add_argument("--isa",
                    help="comma-separated: xxlvqmacc (Nuclei vqmacc), rvv (generic), "
                         "xsfvqmacc-4x8x4, xsfvqmacc-2x8x2 (SiFive, emulated); by "
                         "default every isa")
    ap.add_argument("--shard", default="0/1",
                    help="K/N: only the cases i with i %% N == K (to split a slow ISA)")
    args = ap.parse_args()
    if args.isa is None:
        args.isa = ",".join(ISAS)
    shard, shards = (int(v) for v in args.shard.split("/"))
    os.makedirs(args.tmp, exist_ok=True)
    n = failures = 0

    def report(lines):
        nonlocal n, failures
        for line in lines:
            print(line, flush=True)
            failures += line.startswith("FAIL")
            n += 1

    # One generator per case: a shard runs the cases of the full run.
    def cases(specs):
        for i, spec in enumerate(specs):
            if i % shards == shard:
                yield i, np.random.default_rng([args.seed, i]), spec

    if args.group == "matvec":
        for i, rng, spec in cases(MATVEC):
            report(matvec_case(args, rng, i, *spec))
        print(f"rv-matvec: {n} cases, {failures} failures")
    elif args.group == "layouts":
        for i, rng, (matrix, interp, uns, layout, transpose, m, k, b) in cases(LAYOUTS):
            # LMUL automatic (8 for a dynamic batch) and 2.
            report(case(args, rng, i, matrix, interp, uns, layout, i % 3 != 2, m, k, b,
                        lmuls=(0, 2), transpose=transpose))
        print(f"rv-layouts: {n} cases, {failures} failures")
    elif args.group == "float":
        for i, rng, (matrix, interp, uns, phys, out, m, k, b) in cases(FLOAT):
            layout = ROWMAJOR if i % 2 == 0 else COLMAJOR
            # LMUL automatic (8 for a dynamic batch) and 2.
            report(case(args, rng, i, matrix, interp, uns, layout, i % 3 != 2, m, k, b,
                        phys=phys, out=out, lmuls=(0, 2)))
        print(f"rv-float: {n} cases, {failures} failures")
    elif args.group == "quant":
        for i, rng, spec in cases(QUANT):
            report(quant_case(args, rng, i, *spec))
        print(f"rv-quant: {n} cases, {failures} failures")
    else:
        for i, rng, (matrix, interp, uns) in cases(SIGNS):
            m, k, b = SIZES[i % len(SIZES)]
            layout = ROWMAJOR if i % 2 == 0 else COLMAJOR
            report(case(args, rng, i, matrix, interp, uns, layout, i % 3 != 2, m, k, b))
        print(f"rv: {n} cases, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
