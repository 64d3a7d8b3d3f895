// Conversions PTX has on sm_100a (rs: sm_100a only; the rest sm_120a too).
// Every result is folded into one stored word so that none is dead code.
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%x: vector<2xf32>, %r: vector<2xi32>, %w: i32, %c6: vector<2xf6E3M2FN>,
                %c4: vector<2xf4E2M1FN>, %s: vector<2xf8E8M0FNU>, %out: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %a = coopvec.convert %x rounding rn satfinite : vector<2xf32> -> vector<2xf6E2M3FN>
      %b = coopvec.convert %x rounding rn satfinite relu : vector<2xf32> -> vector<2xf4E2M1FN>
      %c = coopvec.convert %x rounding rp : vector<2xf32> -> vector<2xf8E8M0FNU>
      %d = coopvec.convert %c6 rounding rn : vector<2xf6E3M2FN> -> vector<2xf16>
      %e = coopvec.convert %c4 rounding rn : vector<2xf4E2M1FN> -> vector<2xf32>
      %f = coopvec.convert %s rounding rn : vector<2xf8E8M0FNU> -> vector<2xbf16>
      %g = coopvec.convert %x rbits %r rounding rs satfinite : vector<2xf32>, vector<2xi32> -> vector<2xf16>
      %h = coopvec.convert %x rbits %r rounding rs satfinite relu : vector<2xf32>, vector<2xi32> -> vector<2xf8E5M2>
      %x0 = vector.extract %x[0] : f32 from vector<2xf32>
      %x1 = vector.extract %x[1] : f32 from vector<2xf32>
      %p = coopvec.pack %x0, %x1, %x0, %x1 to f4E2M1FN rbits %w rounding rs satfinite : f32, f32, f32, f32 -> i16
      %ai = arith.bitcast %a : vector<2xf6E2M3FN> to vector<2xi6>
      %bi = arith.bitcast %b : vector<2xf4E2M1FN> to vector<2xi4>
      %ci = arith.bitcast %c : vector<2xf8E8M0FNU> to vector<2xi8>
      %di = arith.bitcast %d : vector<2xf16> to vector<2xi16>
      %ei = arith.bitcast %e : vector<2xf32> to vector<2xi32>
      %fi = arith.bitcast %f : vector<2xbf16> to vector<2xi16>
      %gi = arith.bitcast %g : vector<2xf16> to vector<2xi16>
      %hi = arith.bitcast %h : vector<2xf8E5M2> to vector<2xi8>
      %aw = arith.extui %ai : vector<2xi6> to vector<2xi32>
      %bw = arith.extui %bi : vector<2xi4> to vector<2xi32>
      %cw = arith.extui %ci : vector<2xi8> to vector<2xi32>
      %dw = arith.extui %di : vector<2xi16> to vector<2xi32>
      %fw = arith.extui %fi : vector<2xi16> to vector<2xi32>
      %gw = arith.extui %gi : vector<2xi16> to vector<2xi32>
      %hw = arith.extui %hi : vector<2xi8> to vector<2xi32>
      %pw = arith.extui %p : i16 to i32
      %pv = vector.broadcast %pw : i32 to vector<2xi32>
      %s1 = arith.xori %aw, %bw : vector<2xi32>
      %s2 = arith.xori %s1, %cw : vector<2xi32>
      %s3 = arith.xori %s2, %dw : vector<2xi32>
      %s4 = arith.xori %s3, %ei : vector<2xi32>
      %s5 = arith.xori %s4, %fw : vector<2xi32>
      %s6 = arith.xori %s5, %gw : vector<2xi32>
      %s7 = arith.xori %s6, %hw : vector<2xi32>
      %s8 = arith.xori %s7, %pv : vector<2xi32>
      vector.store %s8, %out[%c0] : memref<?xi32>, vector<2xi32>
      gpu.return
    }
  }
}
