#!/usr/bin/env python3
"""Csmith-style differential testing of coopvec across targets.

A seeded generator of random valid coopvec programs (matvec with every input
interpretation, matrix and bias interpretation, layout, transpose, block
scale and signedness the verifier accepts; batch_matvec; outer-product and
vector accumulation; convert and mx_quantize; invocations in scf.for loops,
with dynamic matrix offsets; with --only quantized, the quantized form of
batch_matvec), a NumPy reference written from the dialect's
documentation (docs/Dialects/CoopVecDialect.md, include/LinAlgCoop/Runtime/
Numerics.h and Layout.h), and a runner that executes every program on every
target of TARGETS available here and compares:

  * integer paths bit-exact (exact sums, DXIL saturating conversions);
  * block-scaled products bit-exact (the documented order: f32 products
    summed in increasing k from +0.0, no fusion, bias, one rounding);
  * other float paths within an interval: the result must lie between the
    output roundings of ref - e and ref + e, where ref is the exact
    (float64) sum of the f32 products and e = (K + 3) * 2^-24 * (sum |w x|
    + |bias|) + (K + 3) * 2^-149 bounds any f32 summation order with or
    without fused multiply-adds (see README.md);
  * accumulations: intervals propagated step by step through the
    destination's rounding; every byte that is not an element unchanged.

A small fraction of programs are deliberately invalid (one verifier rule
broken): every target must exit non-zero with a located `file:line:col:
error:` and never crash.

Prints `N programs, N target runs, N failures` and, per failure, the path of
a directory holding the program, its inputs and a `run.sh` reproducer.
"""

import argparse
import collections
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import numpy as np

#===----------------------------------------------------------------------===#
# Targets: adding one is adding an entry here.
#===----------------------------------------------------------------------===#

DXIL_INTERPS = {"I16", "U16", "I32", "U32", "F16", "F32", "PackedS8x32", "PackedU8x32",
                "U8", "I8", "F8_E4M3", "F8_E5M2"}


def dxil_supports(op):
    """What the DXIL lowering takes: one invocation's matvec, outer-product
    and vector accumulation over DXIL's ComponentTypes, outer products only
    into TrainingOptimal matrices with stride 0, no block scales."""
    if op["kind"] == "matvec":
        return (op.get("kind_detail") != "batch_matvec" and op["in_interp"] in DXIL_INTERPS and op["matrix"] in DXIL_INTERPS
                and (op["bias"] is None or op["bias"] in DXIL_INTERPS) and op["scale"] is None)
    if op["kind"] == "outer":
        return (op["matrix"] in DXIL_INTERPS and op["layout"] == "TrainingOptimal"
                and op["stride"] == 0)
    if op["kind"] == "vacc":
        return True
    return False


# What convert-coopvec-to-spirv takes under the vulkan1.3 profile
# (lib/Dialect/CoopVec/Transforms/Profiles.cpp, kVulkanMatVec and
# kVulkanVectorAccumulate): (matrix, input interpretation, physical inputs,
# results); the bias, when there is one, has the result's interpretation
# (the profile lists no biases of its own).
#
# The combinations the vulkan1.3 profile lists and convert-coopvec-to-spirv
# lowers: (matrix, input interpretation, input element types, results).
VK_MATVEC = [
    ("F32", "F32", ("f32", "f16"), ("F32",)),
    ("F16", "F16", ("f16", "f32"), ("F32", "F16")),
    ("F16", "F32", ("f16", "f32"), ("F32", "F16")),
    ("I8", "PackedS8x32", ("i32",), ("I32", "F32")),
    ("I8", "I8", ("f32",), ("I32", "F32")),
    ("I8", "U8", ("f32",), ("I32", "F32")),
    ("U8", "PackedS8x32", ("i32",), ("I32", "F32")),
    ("U8", "I8", ("f32",), ("I32", "F32")),
    ("U8", "U8", ("f32",), ("I32", "F32")),
    ("U8", "PackedU8x32", ("i32",), ("U32",)),
    ("I8", "PackedU8x32", ("i32",), ("I32",)),
] + [(matrix, interp, ("f16", "f32"), ("F32", "F16"))
      for matrix in ("F8_E4M3", "F8_E5M2", "F6_E2M3", "F6_E3M2", "F4_E2M1")
      for interp in ("F8_E4M3", "F8_E5M2", "F16", "F32")]
# The block scales of those matrices: OCP MX (UE8M0 x 32, or x 16 over
# E2M1) and NVFP4 (UE4M3 x 16 over E2M1).
VK_SCALES = {"F4_E2M1": [("f8E8M0FNU", 32), ("f8E8M0FNU", 16), ("f8E4M3FN", 16)]}
for _m in ("F8_E4M3", "F8_E5M2", "F6_E2M3", "F6_E3M2"):
    VK_SCALES[_m] = [("f8E8M0FNU", 32)]
VK_INT_BIASES = ("I32", "U32", "I16", "U16")


VK_VACC = True  # vector_accumulate: i32 (OpAtomicIAdd), f32/f16 (CAS loops)


def vulkan_supports(op):
    """What the Vulkan lowering takes: one invocation's matvec (a single one
    or a loop of them) in every layout (transposed where the layout allows),
    the combinations of VK_MATVEC, block scales of VK_SCALES;
    vector_accumulate of i32, f32 and f16."""
    if op["kind"] == "matvec":
        if (op.get("kind_detail") == "batch_matvec"
                or (op["scale"] is not None
                    and tuple(op["scale"]) not in VK_SCALES.get(op["matrix"], []))
                or max(op["m"], op["k"]) > 4096):
            return False
        res = out_interp(op["out"], op["out_uns"])
        for matrix, interp, phys, results in VK_MATVEC:
            if (op["matrix"] == matrix and op["in_interp"] == interp and op["in_phys"] in phys
                    and res in results
                    and (op["bias"] is None or op["bias"] == res
                         or ((res in ("I32", "U32") or matrix in ("I8", "U8"))
                             and op["bias"] in VK_INT_BIASES)
                         or (res in ("F32", "F16") and op["bias"] in ("F32", "F16")))
                    and not (op["in_uns"] and op["in_phys"].startswith("f"))):
                return True
        return False
    if op["kind"] == "vacc":
        return VK_VACC and op["vec"] in ("i32", "f32", "f16")
    # The quantized form of batch_matvec, as one thread runs it.
    return op["kind"] == "quantized"


# lavapipe (llvmpipe's gallivm) ends every loop of a shader invocation
# silently once the invocation has taken LP_MAX_TGSI_LOOP_ITERATIONS
# (65535) loop iterations in all; the single-thread kernel runs each
# matvec as loops over rows and k, so programs that would take more
# (counted generously: rows x (k + 2) per invocation) are left out.
VK_LOOP_BUDGET = 60000


def vulkan_wants(ops):
    return (all(vulkan_supports(op) for op in ops)
            and sum(vulkan_loop_cost(op) for op in ops) <= VK_LOOP_BUDGET)


def vulkan_loop_cost(op):
    """Loop iterations of an op in the single-thread kernel, generously:
    a matvec loops over rows and k; the quantized form also over the
    compute, zero-point and reduction groups of each output (up to about
    2k more per output)."""
    if op["kind"] == "matvec":
        return max(op["loop"], 1) * op["m"] * (op["k"] + 2)
    if op["kind"] == "quantized":
        return op["rows"] * op["m"] * (3 * op["k"] + 8)
    return 0


def vulkan_program(p, text):
    """The program for the Vulkan target: @main's body moved into one
    single-thread gpu.launch (outlined by coopvec-run). Vector arguments
    become memrefs loaded inside the kernel, results become memref arguments
    stored at its end (returned as extra arguments, see Target.rewrite), and
    the rank-2 memrefs of loops get their static shapes (SPIR-V needs them).
    Works on the text, so that invalid variants are wrapped too."""
    lines = text.rstrip("\n").split("\n")
    ret = max(i for i, l in enumerate(lines) if l.startswith("  return"))
    body = lines[1:ret]
    params, pre, post, extra = [], [], [], []
    static = {}
    for name, ty, path in p.args:
        if ty.startswith("vector<"):
            mty = "memref<" + ty[len("vector<"):]
            params.append(f"{name}_vk: {mty}")
            pre.append(f"{name} = vector.load {name}_vk[%vk_c0] : {mty}, {ty}")
        elif ty.startswith("memref<?x") and ty.count("x") > 1:
            static[name] = np.load(path, mmap_mode="r").shape[0]
            params.append(f"{name}: memref<{static[name]}x{ty[len('memref<?x'):]}")
        else:
            params.append(f"{name}: {ty}")
    for i, (name, ty, _) in enumerate(p.results):
        mty = "memref<" + ty[len("vector<"):]
        shape = int(ty[len("vector<"):].split("x")[0])
        params.append(f"%vk_r{i}: {mty}")
        post.append(f"vector.store {name}, %vk_r{i}[%vk_c0] : {mty}, {ty}")
        extra.append(np.zeros(shape, PHYS[ty[:-1].split("x")[-1]][0]))
    for j, l in enumerate(body):
        for name, c in static.items():
            if re.search(re.escape(name) + r"(?!\w)", l):
                body[j] = l = re.sub(r"memref<\?x(?=\d)", f"memref<{c}x", l)
    out = [f"func.func @main({', '.join(params)}) {{",
           "  %vk_c1 = arith.constant 1 : index",
           "  gpu.launch blocks(%vk_bx, %vk_by, %vk_bz) in (%vk_gx = %vk_c1, %vk_gy = %vk_c1, %vk_gz = %vk_c1)",
           "             threads(%vk_tx, %vk_ty, %vk_tz) in (%vk_sx = %vk_c1, %vk_sy = %vk_c1, %vk_sz = %vk_c1) {",
           "    %vk_c0 = arith.constant 0 : index"]
    out += ["    " + l for l in pre] + ["  " + l for l in body] + ["    " + l for l in post]
    out += ["    gpu.terminator", "  }", "  return", "}"]
    return "\n".join(out) + "\n", extra


# What convert-coopvec-to-riscv takes (lib/Conversion/CoopVecToRISCV,
# planCommon, and its C target's function rules): I8/U8 matrices in every
# layout (transposed where the layout allows), no block scales; I8, U8, PackedS8x32
# or PackedU8x32 inputs of i32 or f32 elements; signed i32, f32 or f16
# results; an I32 bias. A single matvec (alone or chained) or a batch_matvec: the C
# target lowers no scf.for loop.
RV_MATRICES = ("I8", "U8")
RV_INPUTS = ("I8", "U8", "PackedS8x32", "PackedU8x32")
RV_VLENS = (128, 256, 512, 1024)


def rv_supports(op):
    if op["kind"] != "matvec":
        return False
    return ((not op["loop"] or op.get("kind_detail") == "batch_matvec")
            and op["matrix"] in RV_MATRICES and op["scale"] is None and op["in_interp"] in RV_INPUTS
            and op["in_phys"] in ("i32", "f32") and op["out"] in ("i32", "f32", "f16")
            and not op["out_uns"] and op["bias"] in (None, "I32"))


def rv_flags(p):
    """The isa, VLEN and LMUL a program runs at, a function of (seed, index)
    like the program: Nuclei vqmacc (through xl_vqmacc.h), the generic RVV
    path, or one of the SiFive shapes (LLVM IR, emulated); every VLEN qemu
    has (256 up for SiFive 4x8x4); LMUL automatic or forced, where it holds
    whole tiles: 8 for SiFive; for vqmacc, a 4x4 int32 C tile (VLEN x LMUL
    >= 512); any for the RVV path."""
    r = np.random.default_rng(list(p.key) + [11])
    isa = str(r.choice(["xxlvqmacc", "rvv", "xsfvqmacc-4x8x4", "xsfvqmacc-2x8x2"]))
    vlen = int(r.choice(RV_VLENS[1:] if isa == "xsfvqmacc-4x8x4" else RV_VLENS))
    lmuls = [0, 8] if isa.startswith("xsf") else \
        [0] + [m for m in (1, 2, 4, 8) if isa == "rvv" or vlen * m >= 512]
    lmul = int(r.choice(lmuls))
    return [f"--isa={isa}", f"--vlen={vlen}", f"--lmul={lmul}"]


class Target:
    """A target: a name, the lit feature that says it is here, how to run a
    program (pipeline given to the runner, or a runner of its own), and which
    ops it takes."""

    def __init__(self, name, feature, pipeline=None, supports=lambda op: True, runner=None,
                 runtime_error=r"coopvec runtime error: coopvec\.\w+ at \S+\.mlir:\d+:\d+: ",
                 wants=lambda ops: True, flags=(), rewrite=None, bounds_checked=True,
                 concurrent=True, common=True, vary=None, alone=False):
        self.name, self.feature, self.pipeline = name, feature, pipeline
        self.supports, self.runner, self.wants = supports, runner, wants
        # Extra runner flags; rewrite(p, text) -> (text, extra argument
        # arrays): the program this target runs, its results turned into
        # the extra (output) arguments appended to @main's.
        self.flags, self.rewrite = list(flags), rewrite
        # bounds_checked: reports a buffer access out of range (else the
        # runtime-invalid programs skip it); concurrent: takes
        # --invocations; common: the half of the programs that only use
        # every target's ops restricts itself to this target's ops too.
        self.bounds_checked, self.concurrent, self.common = bounds_checked, concurrent, common
        # vary(p) -> extra flags for program p (its own rng); alone: this
        # target's narrow programs (common=False) are drawn for it alone,
        # not restricted to the ops of every common target too.
        self.vary, self.alone = vary, alone
        # How the target reports a buffer access out of range (a runtime
        # error naming the op), for the runtime-invalid programs.
        self.runtime_error = re.compile(runtime_error)

    def command(self, args, mlir, p):
        flags = self.flags + (self.vary(p) if self.vary else [])
        cmd = [self.runner or args.runner] + flags + [mlir, "-e", "main", "--no-print"]
        if self.pipeline:
            cmd.append("--pass-pipeline=" + self.pipeline)
        return cmd


TARGETS = [
    Target("cpu", "coopvec-run"),
    Target("dxil", "coopvec-dxil-driver",
           "builtin.module(coopvec-dxil-pipeline{emulate=true host-driver=true})", dxil_supports,
           runtime_error=r"coopvec-dxil: error: dx\.op\.\w+"),
    # The tile level (tile_pack + loop nest + tile_mma) under the CPU
    # pipeline, at an odd tile shape: loops become batch_matvec first.
    Target("cpu-tile", "coopvec-run",
           "builtin.module(coopvec-batch,coopvec-tile{tile-m=4 tile-n=3 tile-k=8},coopvec-cpu-pipeline)",
           wants=lambda ops: any(op["kind"] == "matvec" and op["loop"] for op in ops)),
    # RISC-V under qemu (coopvec-rv-run: EmitC with the Nuclei vqmacc
    # intrinsics or generic RVV, or SiFive's LLVM intrinsics, emulated), at
    # the isa, VLEN and LMUL of rv_flags.
    Target("rv", "coopvec-rv-run", None, rv_supports, runner="coopvec-rv-run",
           wants=lambda ops: all(rv_supports(op) for op in ops), concurrent=False,
           common=False, vary=rv_flags, alone=True),
    # Vulkan 1.3 (lavapipe here, under the validation layer): @main's body
    # in one single-thread gpu.launch, compiled to SPIR-V. Its narrow
    # programs are its own (alone): 6- and 4-bit float and block-scaled
    # matrices, which DXIL lacks, included.
    Target("vulkan", "vulkan", None, vulkan_supports, flags=("--gpu-api=vulkan", "--vulkan-validation"),
           rewrite=vulkan_program, wants=vulkan_wants,
           bounds_checked=False, concurrent=False, common=False, alone=True),
]

#===----------------------------------------------------------------------===#
# Formats (docs: #coopvec.interp, Numerics.h)
#===----------------------------------------------------------------------===#

# Float formats: (exponent bits, mantissa bits, bias, max finite, has inf).
FLOATS = {
    "F32": (8, 23, 127, (2 - 2.0**-23) * 2.0**127, True),
    "F16": (5, 10, 15, 65504.0, True),
    "BF16": (8, 7, 127, (2 - 2.0**-7) * 2.0**127, True),
    "F8_E4M3": (4, 3, 7, 448.0, False),
    "F8_E5M2": (5, 2, 15, 57344.0, True),
    "F6_E2M3": (2, 3, 1, 7.5, False),
    "F6_E3M2": (3, 2, 3, 28.0, False),
    "F4_E2M1": (2, 1, 1, 6.0, False),
}
INTS = {"I8": (-128, 127), "U8": (0, 255), "I16": (-2**15, 2**15 - 1), "U16": (0, 2**16 - 1),
        "I32": (-2**31, 2**31 - 1), "U32": (0, 2**32 - 1), "I4": (-8, 7), "U4": (0, 15)}
PACKED = ("PackedS8x32", "PackedU8x32")
ALL_INTERPS = list(INTS) + list(FLOATS) + list(PACKED)
MEMORY_INTERPS = list(INTS) + list(FLOATS)
ACCUM_INTERPS = ["I16", "U16", "I32", "U32", "F16", "F32", "U8", "I8", "F8_E4M3", "F8_E5M2", "BF16"]
# Bytes an element takes in memory (4-bit: half a byte, handled as pairs).
STORAGE = {"F32": 4, "F16": 2, "BF16": 2, "F8_E4M3": 1, "F8_E5M2": 1, "F6_E2M3": 1, "F6_E3M2": 1,
           "F4_E2M1": 1, "I8": 1, "U8": 1, "I16": 2, "U16": 2, "I32": 4, "U32": 4, "I4": 1, "U4": 1}
NIBBLE = ("F4_E2M1", "I4", "U4")
PHYS = {"f32": (np.float32, "F32"), "f16": (np.float16, "F16"), "i32": (np.int32, "I32"),
        "i16": (np.int16, "I16")}
UNSIGNED_PHYS = {"i32": "U32", "i16": "U16"}
LAYOUTS = ["RowMajor", "ColumnMajor", "InferencingOptimal", "TrainingOptimal"]


def is_float(interp):
    return interp in FLOATS


def decode(interp, codes):
    """Exact float64 values of element codes (uint64 array)."""
    codes = np.asarray(codes, np.uint64)
    if interp in INTS:
        lo, hi = INTS[interp]
        bits = {"I8": 8, "U8": 8, "I16": 16, "U16": 16, "I32": 32, "U32": 32, "I4": 4, "U4": 4}[interp]
        v = (codes & np.uint64((1 << bits) - 1)).astype(np.int64)
        if lo < 0:
            v = np.where(v >= (1 << (bits - 1)), v - (1 << bits), v)
        return v.astype(np.float64)
    e, m, bias, _, has_inf = FLOATS[interp]
    width = 1 + e + m
    c = (codes & np.uint64((1 << width) - 1)).astype(np.int64)
    sign = np.where(c >> (e + m) & 1, -1.0, 1.0)
    ex = (c >> m) & ((1 << e) - 1)
    man = (c & ((1 << m) - 1)).astype(np.float64)
    val = np.where(ex == 0, np.ldexp(man, 1 - bias - m),
                   np.ldexp(man + (1 << m), (ex - bias - m).astype(np.int64)))
    val = sign * val
    top = ex == (1 << e) - 1
    if has_inf:
        val = np.where(top & (man == 0), sign * np.inf, val)
        val = np.where(top & (man != 0), np.nan, val)
    elif interp == "F8_E4M3":
        val = np.where(top & (man == (1 << m) - 1), np.nan, val)
    return val


def round_float(x, interp, mode="rn", sat=True, keep_inf=False):
    """x (float64) rounded to a float format as IEEE-754 defines each mode on
    the exact value; beyond the range: +-MAX_NORM with sat (the DXIL
    conversion rule and PTX .satfinite), else IEEE overflow. An infinite x
    gives +-MAX_NORM with sat or in a format without inf, unless keep_inf
    (the DXIL rule: inf stays inf where the format has one)."""
    e, m, bias, maxv, has_inf = FLOATS[interp]
    x = np.asarray(x, np.float64)
    emin = 1 - bias
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        a = np.abs(x)
        _, ex = np.frexp(np.where(np.isfinite(a) & (a > 0), a, 1.0))
        ex = np.maximum(ex - 1, emin)
        q = np.ldexp(x, (m - ex).astype(np.int64))
        if mode == "rn":
            r = np.rint(q)
        elif mode == "rz":
            r = np.trunc(q)
        elif mode == "rm":
            r = np.floor(q)
        elif mode == "rp":
            r = np.ceil(q)
        elif mode == "rna":
            r = np.sign(q) * np.floor(np.abs(q) + 0.5)
        y = np.ldexp(r, (ex - m).astype(np.int64))
        y = np.where(x == 0, x, y)  # keeps the sign of zero
        over = np.abs(y) > maxv
        if sat or not has_inf:
            y = np.where(over, np.sign(y) * maxv, y)
        else:
            to_inf = {"rn": over, "rna": over, "rz": np.zeros_like(over),
                      "rp": over & (y > 0), "rm": over & (y < 0)}[mode]
            y = np.where(to_inf, np.sign(y) * np.inf, np.where(over, np.sign(y) * maxv, y))
        inf_to_max = not has_inf or (sat and not keep_inf)
        y = np.where(np.isinf(x), np.sign(x) * (maxv if inf_to_max else np.inf), y)
        y = np.where(np.isnan(x), np.nan, y)
    return y


def round_to(interp, x):
    """The DXIL conversion of an exact value to an interpretation: RTNE,
    saturating (floats to +-MAX_NORM, integers to their range, NaN to 0)."""
    x = np.asarray(x, np.float64)
    if interp in FLOATS:
        return round_float(x, interp, keep_inf=True)
    lo, hi = INTS[interp]
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(x), 0.0, np.clip(np.rint(x), lo, hi))


def round_int_exact(n, interp):
    """An exact Python integer converted to an interpretation (RTNE from the
    exact integer, saturating), as a float64 value. Integers via Python ints
    so that 64-bit sums do not round twice."""
    if interp in INTS:
        lo, hi = INTS[interp]
        return float(min(max(n, lo), hi))
    e, m, bias, maxv, _ = FLOATS[interp]
    a = abs(n)
    if a == 0:
        return 0.0
    shift = a.bit_length() - (m + 1)
    if shift > 0:
        q, r = divmod(a, 1 << shift)
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
        a = q << shift
    v = min(float(a), maxv) if a < (1 << 1100) else maxv
    return -v if n < 0 else v


def f32(x):
    """Round to f32 (RTNE) with IEEE overflow to inf, as a C float cast."""
    with np.errstate(over="ignore"):
        return np.asarray(x, np.float64).astype(np.float32).astype(np.float64)


#===----------------------------------------------------------------------===#
# Layouts (Layout.h) and buffers
#===----------------------------------------------------------------------===#

def cdiv(a, b):
    return -(-a // b)


def unit_cols(interp, cols):
    """Columns of the byte matrix a stored matrix takes (4-bit: pairs)."""
    return cdiv(cols, 2) if interp in NIBBLE else cols


def elem_offset(layout, r, c, es, stride, cols):
    if layout == "RowMajor":
        return r * stride + c * es
    if layout == "ColumnMajor":
        return c * stride + r * es
    if layout == "InferencingOptimal":
        g = 2 if es == 1 else 1
        kp = cdiv(cols, g) * g
        return (r // 8) * (8 * kp * es) + (c // g) * (8 * g * es) + (r % 8) * (g * es) + (c % g) * es
    tc = cdiv(cols, 8)
    return ((r // 8) * tc + c // 8) * 64 * es + ((c % 8) * 8 + r % 8) * es


def layout_bytes(layout, rows, cols, es, stride):
    if layout == "RowMajor":
        return (rows - 1) * stride + cols * es
    if layout == "ColumnMajor":
        return (cols - 1) * stride + rows * es
    if layout == "InferencingOptimal":
        g = 2 if es == 1 else 1
        return cdiv(rows, 8) * 8 * cdiv(cols, g) * g * es
    return cdiv(rows, 8) * cdiv(cols, 8) * 64 * es


def min_stride(layout, rows, ucols, es):
    return (ucols if layout == "RowMajor" else rows) * es


def place_matrix(buf, off, codes, interp, layout, stride):
    """Writes a stored matrix of element codes (rows x cols, uint64) into buf
    at byte offset off; returns the mask of bytes that hold elements."""
    rows, cols = codes.shape
    es = STORAGE[interp]
    mask = np.zeros(buf.size, bool)
    if interp in NIBBLE:
        ucols = cdiv(cols, 2)
        units = np.zeros((rows, ucols), np.uint64)
        for c in range(cols):
            units[:, c // 2] |= (codes[:, c] & np.uint64(0xF)) << np.uint64(4 * (c % 2))
        if cols % 2:
            # The high nibble of an odd matrix's last pair is no element:
            # leave whatever it held (the garbage below is kept there).
            pass
    else:
        ucols, units = cols, codes
    for r in range(rows):
        for c in range(ucols):
            o = off + elem_offset(layout, r, c, es, stride, ucols)
            u = int(units[r, c])
            if interp in NIBBLE and cols % 2 and c == ucols - 1:
                u |= int(buf[o]) & 0xF0
            buf[o:o + es] = np.frombuffer(u.to_bytes(8, "little")[:es], np.uint8)
            mask[o:o + es] = True
    return mask


def read_matrix(buf, off, interp, layout, stride, rows, cols):
    es = STORAGE[interp]
    ucols = unit_cols(interp, cols)
    out = np.zeros((rows, cols), np.uint64)
    for r in range(rows):
        for c in range(cols):
            o = off + elem_offset(layout, r, c // 2 if interp in NIBBLE else c, es, stride, ucols)
            u = int.from_bytes(bytes(buf[o:o + es]), "little")
            if interp in NIBBLE:
                u = (u >> (4 * (c % 2))) & 0xF
            out[r, c] = u
    return out


#===----------------------------------------------------------------------===#
# Random values
#===----------------------------------------------------------------------===#

# NaN and infinity codes of the float formats that have them.
SPECIAL = {"F32": [0x7F800000, 0xFF800000, 0x7FC00000], "F16": [0x7C00, 0xFC00, 0x7E00],
           "BF16": [0x7F80, 0xFF80, 0x7FC0], "F8_E4M3": [0x7F, 0xFF], "F8_E5M2": [0x7C, 0xFC, 0x7E]}


def random_codes(rng, interp, shape, wide=False, special=False):
    """Element codes of an interpretation (uint64): finite, or with one NaN
    or infinity where `special` and the format has them."""
    n = int(np.prod(shape)) if shape else 1
    if special and interp in SPECIAL:
        c = random_codes(rng, interp, shape, wide)
        flat = c.reshape(-1)
        flat[rng.integers(0, n)] = np.uint64(SPECIAL[interp][rng.integers(0, len(SPECIAL[interp]))])
        return c
    if interp == "F32":
        v = rng.uniform(-1, 1, n) * np.exp2(rng.integers(-6, 6, n))
        return v.astype(np.float32).view(np.uint32).astype(np.uint64).reshape(shape)
    if interp == "F16":
        v = rng.uniform(-1, 1, n) * np.exp2(rng.integers(-6, 6, n))
        return v.astype(np.float16).view(np.uint16).astype(np.uint64).reshape(shape)
    if interp == "BF16":
        v = (rng.uniform(-1, 1, n) * np.exp2(rng.integers(-6, 6, n))).astype(np.float32)
        return (v.view(np.uint32) >> 16).astype(np.uint64).reshape(shape)
    if interp in FLOATS:
        e, m, _, _, _ = FLOATS[interp]
        width = 1 + e + m
        c = rng.integers(0, 1 << width, n).astype(np.uint64)
        bad = np.isnan(decode(interp, c)) | np.isinf(decode(interp, c))
        c[bad] = np.uint64(0)
        if width < 8:
            # Bits above a 6-bit code are ignored when read: fill them.
            c |= (rng.integers(0, 1 << (8 - width), n).astype(np.uint64) << np.uint64(width)) \
                if width == 6 else np.uint64(0)
        return c.reshape(shape)
    lo, hi = INTS[interp]
    if not wide and hi - lo > 4096:
        lo, hi = max(lo, -1000), min(hi, 2000)
    v = rng.integers(lo, hi + 1, n, dtype=np.int64)
    bits = {"I8": 8, "U8": 8, "I16": 16, "U16": 16, "I32": 32, "U32": 32, "I4": 4, "U4": 4}[interp]
    return (v & ((1 << bits) - 1)).astype(np.uint64).reshape(shape)


def random_input(rng, phys, uns, interp, k):
    """Physical input values (numpy array of the physical dtype) and their
    logical values read as interp (float64, exact)."""
    dtype = PHYS[phys][0]
    if interp in PACKED:
        words = cdiv(k, 4)
        lanes = rng.integers(0, 256, 4 * words).astype(np.uint8)
        x = lanes.view(np.int32)
        logical = lanes[:k].view(np.int8 if interp == "PackedS8x32" else np.uint8).astype(np.float64)
        return x, logical
    if phys in ("f32", "f16"):
        if interp in INTS:
            lo, hi = INTS[interp]
            span = min(max(abs(lo), hi) * 1.3, 60000.0 if phys == "f16" else 3e9)
            v = rng.uniform(-span, span, k)
            if rng.random() < 0.5:
                v = np.rint(v * 2) / 2  # halves: ties
        else:
            maxv = FLOATS[interp][3]
            top = min(maxv * 1.25, 8.0) if rng.random() < 0.3 else min(maxv, 4.0)
            if rng.random() < 0.05:
                top = min(maxv * 1.5, 70000.0)
            v = rng.uniform(-top, top, k) * (np.exp2(rng.integers(-4, 1, k)) if rng.random() < 0.5 else 1)
            if interp not in ("F32",) and rng.random() < 0.5:
                # Midpoints between neighbours of the format: ties to even.
                grid = np.unique(np.abs(round_to(interp, rng.uniform(-top, top, 2 * k))))
                if grid.size > 1:
                    i = rng.integers(0, grid.size - 1, k)
                    mids = (grid[i] + grid[i + 1]) / 2 * rng.choice([-1.0, 1.0], k)
                    pick = rng.random(k) < 0.4
                    v = np.where(pick, mids, v)
        with np.errstate(over="ignore"):
            x = v.astype(dtype)  # beyond f16: inf, a special value too
        val = x.astype(np.float64)
    else:
        lo, hi = (-2**31, 2**31 - 1) if phys == "i32" else (-2**15, 2**15 - 1)
        if uns:
            lo, hi = 0, 2 * hi + 1
        tlo, thi = INTS.get(interp, (-70000, 70000))
        if interp in FLOATS:
            mv = min(FLOATS[interp][3] * 1.3, 2**20)
            tlo, thi = -mv, mv
        a = int(max(lo, tlo * 1.3 - 3)) if rng.random() < 0.7 else lo
        b = int(min(hi, thi * 1.3 + 3)) if rng.random() < 0.7 else hi
        if a > b:
            a, b = lo, hi
        v = rng.integers(a, b + 1, k, dtype=np.int64)
        width = 32 if phys == "i32" else 16
        raw = (v & ((1 << width) - 1))
        x = raw.astype(np.uint32 if width == 32 else np.uint16).view(dtype)
        val = raw.astype(np.float64) if uns else x.astype(np.float64)
    return x, round_to(interp, val)


#===----------------------------------------------------------------------===#
# Reference semantics of a matrix-vector product (docs of coopvec.matvec)
#===----------------------------------------------------------------------===#

def out_interp(phys, uns):
    if uns:
        return UNSIGNED_PHYS[phys]
    return PHYS[phys][1]


def out_bits_to_value(y, phys, uns):
    """Observed result elements as float64 values."""
    if uns:
        return y.view(np.uint32 if phys == "i32" else np.uint16).astype(np.float64)
    return y.astype(np.float64)


def matvec_expect(op, x_logical, w, b, s):
    """Expected results of one matvec row-set: ("exact", values) or
    ("interval", lo, hi, nan_mask). w: M x K logical (float64) matrix
    values, b: bias values or None, s: M x K scales or None."""
    oi = out_interp(op["out"], op["out_uns"])
    int_path = (not is_float(op["in_interp"]) and not is_float(op["matrix"])
                and (op["bias"] is None or not is_float(op["bias"])))
    m, k = w.shape
    if int_path:
        # Python integers: exact whatever the widths.
        xi = np.array([int(v) for v in x_logical], dtype=object)
        sums = w.astype(np.int64).astype(object).dot(xi)
        vals = []
        for r in range(m):
            acc = int(sums[r])
            if b is not None:
                acc += int(b[r])
            vals.append(round_int_exact(acc, oi))
        return ("exact", np.array(vals))
    wf = w if s is None else w * s
    with np.errstate(over="ignore", invalid="ignore"):
        fw = f32(wf)
        fx = f32(x_logical)
        fb = f32(b) if b is not None else None
        if op["scale"] is not None:
            # The documented order: f32 products, increasing k, from +0.0.
            acc = np.zeros(m, np.float32)
            fw32, fx32 = fw.astype(np.float32), fx.astype(np.float32)
            for c in range(k):
                acc = acc + fw32[:, c] * fx32[c]
            if fb is not None:
                acc = acc + fb.astype(np.float32)
            return ("exact", round_out(acc.astype(np.float64), oi))
        prods = fw * fx[None, :]
        ref = prods.sum(axis=1) + (fb if fb is not None else 0)
        mag = np.abs(prods).sum(axis=1) + (np.abs(fb) if fb is not None else 0)
        err = (k + 3) * 2.0**-24 * mag + (k + 3) * 2.0**-149 + mag * 2.0**-50
        nan = np.isnan(ref)
        inf = np.isinf(ref)  # an infinite input: the sum is that infinity
        return ("interval", round_out(np.where(inf, ref, ref - err), oi),
                round_out(np.where(inf, ref, ref + err), oi), nan)


def round_out(v, oi):
    """The conversion of an f32 sum to the result type: RTNE, saturating
    (float to +-MAX_NORM, integer to its range, NaN to 0)."""
    return round_to(oi, v)


def check_values(expect, got, oi):
    """Compares observed values (float64) with an expectation; returns an
    error string or None."""
    if expect[0] == "exact":
        want = expect[1]
        same = (want == got) | (np.isnan(want) & np.isnan(got))
        # +0 and -0 of a float result are both accepted only where the
        # interval says so; exact results compare by value and NaN-ness.
        if np.all(same):
            return None
        i = int(np.argmax(~same))
        return f"element {i}: got {got[i]!r}, expected exactly {want[i]!r}"
    _, lo, hi, nan = expect
    if is_float(oi):
        ok = np.where(nan, np.isnan(got), (got >= lo) & (got <= hi))
    else:
        ok = np.where(nan, got == 0, (got >= lo) & (got <= hi))
    if np.all(ok):
        return None
    i = int(np.argmax(~ok))
    return f"element {i}: got {got[i]!r}, expected within [{lo[i]!r}, {hi[i]!r}]" + (
        " (NaN)" if nan[i] else "")


#===----------------------------------------------------------------------===#
# Program generation
#===----------------------------------------------------------------------===#

SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 13, 15, 16, 17, 24, 31, 32, 33, 40, 63, 64, 65, 100, 129]


def pick_size(rng, cap=None):
    s = int(rng.choice(SIZES[:-2] if rng.random() < 0.85 else SIZES))
    return min(s, cap) if cap else s


class Program:
    """A module under construction: one @main, its arguments (files), body,
    results, and the checks to run on the outputs."""

    def __init__(self, rng, d):
        self.rng, self.dir = rng, d
        self.args, self.body, self.results = [], [], []   # results: (name, type, check)
        self.outargs = []  # (arg index, check)
        self.consts = {}
        self.ops = []
        self.tags = []
        self.invocations = 1  # coopvec-run --invocations: concurrent calls
        self.matrix_args = []  # (argument index, first byte read) of matrices
        self.threads = None  # COOPVEC_NUM_THREADS, when not --threads

    def const(self, v):
        if v not in self.consts:
            self.consts[v] = f"%c{v}"
        return self.consts[v]

    def arg(self, name, ty, value):
        path = os.path.join(self.dir, f"{name}.npy")
        np.save(path, value)
        self.args.append((f"%{name}", ty, path))
        return f"%{name}", len(self.args) - 1

    def text(self):
        lines = [f"func.func @main({', '.join(f'{n}: {t}' for n, t, _ in self.args)})"
                 + (f" -> ({', '.join(t for _, t, _ in self.results)})" if self.results else "") + " {"]
        for v in sorted(self.consts):
            lines.append(f"  %c{v} = arith.constant {v} : index")
        lines += ["  " + l for l in self.body]
        if self.results:
            lines.append(f"  return {', '.join(n for n, _, _ in self.results)} : "
                         f"{', '.join(t for _, t, _ in self.results)}")
        else:
            lines.append("  return")
        lines.append("}")
        return "\n".join(lines) + "\n"


def matrix_buffer(rng, p, name, interp, layout, transpose, m, k, count=1, scale=None,
                  allow_special=False):
    """A byte buffer holding `count` matrices (M x K logical, stored K x M when
    transposed) of random codes at 128-byte aligned offsets, with garbage
    everywhere else. Returns (buffer name, offsets, stride, logical values
    per matrix, scales per matrix)."""
    srows, scols = (k, m) if transpose else (m, k)
    es = STORAGE[interp]
    ucols = unit_cols(interp, scols)
    special = allow_special and rng.random() < 0.05
    strided = layout in ("RowMajor", "ColumnMajor")
    stride = 0
    if strided:
        stride = cdiv(min_stride(layout, srows, ucols, es), 16) * 16 + 16 * int(rng.integers(0, 3))
    elif rng.random() < 0.3:
        stride = 16 * int(rng.integers(0, 5))  # ignored by optimal layouts
    size = layout_bytes(layout, srows, ucols, es, stride)
    slot = cdiv(size, 128) * 128 + 128 * int(rng.integers(0, 2))
    base = 128 * int(rng.integers(0, 3))
    total = base + slot * count + 64
    buf = rng.integers(0, 256, total).astype(np.uint8)
    offs, vals, codes_all = [], [], []
    for i in range(count):
        codes = random_codes(rng, interp, (srows, scols), wide=rng.random() < 0.3,
                             special=special)
        place_matrix(buf, base + slot * i, codes, interp, layout, stride)
        w = decode(interp, codes)
        vals.append(w.T if transpose else w)
        offs.append(base + slot * i)
    bname, idx = p.arg(name, "memref<?xi8>", buf)
    p.matrix_args.append((idx, base))
    scales = None
    if scale:
        stype, block = scale
        per_row = cdiv(k, block)
        soff = int(rng.integers(0, 40))
        sbuf = rng.integers(0, 256, soff + per_row * m * count + 16).astype(np.uint8)
        scales = []
        for i in range(count):
            if stype == "f8E8M0FNU":
                sc = rng.integers(120, 135, (m, per_row))
                if rng.random() < 0.1:
                    sc[rng.integers(0, m), rng.integers(0, per_row)] = 0xFF
                sv = np.where(sc == 0xFF, np.nan, np.exp2(sc - 127.0))
            else:
                sc = rng.integers(0x28, 0x58, (m, per_row))
                if rng.random() < 0.1:
                    sc[rng.integers(0, m), rng.integers(0, per_row)] = 0x7F
                sv = decode("F8_E4M3", sc.astype(np.uint64))
            sbuf[soff + per_row * m * i: soff + per_row * m * (i + 1)] = sc.reshape(-1)
            scales.append(np.repeat(sv, block, axis=1)[:, :k])
        sname, _ = p.arg(name + "_s", "memref<?xi8>", sbuf)
        scales = (sname, soff, per_row * m, scales)
    return bname, offs, stride, vals, scales


BIG_RATE = 0.08


def gen_matvec_spec(rng, chained=None, tileable=False):
    """A random valid matvec description (tileable: one of the combinations
    --coopvec-tile has a tiled form for, which are the CPU kernels' too)."""
    op = {"kind": "matvec"}
    if tileable and not chained:
        if rng.random() < 0.5:
            op.update(matrix=str(rng.choice(["I8", "U8", "I4", "U4"])), scale=None,
                      in_interp=str(rng.choice(["I8", "U8", "PackedS8x32", "PackedU8x32"])),
                      bias="I32" if rng.random() < 0.5 else None, out=str(rng.choice(["i32", "f32"])))
            op["in_phys"] = "i32" if op["in_interp"] in PACKED else str(rng.choice(["f32", "f16", "i32"]))
        else:
            op.update(matrix=str(rng.choice(["F16", "F32", "BF16"])), scale=None,
                      in_interp=str(rng.choice(["F16", "F32"])), in_phys=str(rng.choice(["f16", "f32"])),
                      bias=str(rng.choice(["F16", "F32"])) if rng.random() < 0.5 else None,
                      out=str(rng.choice(["f16", "f32"])))
        op["layout"] = str(rng.choice(LAYOUTS))
        op["transpose"] = op["layout"].endswith("Optimal") and rng.random() < 0.4
        op["m"], op["k"] = pick_size(rng), pick_size(rng)
        op["in_uns"] = op["in_phys"] == "i32" and rng.random() < 0.4
        op["out_uns"] = False
        return op
    scaled = rng.random() < 0.12
    if scaled:
        op["matrix"], op["scale"] = [("F8_E4M3", ("f8E8M0FNU", 32)), ("F8_E5M2", ("f8E8M0FNU", 32)),
                                     ("F6_E2M3", ("f8E8M0FNU", 32)), ("F6_E3M2", ("f8E8M0FNU", 32)),
                                     ("F4_E2M1", ("f8E8M0FNU", 32)), ("F4_E2M1", ("f8E8M0FNU", 16)),
                                     ("F4_E2M1", ("f8E4M3FN", 16))][rng.integers(0, 7)]
    else:
        op["matrix"], op["scale"] = str(rng.choice(MEMORY_INTERPS)), None
    layout = str(rng.choice(LAYOUTS))
    op["layout"] = layout
    op["transpose"] = layout.endswith("Optimal") and rng.random() < 0.4
    op["m"] = pick_size(rng)
    if chained:
        op["k"], op["in_phys"] = chained
    else:
        op["k"] = pick_size(rng)
    interp = str(rng.choice(ALL_INTERPS))
    if not chained:
        op["in_phys"] = "i32" if interp in PACKED else str(rng.choice(list(PHYS)))
    elif interp in PACKED and op["in_phys"] != "i32":
        interp = "F32"
    if interp in PACKED and chained:
        interp = "I32"  # a chained vector has K elements, not ceil(K/4) words
    op["in_interp"] = interp
    op["in_uns"] = op["in_phys"].startswith("i") and rng.random() < 0.4
    op["bias"] = str(rng.choice(MEMORY_INTERPS)) if rng.random() < 0.6 else None
    op["out"] = str(rng.choice(list(PHYS)))
    op["out_uns"] = op["out"].startswith("i") and rng.random() < 0.4
    return op


def gen_vulkan_matvec_spec(rng, chained=None):
    """A random matvec of VK_MATVEC (chained: on an f32/f16 result)."""
    rows = [r for r in VK_MATVEC if not chained or chained[1] in r[2]]
    matrix, interp, phys, results = rows[rng.integers(0, len(rows))]
    scales = VK_SCALES.get(matrix)
    scale = scales[rng.integers(0, len(scales))] if scales and rng.random() < 0.5 else None
    op = {"kind": "matvec", "matrix": matrix, "scale": scale, "in_interp": interp,
          "layout": str(rng.choice(LAYOUTS)), "m": pick_size(rng)}
    op["transpose"] = op["layout"].endswith("Optimal") and rng.random() < 0.4
    if chained:
        op["k"], op["in_phys"] = chained
    else:
        op["k"], op["in_phys"] = pick_size(rng), str(rng.choice(list(phys)))
    op["in_uns"] = op["in_phys"] == "i32" and rng.random() < 0.4
    res = str(rng.choice(list(results)))
    op["out"], op["out_uns"] = {"F32": ("f32", False), "F16": ("f16", False), "I32": ("i32", False),
                                "U32": ("i32", True)}[res]
    op["bias"] = res if rng.random() < 0.6 else None
    if op["bias"] and matrix in ("I8", "U8"):
        op["bias"] = str(rng.choice(list(VK_INT_BIASES)))
    return op


def gen_rv_matvec_spec(rng, chained=None):
    """A random matvec of rv_supports (chained: on an i32/f32 result; an f16
    one is never chained on RISC-V, whose inputs are i32 or f32)."""
    op = {"kind": "matvec", "matrix": str(rng.choice(RV_MATRICES)), "scale": None,
          "layout": str(rng.choice(LAYOUTS)), "m": pick_size(rng)}
    op["transpose"] = op["layout"].endswith("Optimal") and rng.random() < 0.4
    if chained:
        op["k"], op["in_phys"] = chained
        op["in_interp"] = str(rng.choice(["I8", "U8"]))
    else:
        op["k"] = pick_size(rng)
        op["in_interp"] = str(rng.choice(RV_INPUTS))
        op["in_phys"] = "i32" if op["in_interp"] in PACKED else str(rng.choice(["i32", "f32"]))
    op["in_uns"] = op["in_phys"] == "i32" and rng.random() < 0.4
    op["out"], op["out_uns"] = str(rng.choice(["i32", "f32", "f16"])), False
    op["bias"] = "I32" if rng.random() < 0.6 else None
    return op


def matvec_text(op, x, wname, woff, stride, sc, bname, boff, in_ty, out_ty):
    desc = f"matrix<{op['matrix']}, {op['m']}x{op['k']}, {op['layout']}"
    desc += ", transpose" if op["transpose"] else ""
    if op["scale"]:
        desc += f", scale {op['scale'][0]} block {op['scale'][1]}"
    desc += ">"
    t = f"{x}{' unsigned' if op['in_uns'] else ''} as {op['in_interp']}, {wname}[{woff}] {desc}"
    if stride is not None:
        t += f" stride {stride}"
    if sc:
        t += f" scales {sc[0]}[{sc[1]}] : memref<?xi8>"
    if bname:
        t += f" bias {bname}[{boff}] as {op['bias']}"
    if op["out_uns"]:
        t += " unsigned_result"
    types = f"{in_ty}, memref<?xi8>" + (", memref<?xi8>" if bname else "") + f" -> {out_ty}"
    return t, types


def bias_buffer(rng, p, name, interp, m, count=1):
    codes = [random_codes(rng, interp, (m,), wide=rng.random() < 0.5) for _ in range(count)]
    if interp in ("I32", "U32") and rng.random() < 0.2:
        # Extremes: the exact sum meets the saturation of the result.
        lo, hi = INTS[interp]
        codes[0][:] = np.uint64((hi if rng.random() < 0.5 else lo) & 0xFFFFFFFF)
    base = 64 * int(rng.integers(0, 3))
    es = STORAGE[interp]
    nbytes = cdiv(m, 2) if interp in NIBBLE else m * es
    slot = cdiv(nbytes, 64) * 64
    buf = rng.integers(0, 256, base + slot * count + 16).astype(np.uint8)
    for i, c in enumerate(codes):
        o = base + slot * i
        if interp in NIBBLE:
            for j in range(m):
                byte = buf[o + j // 2]
                nib = int(c[j]) & 0xF
                buf[o + j // 2] = (byte & 0xF0) | nib if j % 2 == 0 else (byte & 0x0F) | (nib << 4)
        else:
            for j in range(m):
                buf[o + j * es:o + (j + 1) * es] = np.frombuffer(int(c[j]).to_bytes(8, "little")[:es], np.uint8)
    bname, _ = p.arg(name, "memref<?xi8>", buf)
    return bname, [base + slot * i for i in range(count)], [decode(interp, c) for c in codes]


def emit_matvec(rng, p, n, chained_from=None):
    """One matvec invocation (optionally chained on an earlier result, or
    inside a loop of invocations over rows of memrefs)."""
    loop = chained_from is None and rng.random() < 0.25
    if p.narrow == "rv":
        op = gen_rv_matvec_spec(rng, chained=chained_from[1] if chained_from else None)
    elif p.narrow:
        op = gen_vulkan_matvec_spec(rng, chained=chained_from[1] if chained_from else None)
    else:
        op = gen_matvec_spec(rng, chained=chained_from[1] if chained_from else None,
                             tileable=loop and rng.random() < 0.5)
    count = int(rng.integers(2, 6)) if loop else 1
    big = loop and not op["scale"] and rng.random() < BIG_RATE
    if big:
        # Enough multiply-adds (>= 2^18) for the runtime to split a batched
        # call over its threads; the program runs with 2 of them.
        count = int(rng.integers(40, 90))
        op["m"], op["k"] = int(rng.integers(60, 130)), int(rng.integers(60, 130))
        p.threads = 2
    per_inv_matrix = loop and not big and rng.random() < 0.5 and p.narrow != "rv"
    m, k = op["m"], op["k"]
    wname, woffs, stride, wvals, scales = matrix_buffer(
        rng, p, f"w{n}", op["matrix"], op["layout"], op["transpose"], m, k,
        count=count if per_inv_matrix else 1, scale=op["scale"], allow_special=True)
    bname, boffs, bvals = (None, [None], [None])
    if op["bias"]:
        bname, boffs, bvals = bias_buffer(rng, p, f"b{n}", op["bias"], m)
    nin = cdiv(k, 4) if op["in_interp"] in PACKED else k
    in_ty = f"vector<{nin}x{op['in_phys']}>"
    out_ty = f"vector<{m}x{op['out']}>"
    stride_v = p.const(stride) if (stride or op["layout"] in ("RowMajor", "ColumnMajor")) else None
    sc = (scales[0], p.const(scales[1])) if scales else None
    boff_v = p.const(boffs[0]) if bname else None
    oi = out_interp(op["out"], op["out_uns"])

    def expect_row(x_logical, inv):
        w = wvals[inv if per_inv_matrix else 0]
        s = scales[3][inv if per_inv_matrix else 0] if scales else None
        return matvec_expect(op, x_logical, w, bvals[0], s)

    if not loop:
        if chained_from:
            x = chained_from[0]
            xname, src_phys, src_uns = x
            xin = None
        else:
            xin, xl = random_input(rng, op["in_phys"], op["in_uns"], op["in_interp"], k)
            xname, _ = p.arg(f"x{n}", in_ty, xin)
        woff = p.const(woffs[0])
        t, types = matvec_text(op, xname, wname, woff, stride_v, sc, bname, boff_v, in_ty, out_ty)
        p.body.append(f"%y{n} = coopvec.matvec {t}")
        p.body.append(f"       : {types}")

        def check(got, xin=xin, chained=chained_from):
            if chained:
                src = p.observed[chained[0][0]]
                val = out_bits_to_value(src, op["in_phys"], op["in_uns"])
                xl_ = round_to(op["in_interp"], val)
            else:
                xl_ = xl
            return check_values(expect_row(xl_, 0), out_bits_to_value(got, op["out"], op["out_uns"]), oi)
        p.results.append((f"%y{n}", out_ty, check))
        p.chainable.append(((f"%y{n}", op["out"], op["out_uns"]), (m, op["out"])))
    else:
        dtype = PHYS[op["in_phys"]][0]
        rows = [random_input(rng, op["in_phys"], op["in_uns"], op["in_interp"], k) for _ in range(count)]
        xs = np.stack([r[0] for r in rows]).astype(dtype)
        xm, _ = p.arg(f"x{n}", f"memref<?x{nin}x{op['in_phys']}>", xs)
        yinit = np.zeros((count, m), PHYS[op["out"]][0])
        ym, yidx = p.arg(f"y{n}", f"memref<?x{m}x{op['out']}>", yinit)
        # RISC-V takes no scf.for: its loops are batch_matvec.
        batch = ((big or rng.random() < 0.4) and not per_inv_matrix and not p.narrow) \
            or p.narrow == "rv"
        if batch:
            op["kind_detail"] = "batch_matvec"
            t, types = matvec_text(op, xm, wname, p.const(woffs[0]), stride_v, sc, bname, boff_v,
                                   f"memref<?x{nin}x{op['in_phys']}>", f"memref<?x{m}x{op['out']}>")
            types = types.replace(f"-> memref<?x{m}x{op['out']}>", f"-> memref<?x{m}x{op['out']}>")
            t = t + f" into {ym}"
            p.body.append(f"coopvec.batch_matvec {t}")
            p.body.append(f"       : {types}")
        else:
            op["kind_detail"] = "loop"
            i = f"%i{n}"
            p.body.append(f"scf.for {i} = {p.const(0)} to {p.const(count)} step {p.const(1)} {{")
            p.body.append(f"  %xv{n} = vector.load {xm}[{i}, {p.const(0)}] : memref<?x{nin}x{op['in_phys']}>, {in_ty}")
            if per_inv_matrix:
                slot = woffs[1] - woffs[0]
                p.body.append(f"  %wm{n} = arith.muli {i}, {p.const(slot)} : index")
                p.body.append(f"  %wo{n} = arith.addi %wm{n}, {p.const(woffs[0])} : index")
                woff = f"%wo{n}"
                if sc:
                    p.body.append(f"  %sm{n} = arith.muli {i}, {p.const(scales[2])} : index")
                    p.body.append(f"  %so{n} = arith.addi %sm{n}, {p.const(scales[1])} : index")
                    sc = (scales[0], f"%so{n}")
            else:
                woff = p.const(woffs[0])
            t, types = matvec_text(op, f"%xv{n}", wname, woff, stride_v, sc, bname, boff_v, in_ty, out_ty)
            p.body.append(f"  %yv{n} = coopvec.matvec {t}")
            p.body.append(f"         : {types}")
            p.body.append(f"  vector.store %yv{n}, {ym}[{i}, {p.const(0)}] : memref<?x{m}x{op['out']}>, {out_ty}")
            p.body.append("}")

        def check(got, rows=rows):
            for inv in range(count):
                e = check_values(expect_row(rows[inv][1], inv),
                                 out_bits_to_value(got[inv], op["out"], op["out_uns"]), oi)
                if e:
                    return f"invocation {inv}: {e}"
            return None
        p.outargs.append((yidx, check))
    op["loop"] = count if loop else 0
    p.ops.append(op)


def accumulate_interval(lo, hi, add, add_err, dest):
    """One accumulation step old + add (add known up to add_err) in f32,
    rounded to dest: the interval of possible results, by monotonicity. An
    I32/U32 element may itself be rounded to f32 before a float addend is
    added (the reference does; exact integer addition is inside too)."""
    with np.errstate(over="ignore", invalid="ignore"):
        s_lo, s_hi = lo + add, hi + add
        wide = 2.0**-24 if dest in ("I32", "U32") else 0.0
        e_lo = 2.0**-24 * (np.abs(s_lo) + np.abs(add)) + wide * np.abs(lo) + add_err + 2.0**-148
        e_hi = 2.0**-24 * (np.abs(s_hi) + np.abs(add)) + wide * np.abs(hi) + add_err + 2.0**-148
        return round_to(dest, s_lo - e_lo), round_to(dest, s_hi + e_hi)


def emit_outer(rng, p, n):
    op = {"kind": "outer", "scale": None, "transpose": False}
    interp = str(rng.choice(ACCUM_INTERPS))
    layout = "TrainingOptimal" if rng.random() < 0.5 else str(rng.choice(LAYOUTS))
    vt = str(rng.choice(list(PHYS)))
    op.update(matrix=interp, layout=layout, vec=vt)
    m, nn = pick_size(rng, 40), pick_size(rng, 40)
    count = int(rng.integers(2, 5)) if rng.random() < 0.3 else 1
    op["loop"] = count if count > 1 else 0
    wname, woffs, stride, _, _ = matrix_buffer(rng, p, f"w{n}", interp, layout, False, m, nn)
    op["stride"] = stride
    buf0 = np.load(os.path.join(p.dir, f"w{n}.npy"))
    widx = len(p.args) - 1
    # Small products: integer accumulations never overflow (the docs leave
    # integer overflow of accumulations unspecified).
    def vec(length):
        if vt in ("f32", "f16"):
            return (rng.uniform(-2, 2, length) * np.exp2(rng.integers(-3, 2, length))).astype(PHYS[vt][0])
        # |sum| <= 4 steps x 4 invocations x lim^2 stays inside a quarter of
        # the destination's range.
        lim = {"I8": 2, "U8": 2, "I16": 30, "U16": 30}.get(interp, 100)
        return rng.integers(-lim, lim + 1, length).astype(PHYS[vt][0])
    a = np.stack([vec(m) for _ in range(count)])
    b = np.stack([vec(nn) for _ in range(count)])
    if interp in ("U8", "U16", "U32"):
        a, b = np.abs(a), np.abs(b)
    codes0 = read_matrix(buf0, woffs[0], interp, layout, stride, m, nn)
    if interp in ("U8", "I8", "U16", "I16"):
        # Start away from the range's ends so that no sum leaves the range.
        lo, hi = INTS[interp]
        mid = (lo + hi) // 2
        span = (hi - lo) // 4
        v = rng.integers(mid - span, mid + span, (m, nn))
        codes0 = (v & ((1 << (8 * STORAGE[interp])) - 1)).astype(np.uint64)
        place_matrix(buf0, woffs[0], codes0, interp, layout, stride)
        np.save(os.path.join(p.dir, f"w{n}.npy"), buf0)
    elem_mask = place_matrix(buf0.copy(), woffs[0], codes0, interp, layout, stride)
    old = decode(interp, codes0)
    st = f" stride {p.const(stride)}" if layout in ("RowMajor", "ColumnMajor") or stride else ""
    desc = f"matrix<{interp}, {m}x{nn}, {layout}>"
    if count == 1:
        an, _ = p.arg(f"a{n}", f"vector<{m}x{vt}>", a[0])
        bn, _ = p.arg(f"bb{n}", f"vector<{nn}x{vt}>", b[0])
        p.body.append(f"coopvec.outer_product_accumulate {an}, {bn}, {wname}[{p.const(woffs[0])}] {desc}{st}")
        p.body.append(f"    : vector<{m}x{vt}>, vector<{nn}x{vt}>, memref<?xi8>")
    else:
        an, _ = p.arg(f"a{n}", f"memref<?x{m}x{vt}>", a)
        bn, _ = p.arg(f"bb{n}", f"memref<?x{nn}x{vt}>", b)
        i = f"%i{n}"
        p.body.append(f"scf.for {i} = {p.const(0)} to {p.const(count)} step {p.const(1)} {{")
        p.body.append(f"  %av{n} = vector.load {an}[{i}, {p.const(0)}] : memref<?x{m}x{vt}>, vector<{m}x{vt}>")
        p.body.append(f"  %bv{n} = vector.load {bn}[{i}, {p.const(0)}] : memref<?x{nn}x{vt}>, vector<{nn}x{vt}>")
        p.body.append(f"  coopvec.outer_product_accumulate %av{n}, %bv{n}, {wname}[{p.const(woffs[0])}] {desc}{st}")
        p.body.append(f"      : vector<{m}x{vt}>, vector<{nn}x{vt}>, memref<?xi8>")
        p.body.append("}")

    def check(got):
        if not np.array_equal(got[~elem_mask], buf0[~elem_mask]):
            i = int(np.argmax((got != buf0) & ~elem_mask))
            return f"byte {i} outside the matrix changed: {buf0[i]} -> {got[i]}"
        res = decode(interp, read_matrix(got, woffs[0], interp, layout, stride, m, nn))
        if vt in ("i32", "i16") and not is_float(interp):
            want = old.copy()
            for c in range(count):
                want = want + p.invocations * np.outer(a[c].astype(np.float64), b[c].astype(np.float64))
            want = round_to(interp, want)
            return check_values(("exact", want.reshape(-1)), res.reshape(-1), interp)
        lo, hi = old.copy(), old.copy()
        for c in range(count):
            if vt in ("i32", "i16"):
                prod = np.outer(a[c].astype(np.float64), b[c].astype(np.float64))
                perr = 2.0**-24 * np.abs(prod)
            else:
                prod = np.outer(a[c].astype(np.float64), b[c].astype(np.float64))
                perr = 2.0**-24 * np.abs(prod) + 2.0**-149
            lo, hi = accumulate_interval(lo, hi, prod, perr, interp)
        return check_values(("interval", lo.reshape(-1), hi.reshape(-1), np.zeros(lo.size, bool)),
                            res.reshape(-1), interp)
    p.outargs.append((widx, check))
    p.ops.append(op)


def emit_vacc(rng, p, n, vt=None):
    vt = vt or str(rng.choice(list(PHYS)))
    op = {"kind": "vacc", "vec": vt, "scale": None, "matrix": PHYS[vt][1], "layout": "-",
          "transpose": False}
    length = pick_size(rng, 64)
    count = int(rng.integers(2, 5)) if rng.random() < 0.3 else 1
    op["loop"] = count if count > 1 else 0
    dtype = PHYS[vt][0]
    es = np.dtype(dtype).itemsize
    off = 64 * int(rng.integers(0, 3))
    buf = rng.integers(0, 256, off + length * es + 64).astype(np.uint8)
    if vt in ("f32", "f16"):
        init = (rng.uniform(-4, 4, length) * np.exp2(rng.integers(-4, 4, length))).astype(dtype)
        xs = (rng.uniform(-4, 4, (count, length)) * np.exp2(rng.integers(-4, 4, (count, length)))).astype(dtype)
    else:
        init = rng.integers(-10000, 10000, length).astype(dtype)
        xs = rng.integers(-1000, 1000, (count, length)).astype(dtype)
    buf[off:off + length * es] = init.view(np.uint8)
    bname, bidx = p.arg(f"acc{n}", "memref<?xi8>", buf)
    vty = f"vector<{length}x{vt}>"
    if count == 1:
        xn, _ = p.arg(f"v{n}", vty, xs[0])
        p.body.append(f"coopvec.vector_accumulate {xn}, {bname}[{p.const(off)}] : {vty}, memref<?xi8>")
    else:
        xn, _ = p.arg(f"v{n}", f"memref<?x{length}x{vt}>", xs)
        i = f"%i{n}"
        p.body.append(f"scf.for {i} = {p.const(0)} to {p.const(count)} step {p.const(1)} {{")
        p.body.append(f"  %vv{n} = vector.load {xn}[{i}, {p.const(0)}] : memref<?x{length}x{vt}>, {vty}")
        p.body.append(f"  coopvec.vector_accumulate %vv{n}, {bname}[{p.const(off)}] : {vty}, memref<?xi8>")
        p.body.append("}")
    mask = np.zeros(buf.size, bool)
    mask[off:off + length * es] = True

    def check(got):
        if not np.array_equal(got[~mask], buf[~mask]):
            i = int(np.argmax((got != buf) & ~mask))
            return f"byte {i} outside the array changed: {buf[i]} -> {got[i]}"
        res = got[off:off + length * es].view(dtype).astype(np.float64)
        if vt in ("i32", "i16"):
            want = init.astype(np.float64) + p.invocations * xs.astype(np.float64).sum(axis=0)
            return check_values(("exact", want), res, PHYS[vt][1])
        lo, hi = init.astype(np.float64), init.astype(np.float64)
        for c in range(count):
            lo, hi = accumulate_interval(lo, hi, xs[c].astype(np.float64), 0.0, PHYS[vt][1])
        return check_values(("interval", lo, hi, np.zeros(length, bool)), res, PHYS[vt][1])
    p.outargs.append((bidx, check))
    p.ops.append(op)


# coopvec.convert: (destination, allowed rounding modes, satfinite required)
CONVERTS = [("f16", ["rn", "rz", "rm", "rp"], False), ("bf16", ["rn", "rz", "rm", "rp"], False),
            ("f8E4M3FN", ["rn"], True), ("f8E5M2", ["rn"], True), ("f6E2M3FN", ["rn"], True),
            ("f6E3M2FN", ["rn"], True), ("f4E2M1FN", ["rn"], True)]
TYPE_INTERP = {"f16": "F16", "bf16": "BF16", "f8E4M3FN": "F8_E4M3", "f8E5M2": "F8_E5M2",
               "f6E2M3FN": "F6_E2M3", "f6E3M2FN": "F6_E3M2", "f4E2M1FN": "F4_E2M1"}
TYPE_BITS = {"f16": 16, "bf16": 16, "f8E4M3FN": 8, "f8E5M2": 8, "f6E2M3FN": 6, "f6E3M2FN": 6,
             "f4E2M1FN": 4}


def encode_codes(interp, v):
    """Codes of exactly representable values (search over the code space)."""
    e, m, _, _, _ = FLOATS[interp]
    width = 1 + e + m
    if interp in ("F16",):
        return v.astype(np.float16).view(np.uint16).astype(np.int64)
    if interp == "BF16":
        return (v.astype(np.float32).view(np.uint32) >> 16).astype(np.int64)
    table = decode(interp, np.arange(1 << width))
    out = np.zeros(v.size, np.int64)
    for i, x in enumerate(v):
        if np.isnan(x):
            out[i] = -1
            continue
        hits = np.nonzero((table == x) & (np.signbit(table) == np.signbit(x)))[0]
        out[i] = hits[0] if hits.size else -2
    return out


def emit_convert(rng, p, n):
    dst, modes, sat_req = CONVERTS[rng.integers(0, len(CONVERTS))]
    mode = str(rng.choice(modes))
    sat = sat_req or rng.random() < 0.5
    relu = rng.random() < 0.3 and (dst not in ("f16", "bf16") or mode in ("rn", "rz"))
    interp = TYPE_INTERP[dst]
    op = {"kind": "convert", "matrix": interp, "layout": "-", "transpose": False, "scale": None,
          "loop": 0, "mode": mode}
    length = pick_size(rng, 64)
    maxv = FLOATS[interp][3]
    top = min(maxv * 1.5, 1e5)
    x = (rng.uniform(-top, top, length) * np.exp2(rng.integers(-8, 1, length))).astype(np.float32)
    if rng.random() < 0.5:
        grid = np.unique(np.abs(round_to(interp, rng.uniform(-maxv, maxv, 2 * length))))
        if grid.size > 1:
            i = rng.integers(0, grid.size - 1, length)
            mids = ((grid[i] + grid[i + 1]) / 2 * rng.choice([-1.0, 1.0], length)).astype(np.float32)
            x = np.where(rng.random(length) < 0.5, mids, x).astype(np.float32)
    xn, _ = p.arg(f"x{n}", f"vector<{length}xf32>", x)
    bits = TYPE_BITS[dst]
    flags = (" satfinite" if sat else "") + (" relu" if relu else "")
    p.body.append(f"%e{n} = coopvec.convert {xn} rounding {mode}{flags} : vector<{length}xf32> -> vector<{length}x{dst}>")
    p.body.append(f"%eb{n} = arith.bitcast %e{n} : vector<{length}x{dst}> to vector<{length}xi{bits}>")
    rname = f"%eb{n}"
    if bits < 16:
        p.body.append(f"%r{n} = arith.extui %eb{n} : vector<{length}xi{bits}> to vector<{length}xi16>")
        rname = f"%r{n}"

    def check(got):
        want = round_float(x.astype(np.float64), interp, mode, sat)
        if relu:
            # A negative input (-0 and -inf too) gives +0 (Numerics.h).
            want = np.where(np.signbit(x) & ~np.isnan(x), 0.0, want)
        gotv = decode(interp, got.view(np.uint16).astype(np.uint64))
        ok = (gotv == want) | (np.isnan(gotv) & np.isnan(want))
        ok &= (np.signbit(gotv) == np.signbit(want)) | np.isnan(want)
        if np.all(ok):
            return None
        i = int(np.argmax(~ok))
        return f"element {i}: {x[i]!r} -> {gotv[i]!r} (code {int(got.view(np.uint16)[i]):#x}), expected {want[i]!r}"
    p.results.append((rname, f"vector<{length}xi16>", check))
    p.ops.append(op)


MX_ELEMS = {"f8E4M3FN": ("F8_E4M3", 8), "f8E5M2": ("F8_E5M2", 15), "f6E2M3FN": ("F6_E2M3", 2),
            "f6E3M2FN": ("F6_E3M2", 4), "f4E2M1FN": ("F4_E2M1", 2)}


def emit_mx(rng, p, n):
    nv = rng.random() < 0.3
    elem = "f4E2M1FN" if nv else str(rng.choice(list(MX_ELEMS)))
    interp, emax = MX_ELEMS[elem]
    block = 16 if nv else 32
    stype = "f8E4M3FN" if nv else "f8E8M0FNU"
    op = {"kind": "mx_quantize", "matrix": interp, "layout": "-", "transpose": False,
          "scale": (stype, block), "loop": 0}
    length = int(rng.choice([block, 2 * block, block + 5, 3 * block - 7, 7]))
    x = (rng.uniform(-1, 1, length) * np.exp2(rng.integers(-20, 20, length))).astype(np.float32)
    nb = cdiv(length, block)
    for bi in range(nb):
        r = rng.random()
        blk = slice(bi * block, min(length, (bi + 1) * block))
        if r < 0.1:
            x[blk] = 0.0
        elif r < 0.4:
            x[blk] = (rng.uniform(-1, 1, x[blk].size) * 2.0**float(rng.integers(-10, 10))).astype(np.float32)
    xn, _ = p.arg(f"x{n}", f"vector<{length}xf32>", x)
    bits = TYPE_BITS[elem]
    p.body.append(f"%q{n}, %s{n} = coopvec.mx_quantize {xn} block {block} : vector<{length}xf32> -> "
                  f"vector<{length}x{elem}>, vector<{nb}x{stype}>")
    p.body.append(f"%qb{n} = arith.bitcast %q{n} : vector<{length}x{elem}> to vector<{length}xi{bits}>")
    ext = "i16" if bits < 16 else None
    p.body.append(f"%qr{n} = arith.extui %qb{n} : vector<{length}xi{bits}> to vector<{length}xi16>")
    p.body.append(f"%sb{n} = arith.bitcast %s{n} : vector<{nb}x{stype}> to vector<{nb}xi8>")
    p.body.append(f"%sr{n} = arith.extui %sb{n} : vector<{nb}xi8> to vector<{nb}xi16>")
    xd = x.astype(np.float64)
    want_s, want_e = [], []
    for bi in range(nb):
        v = xd[bi * block:(bi + 1) * block]
        amax = np.max(np.abs(v))
        if nv:
            s = float(round_float(np.array([amax / 6.0]), "F8_E4M3")[0])
            code = int(encode_codes("F8_E4M3", np.array([s]))[0])
            want_s.append(code)
            want_e += list(np.where(v < 0, -0.0, 0.0) if s == 0 else round_float(v / s, interp))
        else:
            if amax == 0:
                want_s.append(0)
                want_e += list(v)
                continue
            ex = math.frexp(amax)[1] - 1 - emax
            ex = max(-127, min(127, ex))
            want_s.append(ex + 127)
            want_e += list(round_float(v / 2.0**ex, interp))
    want_e = np.array(want_e)

    def check_e(got):
        gotv = decode(interp, got.view(np.uint16).astype(np.uint64))
        ok = (gotv == want_e) & (np.signbit(gotv) == np.signbit(want_e))
        if np.all(ok):
            return None
        i = int(np.argmax(~ok))
        return f"element {i}: {x[i]!r} -> {gotv[i]!r}, expected {want_e[i]!r}"

    def check_s(got):
        g = got.view(np.uint16).astype(np.int64)
        if list(g) == want_s:
            return None
        i = int(np.argmax(g != np.array(want_s)))
        return f"scale {i}: got {g[i]:#x}, expected {want_s[i]:#x}"
    p.results.append((f"%qr{n}", f"vector<{length}xi16>", check_e))
    p.results.append((f"%sr{n}", f"vector<{nb}xi16>", check_s))
    p.ops.append(op)


def mlp_layer(rng, p, name, wt, bias_interp, m, k):
    """One coopvec.mlp layer's matrix (any layout and transpose) and, 60% of
    the time, its bias: (text, buffer types, logical weights, bias values or
    None)."""
    layout = str(rng.choice(LAYOUTS))
    tr = layout.endswith("Optimal") and rng.random() < 0.4
    wname, woffs, stride, wvals, _ = matrix_buffer(rng, p, f"w{name}", wt, layout, tr, m, k)
    txt = (f"{wname}[{p.const(woffs[0])}] matrix<{wt}, {m}x{k}, {layout}{', transpose' if tr else ''}>"
           f" stride {p.const(stride)}")
    b = None
    if rng.random() < 0.6:
        bname, boffs, bvals = bias_buffer(rng, p, f"b{name}", bias_interp, m)
        txt += f" bias {bname}[{p.const(boffs[0])}]"
        b = bvals[0]
    return txt, ["memref<?xi8>"] * (1 if b is None else 2), wvals[0], b


def emit_mlp(rng, p, n):
    """coopvec.mlp: a chain of 1-3 layers (all F32, all F16, all BF16 or all
    I8 weights, any layout and transpose, optional F32 bias, ReLU or none,
    optional exp) over a batch of rows. Float networks are checked by
    interval propagation: BF16 layers round their input to bf16 (half an
    ulp: 2^-8 of the value, or 2^-126 below the normal range, where
    vdpbf16ps reads zero), each layer adds the matvec bound, ReLU is
    monotone, exp (std::exp on f32) may be off by one ulp of f32. I8
    networks (emit_mlp_i8) bit-exactly."""
    if rng.random() < 0.25:
        return emit_mlp_i8(rng, p, n)
    wt = str(rng.choice(["F32", "F16", "BF16"]))
    nl = int(rng.integers(1, 4))
    dims = [pick_size(rng, 40) for _ in range(nl + 1)]
    rows = int(rng.integers(1, 6))
    op = {"kind": "mlp", "matrix": wt, "layout": "-", "transpose": False, "scale": None,
          "loop": 0, "layers": nl}
    x = (rng.uniform(-1, 1, (rows, dims[0]))).astype(np.float32)
    xm, _ = p.arg(f"x{n}", f"memref<?x{dims[0]}xf32>", x)
    ym, yidx = p.arg(f"y{n}", f"memref<?x{dims[-1]}xf32>", np.zeros((rows, dims[-1]), np.float32))
    layers, types, params = [], [], []
    for l in range(nl):
        m, k = dims[l + 1], dims[l]
        txt, ty, w, b = mlp_layer(rng, p, f"{n}_{l}", wt, "F32", m, k)
        types += ty
        act = "relu" if rng.random() < 0.6 else "none"
        layers.append(txt + " " + act)
        params.append((w, b, act))
    use_exp = rng.random() < 0.3
    p.body.append(f"coopvec.mlp {xm} layers [" + ",\n    ".join(layers) + "]"
                  + (" exp" if use_exp else "") + f" into {ym}")
    p.body.append(f"    : memref<?x{dims[0]}xf32>, memref<?x{dims[-1]}xf32>, " + ", ".join(types))
    u = 2.0**-24

    def check(got):
        for r in range(rows):
            c, rad = x[r].astype(np.float64), np.zeros(dims[0])
            for w, b, act in params:
                if wt == "BF16":
                    grow = (np.abs(c) + rad) * 2.0**-8 + 2.0**-126
                    rad = rad + grow
                k = w.shape[1]
                aw = np.abs(w)
                zc = w @ c + (b if b is not None else 0)
                zr = aw @ rad + (k + 3) * u * (aw @ (np.abs(c) + rad) + (np.abs(b) if b is not None else 0)) \
                    + (k + 3) * 2.0**-149
                lo, hi = zc - zr, zc + zr
                if act == "relu":
                    lo, hi = np.maximum(lo, 0), np.maximum(hi, 0)
                c, rad = (lo + hi) / 2, (hi - lo) / 2
            lo, hi = c - rad, c + rad
            if use_exp:
                with np.errstate(over="ignore"):
                    lo, hi = np.exp(lo) * (1 - 2.0**-22), np.exp(hi) * (1 + 2.0**-22)
            lo, hi = f32(lo), f32(hi)  # the f32 result: overflow to inf, underflow to 0
            e = check_values(("interval", lo, hi, np.zeros(lo.size, bool)), got[r].astype(np.float64), "F32")
            if e:
                return f"row {r}: {e}"
        return None
    p.outargs.append((yidx, check))
    p.ops.append(op)


def emit_mlp_i8(rng, p, n):
    """coopvec.mlp with I8 weights: an input scale (f32 constant), optional
    I32 biases (extremes included: the sums wrap), per-row requant scales
    in a byte buffer (at a 4-byte aligned offset, garbage around), the
    scheme of Kernels.h computed in f32: s8 input, u8 after a ReLU, s8
    otherwise, exact wrapping i32 sums, NaN and saturation included (the
    input rows hold a few NaN, inf and huge values). Bit-exact, but for exp
    (one ulp of f32, numpy's exp is not glibc's)."""
    nl = int(rng.integers(1, 4))
    dims = [pick_size(rng, 40) for _ in range(nl + 1)]
    rows = int(rng.integers(1, 6))
    op = {"kind": "mlp", "matrix": "I8", "layout": "-", "transpose": False, "scale": None,
          "loop": 0, "layers": nl}
    x = (rng.uniform(-1, 1, (rows, dims[0]))).astype(np.float32)
    if rng.random() < 0.3:
        x.reshape(-1)[rng.integers(0, x.size)] = rng.choice([np.nan, np.inf, -np.inf, 1e30])
    xm, _ = p.arg(f"x{n}", f"memref<?x{dims[0]}xf32>", x)
    ym, yidx = p.arg(f"y{n}", f"memref<?x{dims[-1]}xf32>", np.zeros((rows, dims[-1]), np.float32))
    in_scale = np.float32(rng.uniform(20, 200))
    p.body.append(f"%qs{n} = arith.constant {float(in_scale)!r} : f32")
    layers, wtypes, btypes, rtypes, params = [], [], [], [], []
    for l in range(nl):
        m, k = dims[l + 1], dims[l]
        txt, ty, w, b = mlp_layer(rng, p, f"{n}_{l}", "I8", "I32", m, k)
        wtypes.append(ty[0])
        btypes += ty[1:]
        b = None if b is None else b.astype(np.int64)
        act = "relu" if rng.random() < 0.6 else "none"
        # Scales around 1 / (K * typical |w q|), a few rows saturating.
        scales = (rng.uniform(0.25, 4.0, m) / (40.0 * k)).astype(np.float32)
        roff = 4 * int(rng.integers(0, 8))
        rbuf = rng.integers(0, 256, roff + 4 * m + 16).astype(np.uint8)
        rbuf[roff:roff + 4 * m] = np.frombuffer(scales.tobytes(), np.uint8)
        rname, _ = p.arg(f"r{n}_{l}", "memref<?xi8>", rbuf)
        rtypes.append("memref<?xi8>")
        layers.append(txt + " " + act + f" requant {rname}[{p.const(roff)}]")
        params.append((w.astype(np.int64), b, act, scales))
    use_exp = rng.random() < 0.3
    p.body.append(f"coopvec.mlp {xm} layers [" + ",\n    ".join(layers) + "]"
                  + f" input_scale %qs{n}" + (" exp" if use_exp else "") + f" into {ym}")
    p.body.append(f"    : memref<?x{dims[0]}xf32>, memref<?x{dims[-1]}xf32>, "
                  + ", ".join(wtypes + btypes + rtypes))

    def quantize(v, lo, hi):
        v = np.where(np.isnan(v), 0.0, v)
        return np.clip(np.rint(v), lo, hi).astype(np.int64)

    with np.errstate(invalid="ignore", over="ignore"):
        q = quantize((x * in_scale).astype(np.float32), -128, 127)
        for l, (w, b, act, scales) in enumerate(params):
            acc = q @ w.T + (b if b is not None else 0)
            acc = (acc + 2**31) % 2**32 - 2**31  # wrapping i32
            if act == "relu":
                acc = np.maximum(acc, 0)
            v = (acc.astype(np.float32) * scales).astype(np.float32)
            if l + 1 < nl:
                q = quantize(v, 0, 255) if act == "relu" else quantize(v, -128, 127)
        want = v.astype(np.float64)

    def check(got):
        got = got.astype(np.float64)
        if use_exp:
            # The correctly rounded f32 exp; glibc's is within 0.502 ulp.
            with np.errstate(over="ignore", invalid="ignore"):
                e = np.exp(want).astype(np.float32)
                ulp = np.spacing(np.abs(e)).astype(np.float64)
                e = e.astype(np.float64)
                ok = (np.abs(got - e) <= ulp) | (np.isinf(e) & (got == e))
        else:
            ok = (got == want) | (np.isnan(want) & np.isnan(got))
        if np.all(ok):
            return None
        i = np.unravel_index(int(np.argmax(~ok)), ok.shape)
        return f"row {i[0]} element {i[1]}: got {got[i]!r}, expected {want[i]!r}" + (" before exp" if use_exp else "")
    p.outargs.append((yidx, check))
    p.ops.append(op)


#===----------------------------------------------------------------------===#
# Invalid variants: one verifier rule broken
#===----------------------------------------------------------------------===#

INVALID = [
    ("misaligned matrix offset", r"(coopvec\.matvec [^\[\n]*\[)%c(\d+)\]", lambda mt: mt.group(1) + "%cbad]",
     "%cbad = arith.constant 64 : index"),
    ("transpose of a strided layout", r"(matrix<[^>]*?, (RowMajor|ColumnMajor))>", lambda mt: mt.group(1) + ", transpose>",
     None),
    ("stride not a multiple of 16", r"(matrix<[^>]*(RowMajor|ColumnMajor)[^>]*> stride )%c\d+",
     lambda mt: mt.group(1) + "%cbad", "%cbad = arith.constant 24 : index"),
    ("wrong result length", r"-> vector<(\d+)x(f32|f16|i32|i16)>\n", None, None),
    ("misaligned bias offset", r"(bias %\w+\[)%c\d+\]", lambda mt: mt.group(1) + "%cbad]", "%cbad = arith.constant 32 : index"),
    ("unsigned float input", r"(coopvec\.matvec %\w+) as", None, None),
]
# The rules of the quantized form (the programs of --only quantized).
Q_INVALID = [
    ("group not dividing K", r"( as \w+ group )\d+( : memref<\?xi8>)",
     lambda mt: mt.group(1) + "5" + mt.group(2), None),
    ("reductions per tensor", r"(reductions %\w+ as \w+ )group \d+ : memref<\?x\d+x",
     lambda mt: mt.group(1) + "per_tensor : memref<?x1x", None),
    ("reductions without weight zero points",
     r"\n *weight_zero_points [^\n]*(?=(\n(?! *coopvec)[^\n]*)*?\n *reductions )",
     lambda mt: "", None),
]


# The quantized form of batch_matvec (docs/Dialects/CoopVecDialect.md,
# "Quantized form"): value interpretations and their memref storage.
Q_STORAGE = {"I8": ("i8", np.int8), "U8": ("i8", np.uint8), "I32": ("i32", np.int32),
             "F32": ("f32", np.float32), "F16": ("f16", np.float16)}


def emit_quantized(rng, p, n):
    """The quantized form of coopvec.batch_matvec: I8/U8/I4/U4 weights in
    any layout, I8 or U8 input rows, any subset of weight and input zero
    points, weight and input scales and reductions (exact or perturbed: R is
    trusted), at random groupings the verifier accepts, a bias, f32, f16 or
    i32 results. Checked bit-exactly against the documented formula:
    integer sums in int64, then per compute group f32(acc) * sx * sw added
    in increasing order from +0.0 (NumPy float32 steps, never fused), bias,
    one rounding (IEEE: f16 overflows to inf); i32 results saturate."""
    k = int(rng.choice([8, 16, 24, 32, 48, 64, 96, 128]))
    m = pick_size(rng, 40)
    rows = int(rng.choice([1, 2, 3, 5, 6, 7, 13, 20]))
    wt = str(rng.choice(["I8", "U8", "I4", "U4"]))
    xt = str(rng.choice(["I8", "U8"]))
    out = str(rng.choice(["f32", "f16", "i32"]))
    divisors = [d for d in range(4, k + 1, 4) if k % d == 0]

    def grouping(per_tensor=True):
        return int(rng.choice(([0] if per_tensor else []) + divisors))

    def size(g):
        return g if g else k

    layout = str(rng.choice(LAYOUTS))
    tr = layout.endswith("Optimal") and rng.random() < 0.4
    wname, woffs, stride, wvals, _ = matrix_buffer(rng, p, f"w{n}", wt, layout, tr, m, k)
    w = wvals[0].astype(np.int64)                          # [m][k]
    x = rng.integers(-128, 128, (rows, k)) if xt == "I8" else rng.integers(0, 256, (rows, k))
    xm, _ = p.arg(f"x{n}", f"memref<?x{k}xi8>", x.astype(np.int64).astype(np.uint8).view(np.int8))
    clauses, types = [], [f"memref<?x{k}xi8>", "memref<?xi8>"]
    op = {"kind": "quantized", "matrix": wt, "layout": layout, "transpose": tr, "scale": None,
          "loop": 0, "m": m, "k": k, "rows": rows, "out": out, "clauses": []}

    def weight_side(clause, interp, g, values):
        """A byte buffer at a random offset holding `values` (m x k/G, or
        one), dense and row-major."""
        dt = {"I8": np.int8, "U8": np.uint8, "I32": np.int32, "F32": np.float32,
              "F16": np.float16, "BF16": np.uint16}[interp]
        raw = np.ascontiguousarray(values.astype(dt)).view(np.uint8).reshape(-1)
        off = 4 * int(rng.integers(0, 8))
        buf = rng.integers(0, 256, off + raw.size + 8).astype(np.uint8)
        buf[off:off + raw.size] = raw
        name, _ = p.arg(f"{clause[0]}{clause.split('_')[1][0]}{n}", "memref<?xi8>", buf)
        grp = f"group {g}" if g else "per_tensor"
        clauses.append(f"{clause} {name}[{p.const(off)}] as {interp} {grp} : memref<?xi8>")
        op["clauses"].append(clause)

    def input_side(clause, interp, g, values):
        st, dt = Q_STORAGE[interp]
        cols = k // g if g else 1
        ty = f"memref<?x{cols}x{st}>"
        name, _ = p.arg(f"{clause[0]}{clause.split('_')[-1][0]}{n}", ty,
                        values.astype(dt).reshape(rows if g else 1, cols))
        grp = f"group {g}" if g else "per_tensor"
        clauses.append(f"{clause} {name} as {interp} {grp} : {ty}")
        op["clauses"].append(clause)

    def spread(values, g, n_rows):
        """Per-group values (n_rows x k/G, or one) spread over k."""
        if not g:
            return np.full((n_rows, k), values.reshape(-1)[0])
        return np.repeat(values.reshape(n_rows, k // g), g, axis=1)

    def scales(count):
        return (np.exp2(rng.integers(-6, 3, count)) * rng.uniform(0.5, 1.0, count))

    use = {c: rng.random() < 0.5 for c in ("wz", "ws", "xz", "xs", "red")}
    if out == "i32":
        use["ws"] = use["xs"] = False
    if not any(use.values()):
        # One clause at least: without any, the op is not the quantized form.
        use[str(rng.choice(["wz", "xz", "red"]))] = True
    if use["red"]:
        use["wz"] = True
    # Scale groupings nest; the compute group is the finer.
    gws = grouping() if use["ws"] else 0
    gxs = 0
    if use["xs"]:
        opts = [g for g in [0] + divisors
                if size(g) % size(gws) == 0 or size(gws) % size(g) == 0]
        gxs = int(rng.choice(opts))
    compute = min(size(gws) if use["ws"] else k, size(gxs) if use["xs"] else k)
    gwz = grouping() if use["wz"] else 0
    # Reductions: one per row and group, refining the weight zero points'
    # grouping and within the compute groups.
    gr = 0
    if use["red"]:
        gr = int(rng.choice([d for d in divisors if size(gwz) % d == 0 and compute % d == 0]))
    zw = np.zeros((m, k), np.int64)
    if use["wz"]:
        interp = str(rng.choice(["I8", "U8", "I32"]))
        lo, hi = {"I8": (-128, 127), "U8": (0, 255), "I32": (-300, 300)}[interp]
        v = rng.integers(lo, hi + 1, m * (k // gwz) if gwz else 1)
        weight_side("weight_zero_points", interp, gwz, v)
        zw = spread(v, gwz, m if gwz else 1).astype(np.int64)
        zw = np.broadcast_to(zw, (m, k))
    sw = np.ones((m, k), np.float32)
    if use["ws"]:
        interp = str(rng.choice(["F32", "F16", "BF16"]))
        v = scales(m * (k // gws) if gws else 1)
        if interp == "BF16":
            bits = (v.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
            weight_side("weight_scales", interp, gws, bits)
            v = (bits.astype(np.uint32) << 16).view(np.float32)
        else:
            v = v.astype(Q_STORAGE[interp][1])
            weight_side("weight_scales", interp, gws, v)
        sw = np.broadcast_to(spread(v.astype(np.float32), gws, m if gws else 1), (m, k))
    zx = np.zeros((rows, k), np.int64)
    if use["xz"]:
        interp = str(rng.choice(["I8", "U8", "I32"]))
        g = grouping()
        lo, hi = {"I8": (-128, 127), "U8": (0, 255), "I32": (-300, 300)}[interp]
        v = rng.integers(lo, hi + 1, rows * (k // g) if g else 1)
        input_side("input_zero_points", interp, g, v)
        zx = np.broadcast_to(spread(v, g, rows if g else 1), (rows, k)).astype(np.int64)
    sx = np.ones((rows, k), np.float32)
    if use["xs"]:
        interp = str(rng.choice(["F32", "F16"]))
        v = scales(rows * (k // gxs) if gxs else 1).astype(Q_STORAGE[interp][1])
        input_side("input_scales", interp, gxs, v)
        sx = np.broadcast_to(spread(v.astype(np.float32), gxs, rows if gxs else 1), (rows, k))
    R = None
    if use["red"]:
        R = x.reshape(rows, k // gr, gr).sum(axis=2)
        if rng.random() < 0.3:
            R = R + rng.integers(-3, 4, R.shape)
        input_side("reductions", "I32", gr, R)
    bias, bias_interp = None, None
    if rng.random() < 0.5:
        bias_interp = "I32" if out == "i32" else str(rng.choice(["F32", "F16", "BF16"]))
        bname, boffs, bvals = bias_buffer(rng, p, f"b{n}", bias_interp, m)
        bias = (bname, boffs[0], bvals[0])
    oty = {"f32": np.float32, "f16": np.float16, "i32": np.int32}[out]
    ym, yidx = p.arg(f"y{n}", f"memref<?x{m}x{out}>", np.zeros((rows, m), oty))
    desc = f"matrix<{wt}, {m}x{k}, {layout}{', transpose' if tr else ''}>"
    text = (f"coopvec.batch_matvec {xm} as {xt}, {wname}[{p.const(woffs[0])}] {desc}"
            f" stride {p.const(stride)}\n      " + "\n      ".join(clauses))
    if bias:
        text += f"\n      bias {bias[0]}[{p.const(bias[1])}] as {bias_interp}"
        types.append("memref<?xi8>")
    # The types: input, matrix, bias (each clause names its own); then the
    # result. On a line of their own with the result's name: vulkan_program
    # gives the batch's memrefs their static shapes line by line.
    p.body.append(text + f"\n      into {ym} : {', '.join(types)} -> memref<?x{m}x{out}>")

    # The expectation, from the documented formula.
    xs64 = x.astype(np.int64)
    want = np.zeros((rows, m), np.float64 if out == "i32" else np.float32)
    for b in range(rows):
        d = (xs64[b] - zx[b])[None, :]                              # [1][k]
        wterm = w if R is not None else w - zw                      # [m][k]
        prod = d * wterm                                            # [m][k]
        y = np.zeros(m, np.float32)
        total = np.zeros(m, np.int64)
        for j0 in range(0, k, compute):
            acc = prod[:, j0:j0 + compute].sum(axis=1)
            if R is not None:
                for g0 in range(j0, j0 + compute, gr):
                    zsum = zx[b, g0:g0 + gr].sum()
                    acc = acc - zw[:, g0] * (R[b, g0 // gr] - zsum)
            if out == "i32":
                total += acc
                continue
            a = acc.astype(np.float32)
            if use["xs"]:
                a = a * sx[b, j0]
            if use["ws"]:
                a = a * sw[:, j0]
            y = y + a
        if out == "i32":
            t = total + (bias[2].astype(np.int64) if bias else 0)
            want[b] = np.clip(t, -2**31, 2**31 - 1)
        else:
            if bias:
                y = y + bias[2].astype(np.float32)
            want[b] = y

    def check(got):
        exp = None
        if out == "i32":
            ok = got.astype(np.int64) == want.astype(np.int64)
        else:
            with np.errstate(over="ignore"):  # f16 results overflow to inf
                exp = want.astype(oty)
            ok = (got.view(np.uint32 if out == "f32" else np.uint16)
                  == exp.view(np.uint32 if out == "f32" else np.uint16))
        if np.all(ok):
            return None
        i = np.unravel_index(int(np.argmax(~ok)), ok.shape)
        return f"row {i[0]} output {i[1]}: got {got[i]!r}, expected {exp[i] if out != 'i32' else want[i]!r}"
    p.outargs.append((yidx, check))
    p.ops.append(op)


def make_invalid(rng, text, rules=INVALID):
    """A copy of a valid program with one of `rules` broken, or None if the
    program offers no place for the chosen rule."""
    order = list(range(len(rules)))
    rng.shuffle(order)
    for i in order:
        name, pat, repl, extra = rules[i]
        mt = re.search(pat, text)
        if not mt:
            continue
        if name == "wrong result length":
            new = text[:mt.start()] + f"-> vector<{int(mt.group(1)) + 1}x{mt.group(2)}>\n" + text[mt.end():]
            new = new.replace(f"-> (", "-> (", 1)
        elif name == "unsigned float input":
            line = text[mt.start():text.index("\n", mt.end())]
            nxt = text[text.index("\n", mt.end()) + 1:]
            nxt = nxt[:nxt.index("\n")]
            if "vector<" not in nxt or not re.search(r": vector<\d+xf(16|32)>", nxt):
                continue
            new = text[:mt.start()] + mt.group(1) + " unsigned as" + text[mt.end():]
        else:
            new = text[:mt.start()] + repl(mt) + text[mt.end():]
        if extra:
            new = new.replace("{\n", "{\n  " + extra + "\n", 1)
        if new != text:
            return name, new
    return None


#===----------------------------------------------------------------------===#
# Running
#===----------------------------------------------------------------------===#

CRASH = re.compile(r"Stack dump|PLEASE submit|Assertion|UNREACHABLE|Segmentation|core dumped|LLVM ERROR")
LOCATED = re.compile(r"\.mlir:\d+:\d+: error:")


def run_target(args, tgt, p, mlir, tag):
    outs = []
    extra = None
    if tgt.rewrite:
        with open(mlir) as f:
            text, extra = tgt.rewrite(p, f.read())
        mlir = os.path.join(p.dir, f"{tag}.mlir")
        with open(mlir, "w") as f:
            f.write(text)
    cmd = tgt.command(args, mlir, p)
    if p.invocations > 1:
        cmd.append(f"--invocations={p.invocations}")
    for _, _, path in p.args:
        cmd += ["--arg", path]
    if extra is not None:
        # The results come back in the extra arguments.
        for i, a in enumerate(extra):
            path = os.path.join(p.dir, f"{tag}.in{i}.npy")
            np.save(path, a)
            o = os.path.join(p.dir, f"{tag}.r{i}.npy")
            cmd += ["--arg", path, f"--out-arg={len(p.args) + i}={o}"]
            outs.append(o)
    for i, _ in enumerate(p.results if extra is None else []):
        o = os.path.join(p.dir, f"{tag}.r{i}.npy")
        cmd += ["-o", o]
        outs.append(o)
    oa = []
    for idx, _ in p.outargs:
        o = os.path.join(p.dir, f"{tag}.a{idx}.npy")
        cmd += [f"--out-arg={idx}={o}"]
        oa.append(o)
    env = dict(os.environ, COOPVEC_NUM_THREADS=str(p.threads or args.threads))
    for attempt in range(5):
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, env=env)
            rc, err = r.returncode, r.stderr
        except subprocess.TimeoutExpired:
            rc, err = "timeout", ""
        except FileNotFoundError as e:
            rc, err = 127, str(e)
        # The tools may be rebuilt under a long campaign: retry a missing
        # binary or runtime library instead of reporting it.
        if not (rc == 127 or "cannot find the runtime library" in err):
            break
        time.sleep(20)
    return cmd, rc, err, outs, oa


def write_repro(p, lines):
    with open(os.path.join(p.dir, "run.sh"), "w") as f:
        f.write("#!/bin/sh\n# Reproducer written by test/Differential/gen.py\n")
        for l in lines:
            f.write(l + "\n")


def gen_program(args, seed, index):
    rng = np.random.default_rng([seed, index])
    d = os.path.join(args.tmp, f"p{seed}_{index}")
    os.makedirs(d, exist_ok=True)
    p = Program(rng, d)
    p.key = (seed, index)
    p.chainable = []
    p.observed = {}
    nops = int(rng.integers(1, 5))
    # Half the programs take only ops every target of TARGETS runs, so that
    # targets with fewer ops (DXIL) run as many programs as the CPU. Targets
    # with far fewer ops (Vulkan, common=False) get a share of their own
    # (p.narrow: ops drawn from their combinations directly), which takes
    # only the ops of every target.
    # A tenth more (rv, alone=True) are drawn from the RISC-V lowering's
    # combinations and restricted to its ops alone (batch_matvec, which DXIL
    # lacks, included).
    # --narrow T makes every program one of T's.
    r = rng.random()
    common = r < 0.6 or args.narrow is not None
    p.narrow = args.narrow or ("vulkan" if r < 0.2 else "rv" if r >= 0.5 and r < 0.6 else None)
    # --only K: ops of kind K alone, for whichever targets take them.
    p.only = args.only
    if p.only:
        common, p.narrow = False, None
    narrow = [t for t in TARGETS if t.name == p.narrow]
    restrict = narrow if narrow and narrow[0].alone else \
        [t for t in TARGETS if t.common or t.name == p.narrow]
    for n in range(nops):
        for attempt in range(30):
            saved = (len(p.args), len(p.body), len(p.results), len(p.outargs), dict(p.consts),
                     len(p.ops), len(p.chainable), len(p.matrix_args))
            emit_op(rng, p, n)
            if not common or all(t.supports(p.ops[-1]) for t in restrict):
                break
            del p.args[saved[0]:], p.body[saved[1]:], p.results[saved[2]:], p.outargs[saved[3]:]
            del p.ops[saved[5]:], p.chainable[saved[6]:], p.matrix_args[saved[7]:]
            p.consts = saved[4]
    # Some programs run as several concurrent invocations sharing their
    # buffers (GPU-style): accumulations are atomic, so integer ones must
    # sum exactly; float accumulations (order-dependent) are left out.
    if rng.random() < 0.15 and p.narrow != "rv" and all(op["kind"] not in ("outer", "vacc") or
                                   (op["vec"] in ("i32", "i16") and not is_float(op["matrix"]))
                                   for op in p.ops):
        p.invocations = int(rng.integers(2, 5))
    return p


def emit_op(rng, p, n):
    """One random op: matvec (alone, chained on an earlier result, in a loop
    of invocations or as batch_matvec), outer-product or vector accumulation,
    convert, mx_quantize, mlp."""
    r = rng.random()
    if p.only == "quantized":
        emit_quantized(rng, p, n)
    elif p.narrow == "rv":
        # The RISC-V lowering's ops: matvec (alone, chained on an i32/f32
        # result, or a batch_matvec).
        chain = None
        chainable = [c for c in p.chainable if c[1][1] in ("i32", "f32")]
        if chainable and rng.random() < 0.3:
            chain = chainable[rng.integers(0, len(chainable))]
        emit_matvec(rng, p, n, chained_from=chain)
    elif p.narrow:
        # The ops of the narrowest target (Vulkan): matvec and i32 vector
        # accumulation.
        if r < 0.8 or not VK_VACC:
            chain = None
            chainable = [c for c in p.chainable if c[1][1] in ("f32", "f16")]
            if chainable and rng.random() < 0.3:
                chain = chainable[rng.integers(0, len(chainable))]
            emit_matvec(rng, p, n, chained_from=chain)
        else:
            emit_vacc(rng, p, n, vt="i32")
    elif r < 0.6:
        chain = None
        if p.chainable and rng.random() < 0.3:
            chain = p.chainable[rng.integers(0, len(p.chainable))]
        emit_matvec(rng, p, n, chained_from=chain)
    elif r < 0.75:
        emit_outer(rng, p, n)
    elif r < 0.85:
        emit_vacc(rng, p, n)
    elif r < 0.91:
        emit_convert(rng, p, n)
    elif r < 0.96:
        emit_mx(rng, p, n)
    else:
        emit_mlp(rng, p, n)


def op_key(op):
    kind = op.get("kind_detail", op["kind"]) if op["kind"] == "matvec" else op["kind"]
    if op["kind"] == "matvec" and op["loop"] and kind == "matvec":
        kind = "loop"
    return kind


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--start", type=int, default=0, help="index of the first program")
    ap.add_argument("--targets", default="all",
                    help="comma-separated target names (" + ", ".join(t.name for t in TARGETS) + ") or all")
    ap.add_argument("--runner", default="coopvec-run")
    ap.add_argument("--opt", default="coopvec-opt")
    ap.add_argument("--tmp", required=True)
    ap.add_argument("--narrow", default=None, choices=[t.name for t in TARGETS if not t.common],
                    help="draw every program from this target's combinations")
    ap.add_argument("--only", default=None, choices=["quantized"],
                    help="every op of every program of this kind (the quantized form of "
                         "batch_matvec), on the targets that take it")
    ap.add_argument("--invalid", type=float, default=0.08, help="fraction of invalid programs")
    ap.add_argument("--threads", type=int, default=1, help="COOPVEC_NUM_THREADS of every run")
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--keep", action="store_true", help="keep passing programs too")
    ap.add_argument("--stats", default=None, help="write per-op/interp/target counts as JSON here")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    names = [t.name for t in TARGETS] if args.targets == "all" else args.targets.split(",")
    targets = [t for t in TARGETS if t.name in names]
    os.makedirs(args.tmp, exist_ok=True)
    stats = collections.Counter()
    nprog = nruns = nfail = 0
    t0 = time.time()
    for index in range(args.start, args.start + args.count):
        p = gen_program(args, args.seed, index)
        text = p.text()
        mlir = os.path.join(p.dir, "prog.mlir")
        invalid = None
        irng = np.random.default_rng([args.seed, index, 7])
        if irng.random() < args.invalid:
            if p.matrix_args and irng.random() < 0.4:
                # A matrix buffer cut before its first element: a runtime
                # error naming the op on every target, exit status 1.
                idx, first = p.matrix_args[irng.integers(0, len(p.matrix_args))]
                path = p.args[idx][2]
                np.save(path, np.load(path)[:first])
                invalid = ("matrix buffer too small", text)
            else:
                invalid = make_invalid(np.random.default_rng([args.seed, index, 8]), text,
                                       Q_INVALID if p.only == "quantized" else INVALID)
            if invalid:
                text = invalid[1]
        with open(mlir, "w") as f:
            f.write(text)
        nprog += 1
        failures, repro = [], []
        if invalid:
            stats[("invalid", invalid[0])] += 1
            runtime = invalid[0] == "matrix buffer too small"
            runs = []
            if not runtime:
                cmd = [args.opt, mlir]
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
                repro.append(shlex.join(cmd))
                runs.append(("coopvec-opt", LOCATED, r.returncode, r.stderr))
            for tgt in targets:
                if (runtime and not (tgt.bounds_checked and all(tgt.supports(op) for op in p.ops))) \
                        or not tgt.wants(p.ops) or (p.invocations > 1 and not tgt.concurrent):
                    continue
                cmd, rc, err, _, _ = run_target(args, tgt, p, mlir, tgt.name)
                repro.append(shlex.join(cmd))
                runs.append((tgt.name, tgt.runtime_error if runtime else LOCATED, rc, err))
            for name, expected, rc, err in runs:
                nruns += 1
                before = len(failures)
                if rc == 0 or rc == "timeout" or (isinstance(rc, int) and (rc < 0 or rc >= 128)) \
                        or CRASH.search(err) or not expected.search(err):
                    failures.append(f"{name}: invalid program ({invalid[0]}) gave rc {rc}: "
                                    f"{err.strip()[-400:]!r}")
                stats[(name, "invalid", "fail" if len(failures) > before else "ok")] += 1
        else:
            for tgt in targets:
                if not all(tgt.supports(op) for op in p.ops) or not tgt.wants(p.ops) \
                        or (p.invocations > 1 and not tgt.concurrent):
                    stats[(tgt.name, "skipped")] += 1
                    continue
                cmd, rc, err, outs, oas = run_target(args, tgt, p, mlir, tgt.name)
                repro.append(shlex.join(cmd))
                nruns += 1
                before = len(failures)
                if rc != 0:
                    failures.append(f"{tgt.name}: rc {rc}: {err.strip()[-600:]}")
                else:
                    for (name, _, check), o in zip(p.results, outs):
                        p.observed[name] = np.load(o)
                    for (name, _, check), o in zip(p.results, outs):
                        e = check(np.load(o))
                        if e:
                            failures.append(f"{tgt.name}: result {name}: {e}")
                    for (idx, check), o in zip(p.outargs, oas):
                        e = check(np.load(o))
                        if e:
                            failures.append(f"{tgt.name}: argument {p.args[idx][0]}: {e}")
                ok = "ok" if len(failures) == before else "fail"
                stats[(tgt.name, "runs", ok)] += 1
                for flag in tgt.vary(p) if tgt.vary else []:
                    stats[(tgt.name, "flag", flag, ok)] += 1
                if p.invocations > 1:
                    stats[(tgt.name, "concurrent-invocations", ok)] += 1
                for op in p.ops:
                    stats[(tgt.name, op_key(op), ok)] += 1
                    if op["kind"] == "matvec":
                        stats[(tgt.name, "matvec-matrix", op["matrix"], ok)] += 1
                        stats[(tgt.name, "matvec-input", op["in_interp"], ok)] += 1
                        stats[(tgt.name, "matvec-layout",
                               op["layout"] + ("+T" if op["transpose"] else ""), ok)] += 1
                        stats[(tgt.name, "matvec-bias", str(op["bias"]), ok)] += 1
                        stats[(tgt.name, "matvec-result",
                               op["out"] + ("u" if op["out_uns"] else ""), ok)] += 1
                        if op["scale"]:
                            stats[(tgt.name, "matvec-scale", f"{op['scale'][0]}x{op['scale'][1]}", ok)] += 1
                    elif op["kind"] == "outer":
                        stats[(tgt.name, "outer-matrix", op["matrix"], ok)] += 1
                    elif op["kind"] == "quantized":
                        stats[(tgt.name, "quantized-matrix", op["matrix"], ok)] += 1
                        stats[(tgt.name, "quantized-result", op["out"], ok)] += 1
                        stats[(tgt.name, "quantized-layout",
                               op["layout"] + ("+T" if op["transpose"] else ""), ok)] += 1
                        for clause in op["clauses"]:
                            stats[(tgt.name, "quantized-clause", clause, ok)] += 1
                    elif op["kind"] in ("convert", "mx_quantize"):
                        stats[(tgt.name, op["kind"] + "-type", op["matrix"], ok)] += 1
        if failures:
            nfail += 1
            write_repro(p, repro)
            print(f"FAIL program {args.seed}:{index}" + (f" (invalid: {invalid[0]})" if invalid else ""))
            for f in failures:
                print("  " + f)
            print(f"  reproducer: {os.path.join(p.dir, 'run.sh')}")
            sys.stdout.flush()
        else:
            if args.verbose:
                print(f"ok program {args.seed}:{index}: " + ", ".join(op_key(o) for o in p.ops))
            if not args.keep:
                shutil.rmtree(p.dir, ignore_errors=True)
    print(f"{nprog} programs, {nruns} target runs, {nfail} failures")
    if args.stats:
        with open(args.stats, "w") as f:
            json.dump({"|".join(k): v for k, v in sorted(stats.items())}, f, indent=0)
    if args.verbose:
        print(f"time {time.time() - t0:.1f} s", file=sys.stderr)
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
