// RUN: coopvec-opt %s --convert-coopvec-to-cpu --split-input-file | FileCheck %s

// A matvec with a bias: bounds checks of the matrix and the bias, the input
// spilled to a stack slot in the entry block, one kernel call with batch 1,
// each status checked, the result loaded back. The kernel's arguments are
// the fields of a CoopVecMatVecParams (RuntimeFunctions.def) in a stack slot
// of the entry block, one GEP and store per field.

// CHECK-DAG: func.func private @coopvecCpuMatVecMulAdd(!llvm.ptr) -> i32
// CHECK-DAG: func.func private @coopvecCpuCheckRange(i64, i64, i64) -> i32
// CHECK-DAG: func.func private @coopvecCpuCheckMatrix(i64, i64, i32, i32, i32, i32, i32) -> i32
// CHECK-DAG: func.func private @coopvecCpuReportError(i32, !llvm.ptr)
// CHECK-DAG: llvm.mlir.global internal constant @[[$SITE:__coopvec_site_0]]("coopvec.matvec at {{.*}}convert-coopvec-to-cpu.mlir:[[@LINE+114]]:8\00")
// CHECK-LABEL: func.func @matvec_bias(
// CHECK-SAME:      %[[X:.*]]: vector<16xf16>, %[[W:.*]]: memref<?xi8>, %[[B:.*]]: memref<?xi8>, %[[OFF:.*]]: index, %[[S:.*]]: index)
// CHECK:         %[[ONESTRUCT:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:         %[[P:.*]] = llvm.alloca %[[ONESTRUCT]] x !llvm.struct<(ptr, i32, i64, ptr, i32, i32, i64, i32, ptr, i64, i32, i32, i32, i32, i32, i32, ptr, i64, i32, i32, ptr, i64, i32, i32, i32, i32, i32, i32, i32, ptr, i64)> {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK:         %[[RES:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32xf16>
// CHECK:         %[[IN:.*]] = memref.alloca() {alignment = 64 : i64} : memref<16xf16>
// CHECK:         %[[BOFF:.*]] = arith.constant 64 : index
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[WDIM:.*]] = memref.dim %[[W]], %[[C0]] : memref<?xi8>
// CHECK:         %[[WBYTES:.*]] = arith.index_cast %[[WDIM]] : index to i64
// CHECK:         %[[OFF64:.*]] = arith.index_cast %[[OFF]] : index to i64
// CHECK:         %[[ROWMAJOR:.*]] = arith.constant 0 : i32
// CHECK:         %[[M:.*]] = arith.constant 32 : i32
// CHECK:         %[[K:.*]] = arith.constant 16 : i32
// CHECK:         %[[ES:.*]] = arith.constant 2 : i32
// CHECK:         %[[S32:.*]] = arith.index_cast %[[S]] : index to i32
// CHECK:         %[[ST0:.*]] = call @coopvecCpuCheckMatrix(%[[WBYTES]], %[[OFF64]], %[[ROWMAJOR]], %[[M]], %[[K]], %[[ES]], %[[S32]])
// CHECK:         %[[BAD0:.*]] = arith.cmpi ne, %[[ST0]], %[[ROWMAJOR]] : i32
// CHECK:         scf.if %[[BAD0]] {
// CHECK:           %[[SITE0:.*]] = llvm.mlir.addressof @[[$SITE]] : !llvm.ptr
// CHECK:           func.call @coopvecCpuReportError(%[[ST0]], %[[SITE0]]) : (i32, !llvm.ptr) -> ()
// CHECK:         }
// CHECK:         %[[BDIM:.*]] = memref.dim %[[B]], %[[C0]] : memref<?xi8>
// CHECK:         %[[BBYTES:.*]] = arith.index_cast %[[BDIM]] : index to i64
// CHECK:         %[[BOFF64:.*]] = arith.index_cast %[[BOFF]] : index to i64
// CHECK:         %[[BIASBYTES:.*]] = arith.constant 64 : i64
// CHECK:         %[[ST1:.*]] = call @coopvecCpuCheckRange(%[[BBYTES]], %[[BOFF64]], %[[BIASBYTES]])
// CHECK:         scf.if
// CHECK:         vector.store %[[X]], %[[IN]][%[[C0]]] : memref<16xf16>, vector<16xf16>
// CHECK:         %[[RESI:.*]] = memref.extract_aligned_pointer_as_index %[[RES]]
// CHECK:         %[[RES64:.*]] = arith.index_cast %[[RESI]] : index to i64
// CHECK:         %[[RESP:.*]] = llvm.inttoptr %[[RES64]] : i64 to !llvm.ptr
// CHECK:         %[[F16:.*]] = arith.constant 8 : i32
// CHECK:         %[[Z64:.*]] = arith.constant 0 : i64
// CHECK:         %[[INP:.*]] = llvm.inttoptr
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[WI:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK:         %[[WP:.*]] = llvm.inttoptr
// CHECK:         %[[WOFF:.*]] = arith.index_cast %[[OFF]] : index to i64
// CHECK:         %[[WS:.*]] = arith.index_cast %[[S]] : index to i32
// CHECK:         %[[BI:.*]] = memref.extract_aligned_pointer_as_index %[[B]]
// CHECK:         %[[BP:.*]] = llvm.inttoptr
// CHECK:         %[[BO:.*]] = arith.index_cast %[[BOFF]] : index to i64
// CHECK:         %[[G0:.*]] = llvm.getelementptr %[[P]][0, 0]
// CHECK-NEXT:    llvm.store %[[RESP]], %[[G0]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[G1:.*]] = llvm.getelementptr %[[P]][0, 1]
// CHECK-NEXT:    llvm.store %[[F16]], %[[G1]] : i32, !llvm.ptr
// CHECK:         %[[G2:.*]] = llvm.getelementptr %[[P]][0, 2]
// CHECK-NEXT:    llvm.store %[[Z64]], %[[G2]] : i64, !llvm.ptr
// CHECK:         %[[G3:.*]] = llvm.getelementptr %[[P]][0, 3]
// CHECK-NEXT:    llvm.store %[[INP]], %[[G3]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[G4:.*]] = llvm.getelementptr %[[P]][0, 4]
// CHECK-NEXT:    llvm.store %[[F16]], %[[G4]] : i32, !llvm.ptr
// CHECK:         %[[G5:.*]] = llvm.getelementptr %[[P]][0, 5]
// CHECK-NEXT:    llvm.store %[[F16]], %[[G5]] : i32, !llvm.ptr
// CHECK:         %[[G6:.*]] = llvm.getelementptr %[[P]][0, 6]
// CHECK-NEXT:    llvm.store %[[Z64]], %[[G6]] : i64, !llvm.ptr
// CHECK:         %[[G7:.*]] = llvm.getelementptr %[[P]][0, 7]
// CHECK-NEXT:    llvm.store %[[ONE]], %[[G7]] : i32, !llvm.ptr
// CHECK:         %[[G8:.*]] = llvm.getelementptr %[[P]][0, 8]
// CHECK-NEXT:    llvm.store %[[WP]], %[[G8]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[G9:.*]] = llvm.getelementptr %[[P]][0, 9]
// CHECK-NEXT:    llvm.store %[[WOFF]], %[[G9]] : i64, !llvm.ptr
// CHECK:         %[[G10:.*]] = llvm.getelementptr %[[P]][0, 10]
// CHECK-NEXT:    llvm.store %[[F16]], %[[G10]] : i32, !llvm.ptr
// CHECK:         %[[G11:.*]] = llvm.getelementptr %[[P]][0, 11]
// CHECK-NEXT:    llvm.store %[[M]], %[[G11]] : i32, !llvm.ptr
// CHECK:         %[[G12:.*]] = llvm.getelementptr %[[P]][0, 12]
// CHECK-NEXT:    llvm.store %[[K]], %[[G12]] : i32, !llvm.ptr
// CHECK:         %[[G13:.*]] = llvm.getelementptr %[[P]][0, 13]
// CHECK-NEXT:    llvm.store %[[ROWMAJOR]], %[[G13]] : i32, !llvm.ptr
// CHECK:         %[[G14:.*]] = llvm.getelementptr %[[P]][0, 14]
// CHECK-NEXT:    llvm.store %[[ROWMAJOR]], %[[G14]] : i32, !llvm.ptr
// CHECK:         %[[G15:.*]] = llvm.getelementptr %[[P]][0, 15]
// CHECK-NEXT:    llvm.store %[[WS]], %[[G15]] : i32, !llvm.ptr
// CHECK:         %[[G16:.*]] = llvm.getelementptr %[[P]][0, 16]
// CHECK-NEXT:    llvm.store %[[BP]], %[[G16]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[G17:.*]] = llvm.getelementptr %[[P]][0, 17]
// CHECK-NEXT:    llvm.store %[[BO]], %[[G17]] : i64, !llvm.ptr
// CHECK:         %[[G18:.*]] = llvm.getelementptr %[[P]][0, 18]
// CHECK-NEXT:    llvm.store %[[F16]], %[[G18]] : i32, !llvm.ptr
// CHECK:         %[[G19:.*]] = llvm.getelementptr %[[P]][0, 19]
// CHECK-NEXT:    llvm.store %[[ONE]], %[[G19]] : i32, !llvm.ptr
// CHECK:         %[[G20:.*]] = llvm.getelementptr %[[P]][0, 20]
// CHECK-NEXT:    llvm.store %{{.*}}, %[[G20]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[G21:.*]] = llvm.getelementptr %[[P]][0, 21]
// CHECK-NEXT:    llvm.store %{{.*}}, %[[G21]] : i64, !llvm.ptr
// CHECK:         %[[G22:.*]] = llvm.getelementptr %[[P]][0, 22]
// CHECK-NEXT:    llvm.store %{{.*}}, %[[G22]] : i32, !llvm.ptr
// CHECK:         %[[G23:.*]] = llvm.getelementptr %[[P]][0, 23]
// CHECK-NEXT:    llvm.store %{{.*}}, %[[G23]] : i32, !llvm.ptr
// No math fidelity: fields 24-28 (fidelity, dstFormat, packFormat, l1Acc,
// kBlock) are zero.
// CHECK:         %[[G24:.*]] = llvm.getelementptr %[[P]][0, 24]
// CHECK-NEXT:    llvm.store %[[ROWMAJOR]], %[[G24]] : i32, !llvm.ptr
// CHECK:         %[[G25:.*]] = llvm.getelementptr %[[P]][0, 25]
// CHECK-NEXT:    llvm.store %[[ROWMAJOR]], %[[G25]] : i32, !llvm.ptr
// CHECK:         %[[G26:.*]] = llvm.getelementptr %[[P]][0, 26]
// CHECK-NEXT:    llvm.store %[[ROWMAJOR]], %[[G26]] : i32, !llvm.ptr
// CHECK:         %[[G27:.*]] = llvm.getelementptr %[[P]][0, 27]
// CHECK-NEXT:    llvm.store %[[ROWMAJOR]], %[[G27]] : i32, !llvm.ptr
// CHECK:         %[[G28:.*]] = llvm.getelementptr %[[P]][0, 28]
// CHECK-NEXT:    llvm.store %[[ROWMAJOR]], %[[G28]] : i32, !llvm.ptr
// CHECK:         %[[ST:.*]] = call @coopvecCpuMatVecMulAdd(%[[P]]) : (!llvm.ptr) -> i32
// CHECK:         %[[BAD:.*]] = arith.cmpi ne, %[[ST]], %[[ROWMAJOR]] : i32
// CHECK:         scf.if %[[BAD]] {
// CHECK:           func.call @coopvecCpuReportError(%[[ST]],
// CHECK:         }
// CHECK:         %[[Y:.*]] = vector.load %[[RES]][%[[C0]]] : memref<32xf16>, vector<32xf16>
// CHECK:         return %[[Y]] : vector<32xf16>
func.func @matvec_bias(%x: vector<16xf16>, %w: memref<?xi8>, %b: memref<?xi8>,
                       %off: index, %s: index) -> vector<32xf16> {
  %boff = arith.constant 64 : index
  %y = coopvec.matvec %x as F16, %w[%off] matrix<F16, 32x16, RowMajor> stride %s
         bias %b[%boff] as F16
         : vector<16xf16>, memref<?xi8>, memref<?xi8> -> vector<32xf16>
  return %y : vector<32xf16>
}

// -----

// Packed input, transposed optimal matrix, no bias (a null pointer), an
// omitted stride (0), a U32 physical input (`unsigned`).

// CHECK-LABEL: func.func @matvec_packed_transpose(
// CHECK-SAME:      %[[PV:.*]]: vector<8xi32>, %[[W:.*]]: memref<?xi8>)
// CHECK:         %[[P:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i32, i64, ptr, i32, i32, i64, i32, ptr, i64, i32, i32, i32, i32, i32, i32, ptr, i64, i32, i32, ptr, i64, i32, i32, i32, i32, i32, i32, i32, ptr, i64)> {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK:         %[[RES:.*]] = memref.alloca() {alignment = 64 : i64} : memref<32xi32>
// CHECK:         %[[IN:.*]] = memref.alloca() {alignment = 64 : i64} : memref<8xi32>
// CHECK:         %[[INFOPT:.*]] = arith.constant 2 : i32
// CHECK:         %[[STOREDROWS:.*]] = arith.constant 30 : i32
// CHECK:         %[[STOREDCOLS:.*]] = arith.constant 32 : i32
// CHECK:         %[[ONE:.*]] = arith.constant 1 : i32
// CHECK:         %[[NOSTRIDE:.*]] = arith.constant 0 : i32
// CHECK:         call @coopvecCpuCheckMatrix(%{{.*}}, %{{.*}}, %[[INFOPT]], %[[STOREDROWS]], %[[STOREDCOLS]], %[[ONE]], %[[NOSTRIDE]])
// CHECK:         vector.store %[[PV]], %[[IN]]
// CHECK-DAG:     %[[I32:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[U32:.*]] = arith.constant 5 : i32
// CHECK-DAG:     %[[PACKED:.*]] = arith.constant 17 : i32
// CHECK-DAG:     %[[I8:.*]] = arith.constant 20 : i32
// CHECK-DAG:     %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:         %[[G1:.*]] = llvm.getelementptr %[[P]][0, 1]
// CHECK-NEXT:    llvm.store %[[I32]], %[[G1]] : i32, !llvm.ptr
// CHECK:         %[[G4:.*]] = llvm.getelementptr %[[P]][0, 4]
// CHECK-NEXT:    llvm.store %[[U32]], %[[G4]] : i32, !llvm.ptr
// CHECK:         %[[G5:.*]] = llvm.getelementptr %[[P]][0, 5]
// CHECK-NEXT:    llvm.store %[[PACKED]], %[[G5]] : i32, !llvm.ptr
// CHECK:         %[[G7:.*]] = llvm.getelementptr %[[P]][0, 7]
// CHECK-NEXT:    llvm.store %[[ONE]], %[[G7]] : i32, !llvm.ptr
// CHECK:         %[[G10:.*]] = llvm.getelementptr %[[P]][0, 10]
// CHECK-NEXT:    llvm.store %[[I8]], %[[G10]] : i32, !llvm.ptr
// CHECK:         %[[G11:.*]] = llvm.getelementptr %[[P]][0, 11]
// CHECK-NEXT:    llvm.store %[[STOREDCOLS]], %[[G11]] : i32, !llvm.ptr
// CHECK:         %[[G12:.*]] = llvm.getelementptr %[[P]][0, 12]
// CHECK-NEXT:    llvm.store %[[STOREDROWS]], %[[G12]] : i32, !llvm.ptr
// CHECK:         %[[G13:.*]] = llvm.getelementptr %[[P]][0, 13]
// CHECK-NEXT:    llvm.store %[[INFOPT]], %[[G13]] : i32, !llvm.ptr
// CHECK:         %[[G14:.*]] = llvm.getelementptr %[[P]][0, 14]
// CHECK-NEXT:    llvm.store %[[ONE]], %[[G14]] : i32, !llvm.ptr
// CHECK:         %[[G15:.*]] = llvm.getelementptr %[[P]][0, 15]
// CHECK-NEXT:    llvm.store %[[NOSTRIDE]], %[[G15]] : i32, !llvm.ptr
// CHECK:         %[[G16:.*]] = llvm.getelementptr %[[P]][0, 16]
// CHECK-NEXT:    llvm.store %[[NULL]], %[[G16]] : !llvm.ptr, !llvm.ptr
// CHECK:         %[[G18:.*]] = llvm.getelementptr %[[P]][0, 18]
// CHECK-NEXT:    llvm.store %[[NOSTRIDE]], %[[G18]] : i32, !llvm.ptr
// CHECK:         %[[G19:.*]] = llvm.getelementptr %[[P]][0, 19]
// CHECK-NEXT:    llvm.store %[[ONE]], %[[G19]] : i32, !llvm.ptr
// CHECK:         call @coopvecCpuMatVecMulAdd(%[[P]])
func.func @matvec_packed_transpose(%p: vector<8xi32>, %w: memref<?xi8>) -> vector<32xi32> {
  %c0 = arith.constant 0 : index
  %q = coopvec.matvec %p unsigned as PackedS8x32, %w[%c0]
         matrix<I8, 32x30, InferencingOptimal, transpose>
         : vector<8xi32>, memref<?xi8> -> vector<32xi32>
  return %q : vector<32xi32>
}

// -----

// Stack slots go to the entry block even when the op sits in a loop.

// CHECK-LABEL: func.func @matvec_in_loop(
// CHECK-NEXT:    llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT:    llvm.alloca
// CHECK-NEXT:    memref.alloca() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    memref.alloca() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         scf.for
// CHECK-NOT:       memref.alloca
// CHECK-NOT:       llvm.alloca
// CHECK:           call @coopvecCpuMatVecMulAdd
// CHECK:         return
func.func @matvec_in_loop(%x: vector<4xf32>, %w: memref<?xi8>, %n: index) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> vector<4xf32> {
    %y = coopvec.matvec %v as F32, %w[%c0] matrix<F32, 4x4, TrainingOptimal>
           : vector<4xf32>, memref<?xi8> -> vector<4xf32>
    scf.yield %y : vector<4xf32>
  }
  return %r : vector<4xf32>
}

// -----

// Bounds checks can be turned off; a strided byte buffer adds its offset.

// CHECK-LABEL: func.func @matvec_strided_buffer(
// CHECK-SAME:      %{{.*}}: vector<4xf32>, %[[W:.*]]: memref<?xi8, strided<[1], offset: ?>>)
// CHECK:         %[[ALIGNED:.*]] = memref.extract_aligned_pointer_as_index %[[W]]
// CHECK:         %{{.*}}, %[[OFFSET:.*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[W]]
// CHECK:         %[[ADDR:.*]] = arith.addi %[[ALIGNED]], %[[OFFSET]] : index
// CHECK:         %[[ADDR64:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK:         %[[PTR:.*]] = llvm.inttoptr %[[ADDR64]] : i64 to !llvm.ptr
// CHECK:         %[[MATRIX:.*]] = llvm.getelementptr %{{.*}}[0, 8]
// CHECK-NEXT:    llvm.store %[[PTR]], %[[MATRIX]] : !llvm.ptr, !llvm.ptr
// CHECK:         call @coopvecCpuMatVecMulAdd(
func.func @matvec_strided_buffer(%x: vector<4xf32>, %w: memref<?xi8, strided<[1], offset: ?>>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, TrainingOptimal>
         : vector<4xf32>, memref<?xi8, strided<[1], offset: ?>> -> vector<4xf32>
  return %y : vector<4xf32>
}

// -----

// CHECK-LABEL: func.func @outer_product(
// CHECK-SAME:      %[[A:.*]]: vector<8xf16>, %[[B:.*]]: vector<4xf16>, %[[W:.*]]: memref<?xi8>, %[[OFF:.*]]: index)
// CHECK:         %[[P:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i32, i64, ptr, i32, i64, i32, i32, i32, ptr, i64, i32, i32, i32, i32)> {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK-DAG:     %[[SB:.*]] = memref.alloca() {alignment = 64 : i64} : memref<4xf16>
// CHECK-DAG:     %[[SA:.*]] = memref.alloca() {alignment = 64 : i64} : memref<8xf16>
// CHECK:         call @coopvecCpuCheckMatrix(%{{.*}}, %{{.*}}, %[[TRAINOPT:[a-z0-9_]+]], %[[M:[a-z0-9_]+]], %[[N:[a-z0-9_]+]], %{{.*}}, %[[NOSTRIDE:[a-z0-9_]+]])
// CHECK:         vector.store %[[A]], %[[SA]]
// CHECK:         vector.store %[[B]], %[[SB]]
// CHECK-DAG:     %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[F32:.*]] = arith.constant 9 : i32
// CHECK:         %[[G1:.*]] = llvm.getelementptr %[[P]][0, 1]
// CHECK-NEXT:    llvm.store %[[M]], %[[G1]] : i32, !llvm.ptr
// CHECK:         %[[G4:.*]] = llvm.getelementptr %[[P]][0, 4]
// CHECK-NEXT:    llvm.store %[[M]], %[[G4]] : i32, !llvm.ptr
// CHECK:         %[[G6:.*]] = llvm.getelementptr %[[P]][0, 6]
// CHECK-NEXT:    llvm.store %[[ONE]], %[[G6]] : i32, !llvm.ptr
// CHECK:         %[[G7:.*]] = llvm.getelementptr %[[P]][0, 7]
// CHECK-NEXT:    llvm.store %[[M]], %[[G7]] : i32, !llvm.ptr
// CHECK:         %[[G8:.*]] = llvm.getelementptr %[[P]][0, 8]
// CHECK-NEXT:    llvm.store %[[N]], %[[G8]] : i32, !llvm.ptr
// CHECK:         %[[G11:.*]] = llvm.getelementptr %[[P]][0, 11]
// CHECK-NEXT:    llvm.store %[[F32]], %[[G11]] : i32, !llvm.ptr
// CHECK:         %[[G12:.*]] = llvm.getelementptr %[[P]][0, 12]
// CHECK-NEXT:    llvm.store %[[TRAINOPT]], %[[G12]] : i32, !llvm.ptr
// CHECK:         %[[G13:.*]] = llvm.getelementptr %[[P]][0, 13]
// CHECK-NEXT:    llvm.store %[[NOSTRIDE]], %[[G13]] : i32, !llvm.ptr
// CHECK:         %[[G14:.*]] = llvm.getelementptr %[[P]][0, 14]
// CHECK-NEXT:    llvm.store %[[ONE]], %[[G14]] : i32, !llvm.ptr
// CHECK:         %[[ST:.*]] = call @coopvecCpuOuterProductAccumulate(%[[P]]) : (!llvm.ptr) -> i32
// CHECK:         scf.if
// CHECK:           func.call @coopvecCpuReportError(%[[ST]]
// CHECK-NOT:     coopvec.
// CHECK:         return
// (F16 = 8 and M = 8 are one constant.)
func.func @outer_product(%a: vector<8xf16>, %b: vector<4xf16>, %w: memref<?xi8>, %off: index) {
  coopvec.outer_product_accumulate %a, %b, %w[%off] matrix<F32, 8x4, TrainingOptimal>
      : vector<8xf16>, vector<4xf16>, memref<?xi8>
  return
}

// -----

// CHECK-LABEL: func.func @vector_accumulate(
// CHECK-SAME:      %[[V:.*]]: vector<16xf32>, %[[BUF:.*]]: memref<?xi8>)
// CHECK:         %[[P:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i32, i64, i32, i32, ptr, i64, i32, i32)> {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK:         %[[BYTES:.*]] = arith.constant 64 : i64
// CHECK:         call @coopvecCpuCheckRange(%{{.*}}, %{{.*}}, %[[BYTES]])
// CHECK:         vector.store %[[V]]
// CHECK-DAG:     %[[F32:.*]] = arith.constant 9 : i32
// CHECK-DAG:     %[[N:.*]] = arith.constant 16 : i32
// CHECK:         %[[G1:.*]] = llvm.getelementptr %[[P]][0, 1]
// CHECK-NEXT:    llvm.store %[[F32]], %[[G1]] : i32, !llvm.ptr
// CHECK:         %[[G4:.*]] = llvm.getelementptr %[[P]][0, 4]
// CHECK-NEXT:    llvm.store %[[N]], %[[G4]] : i32, !llvm.ptr
// CHECK:         %[[G7:.*]] = llvm.getelementptr %[[P]][0, 7]
// CHECK-NEXT:    llvm.store %[[F32]], %[[G7]] : i32, !llvm.ptr
// CHECK:         call @coopvecCpuVectorAccumulate(%[[P]]) : (!llvm.ptr) -> i32
func.func @vector_accumulate(%v: vector<16xf32>, %buf: memref<?xi8>) {
  %c128 = arith.constant 128 : index
  coopvec.vector_accumulate %v, %buf[%c128] : vector<16xf32>, memref<?xi8>
  return
}

// -----

// CHECK-LABEL: func.func @convert_matrix(
// CHECK-SAME:      %[[SRC:.*]]: memref<?xi8>, %[[DST:.*]]: memref<?xi8>)
// CHECK:         %[[P:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, i64, i64, i32, i32, i32, ptr, i64, i64, i32, i32, i32, i32, i32)> {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK-DAG:     %[[E4M3:.*]] = arith.constant 21 : i32
// CHECK-DAG:     %[[INFOPT:.*]] = arith.constant 2 : i32
// CHECK-DAG:     %[[F32:.*]] = arith.constant 9 : i32
// CHECK-DAG:     %[[ROWMAJOR:.*]] = arith.constant 0 : i32
// CHECK-DAG:     %[[ROWS:.*]] = arith.constant 64 : i32
// CHECK-DAG:     %[[COLS:.*]] = arith.constant 32 : i32
// CHECK:         %[[G3:.*]] = llvm.getelementptr %[[P]][0, 3]
// CHECK-NEXT:    llvm.store %[[E4M3]], %[[G3]] : i32, !llvm.ptr
// CHECK:         %[[G4:.*]] = llvm.getelementptr %[[P]][0, 4]
// CHECK-NEXT:    llvm.store %[[INFOPT]], %[[G4]] : i32, !llvm.ptr
// CHECK:         %[[G5:.*]] = llvm.getelementptr %[[P]][0, 5]
// CHECK-NEXT:    llvm.store %[[ROWMAJOR]], %[[G5]] : i32, !llvm.ptr
// CHECK:         %[[G9:.*]] = llvm.getelementptr %[[P]][0, 9]
// CHECK-NEXT:    llvm.store %[[F32]], %[[G9]] : i32, !llvm.ptr
// CHECK:         %[[G10:.*]] = llvm.getelementptr %[[P]][0, 10]
// CHECK-NEXT:    llvm.store %[[ROWMAJOR]], %[[G10]] : i32, !llvm.ptr
// CHECK:         %[[G12:.*]] = llvm.getelementptr %[[P]][0, 12]
// CHECK-NEXT:    llvm.store %[[ROWS]], %[[G12]] : i32, !llvm.ptr
// CHECK:         %[[G13:.*]] = llvm.getelementptr %[[P]][0, 13]
// CHECK-NEXT:    llvm.store %[[COLS]], %[[G13]] : i32, !llvm.ptr
// CHECK:         %[[ST:.*]] = call @coopvecCpuConvertMatrix(%[[P]]) : (!llvm.ptr) -> i32
// CHECK:         scf.if
func.func @convert_matrix(%src: memref<?xi8>, %dst: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  coopvec.convert_matrix %src[%c0] matrix<F32, 64x32, RowMajor> stride %c128
      to %dst[%c0] matrix<F8_E4M3, 64x32, InferencingOptimal>
      : memref<?xi8>, memref<?xi8>
  return
}

// -----

// A size query with a dynamic stride calls the layout math; its 0 for an
// invalid stride is reported as COOPVEC_ERROR_INVALID_STRIDE (-4).

// CHECK-LABEL: func.func @matrix_size(
// CHECK-SAME:      %[[S:.*]]: index) -> index
// CHECK-DAG:     %[[COLMAJOR:.*]] = arith.constant 1 : i32
// CHECK-DAG:     %[[ROWS:.*]] = arith.constant 8 : i32
// CHECK-DAG:     %[[COLS:.*]] = arith.constant 4 : i32
// CHECK-DAG:     %[[ES:.*]] = arith.constant 2 : i32
// CHECK:         %[[S32:.*]] = arith.index_cast %[[S]] : index to i32
// CHECK:         %[[SIZE:.*]] = call @coopvecLayoutDestinationSize(%[[COLMAJOR]], %[[ROWS]], %[[COLS]], %[[ES]], %[[S32]]) : (i32, i32, i32, i32, i32) -> i64
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK:         %[[BAD:.*]] = arith.cmpi eq, %[[SIZE]], %[[ZERO]] : i64
// CHECK:         %[[EINVAL:.*]] = arith.constant -4 : i32
// CHECK:         %[[OK:.*]] = arith.constant 0 : i32
// CHECK:         %[[ST:.*]] = arith.select %[[BAD]], %[[EINVAL]], %[[OK]] : i32
// CHECK:         scf.if
// CHECK:           func.call @coopvecCpuReportError(%[[ST]]
// CHECK:         %[[R:.*]] = arith.index_cast %[[SIZE]] : i64 to index
// CHECK:         return %[[R]] : index
func.func @matrix_size(%s: index) -> index {
  %n = coopvec.matrix_size matrix<F16, 8x4, ColumnMajor> stride %s : index
  return %n : index
}

// -----

// A block-scaled matrix: the scales are bounds-checked (M x ceil(K/32) =
// 4 x 2 bytes) and passed in the last four fields (UE8M0 = 38, block 32).
// CHECK-LABEL: func.func @matvec_block_scaled(
// CHECK-SAME:      %[[X:.*]]: vector<40xf32>, %[[W:.*]]: memref<?xi8>, %[[SC:.*]]: memref<?xi8>)
// CHECK:         %[[SBYTES:.*]] = arith.constant 8 : i64
// CHECK:         call @coopvecCpuCheckRange(%{{.*}}, %{{.*}}, %[[SBYTES]])
// CHECK:         %[[SI:.*]] = memref.extract_aligned_pointer_as_index %[[SC]]
// CHECK:         %[[UE8M0:.*]] = arith.constant 38 : i32
// CHECK:         %[[BLOCK:.*]] = arith.constant 32 : i32
// CHECK:         %[[G22:.*]] = llvm.getelementptr %{{.*}}[0, 22]
// CHECK-NEXT:    llvm.store %[[UE8M0]], %[[G22]] : i32, !llvm.ptr
// CHECK:         %[[G23:.*]] = llvm.getelementptr %{{.*}}[0, 23]
// CHECK-NEXT:    llvm.store %[[BLOCK]], %[[G23]] : i32, !llvm.ptr
// CHECK:         call @coopvecCpuMatVecMulAdd
func.func @matvec_block_scaled(%x: vector<40xf32>, %w: memref<?xi8>, %sc: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F4_E2M1, 4x40, InferencingOptimal, scale f8E8M0FNU block 32>
         scales %sc[%c0] : memref<?xi8> : vector<40xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}
