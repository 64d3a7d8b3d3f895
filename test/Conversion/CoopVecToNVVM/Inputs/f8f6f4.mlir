// fp6/fp4 matrices (kind::f8f6f4) and block-scaled ones (MX: kind::mxf8f6f4,
// UE8M0 scales per 32 elements along K; NVFP4 and UE8M0 x 16 per lane) read
// by 8-, 6- and 4-bit float inputs.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @fp4(%x: vector<48xf32>, %w: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F4_E2M1, 16x48, RowMajor> stride %s
             : vector<48xf32>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
    gpu.func @fp6_column_major(%x: vector<40xf16>, %w: memref<?xi8>, %b: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      %r = coopvec.matvec %x as F8_E5M2, %w[%c0] matrix<F6_E3M2, 24x40, ColumnMajor> stride %s
             bias %b[%c0] as F32
             : vector<40xf16>, memref<?xi8>, memref<?xi8> -> vector<24xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<24xf32>
      gpu.return
    }
    gpu.func @mxfp6(%x: vector<64xf32>, %w: memref<?xi8>, %sc: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 64 : index
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F6_E2M3, 16x64, RowMajor, scale f8E8M0FNU block 32>
             stride %s scales %sc[%c0] : memref<?xi8>
             : vector<64xf32>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
    gpu.func @mxfp4(%x: vector<40xf32>, %w: memref<?xi8>, %sc: memref<?xi8>, %b: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %s = arith.constant 32 : index
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F4_E2M1, 24x40, ColumnMajor, scale f8E8M0FNU block 32>
             stride %s scales %sc[%c4] : memref<?xi8>
             bias %b[%c0] as F32
             : vector<40xf32>, memref<?xi8>, memref<?xi8> -> vector<24xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<24xf32>
      gpu.return
    }
    gpu.func @mxfp8(%x: vector<32xf16>, %w: memref<?xi8>, %sc: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F8_E5M2, 16x32, RowMajor, scale f8E8M0FNU block 32>
             stride %s scales %sc[%c0] : memref<?xi8>
             : vector<32xf16>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
    gpu.func @nvfp4(%x: vector<32xf32>, %w: memref<?xi8>, %sc: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      %r = coopvec.matvec %x as F8_E4M3, %w[%c0] matrix<F4_E2M1, 16x32, RowMajor, scale f8E4M3FN block 16>
             stride %s scales %sc[%c0] : memref<?xi8>
             : vector<32xf32>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
    gpu.func @mxfp4_16(%x: vector<32xf32>, %w: memref<?xi8>, %sc: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      %r = coopvec.matvec %x as F8_E5M2, %w[%c0] matrix<F4_E2M1, 16x32, RowMajor, scale f8E8M0FNU block 16>
             stride %s scales %sc[%c0] : memref<?xi8>
             : vector<32xf32>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
    gpu.func @fp6_inputs(%x: vector<32xf32>, %w: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      %r = coopvec.matvec %x as F6_E2M3, %w[%c0] matrix<F8_E4M3, 16x32, RowMajor> stride %s
             : vector<32xf32>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
    gpu.func @fp4_inputs_mxfp6(%x: vector<32xf32>, %w: memref<?xi8>, %sc: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 32 : index
      %r = coopvec.matvec %x as F4_E2M1, %w[%c0] matrix<F6_E3M2, 16x32, RowMajor, scale f8E8M0FNU block 32>
             stride %s scales %sc[%c0] : memref<?xi8>
             : vector<32xf32>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
    // fp4 x fp4 (m16n8k64 on sm_120a): MXFP4 with K = 80, one and a half
    // k-tiles (the second tile's upper block is past the row), and NVFP4
    // column-major (A element by element) with K = 39 (the last input
    // byte's high nibble is zero).
    gpu.func @mxfp4_fp4(%x: vector<80xf32>, %w: memref<?xi8>, %sc: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 48 : index
      %r = coopvec.matvec %x as F4_E2M1, %w[%c0] matrix<F4_E2M1, 16x80, RowMajor, scale f8E8M0FNU block 32>
             stride %s scales %sc[%c0] : memref<?xi8>
             : vector<80xf32>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
    gpu.func @nvfp4_fp4(%x: vector<39xf32>, %w: memref<?xi8>, %sc: memref<?xi8>, %y: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %s = arith.constant 16 : index
      %r = coopvec.matvec %x as F4_E2M1, %w[%c0] matrix<F4_E2M1, 16x39, ColumnMajor, scale f8E4M3FN block 16>
             stride %s scales %sc[%c0] : memref<?xi8>
             : vector<39xf32>, memref<?xi8> -> vector<16xf32>
      vector.store %r, %y[%c0] : memref<?xf32>, vector<16xf32>
      gpu.return
    }
  }
}
