// Entry points exercising argument kinds and results for the runner tests.
func.func @scalars(%a: i32, %b: f32, %c: index, %d: i1, %e: f16, %g: i64) -> (i32, f32, index, i1, f16, i64) {
  return %a, %b, %c, %d, %e, %g : i32, f32, index, i1, f16, i64
}

func.func @vector_sum(%v: vector<4xf32>, %w: vector<4xf32>) -> vector<4xf32> {
  %r = arith.addf %v, %w : vector<4xf32>
  return %r : vector<4xf32>
}

func.func @scale(%m: memref<2x3xf32>, %s: f32) -> memref<2x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %x = memref.load %m[%i, %j] : memref<2x3xf32>
      %y = arith.mulf %x, %s : f32
      memref.store %y, %m[%i, %j] : memref<2x3xf32>
    }
  }
  return %m : memref<2x3xf32>
}

// 0-D and n-D vector results (LLVM: a 1-element vector, an array of 1-D
// vectors) between scalars, so every result's offset is checked.
func.func @vector_shapes() -> (i8, vector<f32>, vector<i8>, vector<2x3xf16>, vector<f64>) {
  %a = arith.constant 5 : i8
  %b = arith.constant dense<1.5> : vector<f32>
  %c = arith.constant dense<-7> : vector<i8>
  %d = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf16>
  %e = arith.constant dense<2.25> : vector<f64>
  return %a, %b, %c, %d, %e : i8, vector<f32>, vector<i8>, vector<2x3xf16>, vector<f64>
}

func.func @huge(%m: memref<4611686018427387904x4xf32>) {
  return
}

func.func @first_byte(%b: memref<?xi8>) -> (i8, index) {
  %c0 = arith.constant 0 : index
  %x = memref.load %b[%c0] : memref<?xi8>
  %n = memref.dim %b, %c0 : memref<?xi8>
  return %x, %n : i8, index
}

func.func @answer() -> i32 {
  %c = arith.constant 42 : i32
  return %c : i32
}

func.func @nothing() {
  return
}

func.func private @external(i32) -> i32
