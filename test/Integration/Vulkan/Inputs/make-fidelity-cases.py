# The cases of fidelity.test (usage: make-fidelity-cases.py <folder>): writes
# <folder>/fidelity.mlir, one kernel per case running coopvec.matvec with a
# #coopvec.math_fidelity (or on a BF16 matrix without one) on %n vectors and a @check_<case> function that
# launches it, runs the same matvec on the host for each vector and returns
# the number of result elements whose bits differ; and the seeded random
# buffers <case>.{x,e,w,s,b}.npy (e: a block-float input's exponents). Matrix buffers are sequences of elements
# (BF16, F32) or bytes (BFP8, BFP4 data) drawn whole, so that every layout
# reads drawn elements: exponents spread around 2^0 (so that Dst and L1
# roundings, ties and cancellations occur), with zeros, denormals (read as
# zero), the all-ones exponent (an ordinary binade to the Tensix datapath)
# and NaN patterns; BFP shared exponents likewise, with small ones that
# wrap when the unpacker normalizes. Inputs include infinities, NaN,
# denormals and values beyond BF16's range.
import numpy as np, sys

out = sys.argv[1]
rng = np.random.default_rng(18)
N = 64  # vectors per case


def float_bits(count, exp_bits, man_bits, bias, spread):
    """Random bit patterns of a float format: sign, exponent around the
    bias (spread binades), 3% zero exponent, 2% all ones, mantissa random."""
    sign = rng.integers(0, 2, count, dtype=np.int64)
    exp = np.clip(np.round(rng.normal(bias, spread, count)), 1,
                  (1 << exp_bits) - 2).astype(np.int64)
    u = rng.random(count)
    exp[u < 0.03] = 0
    exp[u > 0.98] = (1 << exp_bits) - 1
    man = rng.integers(0, 1 << man_bits, count, dtype=np.int64)
    # Some mantissas with few bits set: exact products, ties at roundings.
    few = rng.random(count) < 0.3
    man[few] &= ~((1 << (man_bits - 3)) - 1)
    return (sign << (exp_bits + man_bits)) | (exp << man_bits) | man


def inputs(dtype, count, center=127, spread=8):
    if dtype == "f16":
        return float_bits(count, 5, 10, 15, 3).astype(np.uint16).view(np.float16)
    x = float_bits(count, 8, 23, center, spread).astype(np.uint32).view(np.float32)
    # Values beyond BF16's range (rounding to its infinity: the DXIL rule
    # saturates them, coopvecConvert does not), and f32 denormals.
    x[::97] = np.float32(3.3e38)
    x[3::97] = np.float32(-3.4e38)
    x[5::89] = np.float32(1e-40)
    return x


# name: (matrix, M, K, layout, transpose, stride, input dtype, input interp,
#        fidelity, bias interp)
CASES = {
    "bf16_hifi4": ("BF16", 16, 64, "RowMajor", False, 128, "f32", "BF16",
                   "hifi4, dst = f32", None),
    "bf16_lofi_t": ("BF16", 16, 48, "InferencingOptimal", True, None, "f16",
                    "BF16", "lofi, dst = bf16", None),
    "bf16_hifi3_l1": ("BF16", 12, 80, "ColumnMajor", False, 32, "f32", "BF16",
                      "hifi3, dst = bf16, l1_acc, k_block = 32", "BF16"),
    "tf32_hifi2_pack": ("F32", 12, 40, "ColumnMajor", False, 48, "f16", "F32",
                        "hifi2, dst = f32, pack = bf16, l1_acc", "BF16"),
    "tf32_hifi3_kblock": ("F32", 8, 96, "RowMajor", False, 384, "f32", "F32",
                          "hifi3, dst = bf16, pack = f32, l1_acc, k_block = 64",
                          "F32"),
    "tf32_hifi4_topt": ("F32", 16, 32, "TrainingOptimal", False, None, "f32",
                        "F32", "hifi4, dst = f32", None),
    "bfp8_hifi4": ("BFP8", 16, 64, "RowMajor", False, 64, "f32", "BF16",
                   "hifi4, dst = f32, l1_acc", "F32"),
    "bfp8_hifi2_t": ("BFP8", 16, 72, "InferencingOptimal", True, None, "f16",
                     "BF16", "hifi2, dst = bf16", None),
    "bfp4_lofi": ("BFP4", 10, 40, "RowMajor", False, 32, "f32", "BF16",
                  "lofi, dst = f32, pack = bf16, l1_acc, k_block = 32",
                  "BF16"),
    "bfp4_hifi3_col": ("BFP4", 14, 37, "ColumnMajor", False, 16, "f16", "BF16",
                       "hifi3, dst = f32", None),
    # Operands around 2^-64: products and sums near 2^-126, where Dst and
    # L1 values below the normal range flush to zero.
    "tiny_hifi4": ("BF16", 8, 32, "RowMajor", False, 64, "f32", "BF16",
                   "hifi4, dst = f32, pack = bf16, l1_acc", "BF16"),
    "tiny_tf32": ("F32", 8, 48, "RowMajor", False, 192, "f32", "F32",
                  "hifi3, dst = bf16", None),
    # 64 x 256 at HiFi4: 4096 chunks per invocation, each in straight-line
    # code (lavapipe stops an invocation's loops after 65535 iterations).
    "big_hifi4": ("BF16", 64, 256, "RowMajor", False, 512, "f32", "BF16",
                  "hifi4, dst = f32", None),
    # No fidelity: a BF16 matrix times inputs read as BF16 (DXIL rule), f32
    # products and sums as the CPU reference's.
    "bf16_plain": ("BF16", 16, 40, "RowMajor", False, 80, "f32", "BF16",
                   None, "BF16"),
    "bf16_plain_f16": ("BF16", 8, 24, "TrainingOptimal", True, None, "f16",
                       "BF16", None, None),
    # Block-float inputs: each vector's stored bytes (BFP4 two to a byte)
    # and its exponents (<case>.e.npy), against BF16 and block-float
    # matrices; K = 40 has a partial exponent block.
    "bfpin8_hifi2": ("BF16", 16, 64, "RowMajor", False, 128, "i8", "BFP8",
                     "hifi2, dst = f32", None),
    "bfpin4_bfp8_t": ("BFP8", 12, 40, "InferencingOptimal", True, None, "i8",
                      "BFP4", "hifi4, dst = bf16, l1_acc", "BF16"),
    "bfpin8_bfp4_col": ("BFP4", 10, 40, "ColumnMajor", False, 16, "i8",
                        "BFP8", "lofi, dst = f32, pack = bf16", None),
}
TINY = ("tiny_hifi4", "tiny_tf32")

MATRIX_ELEMENTS = 16384


def matrix(kind, center=127, spread=6):
    if kind == "BF16":
        return float_bits(MATRIX_ELEMENTS, 8, 7, center, spread).astype(np.uint16).view(np.uint8)
    if kind == "F32":
        return float_bits(MATRIX_ELEMENTS, 8, 23, center, spread).astype(np.uint32).view(np.uint8)
    return rng.integers(0, 256, MATRIX_ELEMENTS, dtype=np.int64).astype(np.uint8)


def exponents(count=1024):
    e = np.clip(np.round(rng.normal(127, 5, count)), 0, 255).astype(np.int64)
    u = rng.random(count)
    e[u < 0.03] = rng.integers(0, 6, int((u < 0.03).sum()))
    e[u > 0.98] = 255
    return e.astype(np.uint8)


def bias(kind, m, center=127):
    if kind == "BF16":
        return float_bits(m, 8, 7, center, 6).astype(np.uint16).view(np.uint8)
    return float_bits(m, 8, 23, center, 6).astype(np.uint32).view(np.uint8)


def input_len(c):
    """Elements of one input vector: K, or the stored bytes of a
    block-float input (ceil(K/2) for BFP4); and its exponents (0 unless
    block float)."""
    k, interp = c[2], c[7]
    if not interp.startswith("BFP"):
        return k, 0
    return (k if interp == "BFP8" else -(-k // 2)), -(-k // 16)


def matvec(name, c, x):
    kind, m, k, layout, transpose, stride, xt, interp, fid, bi = c
    n, nblk = input_len(c)
    scale = ", scale f8E8M0FNU block 16" if kind.startswith("BFP") else ""
    t = ", transpose" if transpose else ""
    exps = f" exponents %ev : vector<{nblk}xi8>" if nblk else ""
    text = (f"coopvec.matvec {x} as {interp}{exps}, %w[%c0] "
            f"matrix<{kind}, {m}x{k}, {layout}{t}{scale}>")
    if stride:
        text += " stride %stride"
    types = [f"vector<{n}x{xt}>", "memref<?xi8>"]
    if scale:
        text += " scales %s[%c0] : memref<?xi8>"
        types.append("memref<?xi8>")
    if bi:
        text += f" bias %b[%c0] as {bi}"
        types.append("memref<?xi8>")
    if fid:
        text += f" fidelity<{fid}>"
    text += f" : {', '.join(types[:2] + types[3:] if scale else types)} -> vector<{m}xf32>"
    return text


def case_text(name, c):
    kind, m, k, layout, transpose, stride, xt, interp, fid, bi = c
    # The Wormhole model makes no NaN; without fidelity a NaN's payload is
    # the device's, so two NaNs agree (%ne xor both-NaN, and %ne).
    nan_rule, diff = "", "%ne"
    if not fid:
        nan_rule = (f"      %rn = arith.cmpf uno, %r, %r : vector<{m}xf32>\n"
                    f"      %gn = arith.cmpf uno, %g, %g : vector<{m}xf32>\n"
                    f"      %nans = arith.andi %rn, %gn : vector<{m}xi1>\n"
                    f"      %other = arith.xori %nans, %ne : vector<{m}xi1>\n"
                    f"      %diff = arith.andi %ne, %other : vector<{m}xi1>\n")
        diff = "%diff"
    n, nblk = input_len(c)
    args = [f"%x: memref<?x{xt}>"]
    if nblk:
        args.append("%ex: memref<?xi8>")
    args.append("%w: memref<?xi8>")
    # The input vector (and exponents) of vector %t.
    load = (f"%xb = arith.muli %t, %ck : index\n"
            f"{{i}}%xv = vector.load %x[%xb] : memref<?x{xt}>, vector<{n}x{xt}>\n")
    if nblk:
        load += (f"{{i}}%eb = arith.muli %t, %cb : index\n"
                 f"{{i}}%ev = vector.load %ex[%eb] : memref<?xi8>, vector<{nblk}xi8>\n")
    if kind.startswith("BFP"):
        args.append("%s: memref<?xi8>")
    if bi:
        args.append("%b: memref<?xi8>")
    names = ", ".join(a.split(":")[0] for a in args)
    types = ", ".join(a.split(": ")[1] for a in args)
    consts = (f"      %c0 = arith.constant 0 : index\n"
              f"      %ck = arith.constant {n} : index\n"
              f"      %cb = arith.constant {nblk} : index\n"
              f"      %cm = arith.constant {m} : index\n"
              f"      %stride = arith.constant {stride or 0} : index\n")
    kernel = f"""    gpu.func @{name}({', '.join(args)}, %y: memref<?xf32>, %n: index) kernel {{
{consts}      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {{
        {load.format(i="        ")}        %r = {matvec(name, c, "%xv")}
        %yb = arith.muli %t, %cm : index
        vector.store %r, %y[%yb] : memref<?xf32>, vector<{m}xf32>
      }}
      gpu.return
    }}
"""
    check = f"""  func.func @check_{name}({', '.join(args)}, %n: index) -> index {{
{consts.replace('      ', '    ')}    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %c64 = arith.constant 64 : index
    %ny = arith.muli %n, %cm : index
    %y = memref.alloc(%ny) : memref<?xf32>
    %np = arith.addi %n, %c63 : index
    %grid = arith.divui %np, %c64 : index
    gpu.launch_func @kernels::@{name} blocks in (%grid, %c1, %c1) threads in (%c64, %c1, %c1)
        args({', '.join(a.split(':')[0] + ' :' + a.split(':')[1] for a in args)}, %y : memref<?xf32>, %n : index)
    %bad = scf.for %t = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {{
      {load.format(i="      ")}      %r = {matvec(name, c, "%xv")}
      %yb = arith.muli %t, %cm : index
      %g = vector.load %y[%yb] : memref<?xf32>, vector<{m}xf32>
      %rb = arith.bitcast %r : vector<{m}xf32> to vector<{m}xi32>
      %gb = arith.bitcast %g : vector<{m}xf32> to vector<{m}xi32>
      %ne = arith.cmpi ne, %rb, %gb : vector<{m}xi32>
{nan_rule}      %ne32 = arith.extui {diff} : vector<{m}xi1> to vector<{m}xi32>
      %cnt = vector.reduction <add>, %ne32 : vector<{m}xi32> into i32
      %cnti = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %cnti : index
      scf.yield %next : index
    }}
    memref.dealloc %y : memref<?xf32>
    return %bad : index
  }}
"""
    return kernel, check


kernels, checks = [], []
for name, c in CASES.items():
    kind, m, k, layout, transpose, stride, xt, interp, fid, bi = c
    kernel, check = case_text(name, c)
    kernels.append(kernel)
    checks.append(check)
    tiny = name in TINY
    center, spread = (63, 1) if tiny else (127, None)
    n, nblk = input_len(c)
    if nblk:
        # Random stored bytes (every datum, -0 included) and exponents.
        np.save(f"{out}/{name}.x.npy",
                rng.integers(0, 256, N * n).astype(np.uint8).view(np.int8))
        np.save(f"{out}/{name}.e.npy", exponents(N * nblk).view(np.int8))
    else:
        np.save(f"{out}/{name}.x.npy",
                inputs(xt, N * k, center, spread or 8))
    np.save(f"{out}/{name}.w.npy", matrix(kind, center, spread or 6))
    if kind.startswith("BFP"):
        np.save(f"{out}/{name}.s.npy", exponents())
    if bi:
        np.save(f"{out}/{name}.b.npy", bias(bi, m, 2 if name in TINY else 127))

with open(f"{out}/fidelity.mlir", "w") as f:
    f.write("module attributes {gpu.container_module} {\n"
            "  gpu.module @kernels {\n" + "".join(kernels) + "  }\n" +
            "".join(checks) + "}\n")
print(" ".join(CASES))
