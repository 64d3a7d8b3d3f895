// How a memref byte buffer becomes a %dx.types.Handle: a host descriptor
// {base = aligned pointer + memref offset, size} in a stack slot of the entry
// block (not of the loop), wrapped in the handle struct. Only coopvec ops
// are rewritten; the memref reaches them through a conversion cast.
// RUN: coopvec-opt %s --convert-coopvec-to-dxil | FileCheck %s

// CHECK: llvm.func @dx.op.matVecMul.v4f16.v4f16(i32, vector<4xf16>, i1, i32, !llvm.struct<"dx.types.Handle", (ptr)>, i32, i32, i32, i32, i32, i1, i32, i1) -> vector<4xf16>
// CHECK-LABEL: func.func @handle_in_loop(
// CHECK-SAME: %[[X:.*]]: vector<4xf16>, %[[M:.*]]: memref<?xi8, strided<[1], offset: ?>>, %[[N:.*]]: index)
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, i64)> {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT: %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[M]] : memref<?xi8, strided<[1], offset: ?>> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: scf.for
// CHECK: %[[ALIGNED:.*]] = llvm.extractvalue %[[DESC]][1]
// CHECK-NEXT: %[[OFFSET:.*]] = llvm.extractvalue %[[DESC]][2]
// CHECK-NEXT: %[[BASE:.*]] = llvm.getelementptr %[[ALIGNED]][%[[OFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT: %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, i64)>
// CHECK-NEXT: %[[B0:.*]] = llvm.insertvalue %[[BASE]], %[[P]][0]
// CHECK-NEXT: %[[SIZE:.*]] = llvm.extractvalue %[[DESC]][3, 0]
// CHECK-NEXT: %[[B1:.*]] = llvm.insertvalue %[[SIZE]], %[[B0]][1]
// CHECK-NEXT: llvm.store %[[B1]], %[[SLOT]] : !llvm.struct<(ptr, i64)>, !llvm.ptr
// CHECK-NEXT: %[[HP:.*]] = llvm.mlir.poison : !llvm.struct<"dx.types.Handle", (ptr)>
// CHECK-NEXT: %[[H:.*]] = llvm.insertvalue %[[SLOT]], %[[HP]][0] : !llvm.struct<"dx.types.Handle", (ptr)>
// CHECK: %[[R:.*]] = llvm.call @dx.op.matVecMul.v4f16.v4f16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[H]], %{{.*}}) : (i32, vector<4xf16>, i1, i32, !llvm.struct<"dx.types.Handle", (ptr)>, i32, i32, i32, i32, i32, i1, i32, i1) -> vector<4xf16>
// CHECK-NEXT: scf.yield %[[R]] : vector<4xf16>
func.func @handle_in_loop(%x: vector<4xf16>, %m: memref<?xi8, strided<[1], offset: ?>>, %n: index) -> vector<4xf16> {
  %c0 = arith.constant 0 : index
  %r = scf.for %i = %c0 to %n step %n iter_args(%acc = %x) -> vector<4xf16> {
    %y = coopvec.matvec %acc as F16, %m[%c0] matrix<F16, 4x4, InferencingOptimal>
           : vector<4xf16>, memref<?xi8, strided<[1], offset: ?>> -> vector<4xf16>
    scf.yield %y : vector<4xf16>
  }
  return %r : vector<4xf16>
}

// A second use of an overload reuses its declaration.
// CHECK-LABEL: func.func @one_declaration(
// CHECK-COUNT-2: llvm.call @dx.op.matVecMul.v4f16.v4f16(
// CHECK-NOT: llvm.func @dx.op
func.func @one_declaration(%x: vector<4xf16>, %m: memref<?xi8, strided<[1], offset: ?>>) -> vector<4xf16> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as F16, %m[%c0] matrix<F16, 4x4, InferencingOptimal>
         : vector<4xf16>, memref<?xi8, strided<[1], offset: ?>> -> vector<4xf16>
  %z = coopvec.matvec %y as F16, %m[%c0] matrix<F16, 4x4, InferencingOptimal>
         : vector<4xf16>, memref<?xi8, strided<[1], offset: ?>> -> vector<4xf16>
  return %z : vector<4xf16>
}
