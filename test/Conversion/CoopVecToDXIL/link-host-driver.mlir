// The dx.op declarations get bodies that call the software driver; the
// calls to them stay as they are.
// RUN: coopvec-opt %s --coopvec-dxil-link-host-driver | FileCheck %s

// CHECK-DAG: llvm.func @coopvecDxMatVecMulAdd(!llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr, i32, i32, i32, i32, !llvm.ptr, i32, i32, i32, i32, i32, i32, i32, !llvm.ptr, i32, i32, i32)
// CHECK-DAG: llvm.func @coopvecDxVectorAccumulate(!llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr, i32)
// CHECK-DAG: llvm.mlir.global internal constant @[[$NAME:__coopvec_dx_name[0-9]+]]("dx.op.matVecMul.v4f16.v8i16\00")

// CHECK-LABEL: llvm.func internal @dx.op.matVecMul.v4f16.v8i16(
// CHECK-SAME: %[[OPC:.*]]: i32, %[[IN:.*]]: vector<8xi16>, %[[INU:.*]]: i1, %[[INT:.*]]: i32, %[[H:.*]]: !llvm.struct<"dx.types.Handle", (ptr)>, %[[OFF:.*]]: i32, %[[MI:.*]]: i32, %[[M:.*]]: i32, %[[K:.*]]: i32, %[[L:.*]]: i32, %[[T:.*]]: i1, %[[S:.*]]: i32, %[[OUTU:.*]]: i1) -> vector<4xf16>
// CHECK: %[[NAMEADDR:.*]] = llvm.mlir.addressof @[[$NAME]]
// CHECK: %[[NAMEPTR:.*]] = llvm.getelementptr %[[NAMEADDR]][0, 0]
// CHECK: %[[RES:.*]] = llvm.alloca %{{.*}} x vector<4xf16>
// CHECK: %[[INSLOT:.*]] = llvm.alloca %{{.*}} x vector<8xi16>
// CHECK: llvm.store %[[IN]], %[[INSLOT]]
// CHECK: %[[NOBIAS:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[F16:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG: %[[FOUR:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-DAG: %[[I16:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-DAG: %[[EIGHT:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG: %[[INU32:.*]] = llvm.zext %[[INU]] : i1 to i32
// CHECK-DAG: %[[DESC:.*]] = llvm.extractvalue %[[H]][0]
// CHECK-DAG: %[[T32:.*]] = llvm.zext %[[T]] : i1 to i32
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-DAG: %[[OUTU32:.*]] = llvm.zext %[[OUTU]] : i1 to i32
// CHECK: llvm.call @coopvecDxMatVecMulAdd(%[[NAMEPTR]], %[[RES]], %[[F16]], %[[FOUR]], %[[INSLOT]], %[[I16]], %[[EIGHT]], %[[INU32]], %[[INT]], %[[DESC]], %[[OFF]], %[[MI]], %[[M]], %[[K]], %[[L]], %[[T32]], %[[S]], %[[NOBIAS]], %[[ZERO]], %{{.*}}, %[[OUTU32]])
// CHECK: %[[R:.*]] = llvm.load %[[RES]] : !llvm.ptr -> vector<4xf16>
// CHECK: llvm.return %[[R]]
llvm.func @dx.op.matVecMul.v4f16.v8i16(i32, vector<8xi16>, i1, i32, !llvm.struct<"dx.types.Handle", (ptr)>, i32, i32, i32, i32, i32, i1, i32, i1) -> vector<4xf16>

// CHECK-LABEL: llvm.func internal @dx.op.vectorAccumulate.v8f32(
// CHECK-SAME: %{{.*}}: i32, %[[V:.*]]: vector<8xf32>, %[[VH:.*]]: !llvm.struct<"dx.types.Handle", (ptr)>, %[[VOFF:.*]]: i32)
// CHECK: llvm.store %[[V]], %[[VSLOT:.*]] : vector<8xf32>, !llvm.ptr
// CHECK-DAG: %[[N:.*]] = llvm.mlir.constant(8 : i32) : i32
// CHECK-DAG: %[[F32:.*]] = llvm.mlir.constant(9 : i32) : i32
// CHECK-DAG: %[[VDESC:.*]] = llvm.extractvalue %[[VH]][0]
// CHECK: llvm.call @coopvecDxVectorAccumulate(%{{.*}}, %[[VSLOT]], %[[N]], %[[F32]], %[[VDESC]], %[[VOFF]])
// CHECK-NEXT: llvm.return
llvm.func @dx.op.vectorAccumulate.v8f32(i32, vector<8xf32>, !llvm.struct<"dx.types.Handle", (ptr)>, i32)

// Callers are untouched.
// CHECK-LABEL: llvm.func @caller(
// CHECK: llvm.call @dx.op.vectorAccumulate.v8f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i32, vector<8xf32>, !llvm.struct<"dx.types.Handle", (ptr)>, i32) -> ()
llvm.func @caller(%v: vector<8xf32>, %h: !llvm.struct<"dx.types.Handle", (ptr)>) {
  %c308 = llvm.mlir.constant(308 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  llvm.call @dx.op.vectorAccumulate.v8f32(%c308, %v, %h, %c0) : (i32, vector<8xf32>, !llvm.struct<"dx.types.Handle", (ptr)>, i32) -> ()
  llvm.return
}
