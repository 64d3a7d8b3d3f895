// Outer-product accumulation into a BF16 matrix (an accumulator DXIL lacks):
// it runs through the reference semantics, f32 products rounded to BF16 per
// update. Twice a (1, 2) x (3, 4, 5) into zeros gives 6 8 10 / 12 16 20,
// whose BF16 bit patterns are 0x40C0 0x4100 0x4120 / 0x4140 0x4180 0x41A0.
// RUN: coopvec-run %s -e main | FileCheck %s
// CHECK: [16576, 16640, 16672]
// CHECK-NEXT: [16704, 16768, 16800]
func.func @main() -> (vector<3xi16>, vector<3xi16>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %z = arith.constant dense<0> : vector<32xi8>
  %a = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %b = arith.constant dense<[3.0, 4.0, 5.0]> : vector<3xf32>
  %buf = memref.alloc() : memref<32xi8>
  vector.store %z, %buf[%c0] : memref<32xi8>, vector<32xi8>
  %m = memref.cast %buf : memref<32xi8> to memref<?xi8>
  coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<BF16, 2x3, RowMajor> stride %c16
      : vector<2xf32>, vector<3xf32>, memref<?xi8>
  coopvec.outer_product_accumulate %a, %b, %m[%c0] matrix<BF16, 2x3, RowMajor> stride %c16
      : vector<2xf32>, vector<3xf32>, memref<?xi8>
  %bits = memref.view %buf[%c0][] : memref<32xi8> to memref<16xi16>
  %c8 = arith.constant 8 : index
  %r0 = vector.load %bits[%c0] : memref<16xi16>, vector<3xi16>
  %r1 = vector.load %bits[%c8] : memref<16xi16>, vector<3xi16>
  memref.dealloc %buf : memref<32xi8>
  return %r0, %r1 : vector<3xi16>, vector<3xi16>
}
