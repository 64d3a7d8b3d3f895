#!/usr/bin/env python3
"""Quantized coopvec.batch_matvec and coopvec.quantize_rows through the JIT.

Each case writes a program, runs it with coopvec-run and checks the result
against NumPy: the integer part (i32 results) bit-exact against int64 sums of
(x - zx) * (w - zw); float results bit-exact against the same steps in
np.float32 (f32 multiply, then add, in group order, as Quantized.h states)
and within the documented bound of the exact (float64) value.

  quant.py ops --runner coopvec-run --tmp DIR
"""

import argparse
import itertools
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cases import pack_nibbles, store_matrix  # noqa: E402

B, M, K = 5, 24, 64


def run(args, mlir, entry, inputs, outs):
    cmd = [args.runner, mlir, "-e", entry, "--no-print"]
    for a in inputs:
        cmd += ["--arg", a]
    for idx, path in outs:
        cmd += [f"--out-arg={idx}={path}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return p.stderr.strip()
    return ""


INT_NP = {"I8": np.int8, "U8": np.uint8, "I32": np.int32}
FLOAT_NP = {"F32": np.float32, "F16": np.float16}
RANGES = {"I8": (-128, 127), "U8": (0, 255), "I4": (-8, 7), "U4": (0, 15),
          "I32": (-300, 300)}


def bf16_bytes(values):
    """f32 values (already bf16-exact) as their bf16 bytes."""
    bits = np.asarray(values, np.float32).view(np.uint32) >> 16
    return bits.astype(np.uint16).tobytes()


def to_bf16(values):
    """Rounds f32 to bf16 (RTNE) and returns the f32 values."""
    bits = np.asarray(values, np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


def value_bytes(values, interp):
    if interp == "BF16":
        return bf16_bytes(values)
    if interp in FLOAT_NP:
        return np.asarray(values, FLOAT_NP[interp]).tobytes()
    return np.asarray(values).astype(INT_NP[interp]).tobytes()


def matrix_bytes(w, interp):
    if interp in ("I4", "U4"):
        nib = (w.astype(np.int64) & 0xF).astype(np.uint8)
        return (nib[:, 0::2] | (nib[:, 1::2] << 4)).astype(np.uint8).tobytes()
    return w.astype(INT_NP[interp]).tobytes()


def save_bytes(path, data):
    np.save(path, np.frombuffer(data, np.int8) if data else np.zeros(16, np.int8))


class Case:
    """One quantized product: its random data, program text and checks."""

    def __init__(self, rng, name, xin, wint, out, zw=None, sw=None, zx=None,
                 sx=None, red=None, bias=None, layout="RowMajor",
                 transpose=False):
        self.name, self.xin, self.wint, self.out = name, xin, wint, out
        # RowMajor, or an optimal layout (which may be transposed: the
        # stored matrix is then K x M, and a 4-bit one pairs its columns).
        self.layout, self.transpose = layout, transpose
        self.zw, self.sw, self.zx, self.sx, self.red, self.bias = (
            zw, sw, zx, sx, red, bias)
        lo, hi = RANGES[xin]
        self.x = rng.integers(lo, hi + 1, (B, K))
        lo, hi = RANGES[wint]
        self.w = rng.integers(lo, hi + 1, (M, K))
        gcols = lambda g: 1 if g == 0 else K // g
        if zw:
            interp, g = zw
            lo, hi = RANGES[interp]
            self.zwv = rng.integers(lo, hi + 1, (1, 1) if g == 0 else (M, gcols(g)))
        if zx:
            interp, g = zx
            lo, hi = RANGES[interp]
            self.zxv = rng.integers(lo, hi + 1, (1, 1) if g == 0 else (B, gcols(g)))
        if sw:
            interp, g = sw
            v = rng.uniform(0.001, 0.02, (1, 1) if g == 0 else (M, gcols(g))).astype(np.float32)
            self.swv = to_bf16(v) if interp == "BF16" else v.astype(FLOAT_NP[interp]).astype(np.float32)
        if sx:
            interp, g = sx
            v = rng.uniform(0.001, 0.05, (1, 1) if g == 0 else (B, gcols(g))).astype(np.float32)
            self.sxv = v.astype(FLOAT_NP[interp]).astype(np.float32)
        if red:
            interp, g = red
            self.redv = self.x.reshape(B, K // g, g).sum(axis=2)
        if bias:
            if bias == "I32":
                self.biasv = rng.integers(-1000, 1000, M)
            else:
                v = rng.uniform(-2, 2, M).astype(np.float32)
                self.biasv = to_bf16(v) if bias == "BF16" else \
                    v.astype(FLOAT_NP[bias]).astype(np.float32)

    # Expansions of grouped values to one per k.
    @staticmethod
    def per_k(values, group, rows):
        if group == 0:
            return np.broadcast_to(values.reshape(1, 1), (rows, K))
        return np.repeat(values, group, axis=1)

    def expected(self):
        x = self.x.astype(np.int64)
        w = self.w.astype(np.int64)
        zx = self.per_k(self.zxv, self.zx[1], B) if self.zx else np.zeros((B, K), np.int64)
        zw = self.per_k(self.zwv, self.zw[1], M) if self.zw else np.zeros((M, K), np.int64)
        gx = self.sx[1] if self.sx and self.sx[1] else K
        gw = self.sw[1] if self.sw and self.sw[1] else K
        c = min(gx, gw)
        # acc[b, n, j]: exact int64 per compute group.
        xs = (x - zx).reshape(B, 1, K // c, c)
        ws = (w - zw).reshape(1, M, K // c, c)
        acc = (xs * ws).sum(axis=3)
        if self.out == "i32":
            y = acc.sum(axis=2)
            if self.bias:
                y = y + self.biasv
            return np.clip(y, -2**31, 2**31 - 1).astype(np.int32), None
        y = np.zeros((B, M), np.float32)
        exact = np.zeros((B, M), np.float64)
        for j in range(K // c):
            a = acc[:, :, j].astype(np.float32)
            e = acc[:, :, j].astype(np.float64)
            if self.sx:
                s = self.per_k(self.sxv, self.sx[1], B)[:, j * c][:, None]
                a = a * s.astype(np.float32)
                e = e * s
            if self.sw:
                s = self.per_k(self.swv, self.sw[1], M)[:, j * c][None, :]
                a = a * s.astype(np.float32)
                e = e * s
            y = y + a
            exact = exact + e
        if self.bias:
            y = y + self.biasv.astype(np.float32)
            exact = exact + self.biasv
        if self.out == "f16":
            with np.errstate(over="ignore"):
                y = y.astype(np.float16)
        return y, exact

    def program(self):
        stride = K // 2 if self.wint in ("I4", "U4") else K
        args = [f"%x: memref<?x{K}xi8>", "%w: memref<?xi8>"]
        clauses = []
        gtxt = lambda g: "per_tensor" if g == 0 else f"group {g}"
        cols = lambda g: 1 if g == 0 else K // g
        rows = lambda g: "1" if g == 0 else "?"
        elt = {"I8": "i8", "U8": "i8", "I32": "i32", "F32": "f32", "F16": "f16"}
        if self.zw:
            args.append("%zw: memref<?xi8>")
            clauses.append(f"weight_zero_points %zw[%c0] as {self.zw[0]} {gtxt(self.zw[1])} : memref<?xi8>")
        if self.sw:
            args.append("%sw: memref<?xi8>")
            clauses.append(f"weight_scales %sw[%c0] as {self.sw[0]} {gtxt(self.sw[1])} : memref<?xi8>")
        for key, name in (("zx", "input_zero_points"), ("sx", "input_scales"),
                          ("red", "reductions")):
            spec = getattr(self, key)
            if not spec:
                continue
            interp, g = spec
            ty = f"memref<{rows(g)}x{cols(g)}x{elt[interp]}>"
            args.append(f"%{key}: {ty}")
            clauses.append(f"{name} %{key} as {interp} {gtxt(g)} : {ty}")
        bias_txt, bias_ty = "", ""
        if self.bias:
            args.append("%b: memref<?xi8>")
            bias_txt = f"bias %b[%c0] as {self.bias}"
            bias_ty = ", memref<?xi8>"
        out_ty = f"memref<?x{M}x{self.out}>"
        args.append(f"%y: {out_ty}")
        body = "\n      ".join(clauses)
        # The optimal layouts take no stride.
        stride_txt = " stride %cs" if self.layout == "RowMajor" else ""
        transpose_txt = ", transpose" if self.transpose else ""
        return f"""func.func @{self.name}({", ".join(args)}) {{
  %c0 = arith.constant 0 : index
  %cs = arith.constant {stride} : index
  coopvec.batch_matvec %x as {self.xin}, %w[%c0] matrix<{self.wint}, {M}x{K}, {self.layout}{transpose_txt}>{stride_txt}
      {body}
      {bias_txt} into %y : memref<?x{K}xi8>, memref<?xi8>{bias_ty} -> {out_ty}
  return
}}
"""

    def files(self, base):
        paths = []
        def put(tag, array=None, data=None):
            path = f"{base}.{tag}.npy"
            if data is not None:
                save_bytes(path, data)
            else:
                np.save(path, array)
            paths.append(path)
        put("x", array=self.x.astype(np.int64).astype(np.uint8).view(np.int8))
        if self.layout == "RowMajor":
            put("w", data=matrix_bytes(self.w, self.wint))
        else:
            stored = np.ascontiguousarray(self.w.T if self.transpose else self.w)
            stored = pack_nibbles(stored) if self.wint in ("I4", "U4") \
                else stored.astype(INT_NP[self.wint]).view(np.uint8)
            put("w", data=store_matrix(stored, self.layout, 0).tobytes())
        if self.zw:
            put("zw", data=value_bytes(self.zwv, self.zw[0]))
        if self.sw:
            put("sw", data=value_bytes(self.swv, self.sw[0]))
        if self.zx:
            put("zx", array=self.zxv.astype(np.uint8 if self.zx[0] == "U8" else INT_NP[self.zx[0]]).view(np.int8 if self.zx[0] != "I32" else np.int32))
        if self.sx:
            put("sx", array=self.sxv.astype(FLOAT_NP[self.sx[0]]))
        if self.red:
            put("red", array=self.redv.astype(np.uint8 if self.red[0] == "U8" else INT_NP[self.red[0]]).view(np.int8 if self.red[0] != "I32" else np.int32))
        if self.bias:
            put("b", data=value_bytes(self.biasv, self.bias))
        y = np.zeros((B, M), {"f32": np.float32, "f16": np.float16, "i32": np.int32}[self.out])
        put("y", array=y)
        return paths

    def check(self, got):
        want, exact = self.expected()
        if self.out == "i32":
            if not np.array_equal(got, want):
                return f"integer mismatch, max diff {np.abs(got.astype(np.int64) - want).max()}"
            return ""
        if not np.array_equal(got.view(np.uint16 if self.out == "f16" else np.uint32),
                              want.view(np.uint16 if self.out == "f16" else np.uint32)):
            return f"not bit-identical to the f32 steps, max diff {np.abs(got.astype(np.float64) - want).max()}"
        # The documented bound (Quantized.h / the ODS description): per
        # term 3 roundings, G additions; u = 2^-24, plus the output rounding.
        gx = self.sx[1] if self.sx and self.sx[1] else K
        gw = self.sw[1] if self.sw and self.sw[1] else K
        groups = K // min(gx, gw)
        u = 2.0 ** -24
        # Sum of |terms| bounds every partial sum.
        bound = (groups + 3) * u * self.term_magnitude() + (
            np.abs(exact) * 2.0 ** -11 if self.out == "f16" else 0)
        err = np.abs(got.astype(np.float64) - exact)
        if self.out == "f16":
            # Beyond the f16 range the result is inf, as rounding says.
            err[np.abs(exact) > 65504] = 0
        if (err > bound + 1e-30).any():
            return f"error {err.max()} beyond the bound"
        return ""

    def term_magnitude(self):
        """sum_j |acc_j * sx * sw| + |bias|, in float64."""
        x = self.x.astype(np.int64)
        w = self.w.astype(np.int64)
        zx = self.per_k(self.zxv, self.zx[1], B) if self.zx else np.zeros((B, K), np.int64)
        zw = self.per_k(self.zwv, self.zw[1], M) if self.zw else np.zeros((M, K), np.int64)
        gx = self.sx[1] if self.sx and self.sx[1] else K
        gw = self.sw[1] if self.sw and self.sw[1] else K
        c = min(gx, gw)
        acc = ((x - zx).reshape(B, 1, K // c, c) * (w - zw).reshape(1, M, K // c, c)).sum(axis=3)
        total = np.zeros((B, M))
        for j in range(K // c):
            e = np.abs(acc[:, :, j]).astype(np.float64)
            if self.sx:
                e = e * self.per_k(self.sxv, self.sx[1], B)[:, j * c][:, None]
            if self.sw:
                e = e * self.per_k(self.swv, self.sw[1], M)[:, j * c][None, :]
            total += e
        if self.bias:
            total += np.abs(self.biasv)
        return total


def run_cases(args, tag, cases):
    os.makedirs(args.tmp, exist_ok=True)
    failures = 0
    for case in cases:
        base = os.path.join(args.tmp, case.name)
        mlir = base + ".mlir"
        with open(mlir, "w") as f:
            f.write(case.program())
        paths = case.files(base)
        out = base + ".out.npy"
        err = run(args, mlir, case.name, paths, [(len(paths) - 1, out)])
        if err:
            print(f"FAIL {case.name}: {err}")
            failures += 1
            continue
        why = case.check(np.load(out))
        if why:
            print(f"FAIL {case.name}: {why}")
            failures += 1
    print(f"{tag}: {len(cases)} cases, {failures} failures")
    return failures


def integer_cases(rng):
    cases = []
    i = 0
    for xin, wint in itertools.product(("I8", "U8"), ("I8", "U8", "I4", "U4")):
        for zw, zx, red, bias in [
                (("U8", 0), None, None, None),
                (("I8", K), ("I32", 0), None, "I32"),
                (("U8", 16), ("U8", 32), None, None),
                (("U8", 16), None, ("I32", 16), "I32"),
                (("I32", 32), ("I32", 0), ("I32", 16), None),
                (("U8", K), ("U8", 16), ("I32", 8), "I32"),
                (("I8", 0), ("I8", 0), ("I32", 64), None)]:
            cases.append(Case(rng, f"int{i}", xin, wint, "i32", zw=zw, zx=zx,
                              red=red, bias=bias))
            i += 1
    return cases


def float_cases(rng):
    cases = []
    i = 0
    for out, (sw, sx), (zw, zx, red), bias in itertools.product(
            ("f32", "f16"),
            [(("F16", K), ("F32", 16)), (("F32", 16), ("F16", 16)),
             (("BF16", 32), ("F32", 0)), (("F16", 0), None),
             (None, ("F32", 32)), (("F32", 16), ("F32", 64))],
            [(("U8", K), None, ("I32", 16)), (("U8", 16), ("I32", 0), None),
             (("I8", 16), ("U8", 16), ("I32", 16)), (None, None, None)],
            (None, "F32", "F16")):
        if red and red[1] > min(sw[1] if sw and sw[1] else K, sx[1] if sx and sx[1] else K):
            continue
        cases.append(Case(rng, f"float{i}", ("I8", "U8")[i % 2], ("U8", "I8")[i // 2 % 2],
                          out, zw=zw, sw=sw, zx=zx, sx=sx, red=red, bias=bias))
        i += 1
    return cases


def shared_reductions(args):
    """One R (groups of 16) serves three weight matrices whose zero points
    are grouped by 16, by 64 (coarser: the sum of four R groups) and per
    tensor; each product is checked exactly."""
    rng = np.random.default_rng(7)
    g = 16
    x = rng.integers(-128, 128, (B, K))
    red = x.reshape(B, K // g, g).sum(axis=2)
    specs = [("group 16", 16), ("group 64", 64), ("per_tensor", 0)]
    ws, zs = [], []
    clauses = []
    for i, (txt, zg) in enumerate(specs):
        ws.append(rng.integers(0, 256, (M, K)))
        zs.append(rng.integers(0, 256, (1, 1) if zg == 0 else (M, K // zg)))
        clauses.append(f"""  coopvec.batch_matvec %x as I8, %w{i}[%c0] matrix<U8, {M}x{K}, RowMajor> stride %cs
      weight_zero_points %z{i}[%c0] as U8 {txt} : memref<?xi8>
      reductions %r as I32 group {g} : memref<?x{K // g}xi32>
      into %y{i} : memref<?x{K}xi8>, memref<?xi8> -> memref<?x{M}xi32>""")
    sig = ", ".join([f"%x: memref<?x{K}xi8>", f"%r: memref<?x{K // g}xi32>"] +
                    [f"%w{i}: memref<?xi8>, %z{i}: memref<?xi8>, %y{i}: memref<?x{M}xi32>"
                     for i in range(3)])
    prog = f"""func.func @shared({sig}) {{
  %c0 = arith.constant 0 : index
  %cs = arith.constant {K} : index
{chr(10).join(clauses)}
  return
}}
"""
    os.makedirs(args.tmp, exist_ok=True)
    base = os.path.join(args.tmp, "shared")
    with open(base + ".mlir", "w") as f:
        f.write(prog)
    paths = [base + ".x.npy", base + ".r.npy"]
    np.save(paths[0], x.astype(np.int8))
    np.save(paths[1], red.astype(np.int32))
    outs = []
    for i in range(3):
        for tag, data in (("w", ws[i].astype(np.uint8).tobytes()),
                          ("z", zs[i].astype(np.uint8).tobytes())):
            path = f"{base}.{tag}{i}.npy"
            save_bytes(path, data)
            paths.append(path)
        path = f"{base}.y{i}.npy"
        np.save(path, np.zeros((B, M), np.int32))
        paths.append(path)
        outs.append((len(paths) - 1, f"{base}.out{i}.npy"))
    err = run(args, base + ".mlir", "shared", paths, outs)
    failures = 0
    if err:
        print(f"FAIL shared: {err}")
        failures = 3
    else:
        for i, (txt, zg) in enumerate(specs):
            zk = Case.per_k(zs[i], zg, M)
            want = (x.astype(np.int64)[:, None, :] *
                    (ws[i] - zk).astype(np.int64)[None, :, :]).sum(axis=2)
            got = np.load(outs[i][1])
            if not np.array_equal(got, want):
                print(f"FAIL shared {txt}: max diff {np.abs(got - want).max()}")
                failures += 1
    print(f"shared: 3 cases, {failures} failures")
    return failures


def quantize_reference(xf, group, asym):
    """coopvec.quantize_rows in NumPy f32 (Quantized.h)."""
    rows, n = xf.shape
    blocks = xf.reshape(rows, n // group, group).astype(np.float32)
    if asym:
        lo = np.minimum(blocks.min(axis=2), np.float32(0))
        hi = np.maximum(blocks.max(axis=2), np.float32(0))
        s = (hi - lo) / np.float32(255)
    else:
        s = np.abs(blocks).max(axis=2) / np.float32(127)
    s = np.where(s > 0, s, np.float32(1)).astype(np.float32)
    r = np.rint(blocks / s[:, :, None])
    if asym:
        z = np.clip(np.rint(-lo / s), 0, 255).astype(np.float32)
        q = np.clip(r + z[:, :, None], 0, 255)
    else:
        z = np.zeros_like(s)
        q = np.clip(r, -127, 127)
    q = q.astype(np.int64)
    return q.reshape(rows, n), s, z.astype(np.int64), q.sum(axis=2)


def quantize_cases(args):
    """quantize_rows (f32 and f16 rows, I8 and U8) feeding quantized products
    with and without reductions: quantized values, scales, zero points and
    reductions bit-exact against NumPy, the two products bit-identical to
    each other and to the reference steps, and close to the f32 product."""
    rng = np.random.default_rng(11)
    failures = 0
    count = 0
    os.makedirs(args.tmp, exist_ok=True)
    for in_ty, interp, group in itertools.product(("f32", "f16"), ("U8", "I8"), (16, 32, 64)):
        count += 1
        name = f"quantize_{in_ty}_{interp}_{group}"
        asym = interp == "U8"
        xf = rng.normal(0.3, 1.0, (B, K)).astype(np.float16 if in_ty == "f16" else np.float32)
        w = rng.integers(-128, 128, (M, K))
        zw = rng.integers(-20, 20, (M, 1))
        sw = rng.uniform(0.001, 0.01, (M, 1)).astype(np.float32)
        G = K // group
        zx_arg = f", %z: memref<?x{G}xi32>" if asym else ""
        zx_clause = f" zero_points %z : memref<?x{G}xi32>" if asym else ""
        zx_use = f"input_zero_points %z as I32 group {group} : memref<?x{G}xi32>" if asym else ""
        prog = f"""func.func @{name}(%xf: memref<?x{K}x{in_ty}>, %q: memref<?x{K}xi8>, %s: memref<?x{G}xf32>{zx_arg},
    %r: memref<?x{G}xi32>, %w: memref<?xi8>, %zw: memref<?xi8>, %sw: memref<?xi8>, %y: memref<?x{M}xf32>, %y2: memref<?x{M}xf32>) {{
  %c0 = arith.constant 0 : index
  %cs = arith.constant {K} : index
  coopvec.quantize_rows %xf : memref<?x{K}x{in_ty}> group {group} as {interp} into %q : memref<?x{K}xi8>
      scales %s : memref<?x{G}xf32>{zx_clause} reductions %r : memref<?x{G}xi32>
  coopvec.batch_matvec %q as {interp}, %w[%c0] matrix<I8, {M}x{K}, RowMajor> stride %cs
      weight_zero_points %zw[%c0] as I8 group {K} : memref<?xi8>
      weight_scales %sw[%c0] as F32 group {K} : memref<?xi8>
      {zx_use}
      input_scales %s as F32 group {group} : memref<?x{G}xf32>
      reductions %r as I32 group {group} : memref<?x{G}xi32>
      into %y : memref<?x{K}xi8>, memref<?xi8> -> memref<?x{M}xf32>
  coopvec.batch_matvec %q as {interp}, %w[%c0] matrix<I8, {M}x{K}, RowMajor> stride %cs
      weight_zero_points %zw[%c0] as I8 group {K} : memref<?xi8>
      weight_scales %sw[%c0] as F32 group {K} : memref<?xi8>
      {zx_use}
      input_scales %s as F32 group {group} : memref<?x{G}xf32>
      into %y2 : memref<?x{K}xi8>, memref<?xi8> -> memref<?x{M}xf32>
  return
}}
"""
        base = os.path.join(args.tmp, name)
        with open(base + ".mlir", "w") as f:
            f.write(prog)
        arrays = [("xf", xf), ("q", np.zeros((B, K), np.int8)),
                  ("s", np.zeros((B, G), np.float32))]
        if asym:
            arrays.append(("z", np.zeros((B, G), np.int32)))
        arrays += [("r", np.zeros((B, G), np.int32)),
                   ("w", np.frombuffer(w.astype(np.int8).tobytes(), np.int8)),
                   ("zw", np.frombuffer(zw.astype(np.int8).tobytes(), np.int8)),
                   ("sw", np.frombuffer(sw.tobytes(), np.int8)),
                   ("y", np.zeros((B, M), np.float32)),
                   ("y2", np.zeros((B, M), np.float32))]
        paths = []
        for tag, arr in arrays:
            path = f"{base}.{tag}.npy"
            if tag in ("zw",):
                arr = np.concatenate([arr, np.zeros(16, np.int8)])
            np.save(path, arr)
            paths.append(path)
        index = {tag: i for i, (tag, _) in enumerate(arrays)}
        outs = [(index[t], f"{base}.out_{t}.npy") for t in ("q", "s", "r", "y", "y2") + (("z",) if asym else ())]
        err = run(args, base + ".mlir", name, paths, outs)
        if err:
            print(f"FAIL {name}: {err}")
            failures += 1
            continue
        got = {t: np.load(path) for (i, path), t in zip(outs, ("q", "s", "r", "y", "y2", "z"))}
        q, s, z, red = quantize_reference(xf.astype(np.float32), group, asym)
        qgot = got["q"].astype(np.int64) & 0xFF if asym else got["q"].astype(np.int64)
        why = []
        if not np.array_equal(qgot, q):
            why.append("quantized values")
        if not np.array_equal(got["s"].view(np.uint32), s.view(np.uint32)):
            why.append("scales")
        if asym and not np.array_equal(got["z"], z):
            why.append("zero points")
        if not np.array_equal(got["r"], red):
            why.append("reductions")
        if not np.array_equal(got["y"].view(np.uint32), got["y2"].view(np.uint32)):
            why.append("with and without reductions differ")
        # The reference steps on the quantized operands.
        case = Case.__new__(Case)
        case.x, case.w, case.out, case.bias = q, w, "f32", None
        case.zw, case.zwv = ("I8", K), zw
        case.sw, case.swv = ("F32", K), sw
        case.zx, case.zxv = (("I32", group), z) if asym else (None, None)
        case.sx, case.sxv = ("F32", group), s
        want, _ = case.expected()
        if not np.array_equal(got["y"].view(np.uint32), want.view(np.uint32)):
            why.append("product differs from the reference steps")
        # Against the f32 product of the dequantized weights: the
        # quantization error of x, at most half a step per element.
        wdq = (w - zw).astype(np.float64) * sw
        ref = xf.astype(np.float64) @ wdq.T
        step = np.repeat(s.astype(np.float64), group, axis=1)
        tol = 0.5 * step @ np.abs(wdq).T + 1e-3 * np.abs(ref) + 1e-4
        if (np.abs(got["y"] - ref) > tol).any():
            why.append(f"beyond the quantization error bound ({np.abs(got['y'] - ref).max()})")
        if why:
            print(f"FAIL {name}: " + ", ".join(why))
            failures += 1
    print(f"quantize: {count} cases, {failures} failures")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("group", choices=["int", "float", "shared", "quantize"])
    ap.add_argument("--runner", required=True)
    ap.add_argument("--tmp", required=True)
    args = ap.parse_args()
    if args.group == "shared":
        sys.exit(1 if shared_reductions(args) else 0)
    if args.group == "quantize":
        sys.exit(1 if quantize_cases(args) else 0)
    rng = np.random.default_rng(15)
    cases = integer_cases(rng) if args.group == "int" else float_cases(rng)
    sys.exit(1 if run_cases(args, args.group, cases) else 0)


if __name__ == "__main__":
    main()
