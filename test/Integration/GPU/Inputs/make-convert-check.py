#!/usr/bin/env python3
"""Writes a coopvec program that runs coopvec.convert and coopvec.pack on the
GPU (convert-coopvec-to-nvvm: PTX cvt) and on the CPU (the runtime's
numerics) over the same inputs and compares the bits; likewise
coopvec.mx_quantize and coopvec.mx_dequantize.

    make-convert-check.py --chip sm_90 > check.mlir
    coopvec-run check.mlir -e check --gpu-chip=sm_90

Every case the chip has a cvt for is included. @check prints one line per
case, `( case, mismatches, first bad element or -1, its GPU word, its CPU
word, non-zero GPU words )`, and returns the total number of mismatches.

Inputs, per element i of 4 * THREADS: f32 patterns (raw random words; random
words with exponents near the small formats' ranges, half of them forced
onto a rounding tie of f16/tf32, bf16, e4m3, e5m2 or e2m1; tiny and
subnormal values; zeros, infinities, NaNs and range edges), their low 16
bits as f16/bf16, every 8-, 6- and 4-bit code for the widening cases, and
random words for rs.
"""

import argparse

THREADS = 4096
N = 4 * THREADS

# (name, source, destination, rounding, flags, minimum chips)
SM80 = ("sm_80", "sm_89", "sm_90", "sm_100a", "sm_120a")
SM89 = SM80[1:]
SM90 = SM80[2:]
BW = ("sm_100a", "sm_120a")
RS = ("sm_100a",)


def convert_cases():
    cases = []
    for dst in ("f16", "bf16"):
        for rnd, flags in (("rn", ""), ("rn", "relu"), ("rn", "satfinite"),
                           ("rz", ""), ("rz", "satfinite relu"), ("rm", ""),
                           ("rp", ""), ("rm", "satfinite"),
                           ("rp", "satfinite")):
            cases.append(("f32", dst, rnd, flags, SM80))
        cases.append(("f32", dst, "rs", "", RS))
        cases.append(("f32", dst, "rs", "satfinite relu", RS))
    for dst in ("f8E4M3FN", "f8E5M2"):
        cases += [("f32", dst, "rn", "satfinite", SM89),
                  ("f32", dst, "rn", "satfinite relu", SM89),
                  ("f16", dst, "rn", "satfinite", SM89),
                  ("f16", dst, "rn", "satfinite relu", SM89),
                  ("bf16", dst, "rn", "satfinite", SM89),
                  ("f32", dst, "rs", "satfinite", RS),
                  ("f32", dst, "rs", "satfinite relu", RS)]
    for dst in ("f6E2M3FN", "f6E3M2FN", "f4E2M1FN"):
        cases += [("f32", dst, "rn", "satfinite", BW),
                  ("f32", dst, "rn", "satfinite relu", BW),
                  ("f32", dst, "rs", "satfinite", RS)]
    for rnd in ("rz", "rp"):
        cases += [("f32", "f8E8M0FNU", rnd, "", BW),
                  ("f32", "f8E8M0FNU", rnd, "satfinite", BW),
                  ("bf16", "f8E8M0FNU", rnd, "satfinite", BW)]
    for src in ("f8E4M3FN", "f8E5M2"):
        cases += [(src, "f16", "rn", "", SM89),
                  (src, "f16", "rn", "relu", SM89),
                  (src, "f32", "rn", "", SM89),
                  (src, "bf16", "rn", "relu", SM89)]
    for src in ("f6E2M3FN", "f6E3M2FN", "f4E2M1FN"):
        cases += [(src, "f16", "rn", "", BW),
                  (src, "f32", "rn", "relu", BW)]
    cases += [("f8E8M0FNU", "bf16", "rn", "", BW),
              ("f8E8M0FNU", "f32", "rn", "", BW)]
    return [("convert",) + c for c in cases]


def pack_cases():
    cases = []
    for fmt, rnd, flags, chips in (
            ("f16", "rn", "", SM80), ("f16", "rp", "satfinite", SM80),
            ("bf16", "rz", "relu", SM80),
            ("f8E4M3FN", "rn", "satfinite", SM89),
            ("f8E5M2", "rn", "satfinite relu", SM89),
            ("f6E2M3FN", "rn", "satfinite", BW),
            ("f4E2M1FN", "rn", "satfinite relu", BW),
            ("f8E8M0FNU", "rp", "", BW),
            ("f16", "rs", "satfinite", RS)):
        cases.append(("pack2", "f32", fmt, rnd, flags, chips))
    for fmt in ("f8E4M3FN", "f8E5M2", "f6E3M2FN", "f4E2M1FN"):
        cases.append(("pack4", "f32", fmt, "rs", "satfinite", RS))
    return cases


def mx_cases():
    """(kind, element type, scale type, block, "", chips): 128 threads of 64
    values (two MX blocks or four NVFP4 blocks) writing 128 words each."""
    cases = []
    for elem, chips in (("f8E4M3FN", SM89), ("f8E5M2", SM89),
                        ("f6E2M3FN", BW), ("f6E3M2FN", BW),
                        ("f4E2M1FN", BW)):
        cases.append(("mxq", elem, "f8E8M0FNU", 32, "", chips))
        cases.append(("mxd", elem, "f8E8M0FNU", 32, "", chips))
    cases.append(("mxq", "f4E2M1FN", "f8E4M3FN", 16, "", BW))
    cases.append(("mxd", "f4E2M1FN", "f8E4M3FN", 16, "", BW))
    return cases


def mx_body(case, ind, dest):
    kind, elem, scale, block, _, _ = case
    ns = 64 // block
    w = WIDTH[elem]
    f = dict(elem=elem, scale=scale, block=block, ns=ns, w=w, dest=dest,
             rest=64 - ns,
             keep=", ".join(["false"] * block + ["true"] * (64 - block)))
    text = """%base = arith.muli %t, %c64 : index
%obase = arith.muli %t, %c128 : index
%oscale = arith.addi %obase, %c64 : index
%pad = arith.constant dense<0> : vector<{rest}xi32>
"""
    if kind == "mxq":
        # Only the first block keeps its infinities and NaNs; the others
        # are made finite (exponent 0xFF -> 0x7F), so most scales are real.
        text += """%v = vector.load %in32[%base] : memref<?xi32>, vector<64xi32>
%expm = arith.constant dense<2139095040> : vector<64xi32>
%finm = arith.constant dense<-1073741825> : vector<64xi32>
%e = arith.andi %v, %expm : vector<64xi32>
%nf = arith.cmpi eq, %e, %expm : vector<64xi32>
%keep = arith.constant dense<[{keep}]> : vector<64xi1>
%fix = arith.andi %nf, %keep : vector<64xi1>
%vf = arith.andi %v, %finm : vector<64xi32>
%v2 = arith.select %fix, %vf, %v : vector<64xi1>, vector<64xi32>
%x = arith.bitcast %v2 : vector<64xi32> to vector<64xf32>
%q, %s = coopvec.mx_quantize %x block {block} : vector<64xf32> -> vector<64x{elem}>, vector<{ns}x{scale}>
%qi = arith.bitcast %q : vector<64x{elem}> to vector<64xi{w}>
%qw = arith.extui %qi : vector<64xi{w}> to vector<64xi32>
%si = arith.bitcast %s : vector<{ns}x{scale}> to vector<{ns}xi8>
%sw = arith.extui %si : vector<{ns}xi8> to vector<{ns}xi32>
"""
    else:
        text += "%c8 = vector.load %in8[%base] : memref<?xi8>, vector<64xi8>\n"
        if w < 8:
            text += "%ci = arith.trunci %c8 : vector<64xi8> to vector<64xi{w}>\n"
        else:
            text += "%ci = arith.ori %c8, %c8 : vector<64xi8>\n"
        text += """%codes = arith.bitcast %ci : vector<64xi{w}> to vector<64x{elem}>
%sbase = arith.muli %t, %c4 : index
%s16 = vector.load %in16[%sbase] : memref<?xi16>, vector<{ns}xi16>
%s8 = arith.trunci %s16 : vector<{ns}xi16> to vector<{ns}xi8>
"""
        if scale == "f8E4M3FN":
            # UE4M3 scales have sign 0.
            text += """%m7f = arith.constant dense<127> : vector<{ns}xi8>
%s8u = arith.andi %s8, %m7f : vector<{ns}xi8>
"""
        else:
            text += "%s8u = arith.ori %s8, %s8 : vector<{ns}xi8>\n"
        text += """%scales = arith.bitcast %s8u : vector<{ns}xi8> to vector<{ns}x{scale}>
%y = coopvec.mx_dequantize %codes, %scales block {block} : vector<64x{elem}>, vector<{ns}x{scale}> -> vector<64xf32>
%qw = arith.bitcast %y : vector<64xf32> to vector<64xi32>
%sw = arith.extui %s8u : vector<{ns}xi8> to vector<{ns}xi32>
"""
    text += """vector.store %qw, {dest}[%obase] : memref<?xi32>, vector<64xi32>
vector.store %sw, {dest}[%oscale] : memref<?xi32>, vector<{ns}xi32>
%opad = arith.addi %oscale, %c{ns} : index
vector.store %pad, {dest}[%opad] : memref<?xi32>, vector<{rest}xi32>"""
    return "\n".join(ind + l for l in text.format(**f).split("\n"))

WIDTH = {"f32": 32, "f16": 16, "bf16": 16, "tf32": 19, "f8E4M3FN": 8,
         "f8E5M2": 8, "f8E8M0FNU": 8, "f6E2M3FN": 6, "f6E3M2FN": 6,
         "f4E2M1FN": 4}
PACKED = {"f16": 32, "bf16": 32, "f8E4M3FN": 16, "f8E5M2": 16,
          "f8E8M0FNU": 16, "f6E2M3FN": 16, "f6E3M2FN": 16, "f4E2M1FN": 8}
PACKED4 = {"f8E4M3FN": 32, "f8E5M2": 32, "f6E3M2FN": 32, "f4E2M1FN": 16}


def body(case, ind, dest):
    """Ops storing thread %t's words into `dest` (memref<?xi32>) from the
    buffers %in32, %in16, %in8, %rb (memref<?xi32|i16|i8|i32>), indented."""
    if case[0] in ("mxq", "mxd"):
        return mx_body(case, ind, dest)
    kind, src, dst, rnd, flags, _ = case
    lines = ["%base = arith.muli %t, %c4 : index"]
    if kind == "convert":
        w = WIDTH[src]
        if w == 32:
            lines.append("%raw = vector.load %in32[%base] : memref<?xi32>, vector<4xi32>")
        elif w == 16:
            lines.append("%raw = vector.load %in16[%base] : memref<?xi16>, vector<4xi16>")
        else:
            lines.append("%raw8 = vector.load %in8[%base] : memref<?xi8>, vector<4xi8>")
            if w == 8:
                lines.append("%raw = arith.addi %raw8, %raw8z : vector<4xi8>")
                lines.insert(0, "%raw8z = arith.constant dense<0> : vector<4xi8>")
            else:
                lines.append("%%raw = arith.trunci %%raw8 : vector<4xi8> to vector<4xi%d>" % w)
        lines.append("%%x = arith.bitcast %%raw : vector<4xi%d> to vector<4x%s>" % (w, src))
        rbits = ""
        rtype = ""
        if rnd == "rs":
            lines.append("%r = vector.load %rb[%base] : memref<?xi32>, vector<4xi32>")
            rbits = " rbits %r"
            rtype = ", vector<4xi32>"
        lines.append("%%y = coopvec.convert %%x%s rounding %s %s : vector<4x%s>%s -> vector<4x%s>"
                     % (rbits, rnd, flags, src, rtype, dst))
        dw = WIDTH[dst]
        lines.append("%%yb = arith.bitcast %%y : vector<4x%s> to vector<4xi%d>" % (dst, dw))
        if dw == 32:
            lines.append("%words = arith.addi %yb, %zero4 : vector<4xi32>")
        else:
            lines.append("%%words = arith.extui %%yb : vector<4xi%d> to vector<4xi32>" % dw)
        lines.append("vector.store %%words, %s[%%base] : memref<?xi32>, vector<4xi32>" % dest)
        return "\n".join(ind + l for l in lines)
    # pack2: words 0 and 1 pack elements (0, 1) and (2, 3); pack4 word 0
    # packs all four.
    lines.append("%v = vector.load %in32[%base] : memref<?xi32>, vector<4xi32>")
    lines.append("%vf = arith.bitcast %v : vector<4xi32> to vector<4xf32>")
    for j in range(4):
        lines.append("%%e%d = vector.extract %%vf[%d] : f32 from vector<4xf32>" % (j, j))
    rbits = ""
    if rnd == "rs":
        lines.append("%r = memref.load %rb[%base] : memref<?xi32>")
        rbits = " rbits %r"
    if kind == "pack2":
        pw = PACKED[dst]
        for j, (a, b) in enumerate(((0, 1), (2, 3))):
            lines.append("%%p%d = coopvec.pack %%e%d, %%e%d to %s%s rounding %s %s : f32, f32 -> i%d"
                         % (j, a, b, dst, rbits, rnd, flags, pw))
            if pw < 32:
                lines.append("%%q%d = arith.extui %%p%d : i%d to i32" % (j, j, pw))
            else:
                lines.append("%%q%d = arith.addi %%p%d, %%zero : i32" % (j, j))
        lines.append("%words = vector.from_elements %q0, %q1, %zero, %zero : vector<4xi32>")
    else:
        pw = PACKED4[dst]
        lines.append("%%p0 = coopvec.pack %%e0, %%e1, %%e2, %%e3 to %s%s rounding %s %s : f32, f32, f32, f32 -> i%d"
                     % (dst, rbits, rnd, flags, pw))
        if pw < 32:
            lines.append("%%q0 = arith.extui %%p0 : i%d to i32" % pw)
        else:
            lines.append("%q0 = arith.addi %p0, %zero : i32")
        lines.append("%words = vector.from_elements %q0, %zero, %zero, %zero : vector<4xi32>")
    lines.append("vector.store %%words, %s[%%base] : memref<?xi32>, vector<4xi32>" % dest)
    return "\n".join(ind + l for l in lines)


CONSTS = """%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c4 = arith.constant 4 : index
%zero = arith.constant 0 : i32
%zero4 = arith.constant dense<0> : vector<4xi32>
%c2 = arith.constant 2 : index
%c64 = arith.constant 64 : index
%c128 = arith.constant 128 : index"""


def indent(text, ind):
    return "\n".join(ind + l for l in text.split("\n"))


def kernel(i, case):
    return """    gpu.func @case{i}(%in32: memref<?xi32>, %in16: memref<?xi16>, %in8: memref<?xi8>,
                      %rb: memref<?xi32>, %out: memref<?xi32>, %n: index) kernel {{
{consts}
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %t0 = arith.muli %bid, %bdim : index
      %t = arith.addi %t0, %tid : index
      %live = arith.cmpi ult, %t, %n : index
      scf.if %live {{
{body}
      }}
      gpu.return
    }}""".format(i=i, consts=indent(CONSTS, "      "),
                 body=body(case, "        ", "%out"))


def host_case(i, case):
    return """    // case {i}: {desc}
    gpu.launch_func @kernels::@case{i} blocks in ({grid}, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%d32 : memref<?xi32>, %d16 : memref<?xi16>, %d8 : memref<?xi8>, %drb : memref<?xi32>, %dout : memref<?xi32>, {n} : index)
    gpu.memcpy %gpu, %dout : memref<?xi32>, memref<?xi32>
    scf.for %t = %c0 to {n} step %c1 {{
{body}
    }}
    %r{i}:3 = func.call @compare(%gpu, %cpu) : (memref<?xi32>, memref<?xi32>) -> (index, index, index)
    func.call @report(%case{i}, %r{i}#0, %r{i}#1, %r{i}#2, %gpu, %cpu) : (index, index, index, index, memref<?xi32>, memref<?xi32>) -> ()
    %total{j} = arith.addi %total{i}, %r{i}#0 : index
""".format(i=i, j=i + 1, desc=" ".join(str(x) for x in case[:5] if x),
           body=body(case, "      ", "%cpu"),
           n="%nmx" if case[0] in ("mxq", "mxd") else "%n",
           grid="%c1" if case[0] in ("mxq", "mxd") else "%grid")


HOST_HEAD = """
  // The inputs: element i of 4 * THREADS (see make-convert-check.py).
  func.func private @mix(%x: i32) -> i32 {
    %m1 = arith.constant 2246822507 : i32
    %m2 = arith.constant 3266489909 : i32
    %c13 = arith.constant 13 : i32
    %c16 = arith.constant 16 : i32
    %a = arith.shrui %x, %c16 : i32
    %b = arith.xori %x, %a : i32
    %c = arith.muli %b, %m1 : i32
    %d = arith.shrui %c, %c13 : i32
    %e = arith.xori %c, %d : i32
    %f = arith.muli %e, %m2 : i32
    %g = arith.shrui %f, %c16 : i32
    %h = arith.xori %f, %g : i32
    return %h : i32
  }

  func.func private @pattern(%i: index) -> i32 {
    %zero = arith.constant 0 : i32
    %allones = arith.constant -1 : i32
    %ii = arith.index_cast %i : index to i32
    %golden = arith.constant 2654435769 : i32
    %s1 = arith.muli %ii, %golden : i32
    %h1 = func.call @mix(%s1) : (i32) -> i32
    %k1 = arith.constant 1013904223 : i32
    %s2 = arith.addi %s1, %k1 : i32
    %h2 = func.call @mix(%s2) : (i32) -> i32
    %c8 = arith.constant 8 : i32
    %kind = arith.remui %ii, %c8 : i32
    %signmask = arith.constant -2147483648 : i32
    %sign = arith.andi %h1, %signmask : i32
    %mantmask = arith.constant 8388607 : i32
    %mant = arith.andi %h1, %mantmask : i32
    %c23 = arith.constant 23 : i32
    %c32 = arith.constant 32 : i32
    %c64 = arith.constant 64 : i32
    %c96 = arith.constant 96 : i32
    %tiny = arith.remui %h2, %c32 : i32
    %near0 = arith.remui %h2, %c64 : i32
    %near = arith.addi %near0, %c96 : i32
    %c1 = arith.constant 1 : i32
    %isTiny = arith.cmpi eq, %kind, %c1 : i32
    %exp = arith.select %isTiny, %tiny, %near : i32
    %e = arith.shli %exp, %c23 : i32
    // kinds 2..6 round to a tie: the dropped part is exactly one half.
    %c2 = arith.constant 2 : i32
    %tb0 = arith.subi %kind, %c2 : i32
    %t12 = arith.constant 12 : i32
    %t15 = arith.constant 15 : i32
    %t19 = arith.constant 19 : i32
    %t20 = arith.constant 20 : i32
    %t21 = arith.constant 21 : i32
    %c3 = arith.constant 3 : i32
    %c4 = arith.constant 4 : i32
    %is0 = arith.cmpi eq, %tb0, %zero : i32
    %is1 = arith.cmpi eq, %tb0, %c1 : i32
    %is2 = arith.cmpi eq, %tb0, %c2 : i32
    %is3 = arith.cmpi eq, %tb0, %c3 : i32
    %s3 = arith.select %is3, %t20, %t21 : i32
    %s2b = arith.select %is2, %t19, %s3 : i32
    %s1b = arith.select %is1, %t15, %s2b : i32
    %bit = arith.select %is0, %t12, %s1b : i32
    %half = arith.shli %c1, %bit : i32
    %low = arith.subi %half, %c1 : i32
    %keep0 = arith.ori %half, %low : i32
    %keep = arith.xori %keep0, %allones : i32
    %tm0 = arith.andi %mant, %keep : i32
    %tm = arith.ori %tm0, %half : i32
    %isTie0 = arith.cmpi uge, %kind, %c2 : i32
    %c6 = arith.constant 6 : i32
    %isTie1 = arith.cmpi ule, %kind, %c6 : i32
    %isTie = arith.andi %isTie0, %isTie1 : i1
    %m = arith.select %isTie, %tm, %mant : i32
    %se = arith.ori %sign, %e : i32
    %shaped = arith.ori %se, %m : i32
    // kind 7: a table of special values.
    %cv = arith.constant dense<[0, -2147483648, 2139095040, -8388608, 2143289344, -4194303, 2139095041, 1199562752, 1199566848, 1138753536, 1139277824, 1197473792, 1198522368, 841731191, 1, 2139095039]> : vector<16xi32>
    %c3i = arith.constant 3 : i32
    %c15 = arith.constant 15 : i32
    %sel0 = arith.shrui %ii, %c3i : i32
    %sel = arith.andi %sel0, %c15 : i32
    %seli = arith.index_cast %sel : i32 to index
    %special = vector.extract %cv[%seli] : i32 from vector<16xi32>
    %c7 = arith.constant 7 : i32
    %isSpecial = arith.cmpi eq, %kind, %c7 : i32
    %isRaw = arith.cmpi eq, %kind, %zero : i32
    %v0 = arith.select %isSpecial, %special, %shaped : i32
    %v = arith.select %isRaw, %h1, %v0 : i32
    return %v : i32
  }

  // (mismatches, first mismatching element or -1, non-zero GPU words)
  func.func private @compare(%gpu: memref<?xi32>, %cpu: memref<?xi32>) -> (index, index, index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %none = arith.constant -1 : index
    %n = memref.dim %gpu, %c0 : memref<?xi32>
    %z = arith.constant 0 : i32
    %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%cnt = %c0, %first = %none, %nz = %c0) -> (index, index, index) {
      %g = memref.load %gpu[%i] : memref<?xi32>
      %c = memref.load %cpu[%i] : memref<?xi32>
      %ne = arith.cmpi ne, %g, %c : i32
      %cnt1 = arith.addi %cnt, %c1 : index
      %cnt2 = arith.select %ne, %cnt1, %cnt : index
      %unset = arith.cmpi eq, %first, %none : index
      %take = arith.andi %ne, %unset : i1
      %first2 = arith.select %take, %i, %first : index
      %isnz = arith.cmpi ne, %g, %z : i32
      %nz1 = arith.addi %nz, %c1 : index
      %nz2 = arith.select %isnz, %nz1, %nz : index
      scf.yield %cnt2, %first2, %nz2 : index, index, index
    }
    return %r#0, %r#1, %r#2 : index, index, index
  }

  func.func private @report(%case: index, %bad: index, %first: index, %nonzero: index, %gpu: memref<?xi32>, %cpu: memref<?xi32>) {
    %c0 = arith.constant 0 : index
    %neg = arith.cmpi slt, %first, %c0 : index
    %at = arith.select %neg, %c0, %first : index
    %g = memref.load %gpu[%at] : memref<?xi32>
    %c = memref.load %cpu[%at] : memref<?xi32>
    %gi = arith.extui %g : i32 to i64
    %ci = arith.extui %c : i32 to i64
    %casei = arith.index_cast %case : index to i64
    %badi = arith.index_cast %bad : index to i64
    %firsti = arith.index_cast %first : index to i64
    %nzi = arith.index_cast %nonzero : index to i64
    %line = vector.from_elements %casei, %badi, %firsti, %gi, %ci, %nzi : vector<6xi64>
    vector.print %line : vector<6xi64>
    return
  }

  func.func @check() -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %zero = arith.constant 0 : i32
    %zero4 = arith.constant dense<0> : vector<4xi32>
    %n = arith.constant THREADS : index
    %nmx = arith.constant 128 : index
    %len = arith.constant LEN : index
    %grid = arith.constant GRID : index
    %in32 = memref.alloc(%len) : memref<?xi32>
    %in16 = memref.alloc(%len) : memref<?xi16>
    %in8 = memref.alloc(%len) : memref<?xi8>
    %rb = memref.alloc(%len) : memref<?xi32>
    %gpu = memref.alloc(%len) : memref<?xi32>
    %cpu = memref.alloc(%len) : memref<?xi32>
    scf.for %i = %c0 to %len step %c1 {
      %p = func.call @pattern(%i) : (index) -> i32
      memref.store %p, %in32[%i] : memref<?xi32>
      %p16 = arith.trunci %p : i32 to i16
      memref.store %p16, %in16[%i] : memref<?xi16>
      %ii = arith.index_cast %i : index to i32
      %i8 = arith.trunci %ii : i32 to i8
      memref.store %i8, %in8[%i] : memref<?xi8>
      %k = arith.constant 40503 : i32
      %s = arith.muli %ii, %k : i32
      %r = func.call @mix(%s) : (i32) -> i32
      memref.store %r, %rb[%i] : memref<?xi32>
    }
    %d32 = gpu.alloc (%len) : memref<?xi32>
    %d16 = gpu.alloc (%len) : memref<?xi16>
    %d8 = gpu.alloc (%len) : memref<?xi8>
    %drb = gpu.alloc (%len) : memref<?xi32>
    %dout = gpu.alloc (%len) : memref<?xi32>
    gpu.memcpy %d32, %in32 : memref<?xi32>, memref<?xi32>
    gpu.memcpy %d16, %in16 : memref<?xi16>, memref<?xi16>
    gpu.memcpy %d8, %in8 : memref<?xi8>, memref<?xi8>
    gpu.memcpy %drb, %rb : memref<?xi32>, memref<?xi32>
    %total0 = arith.constant 0 : index
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--chip", required=True)
    args = ap.parse_args()
    cases = [c for c in convert_cases() + pack_cases() + mx_cases()
             if args.chip in c[5]]
    out = ["// Generated by make-convert-check.py --chip %s: %d cases."
           % (args.chip, len(cases)),
           "module attributes {gpu.container_module} {",
           "  gpu.module @kernels {"]
    for i, c in enumerate(cases):
        out.append(kernel(i, c))
    out.append("  }")
    head = HOST_HEAD.replace("THREADS", str(THREADS)).replace(
        "LEN", str(N)).replace("GRID", str(THREADS // 128))
    out.append(head)
    for i, c in enumerate(cases):
        out.append("    %%case%d = arith.constant %d : index" % (i, i))
        out.append(host_case(i, c))
    tail = """    gpu.dealloc %d32 : memref<?xi32>
    gpu.dealloc %d16 : memref<?xi16>
    gpu.dealloc %d8 : memref<?xi8>
    gpu.dealloc %drb : memref<?xi32>
    gpu.dealloc %dout : memref<?xi32>
    memref.dealloc %in32 : memref<?xi32>
    memref.dealloc %in16 : memref<?xi16>
    memref.dealloc %in8 : memref<?xi8>
    memref.dealloc %rb : memref<?xi32>
    memref.dealloc %gpu : memref<?xi32>
    memref.dealloc %cpu : memref<?xi32>
    return %totalN : index
  }
}"""
    out.append(tail.replace("%totalN", "%%total%d" % len(cases)))
    print("\n".join(out))


if __name__ == "__main__":
    main()
