# Inputs of cases.test: seeded random buffers for each case of cases.mlir
# (usage: make-inputs.py <folder>), with the edge values each path must
# convert like the CPU: f32 inputs beyond f16 range, ties, NaN, infinities,
# saturating biases.
import numpy as np, sys
out = sys.argv[1]
rng = np.random.default_rng(7)
n = 300
def f32(shape):
    v = (rng.standard_normal(shape) * 3).astype(np.float32)
    return v
# f32_col: x f32 n*12; w F32 20x12 colmajor stride 80 -> 12 cols * 80 bytes; bias F32 20
np.save(f"{out}/f32_col.x.npy", f32(n*12))
np.save(f"{out}/f32_col.w.npy", f32(12*20))
np.save(f"{out}/f32_col.b.npy", f32(20))
# f16_row: x f32 elements read as F16 (some beyond range, ties), w F16 24x20 stride 48 -> 24*48 bytes
x = f32(n*20); x[::97] = 70000.0; x[5::101] = -1e6; x[7::89] = np.float32(1.0 + 2**-11)
np.save(f"{out}/f16_row.x.npy", x)
wh = (rng.standard_normal(24*24) * 2).astype(np.float16)  # 24 rows x 24 halves (stride 48 bytes)
np.save(f"{out}/f16_row.w.npy", wh)
np.save(f"{out}/f16_row.b.npy", (rng.standard_normal(24)).astype(np.float16))
# mixed: x f32 read as I8 (ties, NaN, inf, out of range), w U8 16x30 stride 32
x = (rng.standard_normal(n*30) * 80).astype(np.float32)
x[::13] = np.round(x[::13]) + 0.5; x[3::41] = np.nan; x[4::43] = np.inf; x[6::47] = -np.inf
np.save(f"{out}/mixed.x.npy", x)
np.save(f"{out}/mixed.w.npy", rng.integers(0, 256, 16*32, dtype=np.uint8))
np.save(f"{out}/mixed.b.npy", rng.integers(-2**31, 2**31, 16, dtype=np.int64).astype(np.int32))
# u8_col: x packed u8 words n*10, w U8 8x40 col-major stride 16 -> 40 cols * 16 bytes, bias U32 8 (large: saturation)
np.save(f"{out}/u8_col.x.npy", rng.integers(0, 2**32, n*10, dtype=np.uint64).astype(np.uint32).view(np.int32))
np.save(f"{out}/u8_col.w.npy", rng.integers(0, 256, 40*16, dtype=np.uint8))
b = rng.integers(0, 2**32, 8, dtype=np.uint64).astype(np.uint32); b[0] = 2**32 - 1
np.save(f"{out}/u8_col.b.npy", b.view(np.int32))
# s8u: x packed u8 words n*7, w I8 12x26 stride 32, bias I16 12
np.save(f"{out}/s8u.x.npy", rng.integers(0, 2**32, n*7, dtype=np.uint64).astype(np.uint32).view(np.int32))
np.save(f"{out}/s8u.w.npy", rng.integers(-128, 128, 12*32, dtype=np.int64).astype(np.int8))
np.save(f"{out}/s8u.b.npy", rng.integers(-2**15, 2**15, 12, dtype=np.int64).astype(np.int16))
# The optimal-layout cases reuse the strided cases' inputs and biases with
# matrices of their layouts' footprints (Layout.h): I8 InferencingOptimal
# stored 26 x 12 (4 panels x 8 x 12 bytes), U8 TrainingOptimal 8 x 40 (5
# tiles of 64 bytes), F16 TrainingOptimal stored 20 x 24 (9 tiles of 64
# halves) and F16 InferencingOptimal 24 x 20 (3 panels x 8 x 20 halves).
import shutil
for case, base in (("s8_iopt_t", "s8u"), ("u8_topt", "u8_col"), ("f16_topt_t", "f16_row"), ("f16_iopt", "f16_row")):
    for a in ("x", "b"):
        shutil.copy(f"{out}/{base}.{a}.npy", f"{out}/{case}.{a}.npy")
np.save(f"{out}/s8_iopt_t.w.npy", rng.integers(-128, 128, 4 * 8 * 12, dtype=np.int64).astype(np.int8))
np.save(f"{out}/u8_topt.w.npy", rng.integers(0, 256, 5 * 64, dtype=np.uint8))
np.save(f"{out}/f16_topt_t.w.npy", (rng.standard_normal(9 * 64) * 2).astype(np.float16))
np.save(f"{out}/f16_iopt.w.npy", (rng.standard_normal(3 * 8 * 20) * 2).astype(np.float16))
