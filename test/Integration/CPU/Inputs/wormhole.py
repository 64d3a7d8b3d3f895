#!/usr/bin/env python3
"""Math fidelity (#coopvec.math_fidelity) through the JIT.

Each case writes a coopvec.matvec or coopvec.batch_matvec program with a
fidelity clause, runs it with coopvec-run and compares the result bit for bit
with an independent model of the Wormhole matrix unit written here, phase by
phase, in exact rational arithmetic (docs/WormholeFidelity.md states the
rules; nothing here calls the runtime):

  * the input row is in0 (SrcB), the matrix in1 (SrcA); BF16 operands keep
    7 mantissa bits, F32 ones are truncated to TF32 (10);
  * SrcA slices: hi = 1.m[22:19], lo = m[18:14]; SrcB: hi = 1.m[22:17],
    lo = m[16:13]; phase p multiplies A.(p & 1 ? lo : hi) by
    B.(p & 2 ? lo : hi); LoFi runs phase 0, HiFi2 0-1, HiFi3 0-2, HiFi4 0-3;
  * per 32-wide K tile, per phase, per 16-wide half: Dst = round(Dst + exact
    sum of the 16 slice products), rounding to nearest, ties away, to the
    Dst format (f32: 24 bits, bf16: 8);
  * the packer rounds an f32 Dst to a bf16 L1 format the same way; with L1
    accumulation L1 = round(L1 + datum) in the L1 format, L1 starting from
    the bias, one datum per K block.

  wormhole.py grid --runner coopvec-run --tmp DIR   every fidelity x Dst
                                                    format x L1 switch
  wormhole.py hand --runner coopvec-run --tmp DIR   values worked out by hand
  wormhole.py tiled --runner coopvec-run --tmp DIR  batch_matvec through
                                                    --coopvec-tile
  wormhole.py packer --runner coopvec-run --tmp DIR the same, with packer
                                                    conversion, L1
                                                    accumulation, K blocks
  wormhole.py bfp --runner coopvec-run --tmp DIR    BFP8/BFP4 matrices
  wormhole.py bfpin --runner coopvec-run --tmp DIR  BFP8/BFP4 inputs

Every grid case must differ from the same case at another fidelity, with the
other Dst format and from the plain f32 product, so a lowering that ignored
any part of the attribute fails; the script checks that its inputs have that
property before it runs anything.
"""

import argparse
import itertools
import os
import struct
import subprocess
import sys
from fractions import Fraction

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import pack_nibbles, store_matrix, strided_stride  # noqa: E402

FIDELITIES = ["lofi", "hifi2", "hifi3", "hifi4"]
PRECISION = {"f32": 24, "bf16": 8}


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", float(x)))[0]


def round_rna(value, fmt):
    """Dst/L1 write: nearest, ties away from zero, unbounded exponent; zeros
    are +0 and results below 2^-126 flush to +0 (inputs stay far from
    overflow)."""
    if value == 0:
        return Fraction(0)
    sign = -1 if value < 0 else 1
    a = abs(value)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    ulp = Fraction(2) ** (e - PRECISION[fmt] + 1)
    n = int(a / ulp + Fraction(1, 2))  # floor(q + 1/2): ties away
    r = n * ulp
    if r < Fraction(2) ** -126:
        return Fraction(0)
    return sign * r


def slices(x, src, role):
    """(hi, lo) slices of an L1 value as the unpacker and the multipliers see
    it, as exact rationals with the sign applied."""
    u = f32_bits(x)
    u &= 0xFFFF0000 if src == "bf16" else 0xFFFFE000
    e = (u >> 23) & 0xFF
    if e == 0:
        return Fraction(0), Fraction(0)
    sign = -1 if u >> 31 else 1
    sig = (1 << 23) | (u & 0x7FFFFF)
    scale = Fraction(2) ** (e - 150)
    if role == "A":
        hi, lo = (sig >> 19) << 19, ((sig >> 14) & 0x1F) << 14
    else:
        hi, lo = (sig >> 17) << 17, ((sig >> 13) & 0xF) << 13
    return sign * hi * scale, sign * lo * scale


def to_bf16_rne(x):
    """An f32 input read as the BF16 interpretation: nearest even."""
    u = f32_bits(x)
    u = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    return struct.unpack("<f", struct.pack("<I", u & 0xFFFFFFFF))[0]


def model(x, w, bias, cfg):
    """out[b][i] for inputs x (B x K), matrix w (M x K)."""
    src = cfg["src"]
    phases = FIDELITIES.index(cfg["fidelity"]) + 1
    dst_fmt, pack_fmt = cfg["dst"], cfg["pack"] or cfg["dst"]
    k = len(w[0])
    k_block = cfg["k_block"] or k
    if src == "bf16":
        x = [[to_bf16_rne(v) for v in row] for row in x]
    a_sl = [[slices(v, src, "A") for v in row] for row in w]
    out = []
    for row in x:
        b_sl = [slices(v, src, "B") for v in row]
        out_row = []
        for i in range(len(w)):
            l1 = Fraction(bias[i]) if bias is not None else Fraction(0)
            for k0 in range(0, k, k_block):
                k1 = min(k0 + k_block, k)
                dst = Fraction(0)
                for t in range(k0, k1, 32):
                    tile_end = min(t + 32, k1)
                    for p in range(phases):
                        for h in range(t, tile_end, 16):
                            s = dst
                            for kk in range(h, min(h + 16, tile_end)):
                                a = a_sl[i][kk][1 if p & 1 else 0]
                                bb = b_sl[kk][1 if p & 2 else 0]
                                s += a * bb
                            dst = round_rna(s, dst_fmt)
                datum = dst
                if pack_fmt == "bf16" and dst_fmt == "f32":
                    datum = round_rna(dst, "bf16")
                l1 = round_rna(l1 + datum, pack_fmt) if cfg["l1_acc"] else datum
            out_row.append(float(l1))
        out.append(out_row)
    return np.array(out, np.float32)


def attr_text(cfg):
    text = f"{cfg['fidelity']}, dst = {cfg['dst']}"
    if cfg["pack"]:
        text += f", pack = {cfg['pack']}"
    if cfg["l1_acc"]:
        text += ", l1_acc"
    if cfg["k_block"]:
        text += f", k_block = {cfg['k_block']}"
    return f"fidelity<{text}>"


def matrix_bytes(w, interp, layout):
    m, k = w.shape
    esz = 2 if interp == "BF16" else 4
    if interp == "BF16":
        cells = (w.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    else:
        cells = w.astype(np.float32)
    if layout == "RowMajor":
        stride = max(16, -(-k * esz // 16) * 16)
        buf = np.zeros((m, stride // esz), cells.dtype)
        buf[:, :k] = cells
    else:
        stride = max(16, -(-m * esz // 16) * 16)
        buf = np.zeros((k, stride // esz), cells.dtype)
        buf[:, :m] = cells.T
    return buf.tobytes(), stride


def program(name, op, cfg, m, k, rows, interp, layout, stride, has_bias,
            input_interp=None, scales=None, transpose=False):
    """The program of one case; with `scales` (a block-float matrix) the
    matrix takes its exponents as UE8M0 x 16 block scales from %e."""
    input_interp = input_interp or interp
    bias_arg = ", %b: memref<?xi8>" if has_bias else ""
    bias_clause = f"bias %b[%c0] as {cfg['bias_interp']}" if has_bias else ""
    bias_ty = ", memref<?xi8>" if has_bias else ""
    scales_arg = ", %e: memref<?xi8>" if scales else ""
    head = (f"func.func @{name}(%x: memref<{rows}x{k}xf32>, %w: memref<?xi8>"
            f"{scales_arg}{bias_arg}, %y: memref<{rows}x{m}xf32>) {{\n"
            f"  %c0 = arith.constant 0 : index\n"
            f"  %cs = arith.constant {stride} : index\n")
    if scales:
        # Optimal layouts take no stride.
        stride_txt = " stride %cs" if stride else ""
        mat = (f"matrix<{interp}, {m}x{k}, {layout}"
               f"{', transpose' if transpose else ''}, scale f8E8M0FNU block "
               f"16>{stride_txt} scales {scales}")
    else:
        mat = f"matrix<{interp}, {m}x{k}, {layout}> stride %cs"
    interp = input_interp
    if op == "batch":
        body = (f"  coopvec.batch_matvec %x as {interp}, %w[%c0] {mat}\n"
                f"      {bias_clause} {attr_text(cfg)} into %y\n"
                f"      : memref<{rows}x{k}xf32>, memref<?xi8>{bias_ty} -> "
                f"memref<{rows}x{m}xf32>\n")
    else:
        body = ""
        for r in range(rows):
            body += (f"  %r{r} = arith.constant {r} : index\n"
                     f"  %x{r} = vector.load %x[%r{r}, %c0] : memref<{rows}x{k}xf32>, vector<{k}xf32>\n"
                     f"  %y{r} = coopvec.matvec %x{r} as {interp}, %w[%c0] {mat}\n"
                     f"      {bias_clause} {attr_text(cfg)}\n"
                     f"      : vector<{k}xf32>, memref<?xi8>{bias_ty} -> vector<{m}xf32>\n"
                     f"  vector.store %y{r}, %y[%r{r}, %c0] : memref<{rows}x{m}xf32>, vector<{m}xf32>\n")
    return head + body + "  return\n}\n"


def run(args, name, text, inputs, rows, m, pipeline=None):
    base = os.path.join(args.tmp, name)
    with open(base + ".mlir", "w") as f:
        f.write(text)
    paths = []
    for tag, data in inputs:
        path = f"{base}.{tag}.npy"
        np.save(path, data)
        paths.append(path)
    out = base + ".y.npy"
    np.save(out, np.zeros((rows, m), np.float32))
    paths.append(out)
    cmd = [args.runner, base + ".mlir", "-e", name, "--no-print"]
    for p in paths:
        cmd += ["--arg", p]
    cmd += [f"--out-arg={len(paths) - 1}={out}"]
    if pipeline:
        cmd.append("--pass-pipeline=" + pipeline)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    if pipeline and "not tiled" in p.stderr:
        return None, p.stderr.strip()
    return np.load(out), ""


def bf16_values(rng, shape, lo=-3, hi=3):
    """Random bf16-exact values with all 7 mantissa bits in play."""
    mant = rng.integers(0, 128, shape)
    exp = rng.integers(lo, hi + 1, shape)
    sign = rng.choice([-1.0, 1.0], shape)
    return (sign * (1 + mant / 128.0) * np.exp2(exp)).astype(np.float32)


def f32_values(rng, shape):
    return (rng.standard_normal(shape) * 2).astype(np.float32)


def differs(a, b):
    return not np.array_equal(np.asarray(a, np.float32).view(np.uint32),
                              np.asarray(b, np.float32).view(np.uint32))


def indistinct(x, w, bias, cfg):
    """Why the inputs do not tell `cfg` from the same case at another
    fidelity, with the other Dst format, or from the plain f32 product, or
    "" if they do."""
    b = None if bias is None else bias.tolist()
    expect = model(x.tolist(), w.tolist(), b, cfg)
    others = [dict(cfg, fidelity=f) for f in FIDELITIES if f != cfg["fidelity"]]
    others.append(dict(cfg, dst="bf16" if cfg["dst"] == "f32" else "f32"))
    for other in others:
        if not differs(expect, model(x.tolist(), w.tolist(), b, other)):
            return (f"inputs do not tell {attr_text(cfg)} from "
                    f"{attr_text(other)}")
    plain = (x.astype(np.float64) @ w.astype(np.float64).T).astype(np.float32)
    if bias is not None:
        plain = (plain + bias).astype(np.float32)
    if not differs(expect, plain):
        return f"{attr_text(cfg)} equals the plain product"
    return ""


def report(name, what, got, err, expect):
    """Prints the case's line; 1 if it failed."""
    if err:
        print(f"FAIL {name}: {err}")
        return 1
    if differs(got, expect):
        bad = np.argwhere(got.view(np.uint32) != expect.view(np.uint32))[0]
        print(f"FAIL {name} ({what}): y{tuple(bad)} = {got[tuple(bad)]!r}, "
              f"model {expect[tuple(bad)]!r}")
        return 1
    print(f"ok {name}: {what}")
    return 0


def grid(args):
    rng = np.random.default_rng(15)
    m, k = 16, 64
    failures = cases = 0
    for n, (fid, dst, l1) in enumerate(itertools.product(
            FIDELITIES, ["f32", "bf16"], [False, True])):
        # Rotate what else varies: the packer format, BF16 or TF32 sources,
        # layout, matvec or batch_matvec.
        pack = ["bf16", None, "f32", "bf16"][n % 4]
        interp = "F32" if n % 5 == 4 else "BF16"
        layout = ["RowMajor", "ColumnMajor"][n % 2]
        op = ["batch", "matvec"][(n // 2) % 2]
        rows = 3
        cfg = {"fidelity": fid, "dst": dst, "pack": pack, "l1_acc": l1,
               "k_block": 32 if l1 and n % 3 != 0 else 0,
               "src": "bf16" if interp == "BF16" else "tf32"}
        pack_fmt = pack or dst
        cfg["bias_interp"] = "BF16" if pack_fmt == "bf16" else "F32"
        # Draw until the inputs tell every part of the attribute apart (a
        # bf16 Dst often rounds HiFi4's last phase, lo x lo, away).
        for attempt in range(200):
            if interp == "BF16":
                x, w = bf16_values(rng, (rows, k)), bf16_values(rng, (m, k))
            else:
                x, w = f32_values(rng, (rows, k)), f32_values(rng, (m, k))
            bias = bf16_values(rng, (m,), 0, 4) if l1 else None
            why = indistinct(x, w, bias, cfg)
            if not why:
                break
        if why:
            print(f"FAIL case {n}: {why}")
            failures += 1
        expect = model(x.tolist(), w.tolist(),
                       None if bias is None else bias.tolist(), cfg)

        name = f"case{n}_{fid}_{dst}_{'l1' if l1 else 'nol1'}"
        data, stride = matrix_bytes(w, interp, layout)
        inputs = [("x", x), ("w", np.frombuffer(data, np.int8))]
        if bias is not None:
            bias_bytes = (bias.view(np.uint32) >> 16).astype(np.uint16).tobytes() \
                if pack_fmt == "bf16" else bias.tobytes()
            inputs.append(("b", np.frombuffer(bias_bytes, np.int8)))
        text = program(name, op, cfg, m, k, rows, interp, layout, stride,
                       bias is not None)
        got, err = run(args, name, text, inputs, rows, m)
        cases += 1
        failures += report(name, f"{op} {interp} {layout} {attr_text(cfg)}",
                           got, err, expect)
    print(f"grid: {cases} cases, {failures} failures")
    return failures


def tiled(args):
    """batch_matvec with fidelity through --coopvec-tile: tile_pack, the
    loop nest and one tile_mma with fidelity per (row tile, batch tile, K
    tile), which the CPU runs as matrix-unit steps onto a live Dst. Every
    fidelity x Dst format x Src format, K not a multiple of the tile
    (zero-padded halves), partial row and batch tiles, f32 inputs that a
    BF16 interpretation rounds; bit for bit against the model."""
    rng = np.random.default_rng(27)
    m, k, rows = 20, 80, 5
    failures = cases = 0
    for n, (fid, dst, interp) in enumerate(itertools.product(
            FIDELITIES, ["f32", "bf16"], ["BF16", "F32"])):
        cfg = {"fidelity": fid, "dst": dst, "pack": [None, dst][n % 2],
               "l1_acc": False, "k_block": 0,
               "src": "bf16" if interp == "BF16" else "tf32"}
        layout = ["RowMajor", "ColumnMajor"][(n // 2) % 2]
        tm, tn, tk = [(16, 4, 32), (8, 8, 64)][(n // 4) % 2]
        for attempt in range(200):
            # Unrounded f32 inputs: the BF16 interpretation rounds them;
            # row 0 is subnormals that round up to 2^-126 (f32 0x007F8000
            # and above), which the unpacker keeps: its results are sums
            # of such products, most of them normal.
            x = f32_values(rng, (rows, k))
            if interp == "BF16":
                tiny = rng.integers(0x007F8000, 0x00800000, k, dtype=np.uint32)
                tiny |= rng.integers(0, 2, k, dtype=np.uint32) << 31
                x[0] = tiny.view(np.float32)
            w = bf16_values(rng, (m, k)) if interp == "BF16" \
                else f32_values(rng, (m, k))
            why = indistinct(x, w, None, cfg)
            if not why:
                break
        if why:
            print(f"FAIL tiled case {n}: {why}")
            failures += 1
        expect = model(x.tolist(), w.tolist(), None, cfg)
        name = f"tiled{n}_{fid}_{dst}_{interp}"
        data, stride = matrix_bytes(w, interp, layout)
        text = program(name, "batch", cfg, m, k, rows, interp, layout, stride,
                       False)
        pipeline = (f"builtin.module(coopvec-tile{{tile-m={tm} tile-n={tn} "
                    f"tile-k={tk}}},coopvec-cpu-pipeline)")
        got, err = run(args, name, text,
                       [("x", x), ("w", np.frombuffer(data, np.int8))], rows,
                       m, pipeline)
        cases += 1
        failures += report(name, f"{interp} {layout} {attr_text(cfg)} tile "
                                 f"{tm}x{tn}x{tk}", got, err, expect)
    print(f"tiled: {cases} cases, {failures} failures")
    return failures


def tiled_packer(args):
    """--coopvec-tile on fidelity products whose packer converts or
    accumulates: per K block a tile_mma chain from a zero Dst, then
    tile_pack_dst onto the L1 values (from the bias). Every fidelity x Dst
    format, rotating: a converting packer without L1 accumulation (f32 Dst
    to bf16, bf16 Dst to f32), L1 accumulation from a bias in one block,
    in K blocks of 32 from a bf16 bias, in K blocks of 64 (the last one
    partial) without a bias; bit for bit against the model, after checking
    that the inputs also tell the case from the same one without K blocks
    or without the conversion."""
    rng = np.random.default_rng(41)
    m, k, rows = 20, 96, 5
    failures = cases = 0
    for n, (fid, dst, variant) in enumerate(itertools.product(
            FIDELITIES, ["f32", "bf16"], range(2))):
        kind = (n + n // 4) % 4
        pack, l1, k_block, has_bias = [
            ("bf16" if dst == "f32" else "f32", False, 0, False),
            (None, True, 0, True),
            ("bf16", True, 32, True),
            ("f32", True, 64, False)][kind]
        interp = ["BF16", "F32"][(n // 2 + n // 4) % 2]
        cfg = {"fidelity": fid, "dst": dst, "pack": pack, "l1_acc": l1,
               "k_block": k_block,
               "src": "bf16" if interp == "BF16" else "tf32"}
        pack_fmt = pack or dst
        cfg["bias_interp"] = "BF16" if pack_fmt == "bf16" else "F32"
        layout = ["RowMajor", "ColumnMajor"][n % 2]
        tm, tn = [(16, 4), (8, 8)][(n // 4) % 2]
        tk = 32 if k_block == 32 else [32, 64][n % 2]
        alternatives = []
        if k_block:
            alternatives.append(dict(cfg, k_block=0))
        if pack_fmt != dst and dst == "f32":
            alternatives.append(dict(cfg, pack=None))
        for attempt in range(200):
            x = f32_values(rng, (rows, k))
            w = bf16_values(rng, (m, k)) if interp == "BF16" \
                else f32_values(rng, (m, k))
            bias = bf16_values(rng, (m,), 0, 4) if has_bias else None
            why = indistinct(x, w, bias, cfg)
            b = None if bias is None else bias.tolist()
            expect = model(x.tolist(), w.tolist(), b, cfg)
            for other in alternatives:
                if not why and not differs(
                        expect, model(x.tolist(), w.tolist(), b, other)):
                    why = (f"inputs do not tell {attr_text(cfg)} from "
                           f"{attr_text(other)}")
            if not why:
                break
        if why:
            print(f"FAIL packer case {n}: {why}")
            failures += 1
        name = f"packer{n}_{fid}_{dst}_{interp}"
        data, stride = matrix_bytes(w, interp, layout)
        inputs = [("x", x), ("w", np.frombuffer(data, np.int8))]
        if bias is not None:
            bias_bytes = (bias.view(np.uint32) >> 16).astype(np.uint16) \
                .tobytes() if pack_fmt == "bf16" else bias.tobytes()
            inputs.append(("b", np.frombuffer(bias_bytes, np.int8)))
        text = program(name, "batch", cfg, m, k, rows, interp, layout, stride,
                       bias is not None)
        pipeline = (f"builtin.module(coopvec-tile{{tile-m={tm} tile-n={tn} "
                    f"tile-k={tk}}},coopvec-cpu-pipeline)")
        got, err = run(args, name, text, inputs, rows, m, pipeline)
        cases += 1
        failures += report(name, f"{interp} {layout} {attr_text(cfg)}"
                                 f"{' bias' if has_bias else ''} tile "
                                 f"{tm}x{tn}x{tk}", got, err, expect)
    print(f"packer: {cases} cases, {failures} failures")
    return failures


def class_mismatch(x, w, bias, cfg, mine, what):
    """The model's result for `cfg` and why the inputs do not show the
    fidelity classes (`mine`: the fidelities that must give the same
    result, every other one a different result) or the Dst format, or ""
    if they do."""
    b = None if bias is None else bias.tolist()
    expect = model(x.tolist(), w.tolist(), b, cfg)
    for f in FIDELITIES:
        other = model(x.tolist(), w.tolist(), b, dict(cfg, fidelity=f))
        if (f in mine) == differs(expect, other):
            return expect, (f"{what} at {cfg['fidelity']} and {f}: the model "
                            f"{'differs' if f in mine else 'agrees'}")
    flip = dict(cfg, dst="bf16" if cfg["dst"] == "f32" else "f32")
    if not differs(expect, model(x.tolist(), w.tolist(), b, flip)):
        return expect, f"inputs do not tell {attr_text(cfg)} from the other Dst"
    return expect, ""


def bias_input(bias, dst):
    """The bias buffer (a BF16 one for a bf16 Dst) as an input of run()."""
    data = (bias.view(np.uint32) >> 16).astype(np.uint16).tobytes() \
        if dst == "bf16" else bias.tobytes()
    return ("b", np.frombuffer(data, np.int8))


def bfp_codes(rng, shape, bits):
    """Random block-float data and exponents: sign-magnitude codes (never
    -0, which the unpacker decodes to the -inf pattern) and one exponent
    per 16 elements along K, in a range that keeps every decoded value a
    normal bf16 (no exponent wrap)."""
    m, k = shape
    mag = rng.integers(0, 1 << (bits - 1), shape)
    sign = rng.integers(0, 2, shape) * (mag != 0)
    codes = (sign << (bits - 1)) | mag
    exps = rng.integers(118, 136, (m, -(-k // 16)))
    return codes.astype(np.uint8), exps.astype(np.uint8)


def bfp_decode(codes, exps, bits):
    """FloatBitPatterns.md: BFP8 is Mag/2^6 * 2^(Exp-127), BFP4 Mag/2^2 *
    2^(Exp-127), sign-magnitude (written from the formula, not the
    runtime's routine)."""
    m, k = codes.shape
    out = np.zeros((m, k), np.float32)
    for i in range(m):
        for j in range(k):
            c = int(codes[i, j])
            mag = c & ((1 << (bits - 1)) - 1)
            neg = c >> (bits - 1)
            frac = 6 if bits == 8 else 2
            v = Fraction(mag, 1 << frac) * Fraction(2) ** (int(exps[i, j // 16]) - 127)
            out[i, j] = float(-v if neg else v)
    return out


def bfp_bytes(codes, bits, layout, transpose):
    """The data of a block-float matrix (M x K codes) in `layout`, stored
    K x M when transposed: one byte per BFP8 element, BFP4 as the byte
    matrix of stored column pairs (the even column in the low nibble). The
    layout formulas are cases.py's (written from the DXIL spec)."""
    stored = codes.T if transpose else codes
    if bits == 4:
        stored = pack_nibbles(stored)
    stored = np.ascontiguousarray(stored.astype(np.uint8))
    rows, cols = stored.shape
    strided = layout in ("RowMajor", "ColumnMajor")
    stride = strided_stride(layout, rows, cols, 1) if strided else 0
    return store_matrix(stored, layout, stride).tobytes(), stride


def bfp(args):
    """Block-float (BFP8, BFP4) matrices through the unpacker: data and
    shared exponents (the matrix's block scales, UE8M0 x 16) decoded by the
    format's formula, BF16 inputs, every fidelity x Dst format x format,
    rotating the four layouts (the optimal ones also transposed), matvec
    or batch_matvec, L1 accumulation from a bias
    with and without K blocks, K = 72 (a partial last exponent block).
    SrcASrcB.md: BFP8 data (1 + 6 significant bits) uses SrcA's phase-1
    slice, BFP4 data (1 + 2) does not: with BFP4 weights LoFi equals HiFi2
    and HiFi3 equals HiFi4. The script checks those equalities in its own
    model, and that each case's inputs tell it from every fidelity outside
    its class and from the other Dst format."""
    rng = np.random.default_rng(53)
    m, k, rows = 12, 72, 3
    failures = cases = 0
    for n, (fid, dst, fmt) in enumerate(itertools.product(
            FIDELITIES, ["f32", "bf16"], ["BFP8", "BFP4"])):
        bits = 8 if fmt == "BFP8" else 4
        layout = ["RowMajor", "ColumnMajor", "InferencingOptimal",
                  "TrainingOptimal"][(n // 2) % 4]
        transpose = layout.endswith("Optimal") and n % 8 in (5, 6)
        op = ["batch", "matvec"][n % 2 if n < 8 else 1 - n % 2]
        l1 = n % 3 == 2
        cfg = {"fidelity": fid, "dst": dst, "pack": None, "l1_acc": l1,
               "k_block": 32 if l1 and n % 2 else 0, "src": "bf16"}
        cfg["bias_interp"] = "BF16" if dst == "bf16" else "F32"
        if bits == 4:
            classes = [["lofi", "hifi2"], ["hifi3", "hifi4"]]
        else:
            classes = [[f] for f in FIDELITIES]
        mine = next(c for c in classes if fid in c)
        why = ""
        for attempt in range(200):
            codes, exps = bfp_codes(rng, (m, k), bits)
            w = bfp_decode(codes, exps, bits)
            x = f32_values(rng, (rows, k))
            bias = bf16_values(rng, (m,), 0, 4) if l1 else None
            expect, why = class_mismatch(x, w, bias, cfg, mine, fmt)
            if not why:
                break
        if why:
            print(f"FAIL bfp case {n}: {why}")
            failures += 1
        name = f"bfp{n}_{fid}_{dst}_{fmt}"
        data, stride = bfp_bytes(codes, bits, layout, transpose)
        inputs = [("x", x), ("w", np.frombuffer(data, np.int8)),
                  ("e", np.frombuffer(exps.tobytes(), np.int8))]
        if bias is not None:
            inputs.append(bias_input(bias, dst))
        text = program(name, op, cfg, m, k, rows, fmt, layout, stride,
                       bias is not None, input_interp="BF16",
                       scales="%e[%c0] : memref<?xi8>", transpose=transpose)
        got, err = run(args, name, text, inputs, rows, m)
        cases += 1
        failures += report(name, f"{op} {fmt} {layout}"
                                 f"{' transposed' if transpose else ''} "
                                 f"{attr_text(cfg)}"
                                 f"{' bias' if l1 else ''}", got, err, expect)
    print(f"bfp: {cases} cases, {failures} failures")
    return failures


# Garbage bytes after each row of a block-float input's exponents.
EXP_PAD = 3


def bfpin_program(name, op, cfg, m, k, rows, fmt, mat_fmt, layout, stride,
                  has_bias, transpose):
    """A case with block-float inputs: %x holds each row's stored bytes
    (rows x K for BFP8, rows x ceil(K/2) for BFP4), %ex its exponents
    (rows x ceil(K/16), each row padded with EXP_PAD garbage bytes, so a
    batch reads them through a strided subview); a block-float matrix takes
    %e as block scales."""
    nbytes = k if fmt == "BFP8" else -(-k // 2)
    nblk = -(-k // 16)
    wide = nblk + EXP_PAD
    ex_ty = f"memref<{rows}x{nblk}xi8, strided<[{wide}, 1]>>"
    bias_arg = ", %b: memref<?xi8>" if has_bias else ""
    bias_clause = f"bias %b[%c0] as {cfg['bias_interp']}" if has_bias else ""
    bias_ty = ", memref<?xi8>" if has_bias else ""
    stride_txt = " stride %cs" if stride else ""
    if mat_fmt == "BF16":
        mat = f"matrix<BF16, {m}x{k}, {layout}>{stride_txt}"
    else:
        mat = (f"matrix<{mat_fmt}, {m}x{k}, {layout}"
               f"{', transpose' if transpose else ''}, scale f8E8M0FNU block "
               f"16>{stride_txt} scales %e[%c0] : memref<?xi8>")
    head = (f"func.func @{name}(%x: memref<{rows}x{nbytes}xi8>, "
            f"%exw: memref<{rows}x{wide}xi8>, %w: memref<?xi8>, "
            f"%e: memref<?xi8>{bias_arg}, %y: memref<{rows}x{m}xf32>) {{\n"
            f"  %c0 = arith.constant 0 : index\n"
            f"  %cs = arith.constant {stride} : index\n"
            f"  %ex = memref.subview %exw[0, 0] [{rows}, {nblk}] [1, 1] : "
            f"memref<{rows}x{wide}xi8> to {ex_ty}\n")
    if op == "batch":
        body = (f"  coopvec.batch_matvec %x as {fmt} exponents %ex : "
                f"{ex_ty}, %w[%c0] {mat}\n"
                f"      {bias_clause} {attr_text(cfg)} into %y\n"
                f"      : memref<{rows}x{nbytes}xi8>, memref<?xi8>{bias_ty} -> "
                f"memref<{rows}x{m}xf32>\n")
    else:
        body = ""
        for r in range(rows):
            body += (f"  %r{r} = arith.constant {r} : index\n"
                     f"  %x{r} = vector.load %x[%r{r}, %c0] : memref<{rows}x{nbytes}xi8>, vector<{nbytes}xi8>\n"
                     f"  %e{r} = vector.load %ex[%r{r}, %c0] : {ex_ty}, vector<{nblk}xi8>\n"
                     f"  %y{r} = coopvec.matvec %x{r} as {fmt} exponents %e{r} : vector<{nblk}xi8>, %w[%c0] {mat}\n"
                     f"      {bias_clause} {attr_text(cfg)}\n"
                     f"      : vector<{nbytes}xi8>, memref<?xi8>{bias_ty} -> vector<{m}xf32>\n"
                     f"  vector.store %y{r}, %y[%r{r}, %c0] : memref<{rows}x{m}xf32>, vector<{m}xf32>\n")
    return head + body + "  return\n}\n"


def bfpin(args):
    """Block-float (BFP8, BFP4) inputs, the activations of a tt-metal matmul
    whose in0 tiles share one exponent per 16 elements along K: each row's
    stored bytes (BFP4 two to a byte, even k in the low nibble) and
    exponents decoded by the format's formula, against BF16, BFP8 and BFP4
    matrices, every fidelity x Dst format x input format, matvec and
    batch_matvec, rotating layouts, L1 accumulation from a bias with and
    without K blocks, K = 72 (a partial last exponent block).
    SrcASrcB.md: SrcB's hi slice is 1.m[22:17], so BFP8 (1 + 6 significant
    bits) and BFP4 data leave SrcB's lo slice empty: phases 2 and 3 add
    nothing, and HiFi3 and HiFi4 equal HiFi2; with BFP4 weights (SrcA's lo
    slice empty too) every fidelity equals LoFi. The script derives those
    classes from the slices, checks its model says so, and that each case's
    inputs tell its class from the others and from the other Dst format."""
    rng = np.random.default_rng(71)
    m, k, rows = 12, 72, 3
    failures = cases = 0
    for n, (fid, dst, fmt) in enumerate(itertools.product(
            FIDELITIES, ["f32", "bf16"], ["BFP8", "BFP4"])):
        bits = 8 if fmt == "BFP8" else 4
        mat_fmt = ["BF16", "BFP8", "BFP4"][n % 3]
        layout = ["RowMajor", "ColumnMajor", "InferencingOptimal",
                  "TrainingOptimal"][(n // 3) % 4]
        transpose = mat_fmt != "BF16" and layout.endswith("Optimal") and n % 2
        op = ["batch", "matvec"][(n // 2) % 2]
        l1 = n % 4 == 1
        cfg = {"fidelity": fid, "dst": dst, "pack": None, "l1_acc": l1,
               "k_block": 32 if l1 and n % 8 == 1 else 0, "src": "bf16"}
        cfg["bias_interp"] = "BF16" if dst == "bf16" else "F32"
        # Phase p multiplies A.(p & 1 ? lo : hi) by B.(p & 2 ? lo : hi):
        # BFP inputs have no B.lo, BFP4 weights no A.lo.
        a_lo = mat_fmt != "BFP4"
        live = lambda f: tuple(p for p in range(FIDELITIES.index(f) + 1)
                               if (not p & 1 or a_lo) and not p & 2)
        mine = [f for f in FIDELITIES if live(f) == live(fid)]
        why = ""
        for attempt in range(200):
            xcodes, xexps = bfp_codes(rng, (rows, k), bits)
            x = bfp_decode(xcodes, xexps, bits)
            if mat_fmt == "BF16":
                w = bf16_values(rng, (m, k))
            else:
                wbits = 8 if mat_fmt == "BFP8" else 4
                wcodes, wexps = bfp_codes(rng, (m, k), wbits)
                w = bfp_decode(wcodes, wexps, wbits)
            bias = bf16_values(rng, (m,), 0, 4) if l1 else None
            expect, why = class_mismatch(x, w, bias, cfg, mine,
                                         f"{fmt} x {mat_fmt}")
            if not why:
                break
        if why:
            print(f"FAIL bfpin case {n}: {why}")
            failures += 1
        name = f"bfpin{n}_{fid}_{dst}_{fmt}_{mat_fmt}"
        xbytes = xcodes if bits == 8 else pack_nibbles(xcodes)
        if mat_fmt == "BF16":
            data, stride = matrix_bytes(w, "BF16", layout) \
                if layout in ("RowMajor", "ColumnMajor") else (None, 0)
            if data is None:
                cells = (w.view(np.uint32) >> 16).astype(np.uint16)
                data = store_matrix(cells, layout, 0).tobytes()
            wexps = np.zeros((1, 1), np.uint8)
        else:
            data, stride = bfp_bytes(wcodes, wbits, layout, transpose)
        inputs = [("x", np.ascontiguousarray(xbytes.astype(np.uint8))
                   .view(np.int8)),
                  ("ex", np.concatenate(
                      [xexps, rng.integers(0, 256, (rows, EXP_PAD))
                       .astype(np.uint8)], axis=1).view(np.int8)),
                  ("w", np.frombuffer(data, np.int8)),
                  ("e", np.frombuffer(wexps.tobytes(), np.int8))]
        if bias is not None:
            inputs.append(bias_input(bias, dst))
        text = bfpin_program(name, op, cfg, m, k, rows, fmt, mat_fmt, layout,
                             stride, bias is not None, transpose)
        got, err = run(args, name, text, inputs, rows, m)
        cases += 1
        failures += report(name, f"{op} {fmt} x {mat_fmt} {layout}"
                                 f"{' transposed' if transpose else ''} "
                                 f"{attr_text(cfg)}"
                                 f"{' bias' if l1 else ''}", got, err, expect)
    print(f"bfpin: {cases} cases, {failures} failures")
    return failures


# (1 + 2^-7) squared, K = 1: SrcA hi 1, lo 2^-7; SrcB hi 1, lo 2^-7. LoFi
# 1; HiFi2 adds lo(A) hi(B) = 2^-7; HiFi3 adds hi(A) lo(B) = 2^-7; HiFi4
# adds 2^-14. A bf16 Dst keeps 8 bits: 1 + 2^-6 + 2^-14 rounds to 1 + 2^-6.
HAND = {
    ("lofi", "f32"): 1.0, ("lofi", "bf16"): 1.0,
    ("hifi2", "f32"): 1.0078125, ("hifi2", "bf16"): 1.0078125,
    ("hifi3", "f32"): 1.015625, ("hifi3", "bf16"): 1.015625,
    ("hifi4", "f32"): 1.01568603515625, ("hifi4", "bf16"): 1.015625,
}


def hand(args):
    failures = 0
    x = np.array([[1.0078125]], np.float32)
    w = np.array([[1.0078125]], np.float32)
    data, stride = matrix_bytes(w, "BF16", "RowMajor")
    for (fid, dst), want in HAND.items():
        cfg = {"fidelity": fid, "dst": dst, "pack": None, "l1_acc": False,
               "k_block": 0, "src": "bf16"}
        name = f"hand_{fid}_{dst}"
        text = program(name, "matvec", cfg, 1, 1, 1, "BF16", "RowMajor",
                       stride, False)
        got, err = run(args, name, text,
                       [("x", x), ("w", np.frombuffer(data, np.int8))], 1, 1)
        if err or got[0, 0] != np.float32(want):
            print(f"FAIL {name}: {err or got[0, 0]!r}, expected {want!r}")
            failures += 1
        else:
            print(f"ok {name}: {got[0, 0]!r}")
    print(f"hand: {len(HAND)} cases, {failures} failures")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group",
                    choices=["grid", "hand", "tiled", "packer", "bfp",
                             "bfpin"])
    ap.add_argument("--runner", required=True)
    ap.add_argument("--tmp", required=True)
    args = ap.parse_args()
    os.makedirs(args.tmp, exist_ok=True)
    failures = {"grid": grid, "hand": hand, "tiled": tiled,
                "packer": tiled_packer, "bfp": bfp,
                "bfpin": bfpin}[args.group](args)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
