// REQUIRES: riscv64-cross
// RUN: coopvec-opt %s --coopvec-riscv-sifive-pipeline=shape=4x8x4 | mlir-translate --mlir-to-llvmir -o %t.qoq.ll
// RUN: clang-22 --target=riscv64-unknown-linux-gnu -march=rv64gcv_xsfvqmaccqoq -O2 -c %t.qoq.ll -o %t.qoq.o
// RUN: llvm-objdump -d --no-show-raw-insn %t.qoq.o | FileCheck %s --check-prefix=QOQ
// RUN: coopvec-opt %s --coopvec-riscv-sifive-pipeline=shape=2x8x2 | mlir-translate --mlir-to-llvmir -o %t.dod.ll
// RUN: clang-22 --target=riscv64-unknown-linux-gnu -march=rv64gcv_xsfvqmaccdod -O2 -c %t.dod.ll -o %t.dod.o
// RUN: llvm-objdump -d --no-show-raw-insn %t.dod.o | FileCheck %s --check-prefix=DOD

// The object compiled from the LLVM IR of the SiFive path holds SiFive's
// instructions, one form per signedness, each under a vsetvli of SEW 8 at
// vs2's LMUL (dynamic batch: vd at m8, vs2 at m4 for 4x8x4, m8 for 2x8x2).

// QOQ-LABEL: <coopvec_ss>:
// QOQ: vsetvli {{.*}}, e8, m4, ta, ma
// QOQ: sf.vqmacc.4x8x4 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}
// QOQ: vse32.v
// DOD-LABEL: <coopvec_ss>:
// DOD: vsetvli {{.*}}, e8, m8, ta, ma
// DOD: sf.vqmacc.2x8x2 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}
func.func @ss(%x: memref<?x16xi32>, %w: memref<?xi8>, %y: memref<?x8xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<I8, 8x16, RowMajor> stride %s into %y
      : memref<?x16xi32>, memref<?xi8> -> memref<?x8xi32>
  return
}

// QOQ-LABEL: <coopvec_uu>:
// QOQ: sf.vqmaccu.4x8x4 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}
// DOD-LABEL: <coopvec_uu>:
// DOD: sf.vqmaccu.2x8x2 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}
func.func @uu(%x: memref<?x16xi32>, %w: memref<?xi8>, %y: memref<?x8xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x unsigned as U8, %w[%c0] matrix<U8, 8x16, RowMajor> stride %s into %y
      : memref<?x16xi32>, memref<?xi8> -> memref<?x8xi32>
  return
}

// QOQ-LABEL: <coopvec_us>:
// QOQ: sf.vqmaccus.4x8x4 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}
// DOD-LABEL: <coopvec_us>:
// DOD: sf.vqmaccus.2x8x2 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}
func.func @us(%x: memref<?x16xi32>, %w: memref<?xi8>, %y: memref<?x8xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as I8, %w[%c0] matrix<U8, 8x16, RowMajor> stride %s into %y
      : memref<?x16xi32>, memref<?xi8> -> memref<?x8xi32>
  return
}

// QOQ-LABEL: <coopvec_su>:
// QOQ: sf.vqmaccsu.4x8x4 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}
// DOD-LABEL: <coopvec_su>:
// DOD: sf.vqmaccsu.2x8x2 v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}
func.func @su(%x: memref<?x4xi32>, %w: memref<?xi8>, %y: memref<?x8xi32>) {
  %c0 = arith.constant 0 : index
  %s = arith.constant 16 : index
  coopvec.batch_matvec %x as PackedU8x32, %w[%c0] matrix<I8, 8x16, RowMajor> stride %s into %y
      : memref<?x4xi32>, memref<?xi8> -> memref<?x8xi32>
  return
}
