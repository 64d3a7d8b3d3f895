// A conversion the SM has no cvt for is a located error from
// convert-coopvec-to-nvvm, never an llc or ptxas failure; one rule per case.
// RUN: coopvec-opt %s -split-input-file --convert-coopvec-to-nvvm=chip=sm_90 -verify-diagnostics
// fp8 needs sm_89.
// RUN: not coopvec-opt %S/Inputs/convert-fp8.mlir --convert-coopvec-to-nvvm=chip=sm_80 2>&1 | FileCheck %s --check-prefix=FP8
// FP8: convert-fp8.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'coopvec.convert' op is not supported by convert-coopvec-to-nvvm on sm_80: PTX converts e4m3 from sm_89
// ... and is fine there.
// RUN: coopvec-opt %S/Inputs/convert-fp8.mlir --convert-coopvec-to-nvvm=chip=sm_89 | FileCheck %s --check-prefix=FP8OK
// FP8OK: nvvm.convert.f32x2.to.f8x2
// Stochastic rounding is sm_100a only: sm_120a has the fp6/fp4 forms but
// not cvt.rs (ptxas rejects it).
// RUN: not coopvec-opt %S/Inputs/convert-blackwell.mlir --convert-coopvec-to-nvvm=chip=sm_120a 2>&1 | FileCheck %s --check-prefix=RS
// RS: convert-blackwell.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'coopvec.convert' op is not supported by convert-coopvec-to-nvvm on sm_120a: cvt.rs (stochastic rounding) is sm_100a only
// RS: convert-blackwell.mlir:{{[0-9]+}}:{{[0-9]+}}: error: 'coopvec.pack' op is not supported by convert-coopvec-to-nvvm on sm_120a: cvt.rs (stochastic rounding) is sm_100a only

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @fp6(%x: vector<2xf32>) kernel {
      // expected-error@+1 {{'coopvec.convert' op is not supported by convert-coopvec-to-nvvm on sm_90: PTX converts e2m3 on sm_100a and sm_120a only}}
      %a = coopvec.convert %x rounding rn satfinite : vector<2xf32> -> vector<2xf6E2M3FN>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @fp4_source(%x: vector<2xf4E2M1FN>) kernel {
      // expected-error@+1 {{PTX converts e2m1 on sm_100a and sm_120a only}}
      %a = coopvec.convert %x rounding rn : vector<2xf4E2M1FN> -> vector<2xf16>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @ue8m0_pack(%a: f32, %b: f32) kernel {
      // expected-error@+1 {{'coopvec.pack' op is not supported by convert-coopvec-to-nvvm on sm_90: PTX converts ue8m0 on sm_100a and sm_120a only}}
      %p = coopvec.pack %a, %b to f8E8M0FNU rounding rz : f32, f32 -> i16
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @rs(%x: vector<2xf32>, %r: vector<2xi32>) kernel {
      // expected-error@+1 {{cvt.rs (stochastic rounding) is sm_100a only}}
      %a = coopvec.convert %x rbits %r rounding rs : vector<2xf32>, vector<2xi32> -> vector<2xbf16>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tf32(%x: f32) kernel {
      // expected-error@+1 {{'coopvec.convert' op is not supported by convert-coopvec-to-nvvm on sm_90: tf32 results (the builtin tf32 has no LLVM type in GPU code)}}
      %a = coopvec.convert %x rounding rna : f32 -> tf32
      gpu.return
    }
  }
}

// -----

// MX elements need their format's cvt.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @mx_fp4(%x: vector<32xf32>) kernel {
      // expected-error@+1 {{'coopvec.mx_quantize' op is not supported by convert-coopvec-to-nvvm on sm_90: PTX converts e2m1 on sm_100a and sm_120a only}}
      %e, %s = coopvec.mx_quantize %x block 32 : vector<32xf32> -> vector<32xf4E2M1FN>, vector<1xf8E8M0FNU>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @nvfp4_dequantize(%e: vector<16xf4E2M1FN>, %s: vector<1xf8E4M3FN>) kernel {
      // expected-error@+1 {{'coopvec.mx_dequantize' op is not supported by convert-coopvec-to-nvvm on sm_90: PTX converts e2m1 on sm_100a and sm_120a only}}
      %y = coopvec.mx_dequantize %e, %s block 16 : vector<16xf4E2M1FN>, vector<1xf8E4M3FN> -> vector<16xf32>
      gpu.return
    }
  }
}
