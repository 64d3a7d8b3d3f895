# The cases of quantized-kernel.test (usage: make-quantized-cases.py
# <folder>): writes <folder>/quantized.mlir, one kernel per case running the
# quantized form of coopvec.batch_matvec on a batch of B rows in one
# invocation and a @check_<case> function that launches it, runs the same
# op on the host (the CPU runtime) and returns the number of result elements
# whose bits differ (two NaNs agree); <folder>/quantized-host.mlir, a
# @host_<case> function per case with the op alone in host code on a result
# argument (<case>.y.npy, zeros); and the seeded buffers
# <case>.<operand>.npy. Values are random over their whole ranges (weights,
# inputs, zero points), scales around 2^0 with a spread of binades, the
# reductions the true sums of the input rows (so the reductions form equals
# the zero-point form) except in case `i4`, whose R is random (trusted, not
# checked: both sides compute the same formula). bf16 memrefs, which no
# NumPy array holds, come in and go out as their i16 bits: the functions
# copy them into (and out of) bf16 memrefs.
import numpy as np, sys

out = sys.argv[1]
rng = np.random.default_rng(15)
B = 8

# name: matrix, M, K, layout (stride), input interp, output element, bias,
#       clauses [(name, interp, grouping, side)]
CASES = {
    "rfc": dict(matrix="U8", m=16, k=64, layout="RowMajor", stride=64,
                x="I8", out="f32", bias=None,
                clauses=[("weight_zero_points", "U8", 64),
                         ("weight_scales", "F16", 64),
                         ("input_scales", "F32", 32),
                         ("reductions", "I32", 32)]),
    "int": dict(matrix="I8", m=12, k=48, layout="InferencingOptimal, transpose",
                stride=None, x="U8", out="i32", bias="I32",
                clauses=[("weight_zero_points", "I32", 0),
                         ("input_zero_points", "I8", 16)]),
    "i4": dict(matrix="I4", m=8, k=64, layout="ColumnMajor", stride=16,
               x="I8", out="f16", bias="F16",
               clauses=[("weight_zero_points", "I8", 32),
                        ("weight_scales", "BF16", 16),
                        ("input_zero_points", "U8", 0),
                        ("input_scales", "F16", 32),
                        ("reductions", "I32", 16)]),
    "u4": dict(matrix="U4", m=8, k=40, layout="TrainingOptimal", stride=None,
               x="I8", out="f32", bias="BF16",
               clauses=[("weight_scales", "F32", 0)]),
    "bf16": dict(matrix="I8", m=16, k=64, layout="RowMajor", stride=64,
                 x="U8", out="bf16", bias="F32",
                 clauses=[("weight_zero_points", "I8", 32),
                          ("weight_scales", "F16", 32),
                          ("input_zero_points", "U8", 32),
                          ("input_scales", "BF16", 16),
                          ("reductions", "I32", 16)]),
}

STORAGE = {"I8": "i8", "U8": "i8", "I32": "i32", "F32": "f32", "F16": "f16",
           "BF16": "bf16"}
NP = {"I8": np.int8, "U8": np.uint8, "I32": np.int32, "F32": np.float32,
      "F16": np.float16}
WEIGHT_SIDE = ("weight_zero_points", "weight_scales")
# The element type of the function argument that holds a result (bf16
# results travel as their i16 bits).
RESULT_ARG = {"f32": "f32", "f16": "f16", "i32": "i32", "bf16": "i16"}
NP_OUT = {"f32": np.float32, "f16": np.float16, "i32": np.int32,
          "bf16": np.int16}


def values(interp, count):
    if interp in ("I8", "U8"):
        lo, hi = (-128, 128) if interp == "I8" else (0, 256)
        return rng.integers(lo, hi, count).astype(NP[interp])
    if interp == "I32":
        return rng.integers(-300, 300, count).astype(np.int32)
    scale = (2.0 ** rng.integers(-6, 3, count)) * rng.uniform(0.5, 1.0, count)
    if interp == "BF16":
        bits = (scale.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        return bits.view(np.uint8)
    return scale.astype(NP[interp])


def copy_bits(src, dst, rows, cols, to_bf16):
    """MLIR that copies the 2-D memref `src` (i16 bits, or bf16) into `dst`
    (bf16, or i16 bits), `rows` an index value, through arith.bitcast."""
    n = src[1:]
    a, b = ("i16", "bf16") if to_bf16 else ("bf16", "i16")
    return (f"    %cols_{n} = arith.constant {cols} : index\n"
            f"    scf.for %i_{n} = %c0 to {rows} step %c1 {{\n"
            f"      scf.for %j_{n} = %c0 to %cols_{n} step %c1 {{\n"
            f"        %v_{n} = memref.load {src}[%i_{n}, %j_{n}] : memref<?x{cols}x{a}>\n"
            f"        %u_{n} = arith.bitcast %v_{n} : {a} to {b}\n"
            f"        memref.store %u_{n}, {dst}[%i_{n}, %j_{n}] : memref<?x{cols}x{b}>\n"
            f"      }}\n"
            f"    }}\n")


def bf16_in(var, cols):
    """The prologue that makes `var` (memref<?x{cols}xbf16>) from the
    argument `var`_bits."""
    return (f"    %rows_{var[1:]} = memref.dim {var}_bits, %c0 : memref<?x{cols}xi16>\n"
            f"    {var} = memref.alloc(%rows_{var[1:]}) : memref<?x{cols}xbf16>\n"
            + copy_bits(f"{var}_bits", var, f"%rows_{var[1:]}", cols, True))


def case(name, c):
    k, m = c["k"], c["m"]
    stride = " stride %stride" if c["stride"] else ""
    xs = rng.integers(-128, 128, (B, k)).astype(np.int8)
    np.save(f"{out}/{name}.x.npy", xs)
    np.save(f"{out}/{name}.w.npy", rng.integers(0, 256, 4096).astype(np.uint8))
    args, clauses, kclauses = [("%x", f"memref<?x{k}xi8>"), ("%w", "memref<?xi8>")], [], []
    # The function arguments where they differ from args (bf16 values come
    # as i16 bits) and the prologue that converts them.
    params, prologue, frees = {}, "", ""
    kernel_args = [("%x", f"memref<{B}x{k}xi8>"), ("%w", "memref<?xi8>")]
    for clause, interp, group in c["clauses"]:
        var = "%" + "".join(p[0] for p in clause.split("_"))
        var = "%red" if var == "%r" else var
        grouping = f"group {group}" if group else "per_tensor"
        cols = k // group if group else 1
        if clause in WEIGHT_SIDE:
            count = m * cols if group else 1
            v = values(interp, count)
            np.save(f"{out}/{name}.{var[1:]}.npy", v.view(np.uint8).copy())
            args.append((var, "memref<?xi8>"))
            kernel_args.append((var, "memref<?xi8>"))
            clauses.append(f"{clause} {var}[%c0] as {interp} {grouping} : memref<?xi8>")
            kclauses.append(clauses[-1])
            continue
        rows = B if group else 1
        if clause == "reductions":
            u = xs.astype(np.int64) if c["x"] == "I8" else xs.view(np.uint8).astype(np.int64)
            v = u.reshape(B, cols, group).sum(axis=2).astype(np.int32)
            if name == "i4":
                v = rng.integers(-4000, 4000, (B, cols)).astype(np.int32)
        else:
            v = values(interp, rows * cols)
            v = (v.view(np.int16) if interp == "BF16" else v).reshape(rows, cols)
        np.save(f"{out}/{name}.{var[1:]}.npy", v)
        ty = f"memref<?x{cols}x{STORAGE[interp]}>"
        if interp == "BF16":
            params[var] = (f"{var}_bits", f"memref<?x{cols}xi16>")
            prologue += bf16_in(var, cols)
            frees += f"    memref.dealloc {var} : memref<?x{cols}xbf16>\n"
        kty = f"memref<{rows}x{cols}x{STORAGE[interp]}>"
        args.append((var, ty))
        kernel_args.append((var, kty))
        clauses.append(f"{clause} {var} as {interp} {grouping} : {ty}")
        kclauses.append(f"{clause} {var} as {interp} {grouping} : {kty}")
    bias, bias_ty = "", ""
    if c["bias"]:
        v = values(c["bias"], m) if c["bias"] != "I32" else \
            rng.integers(-2**20, 2**20, m).astype(np.int32)
        np.save(f"{out}/{name}.b.npy", v.view(np.uint8).copy())
        args.append(("%b", "memref<?xi8>"))
        kernel_args.append(("%b", "memref<?xi8>"))
        bias, bias_ty = f" bias %b[%c0] as {c['bias']}", ", memref<?xi8>"
    o = c["out"]
    desc = f"matrix<{c['matrix']}, {m}x{k}, {c['layout']}>"

    def op(x, y, xty, yty, cls):
        return (f"coopvec.batch_matvec {x} as {c['x']}, %w[%c0] {desc}{stride}\n"
                f"          " + "\n          ".join(cls) +
                f"{bias} into {y}\n"
                f"          : {xty}, memref<?xi8>{bias_ty} -> {yty}")

    kernel = (f"    gpu.func @{name}({', '.join(f'{a}: {t}' for a, t in kernel_args)}, "
              f"%y: memref<{B}x{m}x{o}>) kernel {{\n"
              f"      %c0 = arith.constant 0 : index\n"
              f"      %stride = arith.constant {c['stride'] or 0} : index\n"
              f"      {op('%x', '%y', f'memref<{B}x{k}xi8>', f'memref<{B}x{m}x{o}>', kclauses)}\n"
              f"      gpu.return\n    }}\n")
    casts = "".join(f"    {a}k = memref.cast {a} : {t} to {kt}\n"
                    for (a, t), (_, kt) in zip(args, kernel_args) if t != kt)
    kargs = ", ".join(f"{a}{'k' if t != kt else ''} : {kt}"
                      for (a, t), (_, kt) in zip(args, kernel_args))
    ot = "i32" if o in ("i32", "f32") else "i16"
    sig = ", ".join("{}: {}".format(*params.get(a, (a, t))) for a, t in args)
    nan = ""
    diff = "%ne"
    if o != "i32":
        nan = (f"      %rn = arith.cmpf uno, %g, %g : vector<{m}x{o}>\n"
               f"      %hn = arith.cmpf uno, %h, %h : vector<{m}x{o}>\n"
               f"      %nans = arith.andi %rn, %hn : vector<{m}xi1>\n"
               f"      %other = arith.xori %nans, %ne : vector<{m}xi1>\n"
               f"      %diff = arith.andi %ne, %other : vector<{m}xi1>\n")
        diff = "%diff"
    bits = (f"      %gb = arith.bitcast %g : vector<{m}x{o}> to vector<{m}x{ot}>\n"
            f"      %hb = arith.bitcast %h : vector<{m}x{o}> to vector<{m}x{ot}>\n"
            if o != "i32" else
            "      %gb = arith.addi %g, %g0 : vector<{m}xi32>\n".format(m=m) +
            "      %hb = arith.addi %h, %g0 : vector<{m}xi32>\n".format(m=m))
    check = (f"  func.func @check_{name}({sig}) -> index {{\n"
             f"    %c0 = arith.constant 0 : index\n"
             f"    %c1 = arith.constant 1 : index\n"
             f"{prologue}"
             f"    %cb = arith.constant {B} : index\n"
             f"    %stride = arith.constant {c['stride'] or 0} : index\n"
             f"    %y = memref.alloc() : memref<{B}x{m}x{o}>\n"
             f"    %yh = memref.alloc(%cb) : memref<?x{m}x{o}>\n"
             f"{casts}"
             f"    gpu.launch_func @kernels::@{name} blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)\n"
             f"        args({kargs}, %y : memref<{B}x{m}x{o}>)\n"
             f"    {op('%x', '%yh', f'memref<?x{k}xi8>', f'memref<?x{m}x{o}>', clauses)}\n"
             f"    %g0 = arith.constant dense<0> : vector<{m}xi32>\n"
             f"    %bad = scf.for %r = %c0 to %cb step %c1 iter_args(%acc = %c0) -> (index) {{\n"
             f"      %g = vector.load %y[%r, %c0] : memref<{B}x{m}x{o}>, vector<{m}x{o}>\n"
             f"      %h = vector.load %yh[%r, %c0] : memref<?x{m}x{o}>, vector<{m}x{o}>\n"
             f"{bits}"
             f"      %ne = arith.cmpi ne, %gb, %hb : vector<{m}x{ot}>\n"
             f"{nan}"
             f"      %ne32 = arith.extui {diff} : vector<{m}xi1> to vector<{m}xi32>\n"
             f"      %cnt = vector.reduction <add>, %ne32 : vector<{m}xi32> into i32\n"
             f"      %cnti = arith.index_cast %cnt : i32 to index\n"
             f"      %next = arith.addi %acc, %cnti : index\n"
             f"      scf.yield %next : index\n"
             f"    }}\n"
             f"    memref.dealloc %y : memref<{B}x{m}x{o}>\n"
             f"    memref.dealloc %yh : memref<?x{m}x{o}>\n"
             f"{frees}"
             f"    return %bad : index\n"
             f"  }}\n")
    # The op in host code alone, on the caller's result buffer: the CPU
    # runtime runs it, or coopvec-batch-to-gpu makes it a launch.
    np.save(f"{out}/{name}.y.npy", np.zeros((B, m), NP_OUT[o]))
    y, out_prologue, epilogue = "%y", "", ""
    if o == "bf16":
        y = "%y_bits"
        out_prologue = bf16_in("%y", m)
        epilogue = (copy_bits("%y", "%y_bits", "%rows_y", m, False) +
                    f"    memref.dealloc %y : memref<?x{m}xbf16>\n")
    host = (f"  func.func @host_{name}({sig}, "
            f"{y}: memref<?x{m}x{RESULT_ARG[o]}>) {{\n"
            f"    %c0 = arith.constant 0 : index\n"
            f"    %c1 = arith.constant 1 : index\n"
            f"{prologue}{out_prologue}"
            f"    %stride = arith.constant {c['stride'] or 0} : index\n"
            f"    {op('%x', '%y', f'memref<?x{k}xi8>', f'memref<?x{m}x{o}>', clauses)}\n"
            f"{epilogue}{frees}"
            f"    return\n"
            f"  }}\n")
    order = " ".join(f"{name}.{a[1:]}" for a, _ in args)
    return kernel, check, host, order


kernels, checks, hosts, orders = [], [], [], []
for name, c in CASES.items():
    kernel, check, host, order = case(name, c)
    kernels.append(kernel)
    checks.append(check)
    hosts.append(host)
    orders.append(f"{name}:{order}")
with open(f"{out}/quantized.mlir", "w") as f:
    f.write("module attributes {gpu.container_module} {\n"
            "  gpu.module @kernels {\n" + "".join(kernels) + "  }\n" +
            "".join(checks) + "}\n")
with open(f"{out}/quantized-host.mlir", "w") as f:
    f.write("module {\n" + "".join(hosts) + "}\n")
print("\n".join(orders))
