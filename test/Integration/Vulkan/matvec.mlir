// The GPU integration cases on Vulkan: coopvec.matvec in kernels
// (../GPU/Inputs/matvec-check.mlir: an F16 and an I8 kernel over 1000
// invocations) against the CPU runtime in the same program, bit for bit, on
// the Vulkan device (lavapipe in CI) under the Khronos validation layer,
// which must report nothing; then the plain axpy kernel.
// REQUIRES: vulkan, numpy
// RUN: coopvec-run --gpu-api=vulkan --vulkan-validation %S/../GPU/Inputs/matvec-check.mlir -e check 2>&1 | FileCheck %s
// CHECK: 0
// CHECK-NEXT: 0
// CHECK-NOT: {{.}}

// With GL.Fma for the float products (exact sums here: the same bits).
// RUN: coopvec-run --gpu-api=vulkan --vulkan-fma %S/../GPU/Inputs/matvec-check.mlir -e check 2>&1 | FileCheck %s

// axpy launches with a block size given at run time, which SPIR-V fixes in
// the shader: --vulkan-workgroup-size gives it, and a launch of another size
// is a located runtime error.
// RUN: %numpy_python -c "import numpy as np; x = np.arange(-500, 500, dtype=np.float32); np.save('%t.x.npy', x); np.save('%t.y.npy', (3 * x + 7)[::-1].copy())"
// RUN: coopvec-run --gpu-api=vulkan --vulkan-validation --vulkan-workgroup-size=128 %S/../GPU/Inputs/axpy.mlir -e axpy --arg %t.x.npy --arg %t.y.npy --arg 0.5 --arg 128 --out-arg 1=%t.y.out.npy -o %t.r.npy --no-print 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// QUIET-NOT: {{.}}
// RUN: %numpy_python -c "import numpy as np; x = np.load('%t.x.npy'); y = np.load('%t.y.npy'); ref = np.float32(0.5) * x + y; out = np.load('%t.y.out.npy'); r = np.load('%t.r.npy'); assert np.array_equal(out, ref), np.flatnonzero(out != ref)[:10]; assert np.array_equal(r, ref), np.flatnonzero(r != ref)[:10]; print('axpy ok', float(r[0]), float(r[999]))" | FileCheck %s --check-prefix=NPY
// NPY: axpy ok 1254.0 -1243.5
// RUN: not coopvec-run --gpu-api=vulkan --vulkan-workgroup-size=128 %S/../GPU/Inputs/axpy.mlir -e axpy --arg [1,2,3,4] --arg [10,20,30,40] --arg 2 --arg 3 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: coopvec-run: error: mgpuLaunchKernel: kernel 'axpy' was compiled for workgroups of 128x1x1 invocations but is launched with 3x1x1
// Without the option the size is missing:
// RUN: not coopvec-run --gpu-api=vulkan %S/../GPU/Inputs/axpy.mlir -e axpy --arg [1] --arg [2] --arg 2 --arg 1 2>&1 | FileCheck %s --check-prefix=NOSIZE
// NOSIZE: axpy.mlir:{{[0-9]+}}:{{[0-9]+}}: error: convert-coopvec-to-spirv: the workgroup size of this kernel is fixed in SPIR-V, and neither known_block_size nor its gpu.launch_func ops (not constant) nor the workgroup-size option give it
