// y[i] = a * x[i] + y[i] for i < n, 64 invocations a workgroup: kernel
// arguments x, y, a, n at bindings 0-3 of set 0, each a storage buffer
// (scalars too), as convert-gpu-to-spirv lays them out.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @x bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0]), Block>, StorageBuffer>
  spirv.GlobalVariable @y bind(0, 1) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0]), Block>, StorageBuffer>
  spirv.GlobalVariable @a bind(0, 2) : !spirv.ptr<!spirv.struct<(f32 [0]), Block>, StorageBuffer>
  spirv.GlobalVariable @n bind(0, 3) : !spirv.ptr<!spirv.struct<(i32 [0]), Block>, StorageBuffer>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @axpy() "None" {
    %c0 = spirv.Constant 0 : i32
    %gidPtr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gidPtr : vector<3xi32>
    %i = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %nVar = spirv.mlir.addressof @n : !spirv.ptr<!spirv.struct<(i32 [0]), Block>, StorageBuffer>
    %nPtr = spirv.AccessChain %nVar[%c0] : !spirv.ptr<!spirv.struct<(i32 [0]), Block>, StorageBuffer>, i32 -> !spirv.ptr<i32, StorageBuffer>
    %n = spirv.Load "StorageBuffer" %nPtr : i32
    %inside = spirv.ULessThan %i, %n : i32
    spirv.mlir.selection {
      spirv.BranchConditional %inside, ^body, ^merge
    ^body:
      %aVar = spirv.mlir.addressof @a : !spirv.ptr<!spirv.struct<(f32 [0]), Block>, StorageBuffer>
      %aPtr = spirv.AccessChain %aVar[%c0] : !spirv.ptr<!spirv.struct<(f32 [0]), Block>, StorageBuffer>, i32 -> !spirv.ptr<f32, StorageBuffer>
      %a = spirv.Load "StorageBuffer" %aPtr : f32
      %xVar = spirv.mlir.addressof @x : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0]), Block>, StorageBuffer>
      %xPtr = spirv.AccessChain %xVar[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0]), Block>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %xi = spirv.Load "StorageBuffer" %xPtr : f32
      %yVar = spirv.mlir.addressof @y : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0]), Block>, StorageBuffer>
      %yPtr = spirv.AccessChain %yVar[%c0, %i] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<f32, stride=4> [0]), Block>, StorageBuffer>, i32, i32 -> !spirv.ptr<f32, StorageBuffer>
      %yi = spirv.Load "StorageBuffer" %yPtr : f32
      %ax = spirv.FMul %a, %xi : f32
      %sum = spirv.FAdd %ax, %yi : f32
      spirv.Store "StorageBuffer" %yPtr, %sum : f32
      spirv.Branch ^merge
    ^merge:
      spirv.mlir.merge
    }
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @axpy, @gid
  spirv.ExecutionMode @axpy "LocalSize", 64, 1, 1
}
