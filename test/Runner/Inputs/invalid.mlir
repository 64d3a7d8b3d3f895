func.func @main(%x: vector<4xf32>, %w: memref<?xi8>) -> vector<4xf32> {
  %c0 = arith.constant 0 : index
  %y = coopvec.matvec %x as F32, %w[%c0] matrix<F32, 4x5, TrainingOptimal>
         : vector<4xf32>, memref<?xi8> -> vector<4xf32>
  return %y : vector<4xf32>
}
