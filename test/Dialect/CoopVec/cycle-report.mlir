// The cycle report on Wormhole B0 (tile 16x8x16 per cycle and phase), with
// the numbers worked out by hand below.
// RUN: coopvec-opt %s --coopvec-cycle-report 2>&1 >/dev/null | FileCheck %s
// RUN: coopvec-opt %s --coopvec-cycle-report=clock-ghz=2 2>&1 >/dev/null | FileCheck %s --check-prefix=CLOCK
// RUN: coopvec-opt %s --coopvec-cycle-report=dynamic-rows=1 2>&1 >/dev/null | FileCheck %s --check-prefix=ROWS
// RUN: not coopvec-opt %s --coopvec-cycle-report=profile=d3d12-tier1.1 2>&1 >/dev/null | FileCheck %s --check-prefix=NOTILES
// RUN: not coopvec-opt %s --coopvec-cycle-report=profile=nonesuch 2>&1 >/dev/null | FileCheck %s --check-prefix=UNKNOWN
// RUN: coopvec-opt --help | FileCheck %s --check-prefix=HELP

// HELP: --coopvec-cycle-report
// HELP: --clock-ghz=
// HELP: --dynamic-rows=
// HELP: --profile=

// NOTILES: error: profile 'd3d12-tier1.1' lists no tile shapes: no cycle model
// UNKNOWN: error: unknown profile 'nonesuch'

func.func @ops(%x: vector<64xf32>, %s: vector<16xf32>, %xb: memref<16x64xf32>, %yb: memref<16x64xf32>,
               %xd: memref<?x64xf32>, %yd: memref<?x16xf32>, %w: memref<?xi8>,
               %a: vector<16x32xbf16>, %b: vector<32x8xbf16>, %acc: vector<16x8xf32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  // One input row: ceil(32/16) x ceil(1/8) x ceil(64/16) = 2x1x4 = 8 steps,
  // x 2 phases = 16 cycles; 32*1*64 MACs of 8*2048 = 12.5%; 2*2048 flops
  // in 16 cycles = 256 per cycle = 0.256 TFLOP/s at 1 GHz.
  // CHECK: cycle-report.mlir:[[@LINE+2]]:8: remark: 32x64 x 64x1, hifi2: 2x1x4 = 8 tile steps of 16x8x16 x 2 phases = 16 cycles (2.00x LoFi), 1/8 rows, 12.5% of the engine, 0.256 TFLOP/s at 1 GHz
  // CLOCK: remark: 32x64 x 64x1, hifi2: {{.*}} 0.512 TFLOP/s at 2 GHz
  %0 = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
         fidelity<hifi2, dst = f32, pack = bf16> : vector<64xf32>, memref<?xi8> -> vector<32xf32>
  // 16 rows fill the engine: 4x2x4 = 32 steps x 1 phase; 2*65536 flops in
  // 32 cycles = 4096 per cycle, the seed's 4 TFLOP/s LoFi peak.
  // CHECK: cycle-report.mlir:[[@LINE+1]]:3: remark: 64x64 x 64x16, lofi: 4x2x4 = 32 tile steps of 16x8x16 x 1 phase = 32 cycles (1.00x LoFi), 100.0% of the engine, 4.096 TFLOP/s at 1 GHz
  coopvec.batch_matvec %xb as BF16, %w[%c0] matrix<BF16, 64x64, RowMajor> stride %c128
      fidelity<lofi, dst = bf16> into %yb : memref<16x64xf32>, memref<?xi8> -> memref<16x64xf32>
  // A dynamic batch counts dynamic-rows (8) rows: 1x1x4 = 4 steps x 4
  // phases = 16 cycles; 2*8192 flops / 16 = 1024 per cycle (HiFi4's 1).
  // CHECK: cycle-report.mlir:[[@LINE+2]]:3: remark: 16x64 x 64x?(8), hifi4: 1x1x4 = 4 tile steps of 16x8x16 x 4 phases = 16 cycles (4.00x LoFi), 100.0% of the engine, 1.024 TFLOP/s at 1 GHz
  // ROWS: remark: 16x64 x 64x?(1), hifi4: 1x1x4 = 4 tile steps of 16x8x16 x 4 phases = 16 cycles (4.00x LoFi), 1/8 rows, 12.5% of the engine, 0.128 TFLOP/s at 1 GHz
  coopvec.batch_matvec %xd as BF16, %w[%c0] matrix<BF16, 16x64, RowMajor> stride %c128
      fidelity<hifi4, dst = f32> into %yd : memref<?x64xf32>, memref<?xi8> -> memref<?x16xf32>
  // No attribute: LoFi. 1x16 x 16x16 is one step: 2*256 flops per cycle,
  // the seed's 0.5 TFLOP/s (1/8 of the engine) for 1-row inputs.
  // CHECK: cycle-report.mlir:[[@LINE+1]]:8: remark: 16x16 x 16x1, lofi (default): 1x1x1 = 1 tile steps of 16x8x16 x 1 phase = 1 cycles (1.00x LoFi), 1/8 rows, 12.5% of the engine, 0.512 TFLOP/s at 1 GHz
  %1 = coopvec.matvec %s as F32, %w[%c0] matrix<F32, 16x16, InferencingOptimal>
         : vector<16xf32>, memref<?xi8> -> vector<16xf32>
  // A tile: 16x32 by 32x8, 1x1x2 = 2 steps x 3 phases = 6 cycles;
  // 2*4096 / 6 = 1365.3 flops per cycle (HiFi3's 1.33).
  // CHECK: cycle-report.mlir:[[@LINE+1]]:8: remark: 16x32 x 32x8, hifi3: 1x1x2 = 2 tile steps of 16x8x16 x 3 phases = 6 cycles (3.00x LoFi), 100.0% of the engine, 1.365 TFLOP/s at 1 GHz
  %2 = coopvec.tile_mma %a, %b, %acc fidelity<hifi3, dst = f32>
         : vector<16x32xbf16>, vector<32x8xbf16> -> vector<16x8xf32>
  return
}
// Totals: 16 + 32 + 16 + 1 + 6 = 71 cycles, 8 + 32 + 4 + 1 + 2 = 47 at
// LoFi, 71/47 = 1.51x; 71 ns at 1 GHz, 35.5 ns at 2 GHz.
// CHECK: remark: cycle report ('wormhole-b0'): 5 matrix ops, 71 cycles, 47 at LoFi (1.51x), 71.0 ns at 1 GHz
// CLOCK: remark: cycle report ('wormhole-b0'): 5 matrix ops, 71 cycles, 47 at LoFi (1.51x), 35.5 ns at 2 GHz
