// An scf.parallel loop that coopvec-batch leaves (the matrix offset varies
// with the iteration): the CPU pipeline runs it on MLIR's async runtime.
// Row i of %out is matrix (i mod 2) of %w times ones; %w holds two 4x4 F32
// row-major matrices, 64 bytes apart.
func.func @rows(%w: memref<?xi8>, %out: memref<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %n = memref.dim %out, %c0 : memref<?x4xf32>
  %x = arith.constant dense<1.0> : vector<4xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %parity = arith.remui %i, %c2 : index
    %off = arith.muli %parity, %c64 : index
    %y = coopvec.matvec %x as F32, %w[%off] matrix<F32, 4x4, RowMajor> stride %c16
           : vector<4xf32>, memref<?xi8> -> vector<4xf32>
    vector.store %y, %out[%i, %c0] : memref<?x4xf32>, vector<4xf32>
    scf.reduce
  }
  return
}
