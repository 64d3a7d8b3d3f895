#!/usr/bin/env python3
"""Integration harness: runs coopvec programs through coopvec-run and checks
them against a NumPy reference computed here, independently of the runtime.

For every case it writes the program (the matrix description is static),
lays the matrix out in memory with the formulas of
include/LinAlgCoop/Runtime/Layout.h re-implemented below, runs the program
and compares the result:
  * integer paths (I8/U8 matrices, I32 bias, i32 result) bit-exact; an f32
    result of an integer path is the exact sum rounded once (RTNE), also
    compared exactly;
  * float paths: |y - ref| <= (K + 2) * 2^-24 * (sum_k |w_k x_k| + |bias|)
    + ulp_out(ref) / 2, with ref computed in float64 from the same rounded
    inputs (f32 accumulation error bound plus one rounding to the output).
Prints one line per case and a summary "<group>: N cases, M failures".
"""

import argparse
import itertools
import os
import subprocess
import sys

import numpy as np

ROWMAJOR, COLMAJOR, INFOPT, TRAINOPT = "RowMajor", "ColumnMajor", "InferencingOptimal", "TrainingOptimal"
LAYOUTS = [(ROWMAJOR, False), (COLMAJOR, False), (INFOPT, False), (TRAINOPT, False),
           (INFOPT, True), (TRAINOPT, True)]
NP = {"F32": np.float32, "F16": np.float16, "I8": np.int8, "U8": np.uint8, "I32": np.int32,
      "U32": np.uint32, "I16": np.int16, "U16": np.uint16, "F8_E4M3": np.uint8, "F8_E5M2": np.uint8,
      "BF16": np.uint16, "F6_E2M3": np.uint8, "F6_E3M2": np.uint8, "F4_E2M1": np.uint8,
      "I4": np.int8, "U4": np.uint8}
# The finite-only minifloats held as codes: (exponent bits, mantissa bits,
# bias); their codes are the low 1 + e + m bits of a byte.
MINIFLOATS = {"F8_E4M3": (4, 3, 7), "F8_E5M2": (5, 2, 15), "F6_E2M3": (2, 3, 1),
              "F6_E3M2": (3, 2, 3), "F4_E2M1": (2, 1, 1)}
SUBBYTE = ("F4_E2M1", "I4", "U4")


def decode_minifloat(bits, interp):
    """The value of OCP minifloat codes (E4M3FN, E5M2, E2M3, E3M2, E2M1),
    independent of the code under test; bits above the code are ignored."""
    ebits, mbits, bias = MINIFLOATS[interp]
    bits = bits.astype(np.int64)
    sign = np.where(bits & (1 << (ebits + mbits)), -1.0, 1.0)
    e = (bits >> mbits) & ((1 << ebits) - 1)
    m = (bits & ((1 << mbits) - 1)).astype(np.float64)
    normal = (1.0 + m / (1 << mbits)) * np.exp2(e - bias)
    subnormal = m / (1 << mbits) * np.exp2(1 - bias)
    return sign * np.where(e == 0, subnormal, normal)


decode_fp8 = decode_minifloat


def decode_bf16(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def decode_matrix(w, interp):
    """Exact float64 values of matrix elements held as NP[interp] codes."""
    if interp in MINIFLOATS:
        return decode_minifloat(w, interp)
    if interp == "BF16":
        return decode_bf16(w)
    return w.astype(np.float64)


def round_to_format(x, interp):
    """x (float64, finite) rounded to nearest even in a finite-only minifloat
    or BF16, beyond the range to the largest finite value (the DXIL
    conversion rule), as a float64."""
    if interp == "BF16":
        b = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
        b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
        return decode_bf16(b.astype(np.uint16))
    ebits, mbits, _ = MINIFLOATS[interp]
    codes = np.arange(1 << (ebits + mbits))  # the non-negative codes, increasing
    grid = decode_minifloat(codes, interp)
    a = np.minimum(np.abs(x), grid[-1])
    hi = np.clip(np.searchsorted(grid, a), 1, len(grid) - 1)
    lo = hi - 1
    dlo, dhi = a - grid[lo], grid[hi] - a
    pick = np.where(dlo < dhi, lo, np.where(dhi < dlo, hi, np.where(lo % 2 == 0, lo, hi)))
    return np.sign(x) * grid[pick]


def pack_nibbles(stored):
    """The byte matrix of a 4-bit matrix: stored columns 2j and 2j+1 share
    byte j, the even one in the low nibble."""
    rows, cols = stored.shape
    nib = np.zeros((rows, 2 * ceil_div(cols, 2)), np.uint8)
    nib[:, :cols] = stored.astype(np.uint8) & 0xF
    return np.ascontiguousarray(nib[:, 0::2] | (nib[:, 1::2] << 4))


def ceil_div(a, b):
    return -(-a // b)


def layout_size(layout, rows, cols, es, stride):
    if layout == ROWMAJOR:
        return (rows - 1) * stride + cols * es
    if layout == COLMAJOR:
        return (cols - 1) * stride + rows * es
    if layout == INFOPT:
        g = 2 if es == 1 else 1
        return ceil_div(rows, 8) * 8 * (ceil_div(cols, g) * g) * es
    return ceil_div(rows, 8) * ceil_div(cols, 8) * 64 * es


def element_offset(layout, rows, cols, es, stride, r, c):
    if layout == ROWMAJOR:
        return r * stride + c * es
    if layout == COLMAJOR:
        return c * stride + r * es
    if layout == INFOPT:
        g = 2 if es == 1 else 1
        panel = 8 * (ceil_div(cols, g) * g) * es
        return (r // 8) * panel + (c // g) * (8 * g * es) + (r % 8) * (g * es) + (c % g) * es
    tc = ceil_div(cols, 8)
    return ((r // 8) * tc + c // 8) * 64 * es + ((c % 8) * 8 + r % 8) * es


def store_matrix(stored, layout, stride):
    """Bytes of the stored matrix (rows x cols array) in `layout`."""
    rows, cols = stored.shape
    es = stored.dtype.itemsize
    buf = np.zeros(layout_size(layout, rows, cols, es, stride) + 16, np.uint8)
    raw = stored.view(np.uint8).reshape(rows, cols, es)
    for r in range(rows):
        for c in range(cols):
            off = element_offset(layout, rows, cols, es, stride, r, c)
            buf[off:off + es] = raw[r, c]
    return buf


def strided_stride(layout, rows, cols, es):
    # One row/column plus padding, 16-byte aligned (the verifier's rule).
    n = cols if layout == ROWMAJOR else rows
    return ((n * es + 15) // 16) * 16 + 16


def run(args, mlir, entry, inputs, out, pipeline=None):
    cmd = [args.runner, mlir, "-e", entry, "--no-print", "-o", out]
    if pipeline:
        cmd.append("--pass-pipeline=" + pipeline)
    for a in inputs:
        cmd += ["--arg", a]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    return np.load(out), ""


def rtne_sat(x, lo, hi):
    return np.clip(np.rint(x), lo, hi)


#===-------------------------------------------------------------------------===#
# matvec
#===-------------------------------------------------------------------------===#

FLOAT_INPUTS = [("f32", "F32"), ("f16", "F16"), ("f16", "F32"), ("f32", "F16")]
INT_INPUTS = [("i32", "PackedS8x32", False), ("i32", "PackedU8x32", True),
              ("f32", "I8", False), ("f32", "U8", False),
              ("i32", "I8", False), ("i32", "U8", True)]


def decode_scale(codes, stype):
    """Block scale values: UE8M0 2^(s-127) (0xFF NaN), UE4M3 the unsigned
    E4M3 value (0x7F NaN)."""
    codes = codes.astype(np.int64)
    if stype == "f8E8M0FNU":
        return np.where(codes == 0xFF, np.nan, np.exp2(codes - 127.0))
    v = decode_minifloat(codes & 0x7F, "F8_E4M3")
    return np.where((codes & 0x7F) == 0x7F, np.nan, v)


def matvec_case(args, rng, name, m, k, matrix, layout, transpose, in_phys, in_interp,
                in_unsigned, bias, out_phys, out_unsigned=False, scale=None):
    es = np.dtype(NP[matrix]).itemsize
    srows, scols = (k, m) if transpose else (m, k)
    # A 4-bit matrix is laid out as the byte matrix of its column pairs.
    ucols = ceil_div(scols, 2) if matrix in SUBBYTE else scols
    strided = layout in (ROWMAJOR, COLMAJOR)
    stride = strided_stride(layout, srows, ucols, es) if strided else 0
    # Values.
    if matrix in ("F32", "F16"):
        w = rng.uniform(-1, 1, (m, k)).astype(NP[matrix])
    elif matrix == "I8":
        w = rng.integers(-128, 128, (m, k)).astype(np.int8)
    elif matrix in ("F8_E4M3", "F8_E5M2"):
        # Finite patterns only (E4M3: not S.1111.111; E5M2: exponent < 31).
        limit = 0x7F if matrix == "F8_E4M3" else 0x7C
        w = (rng.integers(0, limit, (m, k)) | (rng.integers(0, 2, (m, k)) << 7)).astype(np.uint8)
    elif matrix in ("I16", "I32"):
        w = rng.integers(-1000, 1000, (m, k)).astype(NP[matrix])
    elif matrix in ("U16", "U32"):
        w = rng.integers(0, 2000, (m, k)).astype(NP[matrix])
    elif matrix == "BF16":
        w = (rng.uniform(-4, 4, (m, k)).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    elif matrix in ("F6_E2M3", "F6_E3M2"):
        w = rng.integers(0, 64, (m, k)).astype(np.uint8)
    elif matrix == "F4_E2M1":
        w = rng.integers(0, 16, (m, k)).astype(np.uint8)
    elif matrix == "I4":
        w = rng.integers(-8, 8, (m, k)).astype(np.int8)
    elif matrix == "U4":
        w = rng.integers(0, 16, (m, k)).astype(np.uint8)
    else:
        w = rng.integers(0, 256, (m, k)).astype(np.uint8)
    stored = np.ascontiguousarray(w.T if transpose else w)
    if matrix in SUBBYTE:
        stored = pack_nibbles(stored)
    elif matrix in ("F6_E2M3", "F6_E3M2"):
        # The two bits above a 6-bit code are ignored when read.
        stored = stored | (rng.integers(0, 4, stored.shape) << 6).astype(np.uint8)
    wbuf = store_matrix(stored, layout, stride)
    base = os.path.join(args.tmp, name)
    np.save(base + ".w.npy", wbuf)
    packed = in_interp.startswith("Packed")
    nin = ceil_div(k, 4) if packed else k
    if packed:
        lanes = rng.integers(0, 256, 4 * nin).astype(np.uint8)
        x_phys = lanes.view(np.int32)
        logical = lanes[:k].view(np.int8 if in_interp == "PackedS8x32" else np.uint8).astype(np.float64)
    elif in_phys == "i32" and in_interp in ("I32", "U32", "I16", "U16"):
        # Integers read as wider integers: saturating to the interpretation.
        lo, hi = {"I32": (-2**31, 2**31 - 1), "U32": (0, 2**32 - 1),
                  "I16": (-2**15, 2**15 - 1), "U16": (0, 2**16 - 1)}[in_interp]
        x_phys = rng.integers(-70000, 70000, k).astype(np.int32)
        raw = x_phys.view(np.uint32).astype(np.float64) if in_unsigned else x_phys.astype(np.float64)
        logical = np.clip(raw, lo, hi)
    elif in_phys in ("f32", "f16") and in_interp in ("I4", "U4"):
        lo, hi = (-8, 7) if in_interp == "I4" else (0, 15)
        x_phys = rng.uniform(-20, 20, k).astype(np.float32 if in_phys == "f32" else np.float16)
        x_phys[:3] = [2.5, -3.5, 0.5][:min(3, k)]
        logical = rtne_sat(x_phys.astype(np.float64), lo, hi)
    elif in_phys in ("f32", "f16") and in_interp in ("BF16",) + tuple(MINIFLOATS):
        # Values on and between the format's points, beyond its range too.
        top = 8.0 if in_interp != "BF16" else 4.0
        x_phys = rng.uniform(-top, top, k).astype(np.float32 if in_phys == "f32" else np.float16)
        if in_interp in MINIFLOATS:
            # Exact midpoints between neighbours exercise the ties to even.
            ebits, mbits, _ = MINIFLOATS[in_interp]
            grid = decode_minifloat(np.arange(1 << (ebits + mbits)), in_interp)
            grid = grid[grid <= top]
            mids = (grid[:-1] + grid[1:]) / 2 * rng.choice([-1.0, 1.0], len(grid) - 1)
            x_phys[:min(k, 4)] = rng.choice(mids, min(k, 4), replace=False)
        logical = round_to_format(x_phys.astype(np.float64), in_interp)
    elif in_phys in ("f32", "f16") and in_interp in ("I16", "U16"):
        lo, hi = (-2**15, 2**15 - 1) if in_interp == "I16" else (0, 2**16 - 1)
        x_phys = rng.uniform(-40000, 40000, k).astype(np.float32 if in_phys == "f32" else np.float16)
        x_phys[:2] = [2.5, -3.5][:min(2, k)]
        logical = rtne_sat(x_phys.astype(np.float64), lo, hi)
    elif in_phys in ("f32", "f16"):
        lim = 300.0 if in_interp in ("I8", "U8") else 1.0
        x_phys = rng.uniform(-lim, lim, k).astype(np.float32 if in_phys == "f32" else np.float16)
        # Exact halves exercise RTNE ties.
        if in_interp in ("I8", "U8"):
            x_phys[:4] = [2.5, -3.5, 0.5, 127.5][:min(4, k)]
        if in_interp == "I8":
            logical = rtne_sat(x_phys.astype(np.float64), -128, 127)
        elif in_interp == "U8":
            logical = rtne_sat(x_phys.astype(np.float64), 0, 255)
        elif in_interp == "F16":
            logical = x_phys.astype(np.float16).astype(np.float64)
        else:
            logical = x_phys.astype(np.float64)
    else:  # i32 read as I8/U8, saturating
        x_phys = rng.integers(-400, 400, k).astype(np.int32)
        logical = np.clip(x_phys, -128, 127) if in_interp == "I8" else np.clip(
            x_phys.view(np.uint32).astype(np.float64), 0, 255)
        logical = np.asarray(logical, np.float64)
    np.save(base + ".x.npy", x_phys)
    inputs = [base + ".x.npy", base + ".w.npy"]
    svals = None
    if scale:
        # Scales near 1 (UE8M0 2^-6..2^6; UE4M3 codes of 0.5..8), one byte
        # per (row, block) at byte 16 of their buffer; with_nan puts one NaN
        # scale in row 0.
        stype, block, with_nan = scale
        per_row = ceil_div(k, block)
        if stype == "f8E8M0FNU":
            svals = rng.integers(121, 134, (m, per_row)).astype(np.uint8)
        else:
            svals = rng.integers(0x30, 0x51, (m, per_row)).astype(np.uint8)
        if with_nan:
            svals[0, per_row - 1] = 0xFF if stype == "f8E8M0FNU" else 0x7F
        sbuf = np.zeros(16 + svals.size + 16, np.uint8)
        sbuf[16:16 + svals.size] = svals.reshape(-1)
        np.save(base + ".s.npy", sbuf)
        inputs.append(base + ".s.npy")
    bvals = None
    if bias:
        if bias == "I32":
            bvals = rng.integers(-100000, 100000, m).astype(np.int32)
        elif bias == "I4":
            bvals = rng.integers(-8, 8, m).astype(np.int8)
        elif bias in MINIFLOATS:
            bvals = rng.integers(0, 1 << (1 + sum(MINIFLOATS[bias][:2])), m).astype(np.uint8)
        elif bias == "BF16":
            bvals = (rng.uniform(-1, 1, m).astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        else:
            bvals = rng.uniform(-1, 1, m).astype(NP[bias])
        braw = pack_nibbles(bvals[None, :])[0] if bias in SUBBYTE else bvals.view(np.uint8)
        bbuf = np.zeros(braw.nbytes + 64, np.uint8)
        bbuf[64:64 + braw.nbytes] = braw
        np.save(base + ".b.npy", bbuf)
        inputs.append(base + ".b.npy")

    in_ty = {"f32": "f32", "f16": "f16", "i32": "i32"}[in_phys]
    out_ty = out_phys
    scale_txt = f", scale {scale[0]} block {scale[1]}" if scale else ""
    desc = f"matrix<{matrix}, {m}x{k}, {layout}{', transpose' if transpose else ''}{scale_txt}>"
    stride_txt = f" stride %s" if strided else ""
    if scale:
        stride_txt += " scales %sc[%c16] : memref<?xi8>"
    scale_arg = ", %sc: memref<?xi8>" if scale else ""
    bias_txt = f" bias %b[%c64] as {bias}" if bias else ""
    bias_arg = ", %b: memref<?xi8>" if bias else ""
    bias_ty = ", memref<?xi8>" if bias else ""
    uns = " unsigned" if in_unsigned else ""
    uns_out = " unsigned_result" if out_unsigned else ""
    prog = f"""func.func @{name}(%x: vector<{nin}x{in_ty}>, %w: memref<?xi8>{scale_arg}{bias_arg}) -> vector<{m}x{out_ty}> {{
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %s = arith.constant {stride} : index
  %y = coopvec.matvec %x{uns} as {in_interp}, %w[%c0] {desc}{stride_txt}{bias_txt}{uns_out}
         : vector<{nin}x{in_ty}>, memref<?xi8>{bias_ty} -> vector<{m}x{out_ty}>
  return %y : vector<{m}x{out_ty}>
}}
"""
    mlir = base + ".mlir"
    with open(mlir, "w") as f:
        f.write(prog)
    y, err = run(args, mlir, name, inputs, base + ".y.npy")
    if y is None:
        return f"FAIL {name}: {err}"
    if args.also_pipeline:
        # The same program through another pipeline (the DXIL lowering and
        # its software driver) must give the very same bits.
        y2, err = run(args, mlir, name, inputs, base + ".y2.npy",
                      args.also_pipeline)
        if y2 is None:
            return f"FAIL {name} ({args.also_pipeline}): {err}"
        if y2.dtype != y.dtype or y2.tobytes() != y.tobytes():
            return f"FAIL {name}: {args.also_pipeline} gives {y2!r}, default {y!r}"

    if args.also_rv and rv_takes(matrix, layout, transpose, in_phys, in_interp, bias,
                                 out_ty, out_unsigned, scale):
        # The same program on RISC-V under qemu (coopvec-rv-run), the isas
        # taking turns, at every VLEN: the very same bits as the CPU.
        # (SiFive's 4x8x4 needs VLEN 256 for its 32-byte A tile.)
        isa = RV_ISAS[args.rv_programs % len(RV_ISAS)]
        args.rv_programs += 1
        vlens = RV_VLENS[1:] if isa == "xsfvqmacc-4x8x4" else RV_VLENS
        cmd = [args.also_rv, mlir, "-e", name, "--no-print", "--isa", isa,
               "--vlen", ",".join(map(str, vlens)), "-o", base + ".rv%v.npy"]
        for a in inputs:
            cmd += ["--arg", a]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            return f"FAIL {name} (riscv {isa}): {p.stderr.strip()}"
        for vlen in vlens:
            y2 = np.load(f"{base}.rv{vlen}.npy")
            if y2.dtype != y.dtype or y2.tobytes() != y.tobytes():
                return f"FAIL {name}: riscv {isa} at VLEN {vlen} gives {y2!r}, CPU {y!r}"

    wf = decode_matrix(w, matrix)
    if svals is not None:
        # Each element times its block's scale: exact in float64 (and in f32
        # for these ranges).
        wf = wf * np.repeat(decode_scale(svals, scale[0]), scale[1], axis=1)[:, :k]
    bf = decode_matrix(bvals, bias) if bvals is not None else None
    float_interps = ("F32", "F16", "BF16") + tuple(MINIFLOATS)
    if matrix in float_interps or in_interp in float_interps or bias in float_interps:
        ref = wf @ logical + (bf if bf is not None else 0)
        mag = np.abs(wf) @ np.abs(logical) + (np.abs(bf) if bf is not None else 0)
        out_eps = 2.0**-11 if out_ty == "f16" else 2.0**-24
        tol = (k + 2) * 2.0**-24 * mag + out_eps * np.abs(ref) + (2.0**-24 if out_ty == "f16" else 0)
        diff = np.abs(y.astype(np.float64) - ref)
        nan_ref = np.isnan(ref)
        if np.array_equal(np.isnan(y), nan_ref) and np.all(diff[~nan_ref] <= tol[~nan_ref]):
            return f"ok {name}"
        i = int(np.argmax(diff - tol))
        return f"FAIL {name}: y[{i}] = {y[i]!r}, reference {ref[i]!r}, bound {tol[i]!r}"
    acc = (w.astype(np.int64) @ logical.astype(np.int64)) + (bvals.astype(np.int64) if bvals is not None else 0)
    if out_ty == "i32" and out_unsigned:
        # The reference saturates an integer result to the unsigned range.
        ref = np.clip(acc, 0, 2**32 - 1).astype(np.uint32).view(np.int32)
    elif out_ty == "i32":
        ref = acc.astype(np.int64).astype(np.int32)
    else:
        ref = acc.astype(np.float32)  # exact integer, rounded once RTNE
    if np.array_equal(y, ref):
        return f"ok {name}"
    i = int(np.argmax(y != ref))
    return f"FAIL {name}: y[{i}] = {y[i]!r}, reference {ref[i]!r} (exact)"


RV_ISAS = ["xxlvqmacc", "rvv", "xsfvqmacc-2x8x2", "xsfvqmacc-4x8x4"]
RV_VLENS = [128, 256, 512, 1024]


def rv_takes(matrix, layout, transpose, in_phys, in_interp, bias, out_ty, out_unsigned, scale):
    """What --convert-coopvec-to-riscv lowers (docs/RISCV.md): I8/U8
    matrices in every layout, i32 or f32 inputs read as I8/U8 or packed
    words, an I32 bias, signed i32 or f32 results."""
    return (matrix in ("I8", "U8") and in_phys in ("i32", "f32")
            and in_interp in ("I8", "U8", "PackedS8x32", "PackedU8x32")
            and bias in (None, "I32") and out_ty in ("i32", "f32") and not out_unsigned
            and scale is None)


def group_matvec_float(args, rng):
    cases = []
    n = 0
    for (layout, transpose), matrix in itertools.product(LAYOUTS, ["F32", "F16"]):
        for j, (phys, interp) in enumerate(FLOAT_INPUTS):
            bias = [None, "F32", "F16"][(n + j) % 3]
            out = ["f32", "f16"][(n // 3 + j) % 2]
            m, k = [(8, 8), (13, 7), (32, 16), (5, 33)][(n + j) % 4]
            name = f"mvf{n}_{matrix}_{layout}{'_T' if transpose else ''}_{phys}{interp}_{bias}_{out}"
            cases.append((name, m, k, matrix, layout, transpose, phys, interp, False, bias, out))
            n += 1
    return cases


def group_matvec_int(args, rng):
    cases = []
    n = 0
    for (layout, transpose), matrix in itertools.product(LAYOUTS, ["I8", "U8"]):
        for j, (phys, interp, uns) in enumerate(INT_INPUTS):
            bias = [None, "I32"][(n + j) % 2]
            out = ["i32", "f32"][(n // 2 + j) % 2]
            m, k = [(8, 8), (13, 7), (32, 16), (5, 33)][(n + j) % 4]
            name = f"mvi{n}_{matrix}_{layout}{'_T' if transpose else ''}_{phys}{interp}_{bias}_{out}"
            cases.append((name, m, k, matrix, layout, transpose, phys, interp, uns, bias, out))
            n += 1
    return cases


def combos_in_every_layout(prefix, combos):
    """Each (matrix, input type, input interpretation, unsigned, bias,
    result, unsigned result) combination in every layout, shapes rotating."""
    cases = []
    n = 0
    for (layout, transpose) in LAYOUTS:
        for j, (matrix, phys, interp, uns, bias, out, uout) in enumerate(combos):
            m, k = [(8, 8), (13, 7), (32, 16), (5, 33)][(n + j) % 4]
            name = f"{prefix}{n}_{matrix}_{layout}{'_T' if transpose else ''}_{phys}{interp}_{bias}_{out}"
            cases.append((name, m, k, matrix, layout, transpose, phys, interp, uns, bias, out, uout))
            n += 1
    return cases


def group_matvec_wide(args, rng):
    """Combinations outside the vectorized kernels (16/32-bit integer and FP8
    matrices, 16- and 32-bit integer input interpretations, unsigned
    results): they run through the runtime's reference semantics."""
    combos = [("I16", "i32", "I32", False, None, "i32", False),
              ("U16", "i32", "U32", True, "I32", "i32", True),
              ("I32", "i32", "I16", False, "I32", "i32", False),
              ("U32", "i32", "U16", True, None, "i32", True),
              ("I16", "f32", "I16", False, None, "f32", False),
              ("F8_E4M3", "f32", "F32", False, "F32", "f32", False),
              ("F8_E5M2", "f16", "F16", False, None, "f16", False),
              ("F8_E4M3", "f16", "F32", False, "F16", "f32", False)]
    return combos_in_every_layout("mvw", combos)


def group_matvec_types(args, rng):
    """The interpretations DXIL lacks (BF16, FP6, FP4, 4-bit integers) as
    matrix, input and bias types; they run through the reference semantics."""
    combos = [("BF16", "f32", "F32", False, "F32", "f32", False),
              ("BF16", "f32", "BF16", False, "BF16", "f16", False),
              ("F6_E2M3", "f32", "F32", False, None, "f32", False),
              ("F6_E3M2", "f16", "F16", False, "F16", "f32", False),
              ("F6_E2M3", "f32", "F6_E2M3", False, "F6_E3M2", "f32", False),
              ("F4_E2M1", "f32", "F32", False, "F4_E2M1", "f32", False),
              ("F4_E2M1", "f16", "F4_E2M1", False, None, "f16", False),
              ("F8_E4M3", "f32", "F6_E3M2", False, None, "f32", False),
              ("I4", "f32", "I8", False, "I32", "i32", False),
              ("U4", "i32", "PackedS8x32", False, None, "i32", False),
              ("I4", "f32", "I4", False, "I4", "i32", False),
              ("U4", "f16", "U4", False, None, "f32", False),
              ("I8", "f32", "I4", False, "I32", "i32", False)]
    return combos_in_every_layout("mvt", combos)


def group_matvec_scaled(args, rng):
    """Block-scaled matrices (MXFP8, MXFP6, MXFP4 with UE8M0 scales in
    blocks of 32 or 16, NVFP4 with UE4M3 scales in blocks of 16) in every
    layout, with partial last blocks and NaN scales."""
    cases = []
    n = 0
    combos = [("F8_E4M3", ("f8E8M0FNU", 32), "f32", "F32", "F32", "f32"),
              ("F8_E5M2", ("f8E8M0FNU", 32), "f16", "F16", None, "f32"),
              ("F6_E2M3", ("f8E8M0FNU", 32), "f32", "F32", None, "f16"),
              ("F6_E3M2", ("f8E8M0FNU", 32), "f32", "F32", "F16", "f32"),
              ("F4_E2M1", ("f8E8M0FNU", 32), "f32", "F32", None, "f32"),
              ("F4_E2M1", ("f8E8M0FNU", 16), "f16", "F32", "F32", "f32"),
              ("F4_E2M1", ("f8E4M3FN", 16), "f32", "F32", None, "f32")]
    for (layout, transpose) in LAYOUTS:
        for j, (matrix, (stype, block), phys, interp, bias, out) in enumerate(combos):
            m, k = [(8, 64), (13, 40), (5, 96), (16, 33)][(n + j) % 4]
            with_nan = (n + j) % 5 == 0
            name = f"mvs{n}_{matrix}_{stype}x{block}_{layout}{'_T' if transpose else ''}_{phys}{interp}_{bias}_{out}"
            cases.append((name, m, k, matrix, layout, transpose, phys, interp, False, bias, out,
                          False, (stype, block, with_nan)))
            n += 1
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group", choices=["matvec-float", "matvec-int", "matvec-wide",
                                      "matvec-types", "matvec-scaled"])
    ap.add_argument("--runner", required=True)
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--also-pipeline", default=None,
                    help="also run every case through this pass pipeline "
                         "and require bit-identical results")
    ap.add_argument("--also-rv", default=None, metavar="COOPVEC_RV_RUN",
                    help="also run every case the RISC-V lowering takes through "
                         "this coopvec-rv-run at VLEN 128 to 1024 and require "
                         "bit-identical results")
    args = ap.parse_args()
    args.rv_programs = 0
    os.makedirs(args.tmp, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    cases = {"matvec-float": group_matvec_float, "matvec-int": group_matvec_int,
             "matvec-wide": group_matvec_wide,
             "matvec-types": group_matvec_types,
             "matvec-scaled": group_matvec_scaled}[args.group](args, rng)
    failures = 0
    for case in cases:
        line = matvec_case(args, rng, *case)
        failures += line.startswith("FAIL")
        print(line)
    print(f"{args.group}: {len(cases)} cases, {failures} failures")
    if args.also_rv:
        print(f"riscv: {args.rv_programs} programs at VLEN "
              f"{', '.join(map(str, RV_VLENS))} (4x8x4 from {RV_VLENS[1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
