// RUN: coopvec-opt %s --convert-coopvec-to-cpu=bounds-checks=false --split-input-file | FileCheck %s

// The math-fidelity clause fills the last five fields of
// coopvecCpuMatVecMulAdd's parameters (fidelity + 1, Dst format, packer
// format, L1 accumulation, K block; formats as CoopVecFormat: F32 0,
// BF16 2), which route the call to the Wormhole model.

// CHECK-LABEL: func.func @matvec
// CHECK:         %[[P:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i32, i64, ptr, i32, i32, i64, i32, ptr, i64, i32, i32, i32, i32, i32, i32, ptr, i64, i32, i32, ptr, i64, i32, i32, i32, i32, i32, i32, i32, ptr, i64)>
// HiFi2 (1 + 1) and BF16 are both 2.
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[F32:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[KB:.*]] = arith.constant 32 : i32
// CHECK:         %[[G24:.*]] = llvm.getelementptr %[[P]][0, 24]
// CHECK-NEXT:    llvm.store %[[TWO]], %[[G24]] : i32, !llvm.ptr
// CHECK:         %[[G25:.*]] = llvm.getelementptr %[[P]][0, 25]
// CHECK-NEXT:    llvm.store %[[F32]], %[[G25]] : i32, !llvm.ptr
// CHECK:         %[[G26:.*]] = llvm.getelementptr %[[P]][0, 26]
// CHECK-NEXT:    llvm.store %[[TWO]], %[[G26]] : i32, !llvm.ptr
// CHECK:         %[[G27:.*]] = llvm.getelementptr %[[P]][0, 27]
// CHECK-NEXT:    llvm.store %[[ONE]], %[[G27]] : i32, !llvm.ptr
// CHECK:         %[[G28:.*]] = llvm.getelementptr %[[P]][0, 28]
// CHECK-NEXT:    llvm.store %[[KB]], %[[G28]] : i32, !llvm.ptr
// CHECK:         call @coopvecCpuMatVecMulAdd(%[[P]])
func.func @matvec(%x: vector<64xf32>, %w: memref<?xi8>, %b: memref<?xi8>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %y = coopvec.matvec %x as BF16, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
         bias %b[%c0] as BF16 fidelity<hifi2, dst = f32, pack = bf16, l1_acc, k_block = 32>
         : vector<64xf32>, memref<?xi8>, memref<?xi8> -> vector<32xf32>
  return %y : vector<32xf32>
}

// -----

// Without `pack` the packer format is the Dst format (BF16 here).
// CHECK-LABEL: func.func @batch
// CHECK-DAG:     %[[HIFI4:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[BF16:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK:         %[[G24:.*]] = llvm.getelementptr %[[P:.*]][0, 24]
// CHECK-NEXT:    llvm.store %[[HIFI4]], %[[G24]] : i32, !llvm.ptr
// CHECK:         %[[G25:.*]] = llvm.getelementptr %[[P]][0, 25]
// CHECK-NEXT:    llvm.store %[[BF16]], %[[G25]] : i32, !llvm.ptr
// CHECK:         %[[G26:.*]] = llvm.getelementptr %[[P]][0, 26]
// CHECK-NEXT:    llvm.store %[[BF16]], %[[G26]] : i32, !llvm.ptr
// CHECK:         %[[G27:.*]] = llvm.getelementptr %[[P]][0, 27]
// CHECK-NEXT:    llvm.store %[[ZERO]], %[[G27]] : i32, !llvm.ptr
// CHECK:         %[[G28:.*]] = llvm.getelementptr %[[P]][0, 28]
// CHECK-NEXT:    llvm.store %[[ZERO]], %[[G28]] : i32, !llvm.ptr
// CHECK:         call @coopvecCpuMatVecMulAdd(%[[P]])
func.func @batch(%x: memref<?x64xf32>, %w: memref<?xi8>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  coopvec.batch_matvec %x as F32, %w[%c0] matrix<F32, 32x64, InferencingOptimal, transpose>
      fidelity<hifi4, dst = bf16> into %y : memref<?x64xf32>, memref<?xi8> -> memref<?x32xf32>
  return
}

// -----

// coopvec.tile_mma with a fidelity clause: the operands, extended to f32,
// and the accumulator go to stack slots (flattened), the Wormhole model
// runs on them (fidelity HiFi3 = 2, BF16 sources 2, bf16 Dst 2, m n k) and
// the accumulator's slot holds the result.

// CHECK-LABEL: func.func @tile_mma
// CHECK-SAME:    (%[[A:.*]]: vector<16x32xbf16>, %[[B:.*]]: vector<32x8xbf16>, %[[C:.*]]: vector<16x8xf32>)
// CHECK-DAG:     %[[SA:.*]] = memref.alloca() {alignment = 64 : i64} : memref<512xf32>
// CHECK-DAG:     %[[SB:.*]] = memref.alloca() {alignment = 64 : i64} : memref<256xf32>
// CHECK-DAG:     %[[SC:.*]] = memref.alloca() {alignment = 64 : i64} : memref<128xf32>
// CHECK:         %[[AF:.*]] = arith.extf %[[A]] : vector<16x32xbf16> to vector<16x32xf32>
// CHECK:         %[[AFLAT:.*]] = vector.shape_cast %[[AF]] : vector<16x32xf32> to vector<512xf32>
// CHECK:         vector.store %[[AFLAT]], %[[SA]]
// CHECK:         %[[BF:.*]] = arith.extf %[[B]] : vector<32x8xbf16> to vector<32x8xf32>
// CHECK:         vector.store %{{.*}}, %[[SB]]
// CHECK:         %[[CFLAT:.*]] = vector.shape_cast %[[C]] : vector<16x8xf32> to vector<128xf32>
// CHECK:         vector.store %[[CFLAT]], %[[SC]]
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[M:.*]] = arith.constant 16 : i64
// CHECK-DAG:     %[[N:.*]] = arith.constant 8 : i64
// CHECK-DAG:     %[[K:.*]] = arith.constant 32 : i64
// CHECK:         %[[ST:.*]] = call @coopvecCpuTileMmaFidelity(%[[TWO]], %[[TWO]], %[[TWO]], %{{.*}}, %{{.*}}, %{{.*}}, %[[M]], %[[N]], %[[K]])
// CHECK:         scf.if
// CHECK:           call @coopvecCpuReportError
// CHECK:         %[[R:.*]] = vector.load %[[SC]][%{{.*}}] : memref<128xf32>, vector<128xf32>
// CHECK:         %[[Y:.*]] = vector.shape_cast %[[R]] : vector<128xf32> to vector<16x8xf32>
// CHECK:         return %[[Y]]
func.func @tile_mma(%a: vector<16x32xbf16>, %b: vector<32x8xbf16>, %acc: vector<16x8xf32>) -> vector<16x8xf32> {
  %r = coopvec.tile_mma %a, %b, %acc fidelity<hifi3, dst = bf16>
         : vector<16x32xbf16>, vector<32x8xbf16> -> vector<16x8xf32>
  return %r : vector<16x8xf32>
}

// -----

// coopvec.eltwise_mul: the operands (bf16, extended to f32) and the L1
// values go to stack slots; the model runs with fidelity LoFi 0, BF16
// sources 2, bf16 Dst 2, f32 packer 0, l1_acc 1 and 16 elements, writing
// the results over the L1 slot.

// CHECK-LABEL: func.func @eltwise
// CHECK-SAME:    (%[[A:.*]]: vector<16xbf16>, %[[B:.*]]: vector<16xbf16>, %[[L1:.*]]: vector<16xf32>)
// CHECK-DAG:     %[[SA:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16xf32>
// CHECK:         arith.extf %[[A]] : vector<16xbf16> to vector<16xf32>
// CHECK:         arith.extf %[[B]] : vector<16xbf16> to vector<16xf32>
// CHECK:         vector.store %[[L1]], %[[SL:.*]][%{{.*}}] : memref<16xf32>, vector<16xf32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[N:.*]] = arith.constant 16 : i64
// CHECK:         %[[ST:.*]] = call @coopvecCpuEltwiseMulFidelity(%[[ZERO]], %[[TWO]], %[[TWO]], %[[ZERO]], %[[ONE]], %{{.*}}, %{{.*}}, %{{.*}}, %[[N]])
// CHECK:         call @coopvecCpuReportError
// CHECK:         %[[R:.*]] = vector.load %[[SL]][%{{.*}}] : memref<16xf32>, vector<16xf32>
// CHECK:         return %[[R]]
func.func @eltwise(%a: vector<16xbf16>, %b: vector<16xbf16>, %l1: vector<16xf32>) -> vector<16xf32> {
  %r = coopvec.eltwise_mul %a, %b acc %l1 fidelity<lofi, dst = bf16, pack = f32, l1_acc>
         : vector<16xbf16> -> vector<16xf32>
  return %r : vector<16xf32>
}

// -----

// coopvec.tile_pack_dst: the Dst tile and the L1 values go to stack slots
// (flattened); the packer runs with an f32 Dst 0, a bf16 L1 format 2,
// l1_acc 1 and 8 elements, writing the results over the L1 slot.

// CHECK-LABEL: func.func @pack_dst
// CHECK-SAME:    (%[[D:.*]]: vector<2x4xf32>, %[[L1:.*]]: vector<2x4xf32>)
// CHECK:         vector.shape_cast %[[L1]] : vector<2x4xf32> to vector<8xf32>
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[N:.*]] = arith.constant 8 : i64
// CHECK:         %[[ST:.*]] = call @coopvecCpuTilePackDstFidelity(%[[ZERO]], %[[TWO]], %[[ONE]], %{{.*}}, %{{.*}}, %[[N]])
// CHECK:         call @coopvecCpuReportError
// CHECK:         %[[R:.*]] = vector.load %{{.*}}[%{{.*}}] : memref<8xf32>, vector<8xf32>
// CHECK:         %[[T:.*]] = vector.shape_cast %[[R]] : vector<8xf32> to vector<2x4xf32>
// CHECK:         return %[[T]]
func.func @pack_dst(%d: vector<2x4xf32>, %l1: vector<2x4xf32>) -> vector<2x4xf32> {
  %r = coopvec.tile_pack_dst %d acc %l1 fidelity<hifi2, dst = f32, pack = bf16, l1_acc> : vector<2x4xf32>
  return %r : vector<2x4xf32>
}

// -----

// A block-float input: the input slot holds the stored bytes (I8, 20; the
// interpretation BFP4, 41), the exponents are spilled to a slot of their
// own whose address fills field 29 (a stride of 0: one dense row).
// CHECK-LABEL: func.func @bfp_input
// CHECK-DAG:     %[[I8:.*]] = arith.constant 20 : i32
// CHECK-DAG:     %[[BFP4:.*]] = arith.constant 41 : i32
// CHECK-DAG:     %[[Z64:.*]] = arith.constant 0 : i64
// CHECK:         %[[G4:.*]] = llvm.getelementptr %[[P:.*]][0, 4]
// CHECK-NEXT:    llvm.store %[[I8]], %[[G4]] : i32, !llvm.ptr
// CHECK:         %[[G5:.*]] = llvm.getelementptr %[[P]][0, 5]
// CHECK-NEXT:    llvm.store %[[BFP4]], %[[G5]] : i32, !llvm.ptr
// CHECK:         %[[G29:.*]] = llvm.getelementptr %[[P]][0, 29]
// CHECK-NEXT:    llvm.store %[[EP:.*]], %[[G29]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[G30:.*]] = llvm.getelementptr %[[P]][0, 30]
// CHECK-NEXT:    llvm.store %[[Z64]], %[[G30]] : i64, !llvm.ptr
// CHECK:         call @coopvecCpuMatVecMulAdd(%[[P]])
func.func @bfp_input(%x: vector<32xi8>, %e: vector<4xi8>, %w: memref<?xi8>) -> vector<32xf32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %y = coopvec.matvec %x as BFP4 exponents %e : vector<4xi8>, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
         fidelity<lofi, dst = f32> : vector<32xi8>, memref<?xi8> -> vector<32xf32>
  return %y : vector<32xf32>
}

// -----

// batch_matvec: the exponent batch's row address and byte stride fill
// fields 29 and 30, and its row count is checked against the inputs'.
// CHECK-LABEL: func.func @bfp_input_batch
// CHECK:         memref.extract_strided_metadata %arg1
// CHECK:         arith.cmpi eq
// CHECK:         %[[G29:.*]] = llvm.getelementptr %[[P:.*]][0, 29]
// CHECK-NEXT:    llvm.store %{{.*}}, %[[G29]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[G30:.*]] = llvm.getelementptr %[[P]][0, 30]
// CHECK-NEXT:    llvm.store %{{.*}}, %[[G30]] : i64, !llvm.ptr
// CHECK:         call @coopvecCpuMatVecMulAdd(%[[P]])
func.func @bfp_input_batch(%x: memref<?x64xi8>, %e: memref<?x4xi8>, %w: memref<?xi8>, %y: memref<?x32xf32>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  coopvec.batch_matvec %x as BFP8 exponents %e : memref<?x4xi8>, %w[%c0] matrix<BF16, 32x64, RowMajor> stride %c128
      fidelity<hifi4, dst = bf16> into %y : memref<?x64xi8>, memref<?xi8> -> memref<?x32xf32>
  return
}
