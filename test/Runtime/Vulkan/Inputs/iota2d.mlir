// out[gy * width + gx] = 1000 * gy + gx over a 2-D grid of 8x4 workgroups:
// out (i32) at binding 0, width an i64 scalar (tag -8) at binding 1.
spirv.module Logical GLSL450 requires #spirv.vce<v1.0, [Shader, Int64], [SPV_KHR_storage_buffer_storage_class]> {
  spirv.GlobalVariable @out bind(0, 0) : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0]), Block>, StorageBuffer>
  spirv.GlobalVariable @width bind(0, 1) : !spirv.ptr<!spirv.struct<(i64 [0]), Block>, StorageBuffer>
  spirv.GlobalVariable @gid built_in("GlobalInvocationId") : !spirv.ptr<vector<3xi32>, Input>
  spirv.func @iota2d() "None" {
    %c0 = spirv.Constant 0 : i32
    %c1000 = spirv.Constant 1000 : i32
    %gidPtr = spirv.mlir.addressof @gid : !spirv.ptr<vector<3xi32>, Input>
    %gid = spirv.Load "Input" %gidPtr : vector<3xi32>
    %gx = spirv.CompositeExtract %gid[0 : i32] : vector<3xi32>
    %gy = spirv.CompositeExtract %gid[1 : i32] : vector<3xi32>
    %wVar = spirv.mlir.addressof @width : !spirv.ptr<!spirv.struct<(i64 [0]), Block>, StorageBuffer>
    %wPtr = spirv.AccessChain %wVar[%c0] : !spirv.ptr<!spirv.struct<(i64 [0]), Block>, StorageBuffer>, i32 -> !spirv.ptr<i64, StorageBuffer>
    %w64 = spirv.Load "StorageBuffer" %wPtr : i64
    %w = spirv.UConvert %w64 : i64 to i32
    %row = spirv.IMul %gy, %w : i32
    %index = spirv.IAdd %row, %gx : i32
    %high = spirv.IMul %gy, %c1000 : i32
    %value = spirv.IAdd %high, %gx : i32
    %outVar = spirv.mlir.addressof @out : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0]), Block>, StorageBuffer>
    %outPtr = spirv.AccessChain %outVar[%c0, %index] : !spirv.ptr<!spirv.struct<(!spirv.rtarray<i32, stride=4> [0]), Block>, StorageBuffer>, i32, i32 -> !spirv.ptr<i32, StorageBuffer>
    spirv.Store "StorageBuffer" %outPtr, %value : i32
    spirv.Return
  }
  spirv.EntryPoint "GLCompute" @iota2d, @gid
  spirv.ExecutionMode @iota2d "LocalSize", 8, 4, 1
}
