// device-only: the GPU pipelines check the device code of a GPU program (the
// ops in gpu.modules and gpu.launch bodies) against the device's profile;
// the host code around it runs on the CPU. vulkan1.3 has no bf16 type, so a
// conversion to bf16 is an error in a kernel and in a launch body, not in
// host code; without device-only all three are errors.
// RUN: coopvec-opt %s -verify-diagnostics \
// RUN:   -coopvec-check-support="profile=vulkan1.3 device-only"
// RUN: not coopvec-opt %s -coopvec-check-support=profile=vulkan1.3 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ALL
// RUN: coopvec-opt --help | FileCheck %s --check-prefix=HELP

// ALL: :[[# @LINE + 12]]:12: error: 'coopvec.convert' is not supported by profile 'vulkan1.3': it does not list the feature 'bf16'
// ALL: :[[# @LINE + 19]]:10: error: 'coopvec.convert' is not supported by profile 'vulkan1.3'
// ALL: :[[# @LINE + 23]]:12: error: 'coopvec.convert' is not supported by profile 'vulkan1.3'
// ALL-NOT: error: 'coopvec.convert'
// HELP: --device-only
// HELP-SAME: Check only the ops in gpu.modules and gpu.launch bodies

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%v: vector<4xf32>, %m: memref<4xbf16>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'coopvec.convert' is not supported by profile 'vulkan1.3': it does not list the feature 'bf16'}}
      %h = coopvec.convert %v rounding rn : vector<4xf32> -> vector<4xbf16>
      vector.store %h, %m[%c0] : memref<4xbf16>, vector<4xbf16>
      gpu.return
    }
  }
  func.func @host(%v: vector<4xf32>, %m: memref<4xbf16>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %h = coopvec.convert %v rounding rn : vector<4xf32> -> vector<4xbf16>
    vector.store %h, %m[%c0] : memref<4xbf16>, vector<4xbf16>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      // expected-error @+1 {{'coopvec.convert' is not supported by profile 'vulkan1.3': it does not list the feature 'bf16'}}
      %d = coopvec.convert %v rounding rn : vector<4xf32> -> vector<4xbf16>
      vector.store %d, %m[%c0] : memref<4xbf16>, vector<4xbf16>
      gpu.terminator
    }
    return
  }
}
