// RUN: coopvec-opt %s -canonicalize -split-input-file | FileCheck %s

// Size queries fold through the runtime's layout math (include/LinAlgCoop/
// Runtime/Layout.h documents the optimal layouts). An optimal layout's size
// is the target's: it folds only in a module that names its target.

// CHECK-LABEL: func @sizes
// Row-major: 64 rows of a 128-byte stride.
// CHECK-DAG: %[[RM:.*]] = arith.constant 8192 : index
// Column-major: 31 strides of 256 bytes, then one 128-byte column.
// CHECK-DAG: %[[CM:.*]] = arith.constant 8064 : index
// InferencingOptimal, 1-byte elements: 8 panels of 8 rows x 32 columns.
// CHECK-DAG: %[[IO:.*]] = arith.constant 2048 : index
// InferencingOptimal, 2-byte elements, 10x3: 2 panels of 8 rows x 3 columns x 2 bytes.
// CHECK-DAG: %[[IO2:.*]] = arith.constant 96 : index
// TrainingOptimal, 4-byte elements, 9x9: 2x2 tiles of 64 elements.
// CHECK-DAG: %[[TO:.*]] = arith.constant 1024 : index
// CHECK: return %[[RM]], %[[CM]], %[[IO]], %[[IO2]], %[[TO]]
module attributes {coopvec.profile = "cpu-host"} {
  func.func @sizes() -> (index, index, index, index, index) {
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %0 = coopvec.matrix_size matrix<F32, 64x32, RowMajor> stride %c128 : index
    %1 = coopvec.matrix_size matrix<F16, 64x32, ColumnMajor> stride %c256 : index
    %2 = coopvec.matrix_size matrix<F8_E4M3, 64x32, InferencingOptimal> : index
    %3 = coopvec.matrix_size matrix<F16, 10x3, InferencingOptimal> : index
    %4 = coopvec.matrix_size matrix<F32, 9x9, TrainingOptimal> : index
    return %0, %1, %2, %3, %4 : index, index, index, index, index
  }
}

// -----

// A dynamic stride does not fold.
// CHECK-LABEL: func @dynamic
// CHECK: coopvec.matrix_size matrix<F32, 64x32, RowMajor> stride %{{.*}} : index
func.func @dynamic(%s: index) -> index {
  %0 = coopvec.matrix_size matrix<F32, 64x32, RowMajor> stride %s : index
  return %0 : index
}

// -----

// Without a target only the strided layouts fold.
// CHECK-LABEL: func @no_target
// CHECK-DAG: %[[RM:.*]] = arith.constant 8192 : index
// CHECK-DAG: %[[IO:.*]] = coopvec.matrix_size matrix<F8_E4M3, 64x32, InferencingOptimal> : index
// CHECK-DAG: %[[TO:.*]] = coopvec.matrix_size matrix<F32, 9x9, TrainingOptimal> : index
// CHECK: return %[[RM]], %[[IO]], %[[TO]]
func.func @no_target() -> (index, index, index) {
  %c128 = arith.constant 128 : index
  %0 = coopvec.matrix_size matrix<F32, 64x32, RowMajor> stride %c128 : index
  %1 = coopvec.matrix_size matrix<F8_E4M3, 64x32, InferencingOptimal> : index
  %2 = coopvec.matrix_size matrix<F32, 9x9, TrainingOptimal> : index
  return %0, %1, %2 : index, index, index
}

// -----

// A profile written out names the target as well as a builtin's name.
// CHECK-LABEL: func @own_profile
// CHECK: %[[IO:.*]] = arith.constant 2048 : index
// CHECK: return %[[IO]]
module attributes {coopvec.profile = #coopvec.profile<name = "gpu", matvec = [], outer_product = [], vector_accumulate = []>} {
  func.func @own_profile() -> index {
    %0 = coopvec.matrix_size matrix<I8, 64x32, InferencingOptimal> : index
    return %0 : index
  }
}
