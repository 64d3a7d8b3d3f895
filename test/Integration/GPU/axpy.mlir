// Runs Inputs/axpy.mlir (y = a * x + y in a plain gpu-dialect kernel) on
// the GPU through coopvec-run: .npy arguments in, the updated argument and
// the returned memref out, compared with NumPy. The values are small
// integers and halves, so every result is exact in f32 whether or not the
// kernel fuses the multiply and the add.
// REQUIRES: cuda-gpu, numpy

// 1000 elements, 128 threads a block: 8 blocks, the last one partly outside.
// RUN: %numpy_python -c "import numpy as np; x = np.arange(-500, 500, dtype=np.float32); np.save('%t.x.npy', x); np.save('%t.y.npy', (3 * x + 7)[::-1].copy())"
// RUN: coopvec-run %S/Inputs/axpy.mlir -e axpy --arg %t.x.npy --arg %t.y.npy --arg 0.5 --arg 128 --out-arg 1=%t.y.out.npy -o %t.r.npy --no-print
// RUN: %numpy_python -c "import numpy as np; x = np.load('%t.x.npy'); y = np.load('%t.y.npy'); ref = np.float32(0.5) * x + y; out = np.load('%t.y.out.npy'); r = np.load('%t.r.npy'); assert out.dtype == np.float32 and out.shape == (1000,), (out.dtype, out.shape); assert np.array_equal(out, ref), np.flatnonzero(out != ref)[:10]; assert np.array_equal(r, ref), np.flatnonzero(r != ref)[:10]; print('axpy ok', float(r[0]), float(r[999]))" | FileCheck %s --check-prefix=NPY
// NPY: axpy ok 1254.0 -1243.5

// Inline arguments, 3 threads a block over 4 elements; the result and the
// argument that the host code copied back both print.
// RUN: coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1,2,3,4] --arg [10,20,30,40] --arg 2 --arg 3 --print-args | FileCheck %s
// CHECK: [12, 24, 36, 48]
// CHECK-NEXT: arg 0: [1, 2, 3, 4]
// CHECK-NEXT: arg 1: [12, 24, 36, 48]

// A block of 2048 threads is more than any NVIDIA GPU allows: the launch
// fails with the driver's error, and the run with exit status 1.
// RUN: not coopvec-run %S/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 2048 2>&1 | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: coopvec-run: error: mgpuLaunchKernel: cuLaunchKernel failed: CUDA_ERROR_INVALID_VALUE
