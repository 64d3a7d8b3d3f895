#!/usr/bin/env python3
"""convert-coopvec-to-nvvm's per-lane code, executed on the CPU.

Without a GPU nothing runs the NVIDIA kernels, but the per-lane path of the
F16, F32 and 8-bit integer products is plain arith/memref/vector code: no
NVVM op. `emit` prints a GPU program: one kernel per case (thread t
multiplies input vector t), and host functions that fill the matrix and
VECTORS input vectors, launch the kernel with VECTORS threads and compare
its results with the same `coopvec.matvec` on the host (the CPU runtime),
bit for bit (the float values are small multiples of 1/4, so every sum is
exact in any order); @main returns each case's count of differing
elements. test/Integration/GPU/Inputs/lanes_on_host.py lowers the program
with `cooperative=false` and makes its kernels and launches host code, as
for the GPU programs there; coopvec-run runs it, and `report` names the
counts:

  lanes_on_cpu.py emit > GPU.mlir
  lanes_on_host.py --opt coopvec-opt GPU.mlir > HOST.mlir
  coopvec-run HOST.mlir -e main | lanes_on_cpu.py report

The cooperative path reads the matrix through the same element addresses
(elementIndex) and is assembled by ptxas in ptxas.mlir; only a GPU runs it
(test/Integration/GPU).
"""

import argparse
import sys

# name, matrix interpretation, M, K, layout, transpose, input
# interpretation, input element, result element, matrix offset.
CASES = [
    ("i8_iopt", "I8", 19, 37, "InferencingOptimal", False, "I8", "i32", "i32", 128),
    ("i8_iopt_t", "I8", 21, 13, "InferencingOptimal", True, "I8", "i16", "i32", 0),
    ("u8_topt", "U8", 11, 20, "TrainingOptimal", False, "U8", "i32", "i32", 128),
    ("u8_topt_t", "U8", 10, 19, "TrainingOptimal", True, "I8", "f32", "i32", 128),
    ("i8_row", "I8", 9, 14, "RowMajor", False, "I8", "i32", "i32", 256),
    ("f16_iopt", "F16", 10, 9, "InferencingOptimal", False, "F16", "f16", "f32", 128),
    ("f16_topt_t", "F16", 9, 17, "TrainingOptimal", True, "F16", "f16", "f16", 0),
    ("f16_col", "F16", 12, 7, "ColumnMajor", False, "F16", "f16", "f32", 384),
    ("f32_iopt_t", "F32", 5, 7, "InferencingOptimal", True, "F32", "f32", "f32", 128),
    ("f16w_f32_topt", "F16", 12, 6, "TrainingOptimal", False, "F32", "f32", "f32", 128),
    ("bf16_row", "BF16", 13, 22, "RowMajor", False, "BF16", "f32", "f32", 256),
    ("bf16_iopt_t", "BF16", 17, 20, "InferencingOptimal", True, "BF16", "f16", "f16", 128),
    ("bf16_col", "BF16", 9, 11, "ColumnMajor", False, "BF16", "f32", "f16", 0),
]

MATRIX_BYTES = 16384
VECTORS = 8


def strided(layout):
    return layout in ("RowMajor", "ColumnMajor")


def stride_of(interp, m, k, layout):
    """A stride of one stored row/column, rounded up to 16 bytes."""
    size = {"I8": 1, "U8": 1, "F16": 2, "BF16": 2, "F32": 4}[interp]
    units = k if layout == "RowMajor" else m
    return -(-units * size // 16) * 16


def matvec(case):
    name, interp, m, k, layout, transpose, xin, xel, rel, offset = case
    desc = f"{interp}, {m}x{k}, {layout}" + (", transpose" if transpose else "")
    stride = ""
    lines = [f"      %off = arith.constant {offset} : index"]
    if strided(layout):
        lines.append(f"      %stride = arith.constant "
                     f"{stride_of(interp, m, k, layout)} : index")
        stride = " stride %stride"
    lines.append(
        f"      %r = coopvec.matvec %x as {xin}, %w[%off] matrix<{desc}>"
        f"{stride} : vector<{k}x{xel}>, memref<?xi8> -> vector<{m}x{rel}>")
    return "\n".join(lines)


def kernel(case):
    """Thread t multiplies input vector t (elements t * K...) into result
    vector t."""
    name, _, m, k, _, _, _, xel, rel, _ = case
    return f"""    gpu.func @lane_{name}(%x: memref<?x{xel}>, %w: memref<?xi8>, %y: memref<?x{rel}>) kernel {{
      %t = gpu.thread_id x
      %kc = arith.constant {k} : index
      %mc = arith.constant {m} : index
      %xb = arith.muli %t, %kc : index
      %xv = vector.load %x[%xb] : memref<?x{xel}>, vector<{k}x{xel}>
{matvec(case).replace("%x as", "%xv as")}
      %yb = arith.muli %t, %mc : index
      vector.store %r, %y[%yb] : memref<?x{rel}>, vector<{m}x{rel}>
      gpu.return
    }}"""


def fill(name, elem, count, a, b, m, bias, scale):
    """func @name(buf, base, at): buf[at + i] for i < count = ((j*a + b) % m
    - bias) * scale with j = i + base (scale only for floats)."""
    conv = ""
    if elem.startswith(("f", "bf")):
        conv = (f"      %f = arith.sitofp %v : i32 to f32\n"
                f"      %s = arith.constant {float(scale)} : f32\n"
                f"      %fs = arith.mulf %f, %s : f32\n")
        value = "%fs" if elem == "f32" else "%e"
        if elem != "f32":
            conv += f"      %e = arith.truncf %fs : f32 to {elem}\n"
    else:
        value = "%v" if elem == "i32" else "%e"
        if elem != "i32":
            conv = f"      %e = arith.trunci %v : i32 to {elem}\n"
    return f"""  func.func private @{name}(%buf: memref<?x{elem}>, %base: index, %at: index) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.constant {count} : index
    scf.for %i = %c0 to %n step %c1 {{
      %j = arith.addi %i, %base : index
      %ji = arith.index_cast %j : index to i32
      %a = arith.constant {a} : i32
      %b = arith.constant {b} : i32
      %m = arith.constant {m} : i32
      %bias = arith.constant {bias} : i32
      %p = arith.muli %ji, %a : i32
      %q = arith.addi %p, %b : i32
      %u = arith.remui %q, %m : i32
      %v = arith.subi %u, %bias : i32
{conv}      %to = arith.addi %i, %at : index
      memref.store {value}, %buf[%to] : memref<?x{elem}>
    }}
    return
  }}"""


# Element values: matrices and inputs per interpretation (multiples of 1/4
# for floats, full range for bytes).
MATRIX_FILL = {"I8": ("i8", 37, 11, 256, 128, 1), "U8": ("i8", 53, 5, 256, 0, 1),
               "F16": ("f16", 5, 11, 33, 16, 0.25),
               "BF16": ("bf16", 3, 7, 31, 15, 0.25),
               "F32": ("f32", 7, 2, 29, 14, 0.25)}
INPUT_FILL = {"I8": (31, 7, 256, 128, 1), "U8": (29, 3, 256, 0, 1),
              "F16": (7, 3, 17, 8, 0.25), "F32": (11, 5, 19, 9, 0.25),
              "BF16": (13, 2, 23, 11, 0.25)}


def check_function(case):
    name, interp, m, k, layout, transpose, xin, xel, rel, offset = case
    melem, ma, mb, mm, mbias, mscale = MATRIX_FILL[interp]
    msize = {"i8": 1, "f16": 2, "bf16": 2, "f32": 4}[melem]
    ia, ib, im, ibias, iscale = INPUT_FILL[xin]
    rint = "i32" if rel in ("i32", "f32") else "i16"
    fills = [fill(f"fill_w_{name}", melem, MATRIX_BYTES // msize, ma, mb, mm,
                  mbias, mscale),
             fill(f"fill_x_{name}", xel, k, ia, ib, im, ibias, iscale)]
    view = "%w"
    if melem != "i8":
        view = "%wv"
    to_bits = ""
    if rel.startswith("f"):
        to_bits = (f"      %lb = arith.bitcast %lane : vector<{m}x{rel}> to vector<{m}x{rint}>\n"
                   f"      %cb = arith.bitcast %cpu : vector<{m}x{rel}> to vector<{m}x{rint}>\n")
        lv, cv = "%lb", "%cb"
    else:
        lv, cv = "%lane", "%cpu"
    cpu = matvec(case).replace("%x as", "%xv as").replace(
        "%r = coopvec.matvec", "%cpu = coopvec.matvec")
    return "\n".join(fills) + f"""
  func.func @check_{name}(%w: memref<?xi8>) -> index {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %nv = arith.constant {VECTORS} : index
    %cw = arith.constant {MATRIX_BYTES // msize} : index
    %kc = arith.constant {k} : index
    %mc = arith.constant {m} : index
    %wv = memref.view %w[%c0][%cw] : memref<?xi8> to memref<?x{melem}>
    func.call @fill_w_{name}({view}, %c0, %c0) : (memref<?x{melem}>, index, index) -> ()
    %xbuf = memref.alloc() : memref<{VECTORS * k}x{xel}>
    %xd = memref.cast %xbuf : memref<{VECTORS * k}x{xel}> to memref<?x{xel}>
    %ybuf = memref.alloc() : memref<{VECTORS * m}x{rel}>
    %yd = memref.cast %ybuf : memref<{VECTORS * m}x{rel}> to memref<?x{rel}>
    scf.for %v = %c0 to %nv step %c1 {{
      %base = arith.muli %v, %nv : index
      %at = arith.muli %v, %kc : index
      func.call @fill_x_{name}(%xd, %base, %at) : (memref<?x{xel}>, index, index) -> ()
    }}
    gpu.launch_func @lanes::@lane_{name} blocks in (%c1, %c1, %c1) threads in (%nv, %c1, %c1) args(%xd : memref<?x{xel}>, %w : memref<?xi8>, %yd : memref<?x{rel}>)
    %total = scf.for %v = %c0 to %nv step %c1 iter_args(%acc = %c0) -> (index) {{
      %xb = arith.muli %v, %kc : index
      %xv = vector.load %xbuf[%xb] : memref<{VECTORS * k}x{xel}>, vector<{k}x{xel}>
      %yb = arith.muli %v, %mc : index
      %lane = vector.load %ybuf[%yb] : memref<{VECTORS * m}x{rel}>, vector<{m}x{rel}>
{cpu}
{to_bits}      %ne = arith.cmpi ne, {lv}, {cv} : vector<{m}x{rint}>
      %ones = arith.extui %ne : vector<{m}xi1> to vector<{m}xi32>
      %cnt = vector.reduction <add>, %ones : vector<{m}xi32> into i32
      %ci = arith.index_cast %cnt : i32 to index
      %next = arith.addi %acc, %ci : index
      scf.yield %next : index
    }}
    memref.dealloc %xbuf : memref<{VECTORS * k}x{xel}>
    memref.dealloc %ybuf : memref<{VECTORS * m}x{rel}>
    return %total : index
  }}"""


def program():
    results = ", ".join(["index"] * len(CASES))
    calls = "\n".join(
        f"    %r{i} = func.call @check_{c[0]}(%wd) : (memref<?xi8>) -> index"
        for i, c in enumerate(CASES))
    values = ", ".join(f"%r{i}" for i in range(len(CASES)))
    return f"""module attributes {{gpu.container_module}} {{
  gpu.module @lanes {{
{chr(10).join(kernel(c) for c in CASES)}
  }}
{chr(10).join(check_function(c) for c in CASES)}
  func.func @main() -> ({results}) {{
    %w = memref.alloc() : memref<{MATRIX_BYTES}xi8>
    %wd = memref.cast %w : memref<{MATRIX_BYTES}xi8> to memref<?xi8>
{calls}
    memref.dealloc %w : memref<{MATRIX_BYTES}xi8>
    return {values} : {results}
  }}
}}
"""


def report(output):
    """`<case> <count>` per case from coopvec-run's output of @main."""
    counts = output.split()
    if len(counts) != len(CASES):
        sys.exit(f"lanes_on_cpu.py: expected {len(CASES)} counts, got "
                 f"{output!r}")
    for case, count in zip(CASES, counts):
        print(case[0], count)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("emit", "report"))
    args = parser.parse_args()
    if args.mode == "emit":
        sys.stdout.write(program())
    else:
        report(sys.stdin.read())


if __name__ == "__main__":
    main()
