// RUN: coopvec-opt %s --coopvec-cpu-pipeline="gpu-host=true parallel-loops=false" | FileCheck %s
// RUN: coopvec-opt %s --coopvec-cpu-pipeline="parallel-loops=false" | FileCheck %s --check-prefix=NOGPU

// The host side of a GPU program whose kernels are already compiled
// (gpu.binary): gpu-host=true makes the synchronous gpu ops asynchronous on
// one stream and lowers them to the mgpu* calls; the launch keeps its
// kernel reference, with the memref expanded to descriptor fields, for
// the LLVM IR translation of gpu.launch_func.

// CHECK-LABEL: llvm.func @host(
// CHECK: %[[STREAM:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
// CHECK: llvm.call @mgpuMemAlloc({{.*}}, %[[STREAM]], {{.*}}) : (i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK: llvm.call @mgpuMemcpy({{.*}}, %[[STREAM]]) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @kernels::@scale blocks in ({{.*}}) threads in ({{.*}}) : i64 args({{.*}} : !llvm.ptr, {{.*}} : !llvm.ptr, {{.*}} : i64, {{.*}} : i64, {{.*}} : i64)
// CHECK: llvm.call @mgpuMemcpy({{.*}}, %[[STREAM]])
// CHECK: llvm.call @mgpuMemFree({{.*}}, %[[STREAM]])
// CHECK: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// CHECK: llvm.call @mgpuStreamDestroy(%[[STREAM]])
// CHECK-NOT: unrealized_conversion_cast

// Without it, the gpu ops are left as they are, on memrefs cast back from
// the lowered descriptors.
// NOGPU-LABEL: llvm.func @host(
// NOGPU: builtin.unrealized_conversion_cast
// NOGPU: gpu.alloc () : memref<8xf32>
// NOGPU-NOT: mgpu

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_80">, bin = "not a cubin">]
  func.func @host(%h: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %d = gpu.alloc () : memref<8xf32>
    gpu.memcpy %d, %h : memref<8xf32>, memref<8xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%d : memref<8xf32>)
    gpu.memcpy %h, %d : memref<8xf32>, memref<8xf32>
    gpu.dealloc %d : memref<8xf32>
    return
  }
}
