# Inputs of mx.test: seeded random buffers for each case of mx.mlir (usage:
# make-mx-inputs.py <folder>). Matrices are random bytes (every code of
# the element type; 6-bit elements with random upper bits, which the
# readers ignore; no NaN codes), block scales random UE8M0 exponents
# around 2^0 (for mxfp4_odd also rows of 2^-127 .. 2^-124, whose products
# are f32 subnormals, and 2^123, 2^127, whose products overflow) or UE4M3 codes
# (random bit 7, ignored; no NaN), inputs with
# the edge values each input interpretation converts (beyond F16's range,
# beyond E4M3's, ties).
import numpy as np, sys
out = sys.argv[1]
rng = np.random.default_rng(11)
n = 300
MATRIX_BYTES, SCALE_BYTES = 4096, 512

def bytes_(kind):
    b = rng.integers(0, 256, MATRIX_BYTES, dtype=np.int64).astype(np.uint8)
    if kind == "F8_E4M3":  # 0x7f/0xff are NaN
        b[(b & 0x7F) == 0x7F] &= 0xFE
    if kind == "F8_E5M2":  # exponent 31 is inf/NaN
        b[(b & 0x7C) == 0x7C] &= 0xFB
    return b

def scales(kind):
    if kind in ("ue8m0", "ue8m0-extremes"):
        s = rng.integers(118, 137, SCALE_BYTES, dtype=np.int64).astype(np.uint8)
        if kind == "ue8m0-extremes":
            # mxfp4_odd has 3 scales per row. Rows 0, 4, 8: every scale
            # 2^-127 (an f32 subnormal) .. 2^-124, so that the products
            # and the sums are f32 subnormals; rows 1, 5, 9: one scale of
            # 2^123 or 2^127, products that overflow to inf.
            for row in range(0, 12, 4):
                s[3 * row:3 * row + 3] = rng.integers(0, 4, 3)
                s[3 * row + 3 + rng.integers(0, 3)] = rng.choice([250, 254])
        return s
    s = rng.integers(0, 256, SCALE_BYTES, dtype=np.int64).astype(np.uint8)
    s[(s & 0x7F) == 0x7F] &= 0xFE
    return s

def inputs(count, dtype, edges):
    x = (rng.standard_normal(count) * 3).astype(np.float32)
    for i, v in enumerate(edges):
        x[i::53 + 2 * i] = v
    return x.astype(dtype)

cases = {
    # name: (matrix, scales, K, input dtype, input edges, bias dtype, M)
    "mxfp8": ("F8_E4M3", "ue8m0", 64, np.float32, [1e5, -2.5e-9], np.float32, 24),
    "mxfp6_iopt_t": ("F6_E3M2", "ue8m0", 64, np.float16, [60000.0, -1e-7], None, 16),
    "mxfp4_col": ("F4_E2M1", "ue8m0", 64, np.float32, [1000.0, -480.0, 0.0625 + 2**-10], np.float16, 20),
    "nvfp4_topt_t": ("F4_E2M1", "ue4m3", 64, np.float16, [-60000.0], np.float32, 16),
    "mxfp4_odd": ("F4_E2M1", "ue8m0-extremes", 37, np.float32, [70000.0, 1.0 + 2**-11], None, 12),
    "mxfp6_e2m3": ("F6_E2M3", "ue8m0", 40, np.float16, [60000.0, 0.3], np.float16, 10),
    "f4_iopt": ("F4_E2M1", None, 48, np.float32, [1e30], None, 16),
    "f6_col": ("F6_E2M3", None, 24, np.float16, [-3.0], None, 8),
    "f8_f32in": ("F8_E5M2", None, 32, np.float32, [1e20, -1e-30], np.float32, 12),
}
for name, (matrix, scale, k, xt, edges, bt, m) in cases.items():
    np.save(f"{out}/{name}.x.npy", inputs(n * k, xt, edges))
    np.save(f"{out}/{name}.w.npy", bytes_(matrix))
    if scale:
        np.save(f"{out}/{name}.s.npy", scales(scale))
    if bt is not None:
        np.save(f"{out}/{name}.b.npy", (rng.standard_normal(64) * 4).astype(bt))
