// RUN: coopvec-opt %s --convert-coopvec-to-riscv=isa=xsfvqmacc-4x8x4 | FileCheck %s
// RUN: coopvec-opt %s --convert-coopvec-to-riscv="isa=xsfvqmacc-4x8x4 min-vlen=1024" | FileCheck %s --check-prefix=V1024
// RUN: coopvec-opt %s --convert-coopvec-to-riscv="isa=xsfvqmacc-4x8x4 lmul=2" | FileCheck %s --check-prefix=LMUL2
// RUN: coopvec-opt %s --convert-coopvec-to-riscv=isa=xsfvqmacc-2x8x2 | FileCheck %s --check-prefix=DOD
// RUN: coopvec-opt %s --convert-coopvec-to-riscv="isa=xsfvqmacc-4x8x4 emulate-sifive=true" | FileCheck %s --check-prefix=EMU
// RUN: coopvec-opt %s --coopvec-riscv-sifive-pipeline | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// RUN: coopvec-opt %s --coopvec-riscv-sifive-pipeline="shape=2x8x2 lmul=2 emulate=true" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM-EMU

// SiFive's XSfvqmacc path: each batch_matvec becomes loops in func/scf/
// memref/arith that pack A (4x8 or 2x8, row-major) and B (8x4 or 8x2,
// row-major) tiles and call llvm.riscv.sf.vqmacc* on scalable
// vectors; vd at LMUL L, vs1 at LMUL 1, vs2 at L/2 (4x8x4) or L (2x8x2).

// CHECK: module attributes {llvm.target_triple = "riscv64-unknown-linux-gnu"}
// CHECK-DAG: llvm.mlir.global private constant @{{coopvec_rv_str[0-9]+}}("coopvec.batch_matvec at {{.*}}sifive.mlir:{{[0-9]+}}:3\00")
// CHECK-DAG: llvm.mlir.global private constant @[[$ROWS:coopvec_rv_str[0-9]+]]("input and output batches differ in rows\00")
// CHECK-DAG: llvm.mlir.global private constant @{{coopvec_rv_str[0-9]+}}("matrix out of bounds\00")
// CHECK-DAG: llvm.mlir.global private constant @{{coopvec_rv_str[0-9]+}}("VLEN too small for whole 4x8x4 tiles at LMUL 8\00")
// CHECK-DAG: llvm.mlir.global private constant @{{coopvec_rv_str[0-9]+}}("VLEN too small for whole 4x8x4 tiles at LMUL 4\00")

// A dynamic batch: LMUL 8 (vs2 at m4).
// CHECK-LABEL: func.func @coopvec_ss(
// CHECK-SAME: %[[X:.*]]: memref<?x10xi32>, %[[W:.*]]: memref<?xi8>, %[[Y:.*]]: memref<?x7xi32>)
// CHECK: %[[N:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x10xi32>
// CHECK: %[[YN:.*]] = memref.dim %[[Y]], %{{.*}} : memref<?x7xi32>
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[N]], %[[YN]] : index
// CHECK: scf.if %[[NE]] {
// CHECK: %[[S:.*]] = llvm.mlir.addressof @{{coopvec_rv_str[0-9]+}} : !llvm.ptr
// CHECK: %[[R:.*]] = llvm.mlir.addressof @[[$ROWS]] : !llvm.ptr
// CHECK: func.call @coopvec_rv_error(%[[S]], %[[R]]) : (!llvm.ptr, !llvm.ptr) -> ()
// CHECK: llvm.call_intrinsic "llvm.riscv.vsetvlimax"(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: memref.alloc(%{{.*}}) : memref<?xi8>
// CHECK: memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK: "llvm.intr.memset"
// CHECK: memref.load %[[W]][%{{.*}}] : memref<?xi8>
// CHECK: memref.load %[[X]][%{{.*}}, %{{.*}}] : memref<?x10xi32>
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: llvm.call_intrinsic "llvm.riscv.vmv.v.x"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<[16]xi32>, i32, i64) -> vector<[16]xi32>
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<[16]xi32>) {
// CHECK: %[[A:.*]] = llvm.call_intrinsic "llvm.riscv.vle"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<[8]xi8>, !llvm.ptr, i64) -> vector<[8]xi8>
// CHECK: %[[B:.*]] = llvm.call_intrinsic "llvm.riscv.vle"(%{{.*}}, %{{.*}}, %[[VL:.*]]) : (vector<[32]xi8>, !llvm.ptr, i64) -> vector<[32]xi8>
// CHECK: %[[NEXT:.*]] = llvm.call_intrinsic "llvm.riscv.sf.vqmacc.4x8x4"(%[[ACC]], %[[A]], %[[B]], %[[VL]], %{{.*}}) : (vector<[16]xi32>, vector<[8]xi8>, vector<[32]xi8>, i64, i64) -> vector<[16]xi32>
// CHECK: scf.yield %[[NEXT]] : vector<[16]xi32>
// CHECK: llvm.call_intrinsic "llvm.riscv.vse"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<[16]xi32>, !llvm.ptr, i64) -> ()
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: memref.store %{{.*}}, %[[Y]][%{{.*}}, %{{.*}}] : memref<?x7xi32>
// CHECK: memref.dealloc
// DOD-LABEL: func.func @coopvec_ss(
// DOD: llvm.call_intrinsic "llvm.riscv.sf.vqmacc.2x8x2"(%{{.*}}) : (vector<[16]xi32>, vector<[8]xi8>, vector<[64]xi8>, i64, i64) -> vector<[16]xi32>
// EMU-LABEL: func.func @coopvec_ss(
// EMU: call @coopvec_sf_vqmacc_4x8x4_i32m8(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (vector<[16]xi32>, vector<[8]xi8>, vector<[32]xi8>, i64) -> vector<[16]xi32>
// EMU-NOT: llvm.riscv.sf
// LLVM-LABEL: define void @coopvec_ss(
// LLVM: call <vscale x 16 x i32> @llvm.riscv.sf.vqmacc.4x8x4.nxv16i32.nxv8i8.nxv32i8.i64(<vscale x 16 x i32> %{{.*}}, <vscale x 8 x i8> %{{.*}}, <vscale x 32 x i8> %{{.*}}, i64 %{{.*}}, i64 3)
// The emulation: the same operands to an external function (LMUL 2: vd
// nxv4i32, vs2 at LMUL 2, nxv16i8).
// LLVM-EMU-LABEL: define void @coopvec_ss(
// LLVM-EMU: call <vscale x 4 x i32> @coopvec_sf_vqmacc_2x8x2_i32m2(<vscale x 4 x i32> %{{.*}}, <vscale x 8 x i8> %{{.*}}, <vscale x 16 x i8> %{{.*}}, i64 %{{.*}})
// LLVM-EMU: declare <vscale x 4 x i32> @coopvec_sf_vqmacc_2x8x2_i32m2(<vscale x 4 x i32>, <vscale x 8 x i8>, <vscale x 16 x i8>, i64)
func.func @ss(%x: memref<?x10xi32>, %w: memref<?xi8>, %y: memref<?x7xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 7x10, RowMajor> stride %s into %y
      : memref<?x10xi32>, memref<?xi8> -> memref<?x7xi32>
  return
}

// A static batch of 8 (two 4-column tiles, 32 C elements): LMUL 4 at the
// 256 that 4x8x4 needs at least, LMUL 1 at min-vlen 1024; 2x8x2 (four
// 2-column tiles, 16 elements) LMUL 4 at 128.
// CHECK-LABEL: func.func @coopvec_uu(
// The inputs read as unsigned: zero-extended, clamped to [0, 255].
// CHECK: arith.extui %{{.*}} : i32 to i64
// CHECK: llvm.call_intrinsic "llvm.riscv.sf.vqmaccu.4x8x4"(%{{.*}}) : (vector<[8]xi32>, vector<[8]xi8>, vector<[16]xi8>, i64, i64) -> vector<[8]xi32>
// V1024-LABEL: func.func @coopvec_uu(
// V1024: llvm.call_intrinsic "llvm.riscv.sf.vqmaccu.4x8x4"(%{{.*}}) : (vector<[2]xi32>, vector<[8]xi8>, vector<[4]xi8>, i64, i64) -> vector<[2]xi32>
// LMUL2-LABEL: func.func @coopvec_uu(
// LMUL2: llvm.call_intrinsic "llvm.riscv.sf.vqmaccu.4x8x4"(%{{.*}}) : (vector<[4]xi32>, vector<[8]xi8>, vector<[8]xi8>, i64, i64) -> vector<[4]xi32>
// DOD-LABEL: func.func @coopvec_uu(
// DOD: llvm.call_intrinsic "llvm.riscv.sf.vqmaccu.2x8x2"(%{{.*}}) : (vector<[8]xi32>, vector<[8]xi8>, vector<[32]xi8>, i64, i64) -> vector<[8]xi32>
// EMU-LABEL: func.func @coopvec_uu(
// EMU: call @coopvec_sf_vqmaccu_4x8x4_i32m4(
func.func @uu(%x: memref<8x4xi32>, %w: memref<?xi8>, %y: memref<8x4xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x unsigned as U8, %w[%c0] matrix<U8, 4x4, RowMajor> stride %s into %y
      : memref<8x4xi32>, memref<?xi8> -> memref<8x4xi32>
  return
}

// U8 matrix x I8 inputs: vqmaccus; I8 x packed U8: vqmaccsu, bytes shifted
// out of the words; with an I32 bias read at its byte offset.
// CHECK-LABEL: func.func @coopvec_us(
// CHECK: "llvm.riscv.sf.vqmaccus.4x8x4"
// DOD-LABEL: func.func @coopvec_us(
// DOD: "llvm.riscv.sf.vqmaccus.2x8x2"
func.func @us(%x: memref<?x9xi32>, %w: memref<?xi8>, %y: memref<?x5xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 5x9, ColumnMajor> stride %s into %y
      : memref<?x9xi32>, memref<?xi8> -> memref<?x5xi32>
  return
}

// f32 inputs become U8 bytes by DXIL's rule (dxilInputToByte, shared with
// the GPU lowerings: bounded to +-1024, rounded to nearest even by adding
// and taking away 1.5 * 2^23, saturated, NaN 0); the exact sum plus the
// bias rounds once to the f32 result.
// CHECK-LABEL: func.func @coopvec_float(
// CHECK-SAME: %[[FX:[^:]*]]: memref<?x9xf32>
// CHECK: %[[RAW:.*]] = memref.load %[[FX]][%{{.*}}, %{{.*}}] : memref<?x9xf32>
// CHECK: %[[MAX:.*]] = arith.maximumf %[[RAW]], %{{.*}} : f32
// CHECK: %[[BOUND:.*]] = arith.minimumf %[[MAX]], %{{.*}} : f32
// CHECK: %[[MAGIC:.*]] = arith.constant 0x4B400000 : f32
// CHECK: %[[UP:.*]] = arith.addf %[[BOUND]], %[[MAGIC]] : f32
// CHECK: %[[RN:.*]] = arith.subf %[[UP]], %[[MAGIC]] : f32
// CHECK: %[[LO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[MAX2:.*]] = arith.maximumf %[[RN]], %[[LO]] : f32
// CHECK: %[[HI:.*]] = arith.constant 2.550000e+02 : f32
// CHECK: %[[SAT:.*]] = arith.minimumf %[[MAX2]], %[[HI]] : f32
// CHECK: %[[INT:.*]] = arith.fptosi %[[SAT]] : f32 to i32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[RAW]], %[[RAW]] : f32
// CHECK: %[[SEL:.*]] = arith.select %[[NAN]], %{{.*}}, %[[INT]] : i32
// CHECK: arith.trunci %[[SEL]] : i32 to i8
// CHECK: "llvm.riscv.sf.vqmaccsu.4x8x4"
// CHECK: %[[BIAS:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> i32
// CHECK: %[[WIDE:.*]] = arith.extsi %[[BIAS]] : i32 to i64
// CHECK: %[[SUM:.*]] = arith.addi %{{.*}}, %[[WIDE]] : i64
// CHECK: %[[F:.*]] = arith.sitofp %[[SUM]] : i64 to f32
// CHECK: memref.store %[[F]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x4xf32>
// DOD-LABEL: func.func @coopvec_float(
// DOD: "llvm.riscv.sf.vqmaccsu.2x8x2"
func.func @float(%x: memref<?x9xf32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as U8, %w[%c0] matrix<I8, 4x9, RowMajor> stride %s bias %b[%c0] as I32 into %y
      : memref<?x9xf32>, memref<?xi8>, memref<?xi8> -> memref<?x4xf32>
  return
}

// CHECK-LABEL: func.func @coopvec_su(
// CHECK-SAME: %[[SX:[^:]*]]: memref<?x3xi32>, %{{.*}}: memref<?xi8>, %[[SB:[^:]*]]: memref<?xi8>
// CHECK: %[[WORD:.*]] = memref.load %[[SX]][%{{.*}}, %{{.*}}] : memref<?x3xi32>
// CHECK: %[[BYTE:.*]] = arith.shrui %[[WORD]], %{{.*}} : i32
// CHECK: arith.trunci %[[BYTE]] : i32 to i8
// CHECK: "llvm.riscv.sf.vqmaccsu.4x8x4"
// CHECK: %[[BP:.*]] = memref.extract_aligned_pointer_as_index %[[SB]] : memref<?xi8> -> index
// CHECK: llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> i32
// The error hook, declared once after the functions.
// CHECK: func.func private @coopvec_rv_error(!llvm.ptr, !llvm.ptr)
// CHECK-NOT: func.func
// DOD-LABEL: func.func @coopvec_su(
// DOD: "llvm.riscv.sf.vqmaccsu.2x8x2"
func.func @su(%x: memref<?x3xi32>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?x6xi32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as PackedU8x32, %w[%c0] matrix<I8, 6x12, RowMajor> stride %s bias %b[%c64] as I32 into %y
      : memref<?x3xi32>, memref<?xi8>, memref<?xi8> -> memref<?x6xi32>
  return
}
