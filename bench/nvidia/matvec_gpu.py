#!/usr/bin/env python3
"""coopvec.matvec on an NVIDIA GPU against the CPU JIT, without MLIR there.

Two steps, because the GPU machine has CUDA and CuPy but no LLVM/MLIR:

  prepare (here, with the build): for every case, writes a kernel (one
    vector per thread, thread t multiplies row t of X), lowers it with
    `coopvec-opt --coopvec-nvvm-pipeline{chip format=isa}` twice (the
    cooperative step, and cooperative=false: the per-lane path alone),
    draws the inputs and computes the expected result with the CPU JIT
    (`coopvec-run`, the same matvec in a host loop). Everything goes to one
    folder: cases.json, the .ptx files and the .npy inputs/results.
    It also compiles test/Integration/GPU/Inputs/matvec-check.mlir,
    batch-check.mlir (after coopvec-batch-to-gpu), mlp-check.mlir and
    mlp-bf16-check.mlir ahead of time into aot/check, aot/batch, aot/mlp and
    aot/mlp_bf16 (with the two runtime libraries beside them).
  run (on the GPU machine, CuPy): runs the aot programs, loads each PTX with the
    driver, launches
    it over N threads (a partial last warp, so both paths run), compares
    with the CPU results (integers bit for bit; floats bit for bit on the
    per-lane path and within the documented bound on the tensor-core path)
    and, with --bench, times the kernels against cuBLAS (CuPy's matmul) on
    the same batched product. Prints one line per case and a summary.

    python3 bench/nvidia/matvec_gpu.py prepare --build build --out .gpu/matvec
    python3 bench/nvidia/matvec_gpu.py run .gpu/matvec [--bench]
"""
import argparse
import json
import re
import os
import subprocess
import sys

import numpy as np

# name, matrix interp, M, K, layout, input (interp, dtype, unsigned),
# result dtype (unsigned_result), bias interp, lanes differ (two matrices)
CASES = [
    dict(name="f16_rm_f32out", mat="F16", m=48, k=64, layout="RowMajor",
         inp=("F16", "f16"), out="f32", bias="F32"),
    dict(name="f16_rm_f16out", mat="F16", m=64, k=64, layout="RowMajor",
         inp=("F16", "f16"), out="f16", bias="F16"),
    dict(name="f16_cm_odd", mat="F16", m=37, k=45, layout="ColumnMajor",
         inp=("F16", "f16"), out="f32", bias=None),
    dict(name="f16_f32in_odd", mat="F16", m=20, k=19, layout="RowMajor",
         inp=("F16", "f32"), out="f16", bias="F16"),
    dict(name="f16_two_matrices", mat="F16", m=32, k=32, layout="RowMajor",
         inp=("F16", "f16"), out="f32", bias="F32", differ=True),
    dict(name="s8_packed", mat="I8", m=64, k=128, layout="RowMajor",
         inp=("PackedS8x32", "i32"), out="i32", bias="I32"),
    dict(name="u8_packed_u8mat", mat="U8", m=40, k=96, layout="RowMajor",
         inp=("PackedU8x32", "i32"), out="i32", bias="I32"),
    dict(name="s8_from_f32_cm", mat="I8", m=33, k=50, layout="ColumnMajor",
         inp=("I8", "f32"), out="i32", bias="I32"),
    dict(name="u8_from_f32_odd", mat="U8", m=17, k=13, layout="RowMajor",
         inp=("U8", "f32"), out="i32", bias=None),
    dict(name="s8_two_matrices", mat="I8", m=32, k=64, layout="RowMajor",
         inp=("PackedS8x32", "i32"), out="i32", bias="I32", differ=True),
    dict(name="s8_bias_saturates", mat="I8", m=16, k=32, layout="RowMajor",
         inp=("PackedS8x32", "i32"), out="i32", bias="I32", big_bias=True),
    # Blocks of 4 warps with 2 stages (stage-warps=2, no known_block_size):
    # warps 2 and 3 of each block take the per-lane path.
    dict(name="s8_stage2", mat="I8", m=64, k=128, layout="RowMajor",
         inp=("PackedS8x32", "i32"), out="i32", bias="I32", stage_warps=2),
    dict(name="f16_stage2", mat="F16", m=48, k=64, layout="RowMajor",
         inp=("F16", "f16"), out="f32", bias="F32", stage_warps=2),
    # 8-bit floats (sm_89 and later): E4M3 inputs saturate at 448, E5M2
    # keeps infinities.
    dict(name="f8_e4m3", mat="F8_E4M3", m=64, k=64, layout="RowMajor",
         inp=("F8_E4M3", "f16"), out="f32", bias="F32"),
    dict(name="f8_e5m2_e4m3_cm", mat="F8_E5M2", m=40, k=72,
         layout="ColumnMajor", inp=("F8_E4M3", "f32"), out="f32", bias=None),
    dict(name="f8_e4m3_e5m2_odd", mat="F8_E4M3", m=19, k=37, layout="RowMajor",
         inp=("F8_E5M2", "f32"), out="f32", bias="F32"),
    # MXFP8: UE8M0 scales per 32 elements along K (a partial last block),
    # kept in the bias buffer after the bias. Per lane before sm_120a (both
    # variants), kind::mxf8f6f4.block_scale on sm_120a.
    dict(name="mx_e5m2_e4m3", mat="F8_E5M2", m=32, k=72, layout="RowMajor",
         inp=("F8_E4M3", "f16"), out="f32", bias="F32", scales=True),
    dict(name="mx_e4m3_e5m2_cm", mat="F8_E4M3", m=24, k=64,
         layout="ColumnMajor", inp=("F8_E5M2", "f32"), out="f32", bias=None,
         scales=True),
    # BF16 (sm_80 and later): m16n8k16.bf16 on tensor cores, f32 inputs
    # rounded to bf16 (nearest even).
    dict(name="bf16_rm", mat="BF16", m=48, k=72, layout="RowMajor",
         inp=("BF16", "f32"), out="f32", bias="F32"),
    dict(name="bf16_cm_f16out", mat="BF16", m=33, k=40, layout="ColumnMajor",
         inp=("BF16", "f32"), out="f16", bias=None),
    # fp4 x fp4 (prepared for sm_120a only): MXFP4 (UE8M0 x 32) through
    # m16n8k64 kind::mxf4 scale_vec::2X and NVFP4 (UE4M3 x 16) through
    # kind::mxf4nvf4 scale_vec::4X, K not a multiple of 64; f32 inputs
    # rounded to E2M1 (NaN +6, infinities saturate).
    dict(name="mxfp4_fp4", mat="F4_E2M1", m=32, k=80, layout="RowMajor",
         inp=("F4_E2M1", "f32"), out="f32", bias="F32", scales=True,
         chips=("sm_120a",)),
    dict(name="nvfp4_fp4_cm", mat="F4_E2M1", m=24, k=71,
         layout="ColumnMajor", inp=("F4_E2M1", "f32"), out="f32", bias=None,
         scales="ue4m3", chips=("sm_120a",)),
    # Benchmarked (--bench) at BENCH_N threads against cuBLASLt.
    dict(name="bench_f16_64x64", mat="F16", m=64, k=64, layout="RowMajor",
         inp=("F16", "f16"), out="f16", bias=None, bench=True),
    dict(name="bench_f16_128x128", mat="F16", m=128, k=128, layout="RowMajor",
         inp=("F16", "f16"), out="f16", bias=None, bench=True),
    dict(name="bench_s8_64x64", mat="I8", m=64, k=64, layout="RowMajor",
         inp=("PackedS8x32", "i32"), out="i32", bias=None, bench=True),
    dict(name="bench_s8_128x128", mat="I8", m=128, k=128, layout="RowMajor",
         inp=("PackedS8x32", "i32"), out="i32", bias=None, bench=True),
    dict(name="bench_e4m3_64x64", mat="F8_E4M3", m=64, k=64, layout="RowMajor",
         inp=("F8_E4M3", "f16"), out="f32", bias=None, bench=True),
    dict(name="bench_e4m3_128x128", mat="F8_E4M3", m=128, k=128,
         layout="RowMajor", inp=("F8_E4M3", "f16"), out="f32", bias=None,
         bench=True),
]
BENCH_N = 1 << 20
N = 1000  # threads: 31 full warps and a partial one
BLOCK = 128

NP = {"f16": np.float16, "f32": np.float32, "i32": np.int32, "i16": np.int16}
ELEM_BITS = {"F16": 16, "BF16": 16, "I8": 8, "U8": 8, "F8_E4M3": 8, "F8_E5M2": 8,
             "F4_E2M1": 4}
E2M1 = np.array([0, 0.5, 1, 1.5, 2, 3, 4, 6], np.float64)


def decode_f8(codes, e5m2):
    """Exact values of E4M3 (bias 7, no infinities) or E5M2 (bias 15) bytes."""
    codes = np.asarray(codes, np.int64)
    mbits, bias = (2, 15) if e5m2 else (3, 7)
    sign = np.where(codes & 0x80, -1.0, 1.0)
    exp = (codes >> mbits) & ((1 << (7 - mbits)) - 1)
    man = codes & ((1 << mbits) - 1)
    value = np.where(exp == 0, man * 2.0 ** (1 - bias - mbits),
                     (1 + man / 2.0 ** mbits) * 2.0 ** (exp - bias))
    return sign * value


def decode_fp4(codes):
    """Exact values of E2M1 nibbles."""
    codes = np.asarray(codes, np.int64)
    return np.where(codes & 8, -1.0, 1.0) * E2M1[codes & 7]


def finite_f8_codes(rng, shape, e5m2):
    """Random bytes with NaN (and E5M2 infinity) codes replaced by zero."""
    codes = rng.integers(0, 256, shape).astype(np.uint8)
    bad = ((codes & 0x7C) == 0x7C) if e5m2 else ((codes & 0x7F) == 0x7F)
    codes[bad] = 0
    return codes
BIAS_DTYPE = {"F16": np.float16, "F32": np.float32, "I32": np.int32,
              "U32": np.uint32, "I16": np.int16, "U16": np.uint16}


def input_count(c):
    return (c["k"] + 3) // 4 if c["inp"][0].startswith("Packed") else c["k"]


def stored_shape(c):
    """(stored rows, bytes of each) of the strided matrix. fp4 packs two
    elements along K per byte in both layouts (the even one low), so a
    column-major fp4 matrix stores column pairs of M bytes."""
    m, k, bits = c["m"], c["k"], ELEM_BITS[c["mat"]]
    units = (k + 1) // 2 if bits == 4 else k
    size = max(bits // 8, 1)
    return (m, units * size) if c["layout"] == "RowMajor" else (units, m * size)


def stride_bytes(c):
    return (stored_shape(c)[1] + 15) // 16 * 16


def matrix_bytes(c):
    return (stored_shape(c)[0] * stride_bytes(c) + 127) // 128 * 128


def bias_bytes(c):
    """The bias's bytes in the bias buffer (64 when there is none), where
    a block-scaled case's scales start."""
    if not c.get("bias"):
        return 64
    size = c["m"] * np.dtype(BIAS_DTYPE[c["bias"]]).itemsize
    return (size + 63) // 64 * 64


def nvfp4(c):
    """UE4M3 scales per 16 elements (else UE8M0 per 32)."""
    return c.get("scales") == "ue4m3"


def scale_block(c):
    return 16 if nvfp4(c) else 32


def scale_blocks(c):
    return (c["k"] + scale_block(c) - 1) // scale_block(c)


def scale_values(c, codes):
    """The scales' values: UE8M0 2^(s-127), UE4M3 its E4M3 value."""
    if nvfp4(c):
        return decode_f8(codes & 0x7F, False)
    return np.ldexp(1.0, codes.astype(np.int64) - 127)


def matvec_text(c, x, off):
    vin = "vector<%dx%s>" % (input_count(c), c["inp"][1])
    vout = "vector<%dx%s>" % (c["m"], c["out"])
    bias = (" bias %%b[%%c0] as %s" % c["bias"]) if c.get("bias") else ""
    ures = " unsigned_result" if c.get("unsigned_result") else ""
    types = "%s, memref<?xi8>%s -> %s" % (
        vin, ", memref<?xi8>" if c.get("bias") else "", vout)
    scale, scales = "", ""
    if c.get("scales"):
        scale = (", scale f8E4M3FN block 16" if nvfp4(c)
                 else ", scale f8E8M0FNU block 32")
        scales = " scales %b[%soff] : memref<?xi8>"
    return ("%%r = coopvec.matvec %s%s as %s, %%w[%s] matrix<%s, %dx%d, %s%s> "
            "stride %%stride%s%s%s : %s" % (
                x, "", c["inp"][0], off, c["mat"], c["m"], c["k"],
                c["layout"], scale, scales, bias, ures, types))


def vector_alignment(count, dtype):
    """The alignment (up to 16 bytes) of thread t's vector of `count`
    `dtype`s at t * count in a buffer aligned to 256 (CuPy's)."""
    size = count * np.dtype(NP[dtype]).itemsize
    return min(16, size & -size)


def body(c, t, device=False):
    """The per-thread body (thread index %s) shared by kernel and host. In
    the kernel, the vector loads and stores say their alignment, so that
    NVPTX emits 16-byte accesses rather than one per element."""
    kin, m = input_count(c), c["m"]
    xalign = " {alignment = %d}" % vector_alignment(kin, c["inp"][1]) \
        if device else ""
    yalign = " {alignment = %d}" % vector_alignment(m, c["out"]) \
        if device else ""
    lines = [
        "%%kin = arith.constant %d : index" % kin,
        "%%mo = arith.constant %d : index" % m,
        "%%stride = arith.constant %d : index" % stride_bytes(c),
        "%%soff = arith.constant %d : index" % bias_bytes(c),
        "%%xb = arith.muli %s, %%kin : index" % t,
        "%%xv = vector.load %%x[%%xb]%s : memref<?x%s>, vector<%dx%s>" % (
            xalign, c["inp"][1], kin, c["inp"][1]),
    ]
    if c.get("differ"):
        lines += ["%c2 = arith.constant 2 : index",
                  "%%par = arith.remui %s, %%c2 : index" % t,
                  "%%mb = arith.constant %d : index" % matrix_bytes(c),
                  "%off = arith.muli %par, %mb : index"]
        off = "%off"
    else:
        off = "%c0"
    lines.append(matvec_text(c, "%xv", off))
    lines += ["%%yb = arith.muli %s, %%mo : index" % t,
              "vector.store %%r, %%y[%%yb]%s : memref<?x%s>, vector<%dx%s>" % (
                  yalign, c["out"], m, c["out"])]
    return "\n".join("      " + l for l in lines)


def args_sig(c):
    return ("%%x: memref<?x%s>, %%w: memref<?xi8>, %%b: memref<?xi8>, "
            "%%y: memref<?x%s>, %%n: memref<1xi32>" % (c["inp"][1], c["out"]))


def kernel_text(c):
    return """module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @%s(%s) kernel {
      %%c0 = arith.constant 0 : index
      %%tid = gpu.thread_id x
      %%bid = gpu.block_id x
      %%bdim = gpu.block_dim x
      %%t0 = arith.muli %%bid, %%bdim : index
      %%t = arith.addi %%t0, %%tid : index
      %%n32 = memref.load %%n[%%c0] : memref<1xi32>
      %%ni = arith.index_cast %%n32 : i32 to index
      %%live = arith.cmpi ult, %%t, %%ni : index
      scf.if %%live {
%s
      }
      gpu.return
    }
  }
}
""" % (c["name"], args_sig(c), body(c, "%t", device=True))


def host_text(c):
    return """func.func @ref(%s) {
  %%c0 = arith.constant 0 : index
  %%c1 = arith.constant 1 : index
  %%n32 = memref.load %%n[%%c0] : memref<1xi32>
  %%ni = arith.index_cast %%n32 : i32 to index
  scf.for %%t = %%c0 to %%ni step %%c1 {
%s
  }
  return
}
""" % (args_sig(c), body(c, "%t"))


def draw(c, rng):
    k, m = c["k"], c["m"]
    copies = 2 if c.get("differ") else 1
    wbytes = np.zeros(matrix_bytes(c) * copies, np.uint8)
    stride = stride_bytes(c)
    for copy in range(copies):
        if c["mat"] == "F16":
            w = (rng.standard_normal((m, k)) * 0.5).astype(np.float16)
        elif c["mat"] == "BF16":  # the upper halves of f32s
            w = ((rng.standard_normal((m, k)) * 0.5).astype(np.float32)
                 .view(np.uint32) >> 16).astype(np.uint16)
        elif c["mat"].startswith("F8"):
            w = finite_f8_codes(rng, (m, k), c["mat"] == "F8_E5M2")
        elif c["mat"] == "F4_E2M1":
            w = rng.integers(0, 16, (m, k)).astype(np.uint8)
        elif c["mat"] == "I8":
            w = rng.integers(-128, 128, (m, k)).astype(np.int8)
        else:
            w = rng.integers(0, 256, (m, k)).astype(np.uint8)
        if c["mat"] == "F4_E2M1":  # two per byte along K, the even one low
            w = np.pad(w, ((0, 0), (0, k % 2)))
            w = w[:, 0::2] | (w[:, 1::2] << 4)
        stored = np.ascontiguousarray(w if c["layout"] == "RowMajor" else w.T)
        raw = stored.view(np.uint8).reshape(stored.shape[0], -1)
        base = copy * matrix_bytes(c)
        for r in range(raw.shape[0]):
            wbytes[base + r * stride: base + r * stride + raw.shape[1]] = raw[r]
    kin = input_count(c)
    interp, dt = c["inp"]
    if interp == "BF16":
        x = (rng.standard_normal((N, kin)) * 0.5).astype(np.float32)
    elif interp == "F4_E2M1":
        x = (rng.standard_normal((N, kin)) * 3).astype(NP[dt])
        x[0, :4] = [np.nan, 100.0, -np.inf, 0.25]  # +6, 6, -6, a tie to 0
    elif interp.startswith("F8"):
        x = (rng.standard_normal((N, kin)) * 8).astype(NP[dt])
        if dt == "f32":
            x[0, :3] = [1000.0, -1e6, np.inf]  # saturate (E4M3) or stay
    elif dt == "f16":
        x = (rng.standard_normal((N, kin)) * 0.5).astype(np.float16)
    elif dt == "f32" and c["mat"] == "F16":
        x = (rng.standard_normal((N, kin)) * 0.5).astype(np.float32)
        x[0, 0] = 70000.0  # saturates to 65504 when read as F16
    elif dt == "f32":  # read as I8/U8: ties to even, saturation, NaN -> 0
        x = (rng.integers(-600, 600, (N, kin)) / 2).astype(np.float32)
        x[0, :3] = [np.nan, np.inf, -np.inf]
    elif interp.startswith("Packed"):
        x = rng.integers(-2**31, 2**31, (N, kin), dtype=np.int64).astype(np.int32)
    else:  # I8/U8 from wider integers: values beyond the range saturate
        x = rng.integers(-300, 300, (N, kin)).astype(NP[dt])
    bias = np.zeros(64, np.uint8)
    if c.get("bias"):
        bd = BIAS_DTYPE[c["bias"]]
        if np.issubdtype(bd, np.floating):
            bv = rng.standard_normal(m).astype(bd)
        elif c.get("big_bias"):
            bv = np.full(m, 2**31 - 5, bd)
            bv[1::2] = -2**31 + 5
        else:
            info = np.iinfo(bd)
            bv = rng.integers(max(info.min, -2**20), min(info.max, 2**20), m).astype(bd)
        bias = np.zeros((bv.nbytes + 63) // 64 * 64, np.uint8)
        bias[:bv.nbytes] = bv.view(np.uint8)
    if c.get("scales"):
        # 2^-8 .. 2^8, and 2^-127 (code 0: an f32 subnormal) and 2^40
        # once each (2^127 would overflow the products to infinities and
        # their sums to NaNs, whose bits differ between CPU and GPU).
        # NVFP4: E4M3 codes 2^-4 .. 15, a zero and the smallest subnormal.
        if nvfp4(c):
            sc = rng.integers(0x18, 0x58, (m, scale_blocks(c))).astype(np.uint8)
            sc[0, 0], sc[1, -1] = 0, 1
        else:
            sc = rng.integers(119, 136, (m, scale_blocks(c))).astype(np.uint8)
            sc[0, 0], sc[1, -1] = 0, 167
        bias = np.concatenate([bias, sc.reshape(-1),
                               np.zeros(64, np.uint8)])
    return x.reshape(-1), wbytes, bias


def lower_to_ptx(opt, src, chip, options=""):
    """The PTX of the gpu.module in `src`, through
    `coopvec-nvvm-pipeline{chip format=isa <options>}`."""
    lowered = subprocess.run(
        [opt, src, "--coopvec-nvvm-pipeline=chip=%s format=isa %s" % (
            chip, options)],
        check=True, capture_output=True, text=True).stdout
    start = lowered.index('assembly = "') + len('assembly = "')
    end = lowered.index('"', start)
    return re.sub(r"\\([0-9A-Fa-f]{2})",
                  lambda h: chr(int(h.group(1), 16)), lowered[start:end])


def prepare(args):
    os.makedirs(args.out, exist_ok=True)
    opt = os.path.join(args.build, "bin", "coopvec-opt")
    run = os.path.join(args.build, "bin", "coopvec-run")
    rng = np.random.default_rng(17)
    meta = []
    for c in CASES:
        if args.chip not in c.get("chips", (args.chip,)):
            print("skipped", c["name"], "(needs", " or ".join(c["chips"]) + ")")
            continue
        d = os.path.join(args.out, c["name"])
        x, w, b = draw(c, rng)
        np.save(d + ".x.npy", x)
        np.save(d + ".w.npy", w)
        np.save(d + ".b.npy", b)
        np.save(d + ".n.npy", np.array([N], np.int32))
        np.save(d + ".y.npy", np.zeros(N * c["m"], NP[c["out"]]))
        with open(d + ".kernel.mlir", "w") as f:
            f.write(kernel_text(c))
        with open(d + ".host.mlir", "w") as f:
            f.write(host_text(c))
        for variant, coop in (("coop", "true"), ("lane", "false")):
            with open("%s.%s.ptx" % (d, variant), "w") as f:
                f.write(lower_to_ptx(opt, d + ".kernel.mlir", args.chip,
                                     "cooperative=%s stage-warps=%d" % (
                                         coop, c.get("stage_warps", 8))))
        subprocess.run([run, d + ".host.mlir", "-e", "ref",
                        "--arg", d + ".x.npy", "--arg", d + ".w.npy",
                        "--arg", d + ".b.npy", "--arg", d + ".y.npy",
                        "--arg", d + ".n.npy", "--no-print",
                        "--out-arg", "3=%s.expected.npy" % d],
                       check=True)
        meta.append(dict(c, n=N, block=BLOCK))
        if c["inp"][0] == "F4_E2M1":
            beyond = fp4_model_check(meta[-1], d)
            if beyond:
                sys.exit("%s: %d CPU results differ from the NumPy model" % (
                    c["name"], beyond))
            print("prepared", c["name"], "(CPU JIT = NumPy model)")
            continue
        print("prepared", c["name"])
    with open(os.path.join(args.out, "cases.json"), "w") as f:
        json.dump(dict(chip=args.chip, cases=meta), f, indent=1)
    prepare_aot(args, run)


AOT_PROGRAMS = [
    # name, source in test/Integration/GPU/Inputs, coopvec-batch-to-gpu
    # first, the names of @check's mismatch counts (two, or one)
    ("check", "matvec-check.mlir", False, ("f16", "int8")),
    ("batch", "batch-check.mlir", True, ("f16", "int8")),
    ("mlp", "mlp-check.mlir", False, ("i8-network", "i8-network-exp")),
    ("mlp_bf16", "mlp-bf16-check.mlir", False, ("bf16-network",)),
]


def prepare_aot(args, run):
    """test/Integration/GPU/Inputs/matvec-check.mlir, batch-check.mlir
    (after coopvec-batch-to-gpu) and mlp-check.mlir as executables: the host code coopvec-run
    lowers (launches through the mgpu* runtime, the CPU runtime for the
    reference) compiled by clang and linked with check_main.c against
    libcoopvec_cuda_runtime.so/libcoopvec_runtime.so, which are copied
    beside them."""
    inputs = os.path.join(os.path.dirname(__file__), "..", "..", "test",
                          "Integration", "GPU", "Inputs")
    out = os.path.join(args.out, "aot")
    os.makedirs(out, exist_ok=True)
    opt = os.path.join(args.build, "bin", "coopvec-opt")
    lib = os.path.join(args.build, "lib")
    for name in ("libcoopvec_cuda_runtime.so", "libcoopvec_runtime.so"):
        subprocess.run(["cp", os.path.join(lib, name), out], check=True)
    for name, source, batch_to_gpu, labels in AOT_PROGRAMS:
        src = os.path.join(inputs, source)
        if batch_to_gpu:
            gpu_src = os.path.join(out, name + ".gpu.mlir")
            subprocess.run([opt, src, "--coopvec-batch-to-gpu", "-o",
                            gpu_src], check=True)
            src = gpu_src
        lowered = subprocess.run([run, src, "-e", "check", "--gpu-chip",
                                  args.chip, "--print-lowered"], check=True,
                                 capture_output=True, text=True).stdout
        base = os.path.join(out, name)
        with open(base + ".mlir", "w") as f:
            f.write(lowered)
        subprocess.run(["/usr/lib/llvm-22/bin/mlir-translate",
                        "--mlir-to-llvmir", base + ".mlir", "-o", base + ".ll"],
                       check=True)
        subprocess.run(["clang-22", "-c", "-O1", "-fPIC",
                        "-Wno-override-module", base + ".ll", "-o",
                        base + ".o"], check=True)
        one = ["-DCOOPVEC_ONE_COUNT"] if len(labels) == 1 else []
        subprocess.run(["clang-22"] + one + [os.path.join(os.path.dirname(__file__),
                                                 "check_main.c"),
                        base + ".o", "-L" + out, "-lcoopvec_cuda_runtime",
                        "-lcoopvec_runtime", "-lstdc++", "-lm", "-o", base],
                       check=True)
        for ext in (".mlir", ".ll", ".o"):
            os.remove(base + ext)
        print("prepared aot/" + name)


def round_e2m1(x):
    """f32 inputs read as F4_E2M1 (the DXIL rule: nearest, ties to the even
    code, saturated; NaN +6)."""
    x = np.where(np.isnan(x), 6.0, x)
    dist = np.abs(np.minimum(np.abs(x), 6.0)[..., None] - E2M1)
    # On a tie the even code (its bit 0 clear) wins.
    nearest = np.argmin(dist + (np.arange(8) % 2) * 1e-9, axis=-1)
    return np.sign(x) * E2M1[nearest]


def fp4_model_check(c, d):
    """The CPU JIT's expected results of an fp4 x fp4 case against a float64
    NumPy model of this harness's reading of the bytes (two nibbles per byte
    along K, the even one low; the scales; E2M1 rounding of the inputs):
    how many results lie beyond 2 K u sum|w x|."""
    m, k = c["m"], c["k"]
    x = np.load(d + ".x.npy")
    w, b = np.load(d + ".w.npy"), np.load(d + ".b.npy")
    mat = scaled_matrix(c, w, b)
    model = round_e2m1(x.reshape(c["n"], -1).astype(np.float64)) @ mat.T
    if c.get("bias"):
        model += b[:4 * m].view(np.float32).astype(np.float64)
    expected = np.load(d + ".expected.npy").astype(np.float64)
    bound = 2 * k * 2.0**-24 * abs_products(c, x, w, b)
    return int((np.abs(expected - model.reshape(-1)) > bound).sum())


def scaled_matrix(c, raw, b):
    """The (M, K) float64 values of the F16, BF16, F8 or F4 matrix whose
    bytes start at `raw` (strided rows or columns; fp4 two nibbles per byte
    along K, the even one low), times its block scales (read from the bias
    buffer `b`) when the case has them."""
    m, k, stride = c["m"], c["k"], stride_bytes(c)
    major = m if c["layout"] == "RowMajor" else k
    minor = k if c["layout"] == "RowMajor" else m
    if c["mat"] == "F4_E2M1":
        units, size = stored_shape(c)
        packed = np.stack([raw[r * stride: r * stride + size]
                           for r in range(units)])
        if c["layout"] != "RowMajor":
            packed = packed.T  # (m, ceil(k / 2))
        nibbles = np.stack([packed & 15, packed >> 4], axis=2)
        rows = decode_fp4(nibbles.reshape(m, -1)[:, :k])
    elif c["mat"] == "F16":
        rows = np.stack([raw[r * stride: r * stride + 2 * minor]
                         .view(np.float16) for r in range(major)])
    elif c["mat"] == "BF16":
        rows = np.stack([(raw[r * stride: r * stride + 2 * minor]
                          .view(np.uint16).astype(np.uint32) << 16)
                         .view(np.float32) for r in range(major)])
    else:
        rows = np.stack([decode_f8(raw[r * stride: r * stride + minor],
                                   c["mat"] == "F8_E5M2")
                         for r in range(major)])
    if c["layout"] != "RowMajor" and c["mat"] != "F4_E2M1":
        rows = rows.T
    mat = rows.astype(np.float64)
    if c.get("scales"):
        codes = b[bias_bytes(c): bias_bytes(c) + m * scale_blocks(c)]
        scales = scale_values(c, codes).reshape(m, -1)
        mat = mat * np.repeat(scales, scale_block(c), axis=1)[:, :k]
    return mat


def abs_products(c, x, w, b):
    """sum_k |w x| per (thread, row) of an F16 or F8 matrix (times its
    block scales, read from the bias buffer `b`), in float64 (an F8 input
    counted as |x| (1 + 2^-3), above its rounded value)."""
    copies = 2 if c.get("differ") else 1
    mats = [np.abs(scaled_matrix(c, w[copy * matrix_bytes(c):], b))
            for copy in range(copies)]
    m = c["m"]
    # f32 inputs are read as F16 saturating (70000 -> 65504).
    if c["inp"][0] == "BF16":  # rounded to bf16: at most 2^-8 more
        xs = np.abs(x.reshape(c["n"], -1).astype(np.float64)) * (1 + 2.0**-8)
    elif c["inp"][0] == "F4_E2M1":  # rounded to E2M1: at most 6
        xs = np.minimum(np.abs(x.reshape(c["n"], -1).astype(np.float64))
                        * 1.25 + 0.25, 6.0)
        xs = np.nan_to_num(xs, nan=6.0)
    elif c["inp"][0].startswith("F8"):
        xs = np.abs(x.reshape(c["n"], -1).astype(np.float64)) * 1.125
    else:
        xs = np.abs(np.clip(x.reshape(c["n"], -1).astype(np.float64), -65504,
                            65504).astype(np.float16).astype(np.float64))
    out = np.empty((c["n"], m))
    for t in range(c["n"]):
        out[t] = mats[t % copies] @ xs[t]
    return out.reshape(-1)


def run(args):
    import cupy as cp

    with open(os.path.join(args.dir, "cases.json")) as f:
        meta = json.load(f)
    aot = os.path.join(args.dir, "aot")
    env = dict(os.environ, LD_LIBRARY_PATH=aot)
    failures = 0
    for name, source, batch_to_gpu, labels in AOT_PROGRAMS:
        status = subprocess.run([os.path.join(aot, name)] + list(labels),
                                env=env).returncode
        print("aot/%s (%s%s ahead of time):" % (
            name, source, " after coopvec-batch-to-gpu" if batch_to_gpu
            else ""), "ok" if status == 0 else "FAIL")
        failures += int(status != 0)
    for c in meta["cases"]:
        d = os.path.join(args.dir, c["name"])
        x = cp.asarray(np.load(d + ".x.npy"))
        w = cp.asarray(np.load(d + ".w.npy"))
        b = cp.asarray(np.load(d + ".b.npy"))
        n = cp.asarray(np.load(d + ".n.npy"))
        expected = np.load(d + ".expected.npy")
        results = {}
        for variant in ("coop", "lane"):
            y = cp.zeros_like(cp.asarray(np.load(d + ".y.npy")))
            module = cp.RawModule(path="%s.%s.ptx" % (d, variant))
            kernel = module.get_function(c["name"])
            margs = []
            for a in (x, w, b, y):
                margs += [a, a, np.int64(0), np.int64(a.size), np.int64(1)]
            margs += [n, n, np.int64(0), np.int64(1), np.int64(1)]
            grid = (c["n"] + c["block"] - 1) // c["block"]
            kernel((grid,), (c["block"],), tuple(margs))
            cp.cuda.Device().synchronize()
            results[variant] = (cp.asnumpy(y), kernel, margs, grid)
        lane = results["lane"][0]
        coop = results["coop"][0]
        if expected.dtype.kind in "iu":
            ok_lane = np.array_equal(lane, expected)
            ok_coop = np.array_equal(coop, expected)
            detail = "bit-exact" if ok_lane and ok_coop else \
                "lane mismatches %d, coop mismatches %d" % (
                    (lane != expected).sum(), (coop != expected).sum())
        else:
            ok_lane = np.array_equal(lane.view(np.uint8), expected.view(np.uint8))
            e64 = expected.astype(np.float64)
            err = np.abs(coop.astype(np.float64) - e64)
            # The documented bound: 2 K u sum|w x|, plus one ulp of an f16
            # result (the two sums may round to neighbours).
            ulp16 = np.spacing(np.abs(e64).astype(np.float16)).astype(np.float64) \
                if c["out"] == "f16" else 0.0
            bound = 2 * c["k"] * 2.0**-24 * abs_products(
                c, np.load(d + ".x.npy"), np.load(d + ".w.npy"),
                np.load(d + ".b.npy")) + ulp16
            # Non-finite results (an E5M2 infinity in, a NaN from inf x 0)
            # must be the same; an infinite input leaves its bound infinite.
            bound = np.nan_to_num(bound, nan=np.inf)
            finite = np.isfinite(e64)
            same_special = (coop.astype(np.float64) == e64) | (
                np.isnan(coop) & np.isnan(e64))
            ok_coop = bool(np.all(err[finite] <= bound[finite]) and
                           np.all(same_special[~finite]))
            err = np.where(finite, err, 0.0)
            detail = "lane bit-exact=%s, coop max |err| %.3g (bound %.3g)" % (
                ok_lane, err.max(), np.max(bound))
        status = "ok" if ok_lane and ok_coop else "FAIL"
        failures += status != "ok"
        print("%-20s %s  %s" % (c["name"], status, detail))
        if args.bench and c.get("bench"):
            bench_case(cp, c, results)
    print("%d cases and %d aot programs, %d failures" % (
        len(meta["cases"]), len(AOT_PROGRAMS), failures))
    return 1 if failures else 0


def median_ms(cp, launch, reps=20):
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    launch()
    cp.cuda.Device().synchronize()
    samples = []
    for _ in range(reps):
        start.record()
        launch()
        stop.record()
        stop.synchronize()
        samples.append(cp.cuda.get_elapsed_time(start, stop))
    return float(np.median(samples))


def bench_case(cp, c, results):
    """The same kernels over BENCH_N threads (random data made on the GPU)
    against cuBLASLt through PyTorch on the same product: Y[N, M] = X[N, K]
    W^T (torch.matmul for f16, f32 accumulation; torch._int_mm for int8)."""
    import torch

    n, m, k = BENCH_N, c["m"], c["k"]
    kin = input_count(c)
    if c["mat"] == "F16":
        x = cp.random.standard_normal((n, kin), dtype=cp.float32).astype(cp.float16)
        wm = cp.random.standard_normal((m, k), dtype=cp.float32).astype(cp.float16)
        y = cp.zeros(n * m, NP[c["out"]])
    elif c["mat"] == "F8_E4M3":
        x = cp.random.standard_normal((n, kin), dtype=cp.float32).astype(cp.float16)
        wm = cp.asarray(finite_f8_codes(np.random.default_rng(1), (m, k), False))
        y = cp.zeros(n * m, cp.float32)
    else:
        x = cp.random.randint(-2**31, 2**31 - 1, (n, kin), dtype=cp.int64).astype(cp.int32)
        wm = cp.random.randint(-128, 128, (m, k), dtype=cp.int32).astype(cp.int8)
        y = cp.zeros(n * m, cp.int32)
    w = cp.zeros(matrix_bytes(c), cp.uint8)
    stride = stride_bytes(c)
    w.reshape(-1)[: m * stride].reshape(m, stride)[:, : wm.nbytes // m] = \
        wm.view(cp.uint8).reshape(m, -1)
    b = cp.zeros(64, cp.uint8)
    nn = cp.asarray(np.array([n], np.int32))
    margs = []
    for a in (x.reshape(-1), w, b, y):
        margs += [a, a, np.int64(0), np.int64(a.size), np.int64(1)]
    margs += [nn, nn, np.int64(0), np.int64(1), np.int64(1)]
    grid = (n + c["block"] - 1) // c["block"]
    times = {}
    for variant in ("coop", "lane"):
        kernel = results[variant][1]
        times[variant] = median_ms(
            cp, lambda: kernel((grid,), (c["block"],), tuple(margs)))
    tx = torch.as_tensor(x, device="cuda")
    tw = torch.as_tensor(wm, device="cuda")
    if c["mat"] == "F16":
        peer = lambda: torch.matmul(tx, tw.t())
        peer_name = "cuBLASLt f16 (torch.matmul)"
    elif c["mat"] == "F8_E4M3":
        # The peer multiplies data already in e4m3 (ours converts the f16
        # inputs in the kernel): torch._scaled_mm, unit scales, f32 out.
        tx8 = tx.to(torch.float8_e4m3fn)
        tw8 = tw.view(torch.float8_e4m3fn)
        one = torch.ones((), device="cuda", dtype=torch.float32)
        peer = lambda: torch._scaled_mm(tx8, tw8.t(), scale_a=one,
                                        scale_b=one, out_dtype=torch.float32)
        peer_name = "cuBLASLt e4m3 (torch._scaled_mm)"
    else:
        tx8 = tx.view(torch.int8).reshape(n, k)
        peer = lambda: torch._int_mm(tx8, tw.t())
        peer_name = "cuBLASLt s8 (torch._int_mm)"
    times["peer"] = median_ms(cp, peer)
    flops = 2.0 * n * m * k
    tf = {v: flops / (t * 1e-3) / 1e12 for v, t in times.items()}
    print("    bench %s N=%d: cooperative %.3f ms %.2f TFLOP/s | per-lane %.3f ms"
          " %.2f TFLOP/s | %s %.3f ms %.2f TFLOP/s | cooperative/peer %.2f"
          % (c["name"], n, times["coop"], tf["coop"], times["lane"], tf["lane"],
             peer_name, times["peer"], tf["peer"], tf["coop"] / tf["peer"]))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("prepare")
    pp.add_argument("--build", default="build")
    pp.add_argument("--out", required=True)
    pp.add_argument("--chip", default="sm_90")
    pr = sub.add_parser("run")
    pr.add_argument("dir")
    pr.add_argument("--bench", action="store_true")
    a = p.parse_args()
    sys.exit(prepare(a) if a.cmd == "prepare" else run(a))


if __name__ == "__main__":
    main()
