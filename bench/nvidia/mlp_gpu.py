#!/usr/bin/env python3
"""The neural-shading frame (examples/neural_shading) on an NVIDIA GPU:
the I8 network as one fused coopvec.mlp per thread and the F16 network as
three coopvec.matvec per thread, against the CPU JIT and cuBLASLt.

Two steps, because the GPU machine has CUDA, CuPy and PyTorch but no
LLVM/MLIR:

  prepare (here, with the build): writes two frame kernels in which every
    thread shades its own pixel (12 -> 64 -> 64 -> 3, ReLU, exp): @frame
    runs coopvec.mlp on a one-row subview (I8 weights, requant scales),
    @frame_f16 runs shade_frame_vulkan.mlir's F16 chain of coopvec.matvec;
    lowers them with `coopvec-opt --coopvec-nvvm-pipeline{chip format=isa}`
    twice (the cooperative step, and cooperative=false: the per-lane path
    alone), packs both networks' buffers, writes the features of a W x H
    frame (`neural-shading features`) and the CPU JIT's frames
    (`coopvec-run shade_frame.mlir -e shade_frame_i8` and `-e shade_frame`),
    all into one folder.
  run (on the GPU machine): launches the four kernels on the frame's
    features and compares them with the CPU's frames: the I8 frame must be
    within 2^-12 relative everywhere (its layers are bit-exact; exp is the
    GPU's ex2.approx against glibc's expf), the F16 frame's differences
    (the tensor cores sum in another order) are reported; --save DIR keeps
    the cooperative frames (gpu_frame_i8.npy, gpu_frame_f16.npy) for
    `neural-shading compare` here. With --bench, times the kernels on
    1920x1080 pixels (the frame's features tiled) against the same networks
    through PyTorch: the I8 network with torch._int_mm (cuBLASLt) and
    elementwise requantization, the float network in f16 through
    torch.addmm (cuBLASLt), ReLU and exp; each the median of 20 CUDA-event
    timings.

    /usr/bin/python3 bench/nvidia/mlp_gpu.py prepare --build build --out .gpu/mlp
    python3 bench/nvidia/mlp_gpu.py run .gpu/mlp --bench [--save DIR]
"""
import argparse
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from matvec_gpu import lower_to_ptx, median_ms  # noqa: E402
ROOT = os.path.join(HERE, "..", "..")
EXAMPLE = os.path.join(ROOT, "examples", "neural_shading")
BLOCK = 128
FULL = (1920, 1080)

# The network's buffers: weights RowMajor with 16-byte row strides (w0's 12
# columns padded to 16), I32 biases and f32 requant scales at 256-byte
# offsets.
W_OFFSETS = (0, 1024, 5120)
W_STRIDES = (16, 64, 64)
SHAPES = ((64, 12), (64, 64), (3, 64))

# Thread %t shades pixel %t (row %t of %x) if there is one (%live).
THREAD_ROW = """      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %t = arith.addi %base, %tid : index
      %n = memref.dim %x, %c0 : memref<?x12xf32>
      %live = arith.cmpi ult, %t, %n : index"""

KERNEL = """module attributes {gpu.container_module} {
  gpu.module @frame_kernels {
    gpu.func @frame_f16(%x: memref<?x12xf32>, %w: memref<?xi8>,
                        %b: memref<?xi8>, %y: memref<?x3xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c2048 = arith.constant 2048 : index
      %c10240 = arith.constant 10240 : index
      THREAD_ROW
      scf.if %live {
        %zero = arith.constant dense<0.0> : vector<64xf16>
        %xv = vector.load %x[%t, %c0] {alignment = 16} : memref<?x12xf32>, vector<12xf32>
        %xh = arith.truncf %xv : vector<12xf32> to vector<12xf16>
        %l0 = coopvec.matvec %xh as F16, %w[%c0] matrix<F16, 64x12, RowMajor> stride %c32
                bias %b[%c0] as F16 : vector<12xf16>, memref<?xi8>, memref<?xi8> -> vector<64xf16>
        %h0 = arith.maximumf %l0, %zero : vector<64xf16>
        %l1 = coopvec.matvec %h0 as F16, %w[%c2048] matrix<F16, 64x64, RowMajor> stride %c128
                bias %b[%c128] as F16 : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<64xf16>
        %h1 = arith.maximumf %l1, %zero : vector<64xf16>
        %l2 = coopvec.matvec %h1 as F16, %w[%c10240] matrix<F16, 3x64, RowMajor> stride %c128
                bias %b[%c256] as F16 : vector<64xf16>, memref<?xi8>, memref<?xi8> -> vector<3xf16>
        %l2f = arith.extf %l2 : vector<3xf16> to vector<3xf32>
        %ef = math.exp %l2f : vector<3xf32>
        %e = arith.truncf %ef : vector<3xf32> to vector<3xf16>
        %yv = arith.extf %e : vector<3xf16> to vector<3xf32>
        vector.store %yv, %y[%t, %c0] : memref<?x3xf32>, vector<3xf32>
      }
      gpu.return
    }
    gpu.func @frame(%x: memref<?x12xf32>, %w: memref<?xi8>, %b: memref<?xi8>,
                    %s: memref<?xi8>, %q: f32, %y: memref<?x3xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      %c5120 = arith.constant 5120 : index
      THREAD_ROW
      scf.if %live {
        %xr = memref.subview %x[%t, 0] [1, 12] [1, 1] : memref<?x12xf32> to memref<1x12xf32, strided<[12, 1], offset: ?>>
        %yr = memref.subview %y[%t, 0] [1, 3] [1, 1] : memref<?x3xf32> to memref<1x3xf32, strided<[3, 1], offset: ?>>
        coopvec.mlp %xr layers [
            %w[%c0] matrix<I8, 64x12, RowMajor> stride %c16 bias %b[%c0] relu requant %s[%c0],
            %w[%c1024] matrix<I8, 64x64, RowMajor> stride %c64 bias %b[%c256] relu requant %s[%c256],
            %w[%c5120] matrix<I8, 3x64, RowMajor> stride %c64 bias %b[%c512] none requant %s[%c512]]
          input_scale %q exp into %yr
          : memref<1x12xf32, strided<[12, 1], offset: ?>>, memref<1x3xf32, strided<[3, 1], offset: ?>>,
            memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>, memref<?xi8>,
            memref<?xi8>, memref<?xi8>, memref<?xi8>
      }
      gpu.return
    }
  }
}
""".replace("      THREAD_ROW", THREAD_ROW)


def pack_network(d):
    """The I8 network of weights_i8/ as the kernel's three byte buffers."""
    w = np.zeros(5376, np.int8)
    b = np.zeros(1024, np.uint8)
    s = np.zeros(1024, np.uint8)
    for l, ((m, k), off, stride) in enumerate(zip(SHAPES, W_OFFSETS,
                                                  W_STRIDES)):
        wl = np.load(os.path.join(d, "w%d.npy" % l)).astype(np.int8)
        assert wl.shape == (m, k), wl.shape
        w[off: off + m * stride].reshape(m, stride)[:, :k] = wl
        bl = np.load(os.path.join(d, "b%d.npy" % l)).astype(np.int32)
        b[256 * l: 256 * l + 4 * m] = bl.view(np.uint8)
        sl = np.load(os.path.join(d, "s%d.npy" % l)).astype(np.float32)
        s[256 * l: 256 * l + 4 * m] = sl.view(np.uint8)
    q = float(np.load(os.path.join(d, "input_scale.npy")).reshape(-1)[0])
    return w, b, s, q


def pack_f16_network(d):
    """The float network of weights/ as shade_frame_vulkan.mlir's @shade_frame
    converts it: F16 RowMajor weights (strides 32, 128, 128 at 0, 2048,
    10240) and F16 biases at 0, 128, 256."""
    w = np.zeros(10624, np.uint8)
    b = np.zeros(384, np.uint8)
    for l, ((m, k), off, stride) in enumerate(zip(
            SHAPES, (0, 2048, 10240), (32, 128, 128))):
        wl = np.load(os.path.join(d, "w%d.npy" % l)).astype(np.float16)
        w[off: off + m * stride].reshape(m, stride)[:, :2 * k] = \
            wl.view(np.uint8).reshape(m, 2 * k)
        bl = np.load(os.path.join(d, "b%d.npy" % l)).astype(np.float16)
        b[128 * l: 128 * l + 2 * m] = bl.view(np.uint8)
    return w, b


def prepare(args):
    os.makedirs(args.out, exist_ok=True)
    opt = os.path.join(args.build, "bin", "coopvec-opt")
    run = os.path.join(args.build, "bin", "coopvec-run")
    shading = os.path.join(args.build, "bin", "neural-shading")
    src = os.path.join(args.out, "frame.kernel.mlir")
    with open(src, "w") as f:
        f.write(KERNEL)
    for variant, coop in (("coop", "true"), ("lane", "false")):
        with open(os.path.join(args.out, "frame.%s.ptx" % variant), "w") as f:
            f.write(lower_to_ptx(opt, src, args.chip, "cooperative=" + coop))
    wh, bh = pack_f16_network(os.path.join(EXAMPLE, "weights"))
    np.save(os.path.join(args.out, "wh.npy"), wh)
    np.save(os.path.join(args.out, "bh.npy"), bh)
    w, b, s, q = pack_network(os.path.join(EXAMPLE, "weights_i8"))
    np.save(os.path.join(args.out, "w.npy"), w)
    np.save(os.path.join(args.out, "b.npy"), b)
    np.save(os.path.join(args.out, "s.npy"), s)
    for l in range(3):
        for name in ("w%d" % l, "b%d" % l):
            np.save(os.path.join(args.out, "f32_%s.npy" % name),
                    np.load(os.path.join(EXAMPLE, "weights", name + ".npy")))
    feats = os.path.join(args.out, "features.npy")
    rgb = os.path.join(args.out, "rgb.npy")
    subprocess.run([shading, "features", "--width", str(args.width),
                    "--height", str(args.height), "-o", feats,
                    "--rgb-buffer", rgb], check=True)
    i8 = os.path.join(EXAMPLE, "weights_i8")
    cmd = [run, os.path.join(EXAMPLE, "shade_frame.mlir"), "-e",
           "shade_frame_i8", "--arg", feats]
    for l in range(3):
        cmd += ["--arg", os.path.join(i8, "w%d.npy" % l),
                "--arg", os.path.join(i8, "b%d.npy" % l)]
    for l in range(3):
        cmd += ["--arg", os.path.join(i8, "s%d.npy" % l)]
    cmd += ["--arg", os.path.join(i8, "input_scale.npy"), "--arg", rgb,
            "--no-print", "--out-arg",
            "11=" + os.path.join(args.out, "cpu_frame.npy")]
    subprocess.run(cmd, check=True)
    cmd = [run, os.path.join(EXAMPLE, "shade_frame.mlir"), "-e",
           "shade_frame", "--arg", feats]
    for l in range(3):
        cmd += ["--arg", os.path.join(EXAMPLE, "weights", "w%d.npy" % l),
                "--arg", os.path.join(EXAMPLE, "weights", "b%d.npy" % l)]
    cmd += ["--arg", rgb, "--no-print", "--out-arg",
            "7=" + os.path.join(args.out, "cpu_frame_f16.npy")]
    subprocess.run(cmd, check=True)
    os.remove(rgb)  # only the entries' output buffer
    with open(os.path.join(args.out, "frame.json"), "w") as f:
        json.dump(dict(chip=args.chip, width=args.width, height=args.height,
                       input_scale=q, block=BLOCK), f, indent=1)
    print("prepared", args.out)


def memref_args(arrays):
    """CuPy kernel arguments of memrefs: (allocated, aligned, offset, sizes,
    strides) each, as the LLVM lowering expands them."""
    out = []
    for a in arrays:
        if isinstance(a, np.float32):
            out.append(a)
            continue
        out += [a, a, np.int64(0)]
        out += [np.int64(d) for d in a.shape]
        out += [np.int64(st // a.itemsize) for st in a.strides]
    return out


def run(args):
    import cupy as cp

    d = args.dir
    with open(os.path.join(d, "frame.json")) as f:
        meta = json.load(f)
    x = cp.asarray(np.load(os.path.join(d, "features.npy")))
    w = cp.asarray(np.load(os.path.join(d, "w.npy")))
    b = cp.asarray(np.load(os.path.join(d, "b.npy")))
    s = cp.asarray(np.load(os.path.join(d, "s.npy")))
    q = np.float32(meta["input_scale"])
    expected = np.load(os.path.join(d, "cpu_frame.npy"))
    wh = cp.asarray(np.load(os.path.join(d, "wh.npy")))
    bh = cp.asarray(np.load(os.path.join(d, "bh.npy")))
    kernels = {}
    for variant in ("coop", "lane"):
        module = cp.RawModule(path=os.path.join(d, "frame.%s.ptx" % variant))
        kernels[variant] = module.get_function("frame")
        kernels[variant + "_f16"] = module.get_function("frame_f16")

    def launch(variant, xs, ys):
        grid = (xs.shape[0] + BLOCK - 1) // BLOCK
        if variant.endswith("_f16"):
            margs = memref_args([xs, wh, bh, ys])
        else:
            margs = memref_args([xs, w, b, s, q, ys])
        kernels[variant]((grid,), (BLOCK,), tuple(margs))

    failures = 0
    n = x.shape[0]
    expected_f16 = np.load(os.path.join(d, "cpu_frame_f16.npy"))
    for variant in ("coop", "lane", "coop_f16", "lane_f16"):
        y = cp.zeros((n, 3), cp.float32)
        launch(variant, x, y)
        got = cp.asnumpy(y)
        ref = expected_f16 if variant.endswith("_f16") else expected
        rel = np.abs(got.astype(np.float64) - ref) / np.maximum(
            np.abs(ref.astype(np.float64)), 2.0 ** -14)
        diff_bits = int((got.view(np.int32) != ref.view(np.int32)).sum())
        # I8: exact layers, the GPU's exp; F16: the tensor cores sum in
        # another order than the CPU (reported, judged by the PSNR).
        bound = 2.0 ** -12
        far = int((rel > bound).sum())
        print("frame %dx%d %s: %d of %d elements not bit-identical to the "
              "CPU JIT's, %d beyond 2^-12 relative, max relative %.3g" % (
                  meta["width"], meta["height"], variant, diff_bits,
                  got.size, far, float(rel.max())))
        if not variant.endswith("_f16"):
            failures += int(far != 0)
        if args.save and variant.startswith("coop"):
            os.makedirs(args.save, exist_ok=True)
            np.save(os.path.join(args.save, "gpu_frame%s.npy" % (
                "_f16" if variant.endswith("_f16") else "_i8")), got)
    if args.bench:
        bench(cp, d, x, launch, meta["input_scale"])
    print("%d failures" % failures)
    return int(failures != 0)


def bench(cp, d, x, launch, qs):
    import torch

    pixels = FULL[0] * FULL[1]
    reps = (pixels + x.shape[0] - 1) // x.shape[0]
    xf = cp.ascontiguousarray(cp.tile(x, (reps, 1))[:pixels])
    y = cp.zeros((pixels, 3), cp.float32)
    times = {}
    for variant in ("coop", "lane", "coop_f16", "lane_f16"):
        times[variant] = median_ms(cp, lambda: launch(variant, xf, y))
    tx = torch.as_tensor(xf, device="cuda")

    # The float network in f16 through cuBLASLt (torch.matmul), ReLU, exp.
    def f32w(name):
        return torch.as_tensor(np.load(os.path.join(d, "f32_%s.npy" % name)),
                               device="cuda")
    fw = [f32w("w%d" % l).half() for l in range(3)]
    fb = [f32w("b%d" % l).half() for l in range(3)]
    xh = tx.half()

    def f16_net():
        h = torch.relu(torch.addmm(fb[0], xh, fw[0].t()))
        h = torch.relu(torch.addmm(fb[1], h, fw[1].t()))
        return torch.exp(torch.addmm(fb[2], h, fw[2].t()).float())
    times["torch_f16"] = median_ms(cp, f16_net)

    # The I8 network through torch._int_mm (cuBLASLt s8 x s8 -> s32; K and N
    # padded to multiples of 8) and elementwise requantization.
    wq = np.load(os.path.join(d, "w.npy"))
    bq = np.load(os.path.join(d, "b.npy"))
    sq = np.load(os.path.join(d, "s.npy"))
    mats, biases, scales = [], [], []
    for l, ((m, k), off, stride) in enumerate(zip(SHAPES, W_OFFSETS,
                                                  W_STRIDES)):
        wl = wq[off: off + m * stride].reshape(m, stride)[:, :k]
        kp, mp = (k + 7) // 8 * 8, (m + 7) // 8 * 8
        padded = np.zeros((mp, kp), np.int8)
        padded[:m, :k] = wl
        mats.append(torch.as_tensor(padded, device="cuda").t())
        bl = np.zeros(mp, np.int32)
        bl[:m] = bq[256 * l: 256 * l + 4 * m].view(np.int32)
        sl = np.zeros(mp, np.float32)
        sl[:m] = sq[256 * l: 256 * l + 4 * m].view(np.float32)
        biases.append(torch.as_tensor(bl, device="cuda"))
        scales.append(torch.as_tensor(sl, device="cuda"))
    x16 = torch.zeros((pixels, 16), device="cuda")
    x16[:, :12] = tx

    # Hidden activations are u8 (after ReLU): multiplied as h - 128 in s8,
    # with 128 times each row's weight sum added back (exact).
    shifts = [None] + [torch.as_tensor(128 * mats[l].t().to(torch.int32)
                                       .sum(1), device="cuda")
                       for l in (1, 2)]

    def i8_net():
        h = torch.clamp(torch.round(x16 * qs), -128, 127).to(torch.int8)
        for l in range(3):
            acc = torch._int_mm(h, mats[l]) + biases[l]
            if l:
                acc = acc + shifts[l]
            v = acc.float()
            if l < 2:
                v = torch.clamp(torch.round(torch.relu(v) * scales[l]), 0, 255)
                h = (v - 128).to(torch.int8)
            else:
                v = v * scales[l]
        return torch.exp(v[:, :3])
    times["torch_i8"] = median_ms(cp, i8_net)
    flops = 2.0 * pixels * sum(m * k for m, k in SHAPES)
    print("bench frame 1920x1080 (%d pixels, %.2f GFLOP): " % (
        pixels, flops / 1e9) + " | ".join(
        "%s %.3f ms (%.1f TFLOP/s)" % (k, v, flops / (v * 1e-3) / 1e12)
        for k, v in times.items()))
    print("bench ratios: I8 coop vs torch_i8 %.2fx, vs torch_f16 %.2fx, vs "
          "its per-lane path %.2fx; F16 coop vs torch_f16 %.2fx, vs its "
          "per-lane path %.2fx (above 1: ours faster)" % (
              times["torch_i8"] / times["coop"],
              times["torch_f16"] / times["coop"],
              times["lane"] / times["coop"],
              times["torch_f16"] / times["coop_f16"],
              times["lane_f16"] / times["coop_f16"]))


def main():
    p = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("prepare")
    pp.add_argument("--build", default="build")
    pp.add_argument("--out", required=True)
    pp.add_argument("--chip", default="sm_90")
    pp.add_argument("--width", type=int, default=480)
    pp.add_argument("--height", type=int, default=270)
    pr = sub.add_parser("run")
    pr.add_argument("dir")
    pr.add_argument("--bench", action="store_true")
    pr.add_argument("--save")
    a = p.parse_args()
    sys.exit(prepare(a) if a.cmd == "prepare" else run(a))


if __name__ == "__main__":
    main()
