// A vector LLVM's instruction selection cannot lower (more than 32768
// elements): the runner reports it instead of aborting in the JIT.
func.func @main(%m: memref<?xi8>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant dense<1.0> : vector<40000xf32>
  coopvec.vector_accumulate %x, %m[%c0] : vector<40000xf32>, memref<?xi8>
  return
}
