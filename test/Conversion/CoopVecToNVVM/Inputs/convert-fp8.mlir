module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%x: vector<2xf32>, %out: memref<?xi8>) kernel {
      %c0 = arith.constant 0 : index
      %a = coopvec.convert %x rounding rn satfinite : vector<2xf32> -> vector<2xf8E4M3FN>
      %ai = arith.bitcast %a : vector<2xf8E4M3FN> to vector<2xi8>
      vector.store %ai, %out[%c0] : memref<?xi8>, vector<2xi8>
      gpu.return
    }
  }
}
