// Verifies, but the CPU lowering cannot address a byte buffer of stride 2:
// the pipeline fails even when another function is the entry.
func.func @strided(%x: vector<4xf32>, %w: memref<?xi8, strided<[2]>>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x4, TrainingOptimal>
         : vector<4xf32>, memref<?xi8, strided<[2]>> -> vector<4xf32>
  return %y : vector<4xf32>
}

func.func @main() -> i32 {
  %c = arith.constant 0 : i32
  return %c : i32
}
