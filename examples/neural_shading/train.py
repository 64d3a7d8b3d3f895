#!/usr/bin/python3
"""Trains the neural shader of examples/neural_shading.

A 12 -> 64 -> 64 -> 3 network (bias and ReLU on the hidden layers, exp at the
output, so the last layer predicts log radiance) learns to reproduce the
analytic scene of Scene.cpp from the per-pixel features described in
Scene.h. Scene.cpp is the reference: `shade` below mirrors its `shadeRay`
line by line, and the constants block mirrors its constants block.

Plain numpy (Debian's python3-numpy), deterministic (fixed seed), under a
minute of CPU time. Writes row-major float32 .npy files:
w0 (64x12), b0 (64), w1 (64x64), b1 (64), w2 (3x64), b2 (3), each layer
computing y = W x + b.

    /usr/bin/python3 examples/neural_shading/train.py [--out DIR]

With --i8 it instead fine-tunes the trained f32 weights (weights/) for the
I8 network of `coopvec.mlp` (quantization-aware training, 5000 steps, about
a minute)
and writes its integer form to weights_i8/: w0..w2 (int8, M x K, one scale
per row: 127 / max |row|), b0..b2 (int32, accumulator units), s0..s2
(float32 per-row requantization scales) and input_scale (float32, one
value), the arithmetic of coopvec.mlp with I8 weights (the runtime's
coopvecMlpForward): the features quantized to s8, each hidden layer's ReLU
output to u8 [0, 255].

    /usr/bin/python3 examples/neural_shading/train.py --i8 [--out DIR]
"""

import argparse
import os
import sys
import time

import numpy as np

# ---------------------------------------------------------------------------
# Scene constants (Scene.cpp: the block of the same name)
# ---------------------------------------------------------------------------

EYE = np.array([0.0, 1.3, 5.5])
TARGET = np.array([0.0, 0.55, 0.0])
VERTICAL_FOV_DEGREES = 38.0

LIGHT_POSITION = np.array([-3.0, 6.0, 4.0])
LIGHT_COLOR = np.array([0.95, 0.91, 0.84])
AMBIENT_SKY = np.array([0.30, 0.38, 0.50])
AMBIENT_GROUND = np.array([0.18, 0.15, 0.12])
SPECULAR = 0.4
SHININESS = 40.0

SKY_HORIZON = np.array([0.80, 0.86, 0.95])
SKY_ZENITH = np.array([0.22, 0.42, 0.80])

SPHERES = [  # center, radius, albedo
    (np.array([-1.35, 0.55, 0.35]), 0.55, np.array([0.80, 0.12, 0.08])),  # red
    (np.array([0.0, 0.85, -0.4]), 0.85, np.array([0.90, 0.72, 0.25])),  # yellow
    (np.array([1.4, 0.5, 0.5]), 0.5, np.array([0.12, 0.30, 0.85])),  # blue
]

CHECKER_SIZE = 0.6
CHECKER_LIGHT = np.array([0.78, 0.78, 0.75])
CHECKER_DARK = np.array([0.30, 0.30, 0.33])
FADE_START = 6.0
FADE_END = 16.0

NO_HIT = 1e30
EPSILON = 1e-4

NUM_FEATURES = 12
HIDDEN = 64

# ---------------------------------------------------------------------------
# Ray casting (vectorised over rays: every array has a leading axis N)
# ---------------------------------------------------------------------------


def dot(a, b):
    return np.sum(a * b, axis=-1)


def normalize(a):
    return a / np.sqrt(dot(a, a))[..., None]


def mix(a, b, t):
    return a + (b - a) * t[..., None]


def intersect_sphere(origin, direction, center, radius):
    """Distance along the unit rays to the sphere's front face, or NO_HIT."""
    oc = origin - center
    b = dot(oc, direction)
    c = dot(oc, oc) - radius * radius
    disc = b * b - c
    t = -b - np.sqrt(np.maximum(disc, 0.0))
    return np.where((disc >= 0.0) & (t > EPSILON), t, NO_HIT)


def occluded(origin, to_light, light_distance):
    """Whether any sphere blocks the segment from origin to the light."""
    hit = np.zeros(origin.shape[0], dtype=bool)
    for center, radius, _ in SPHERES:
        hit |= intersect_sphere(origin, to_light, center, radius) < light_distance
    return hit


def shade(direction):
    """Features (N x 12) and linear radiance (N x 3) of unit rays from EYE."""
    n_rays = direction.shape[0]
    v = -direction

    # Nearest hit: the floor, then any sphere in front of it.
    with np.errstate(divide="ignore"):
        t_hit = np.where(direction[:, 1] < 0.0, -EYE[1] / direction[:, 1], NO_HIT)
    sphere_id = np.full(n_rays, -1)
    for i, (center, radius, _) in enumerate(SPHERES):
        t = intersect_sphere(EYE, direction, center, radius)
        closer = t < t_hit
        t_hit = np.where(closer, t, t_hit)
        sphere_id = np.where(closer, i, sphere_id)
    sky = t_hit == NO_HIT
    on_floor = ~sky & (sphere_id < 0)
    t_hit = np.where(sky, 0.0, t_hit)  # keeps the sky's arithmetic finite

    p = EYE + direction * t_hit[:, None]
    n = np.zeros((n_rays, 3))
    albedo = np.zeros((n_rays, 3))
    for i, (center, _, sphere_albedo) in enumerate(SPHERES):
        mask = sphere_id == i
        n[mask] = normalize(p[mask] - center)
        albedo[mask] = sphere_albedo
    n[on_floor] = [0.0, 1.0, 0.0]
    light = ((np.floor(p[:, 0] / CHECKER_SIZE).astype(np.int64)
              + np.floor(p[:, 2] / CHECKER_SIZE).astype(np.int64)) % 2) == 0
    fade = np.clip((t_hit - FADE_START) / (FADE_END - FADE_START), 0.0, 1.0)
    checker = mix(np.where(light[:, None], CHECKER_LIGHT, CHECKER_DARK),
                  np.broadcast_to((CHECKER_LIGHT + CHECKER_DARK) * 0.5, (n_rays, 3)),
                  fade)
    albedo[on_floor] = checker[on_floor]

    to_light = LIGHT_POSITION - p
    light_distance = np.sqrt(dot(to_light, to_light))
    l = to_light / light_distance[:, None]
    n_dot_l = np.maximum(dot(n, l), 0.0)
    # Only lit-facing points cast a shadow ray (see Scene.cpp).
    shadowed = (n_dot_l > 0.0) & occluded(p + n * EPSILON, l, light_distance)
    l[shadowed] = 0.0
    n_dot_l[shadowed] = 0.0
    h = normalize(l + v)
    spec = SPECULAR * np.maximum(dot(n, h), 0.0) ** SHININESS * n_dot_l
    ambient = mix(AMBIENT_GROUND, AMBIENT_SKY, 0.5 + 0.5 * n[:, 1])
    rgb = albedo * ambient + LIGHT_COLOR * (albedo * n_dot_l[:, None] + spec[:, None])

    # Sky: see Scene.h.
    n[sky] = v[sky]
    l[sky] = 0.0
    t_sky = np.clip(direction[:, 1] * 4.0, 0.0, 1.0)
    rgb[sky] = mix(SKY_HORIZON, SKY_ZENITH, t_sky)[sky]

    return np.concatenate([n, v, l, albedo], axis=1), rgb


def camera_rays(px, py, width, height):
    """Unit rays through image-plane points (px, py) in pixel units; pixel
    (x, y) has its centre at (x + 0.5, y + 0.5), row 0 at the top."""
    forward = normalize(TARGET - EYE)
    right = normalize(np.cross(forward, [0.0, 1.0, 0.0]))
    up = np.cross(right, forward)
    tan_half = np.tan(np.radians(VERTICAL_FOV_DEGREES) * 0.5)
    aspect = width / height
    sx = (2.0 * px / width - 1.0) * tan_half * aspect
    sy = (1.0 - 2.0 * py / height) * tan_half
    return normalize(forward + right * sx[:, None] + up * sy[:, None])


def frame(width, height):
    """Features and radiance of every pixel centre, row by row."""
    y, x = np.mgrid[0:height, 0:width]
    return shade(camera_rays(x.ravel() + 0.5, y.ravel() + 0.5, width, height))


# ---------------------------------------------------------------------------
# The network and its training
# ---------------------------------------------------------------------------

# The loss compares log(radiance + LOG_OFFSET): roughly perceptual like the
# sRGB curve (relative errors in bright regions, bounded weight for the
# darkest shadows), and the network's output layer already works in log space.
LOG_OFFSET = 0.02


def encode_srgb(linear):
    c = np.clip(linear, 0.0, 1.0)
    s = np.where(c <= 0.0031308, 12.92 * c, 1.055 * c ** (1.0 / 2.4) - 0.055)
    return np.round(s * 255.0)


def psnr(a, b):
    mse = np.mean((encode_srgb(a) - encode_srgb(b)) ** 2)
    return 10.0 * np.log10(255.0 ** 2 / mse)


def forward(params, x):
    w0, b0, w1, b1, w2, b2 = params
    a0 = x @ w0.T + b0
    h0 = np.maximum(a0, 0.0)
    a1 = h0 @ w1.T + b1
    h1 = np.maximum(a1, 0.0)
    out = h1 @ w2.T + b2
    return out, (x, a0, h0, a1, h1)


def evaluate(params, x):
    return np.exp(forward(params, x)[0])


def init_params(rng):
    def layer(m, k):
        # He initialisation for ReLU layers.
        return (rng.normal(0.0, np.sqrt(2.0 / k), (m, k)).astype(np.float32),
                np.zeros(m, dtype=np.float32))

    w0, b0 = layer(HIDDEN, NUM_FEATURES)
    w1, b1 = layer(HIDDEN, HIDDEN)
    w2, b2 = layer(3, HIDDEN)
    w2 *= 0.1
    return [w0, b0, w1, b1, w2, b2]


def loss_and_grads(params, x, target, scales=None):
    """The loss and its gradients; with `scales`, through fake_quant (the
    I8 fine-tuning): the rounding passes gradients straight through,
    saturated activations none."""
    if scales is None:
        out, (x, a0, h0, a1, h1) = forward(params, x)
        w, top1, top2 = params[0::2], np.inf, np.inf
    else:
        out, (x, a0, h0, a1, h1, w) = fake_quant(params, x, scales)
        top1, top2 = 255.5 / scales[1], 255.5 / scales[2]
    y = np.exp(out)
    diff = np.log(y + LOG_OFFSET) - np.log(target + LOG_OFFSET)
    loss = np.mean(diff ** 2)
    # d loss / d out = 2 diff / numel * d log(y + c) / d out, and
    # d log(y + c) / d out = y / (y + c) because y = exp(out).
    g_out = 2.0 * diff * (y / (y + LOG_OFFSET)) / diff.size
    g_w2 = g_out.T @ h1
    g_b2 = g_out.sum(0)
    g_a1 = (g_out @ w[2]) * ((a1 > 0.0) & (a1 < top2))
    g_w1 = g_a1.T @ h0
    g_b1 = g_a1.sum(0)
    g_a0 = (g_a1 @ w[1]) * ((a0 > 0.0) & (a0 < top1))
    g_w0 = g_a0.T @ x
    g_b0 = g_a0.sum(0)
    return loss, [g_w0, g_b0, g_w1, g_b1, g_w2, g_b2]


def adam_step(params, grads, m, s, step, lr, beta1=0.9, beta2=0.999, eps=1e-8):
    """One Adam update of params in place (m, s: the moment estimates)."""
    for p, g, mi, si in zip(params, grads, m, s):
        mi *= beta1
        mi += (1.0 - beta1) * g
        si *= beta2
        si += (1.0 - beta2) * g * g
        m_hat = mi / (1.0 - beta1 ** step)
        s_hat = si / (1.0 - beta2 ** step)
        p -= lr * m_hat / (np.sqrt(s_hat) + eps)


def save_npy(path, array):
    np.save(path, np.ascontiguousarray(array, dtype="<f4"))


# ---------------------------------------------------------------------------
# The I8 network (coopvec.mlp with I8 weights)
# ---------------------------------------------------------------------------


def row_scales(w):
    """Per-row weight scales: the largest |w| of a row maps to 127."""
    return 127.0 / np.maximum(np.abs(w).max(axis=1), 1e-12)


def activation_scales(params, x, fake):
    """Input scale (s8: max |x| to 127) and hidden scales (u8 after ReLU: the
    largest activation to 255) measured on x through `fake`'s network."""
    _, (x, a0, h0, a1, h1, _) = fake(params, x, None)
    return [127.0 / np.abs(x).max(), 255.0 / max(float(np.maximum(a0, 0).max()), 1e-6),
            255.0 / max(float(np.maximum(a1, 0).max()), 1e-6)]


def fake_quant(params, x, scales):
    """The I8 network in float arithmetic (weights rounded per row, inputs
    to s8, hidden activations to u8); scales None: not quantizing the
    activations (for measuring them)."""
    w0, b0, w1, b1, w2, b2 = params
    q = [np.clip(np.rint(w * s[:, None]), -127, 127) / s[:, None]
         for w, s in ((w0, row_scales(w0)), (w1, row_scales(w1)), (w2, row_scales(w2)))]

    def act(v, scale, lo, hi):
        return v if scale is None else np.clip(np.rint(v * scale), lo, hi) / scale

    s_in, s1, s2 = scales if scales is not None else (None, None, None)
    x0 = act(x, s_in, -128, 127)
    a0 = x0 @ q[0].T + b0
    h0 = act(np.maximum(a0, 0.0), s1, 0, 255)
    a1 = h0 @ q[1].T + b1
    h1 = act(np.maximum(a1, 0.0), s2, 0, 255)
    out = h1 @ q[2].T + b2
    return out, (x0, a0, h0, a1, h1, q)


def integer_network(params, scales):
    """The files of weights_i8/: int8 weights, int32 biases, float32
    requantization scales per row, the float32 input scale."""
    s_in, s1, s2 = scales
    act = [s_in, s1, s2]
    net = {"input_scale": np.array([s_in], dtype="<f4")}
    for l, (w, b) in enumerate(zip(params[0::2], params[1::2])):
        sw = row_scales(w)
        net[f"w{l}"] = np.clip(np.rint(w * sw[:, None]), -127, 127).astype("i1")
        acc_scale = sw.astype(np.float64) * act[l]
        bias = np.rint(b.astype(np.float64) * acc_scale)
        if np.abs(bias).max() >= 2.0 ** 31:
            sys.exit(f"train.py: error: layer {l}'s bias does not fit int32 in "
                     "accumulator units (a row of near-zero weights)")
        net[f"b{l}"] = bias.astype("<i4")
        next_scale = act[l + 1] if l < 2 else 1.0
        net[f"s{l}"] = (next_scale / acc_scale).astype("<f4")
    return net


def integer_forward(net, x):
    """coopvecMlpForward's I8 arithmetic: f32 products, s8/u8 rounding to
    nearest even with saturation (NaN -> 0), exact integer sums."""
    def quantize(v, lo, hi):
        return np.clip(np.rint(np.nan_to_num(v, nan=0.0)), lo, hi).astype(np.int64)

    q = quantize((x.astype(np.float32) * net["input_scale"][0]).astype(np.float32),
                 -128, 127)
    for l in range(3):
        acc = q @ net[f"w{l}"].astype(np.int64).T + net[f"b{l}"]
        if l < 2:
            acc = np.maximum(acc, 0)
            q = quantize((acc.astype(np.float32) * net[f"s{l}"]).astype(np.float32), 0, 255)
        else:
            out = (acc.astype(np.float32) * net[f"s{l}"]).astype(np.float32)
    return np.exp(out)


def train_i8(args, x_train, y_train, x_val, y_val, start):
    params = [np.load(os.path.join(args.weights, n + ".npy")).astype(np.float32)
              for n in ["w0", "b0", "w1", "b1", "w2", "b2"]]
    rng = np.random.default_rng(args.seed)
    calibration = x_train[:100_000]
    scales = activation_scales(params, calibration, fake_quant)
    print(f"f32 PSNR(320x180) {psnr(evaluate(params, x_val), y_val):.2f} dB; I8 "
          f"before fine-tuning "
          f"{psnr(integer_forward(integer_network(params, scales), x_val), y_val):.2f} dB",
          flush=True)
    m = [np.zeros_like(p) for p in params]
    s = [np.zeros_like(p) for p in params]
    for step in range(1, args.i8_steps + 1):
        lr = 1e-6 + 0.5 * (1e-3 - 1e-6) * (1.0 + np.cos(np.pi * step / args.i8_steps))
        idx = rng.integers(0, x_train.shape[0], args.batch)
        loss, grads = loss_and_grads(params, x_train[idx], y_train[idx], scales)
        adam_step(params, grads, m, s, step, lr)
        if step % 500 == 0 or step == args.i8_steps:
            scales = activation_scales(params, calibration, fake_quant)
            net = integer_network(params, scales)
            print(f"step {step:6d}  loss {loss:.5f}  I8 PSNR(320x180) "
                  f"{psnr(integer_forward(net, x_val), y_val):.2f} dB  "
                  f"{time.time() - start:.0f} s", flush=True)
    net = integer_network(params, scales)
    os.makedirs(args.out, exist_ok=True)
    for name, array in net.items():
        np.save(os.path.join(args.out, name + ".npy"), array)
    print(f"wrote {args.out}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    parser.add_argument("--out", default=None,
                        help="directory for the .npy files (default: weights/, "
                        "with --i8 weights_i8/)")
    parser.add_argument("--i8", action="store_true",
                        help="fine-tune --weights for I8 and write the I8 network")
    parser.add_argument("--weights", default=os.path.join(here, "weights"),
                        help="the f32 weights --i8 starts from (default: weights/)")
    parser.add_argument("--i8-steps", type=int, default=5000)
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.out is None:
        args.out = os.path.join(here, "weights_i8" if args.i8 else "weights")

    start = time.time()
    cpu_start = time.process_time()
    rng = np.random.default_rng(args.seed)

    # Training set: jittered points of the image plane of a 16:9 frame, the
    # distribution of a 1920x1080 frame's pixel centres (the scene does not
    # depend on the resolution, only on the aspect ratio).
    width, height = 16.0, 9.0
    n_train = 600_000
    rays = camera_rays(rng.uniform(0, width, n_train), rng.uniform(0, height, n_train),
                       width, height)
    # Training runs in float32, the precision of the shipped weights and twice
    # as fast as float64.
    x_train, y_train = (a.astype(np.float32) for a in shade(rays))
    x_val, y_val = (a.astype(np.float32) for a in frame(320, 180))
    print(f"data: {n_train} samples, {time.time() - start:.1f} s", flush=True)
    if args.i8:
        train_i8(args, x_train, y_train, x_val, y_val, start)
        return

    params = init_params(rng)
    m = [np.zeros_like(p) for p in params]
    s = [np.zeros_like(p) for p in params]
    for step in range(1, args.steps + 1):
        # Cosine decay from 3e-3 to 3e-5.
        lr = 3e-5 + 0.5 * (3e-3 - 3e-5) * (1.0 + np.cos(np.pi * step / args.steps))
        idx = rng.integers(0, n_train, args.batch)
        loss, grads = loss_and_grads(params, x_train[idx], y_train[idx])
        adam_step(params, grads, m, s, step, lr)
        if step % 1000 == 0 or step == args.steps:
            val = psnr(evaluate(params, x_val), y_val)
            print(f"step {step:6d}  loss {loss:.5f}  PSNR(320x180) {val:.2f} dB  "
                  f"{time.time() - start:.0f} s", flush=True)

    # The weights must survive f16 (largest finite 65504, normal down to
    # 6.1e-5): report the range and the PSNR with every weight rounded.
    largest = max(float(np.abs(p).max()) for p in params)
    f16_params = [p.astype(np.float16).astype(np.float32) for p in params]
    f16_psnr = psnr(evaluate(f16_params, x_val.astype(np.float16).astype(np.float32)),
                    y_val)
    print(f"largest |weight| {largest:.3f}; PSNR with f16 weights and inputs "
          f"{f16_psnr:.2f} dB")
    if largest > 1000.0:
        sys.exit("train.py: error: weights too large for f16")

    os.makedirs(args.out, exist_ok=True)
    for name, p in zip(["w0", "b0", "w1", "b1", "w2", "b2"], params):
        save_npy(os.path.join(args.out, name + ".npy"), p)
    print(f"wrote {args.out}; training took {time.time() - start:.0f} s "
          f"({time.process_time() - cpu_start:.0f} s of CPU time)")


if __name__ == "__main__":
    main()
