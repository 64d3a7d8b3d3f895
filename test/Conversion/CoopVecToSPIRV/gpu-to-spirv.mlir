// coopvec-convert-gpu-to-spirv: upstream convert-gpu-to-spirv plus
// memref.generic_atomic_rmw on a 32-bit element as a compare-and-swap loop
// (the body computes the new word from the old; the loop's result is the
// word the successful exchange replaced).
// RUN: coopvec-opt %S/Inputs/generic-atomic.mlir --convert-coopvec-to-spirv --coopvec-convert-gpu-to-spirv | FileCheck %s
// CHECK: spirv.module @__spv__k
// CHECK-LABEL: spirv.func @fmax
// CHECK: %[[PTR:.*]] = spirv.AccessChain %arg0
// CHECK: %[[INIT:.*]] = spirv.Load "StorageBuffer" %[[PTR]] : i32
// CHECK: %[[OLD:.*]] = spirv.mlir.loop -> i32 {
// CHECK-NEXT: spirv.Branch ^[[HEADER:.*]](%[[INIT]] : i32)
// CHECK-NEXT: ^[[HEADER]](%[[CUR:.*]]: i32):
// CHECK: %[[GOT:.*]] = spirv.AtomicCompareExchange <Device> <None> <None> %[[PTR]], %{{.*}}, %[[CUR]]
// CHECK: %[[SAME:.*]] = spirv.IEqual %[[GOT]], %[[CUR]]
// CHECK: spirv.BranchConditional %[[SAME]], ^[[MERGE:.*]], ^[[NEXT:.*]](%[[GOT]] : i32)
// CHECK: ^[[NEXT]](%[[RETRY:.*]]: i32):
// CHECK-NEXT: spirv.Branch ^[[HEADER]](%[[RETRY]] : i32)
// CHECK: ^[[MERGE]]:
// CHECK-NEXT: spirv.mlir.merge %[[CUR]] : i32
// CHECK: spirv.Store "StorageBuffer" %{{.*}}, %[[OLD]] : i32
