//===- CoopVecNumericsOps.td - conversions and MX block scales -*- tablegen -*-===//
//
// Elementwise low-precision conversions (PTX 8.7 cvt), packed forms and OCP
// MX / NVFP4 block quantization. Every op folds through the runtime's
// numerics library, the project's one definition of these conversions.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECNUMERICSOPS_TD
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECNUMERICSOPS_TD

def CoopVec_ConvertOp : CoopVec_Op<"convert", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>, Pure]> {
  let summary = "convert floats to or from a low-precision format";
  let description = [{
    Converts a float scalar or 1-D vector elementwise to another float type
    with an explicit rounding mode, as PTX `cvt` does. Narrowing conversions
    take `f32`, `f16` or `bf16` values; widening ones take a small format
    (`f8E4M3FN`, `f8E5M2`, `f6E2M3FN`, `f6E3M2FN`, `f4E2M1FN`, `f8E8M0FNU`)
    to `f16`, `bf16` or `f32`. `satfinite` clamps overflow and infinities to
    the largest finite value (NaN stays NaN where the format has one),
    `relu` turns negative results into +0, and stochastic rounding (`rs`)
    takes caller-supplied random bits, one `i32` per element (the low bits
    the format needs; see include/LinAlgCoop/Runtime/Numerics.h).

    ```mlir
    %a = coopvec.convert %x rounding rn satfinite : vector<8xf32> -> vector<8xf8E4M3FN>
    %b = coopvec.convert %x rbits %r rounding rs satfinite relu
           : vector<8xf32>, vector<8xi32> -> vector<8xf4E2M1FN>
    %c = coopvec.convert %s rounding rp : f32 -> f8E8M0FNU
    ```

    Combinations PTX 8.7 does not define are rejected:
    * `f16`/`bf16` destinations: `rn`, `rz`, `rm`, `rp` or `rs`; `relu` only
      with `rn`, `rz` or `rs`;
    * `tf32`: `rna`, `rn` or `rz` from `f32`; `relu` only with `rn`/`rz`;
    * FP8 (`f8E4M3FN`, `f8E5M2`): from `f32`, `f16` or `bf16` with `rn` or
      `rs`, `satfinite` required;
    * FP6/FP4 (`f6E2M3FN`, `f6E3M2FN`, `f4E2M1FN`): from `f32` with `rn` or
      `rs`, `satfinite` required;
    * `f8E8M0FNU` (UE8M0 scales): from `f32` or `bf16` with `rz` or `rp`, no
      `relu`;
    * widening: `rn` only;
    * `rs` needs `rbits` (and `rbits` needs `rs`), `rs` is not defined for
      `tf32`, and never from `f16`/`bf16` sources.
  }];
  let arguments = (ins
    AnyType:$input,
    Optional<AnyType>:$rbits,
    CoopVec_RoundingMode:$rounding,
    UnitAttr:$satfinite,
    UnitAttr:$relu
  );
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $input (`rbits` $rbits^)? `rounding` $rounding (`satfinite` $satfinite^)?
    (`relu` $relu^)? attr-dict `:` type($input) (`,` type($rbits)^)?
    `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CoopVec_PackOp : CoopVec_Op<"pack", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>, Pure, AttrSizedOperandSegments]> {
  let summary = "convert two or four f32 values into one packed word";
  let description = [{
    Converts two (`x2`) or four (`x4`) `f32` values to `format` and packs them
    exactly as PTX `cvt.<rnd>.satfinite{.relu}.<format>x2/x4.f32` does: the
    first operand lands in the most significant position; FP6 elements are
    padded to a byte. The result width follows the packed form: `f4E2M1FN`
    x2 -> `i8`, x4 -> `i16`; FP6 and FP8 x2 -> `i16`, x4 -> `i32`;
    `f8E8M0FNU` x2 -> `i16`; `f16`/`bf16` x2 -> `i32`.

    ```mlir
    %p = coopvec.pack %a, %b to f4E2M1FN rounding rn satfinite : f32 -> i8
    %q = coopvec.pack %a, %b, %c, %d to f8E4M3FN rbits %r rounding rs satfinite : f32 -> i32
    ```

    Rules: the conversion rules of `coopvec.convert` for an `f32` source;
    PTX defines the x4 forms only with `rs` and the FP8/FP6/FP4 x2 forms only
    without it; `f8E8M0FNU` and `f16`/`bf16` have no x4 form.
  }];
  let arguments = (ins
    Variadic<F32>:$inputs,
    TypeAttr:$format,
    Optional<I32>:$rbits,
    CoopVec_RoundingMode:$rounding,
    UnitAttr:$satfinite,
    UnitAttr:$relu
  );
  let results = (outs AnySignlessInteger:$result);
  let assemblyFormat = [{
    $inputs `to` $format (`rbits` $rbits^)? `rounding` $rounding
    (`satfinite` $satfinite^)? (`relu` $relu^)? attr-dict `:` type($inputs)
    `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CoopVec_MXQuantizeOp : CoopVec_Op<"mx_quantize", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>, Pure]> {
  let summary = "quantize f32 values into block-scaled elements and scales";
  let description = [{
    Splits a vector of `f32` values into blocks of `block_size`, computes
    each block's shared scale and the scaled, rounded elements:

    * OCP MX: `f8E8M0FNU` (UE8M0) scales, blocks of 32, elements `f8E4M3FN`,
      `f8E5M2`, `f6E2M3FN`, `f6E3M2FN` or `f4E2M1FN`; the scale is
      2^(floor(log2(amax)) - emax(element)), elements round to nearest even
      and saturate;
    * NVFP4 (`mxf4nvf4`): `f8E4M3FN` scales holding UE4M3 values (sign 0),
      blocks of 16 `f4E2M1FN` elements, scale = amax / 6 rounded to UE4M3.

    All-zero, NaN and infinite blocks and a final partial block are defined
    in include/LinAlgCoop/Runtime/Numerics.h.

    ```mlir
    %e, %s = coopvec.mx_quantize %x block 32
               : vector<64xf32> -> vector<64xf8E4M3FN>, vector<2xf8E8M0FNU>
    ```

    Rules: the input is a 1-D vector of `f32`; the elements vector has its
    length; the scales vector has ceil(length / block) elements; the scale
    type, element type and block size form one of the two schemes above.
  }];
  let arguments = (ins FixedVectorOfRankAndType<[1], [F32]>:$input,
                       ConfinedAttr<I64Attr, [IntPositive]>:$block_size);
  let results = (outs FixedVectorOfNonZeroRankOf<[AnyType]>:$elements,
                      FixedVectorOfNonZeroRankOf<[AnyType]>:$scales);
  let assemblyFormat = [{
    $input `block` $block_size attr-dict `:` type($input) `->` type($elements)
    `,` type($scales)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CoopVec_MXDequantizeOp : CoopVec_Op<"mx_dequantize", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>, Pure]> {
  let summary = "expand block-scaled elements back to f32";
  let description = [{
    The inverse of `coopvec.mx_quantize`: each element times its block's
    scale, as `f32`; a NaN scale makes its whole block NaN.

    ```mlir
    %y = coopvec.mx_dequantize %e, %s block 32
           : vector<64xf8E4M3FN>, vector<2xf8E8M0FNU> -> vector<64xf32>
    ```

    Rules: those of `coopvec.mx_quantize`, with the result in the input's
    place.
  }];
  let arguments = (ins FixedVectorOfNonZeroRankOf<[AnyType]>:$elements,
                       FixedVectorOfNonZeroRankOf<[AnyType]>:$scales,
                       ConfinedAttr<I64Attr, [IntPositive]>:$block_size);
  let results = (outs FixedVectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $elements `,` $scales `block` $block_size attr-dict `:` type($elements)
    `,` type($scales) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def CoopVec_EltwiseMulOp : CoopVec_Op<"eltwise_mul", [DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>, Pure,
    AllTypesMatch<["lhs", "rhs"]>,
    OptionalTypesMatchWith<"acc has the result's type", "result", "acc",
                           "$_self">]> {
  let summary = "Wormhole element-wise multiply (ELWMUL) at a math fidelity";
  let description = [{
    Multiplies two vectors element by element as the Wormhole B0 FPU's
    ELWMUL does, then packs the products as the packer does (the runtime
    model of `docs/WormholeFidelity.md`, `coopvecWormholeEltwiseMul`):

    ```
    result[i] = pack(phases(SrcA = lhs[i], SrcB = rhs[i]))        (no l1_acc)
    result[i] = L1(acc[i] + pack(phases(lhs[i], rhs[i])))         (l1_acc)
    ```

    * Operand roles follow the hardware, and differ from a matrix product:
      an element-wise multiply unpacks in0 (`%lhs`) to SrcA and in1
      (`%rhs`) to SrcB, so the phases slice `%lhs` 5 bits at a time and
      `%rhs` 7 bits at a time (a matmul unpacks in0 to SrcB). Below HiFi4
      the product is therefore not symmetric.
    * Dst is zeroed, each phase's partial product is added and Dst rounded
      to the `dst` format (ties away from zero, +0 below 2^-126); the packer
      converts to `pack` (RNA from an `f32` Dst to `bf16`) and, with
      `l1_acc`, adds the datum to `%acc` (the L1 values, of the `pack`
      format) rounded to that format.
    * `bf16` operands unpack as BF16, `f32` operands are truncated to TF32.
      The result holds values of the `pack` format as `f32`.

    ```mlir
    %p = coopvec.eltwise_mul %a, %b fidelity<hifi2, dst = f32>
           : vector<64xbf16> -> vector<64xf32>
    %q = coopvec.eltwise_mul %a, %b acc %l1 fidelity<lofi, dst = bf16, l1_acc>
           : vector<64xbf16> -> vector<64xf32>
    ```

    Rules (verifier): `%lhs` and `%rhs` have the same type, `bf16` or
    `f32` elements; the result is `f32` with their shape; `%acc` is given
    exactly when the fidelity has `l1_acc` (and has the result's type); no
    `k_block` (there is no K).
  }];
  let arguments = (ins FixedVectorOfRankAndType<[1], [BF16, F32]>:$lhs,
                       FixedVectorOfRankAndType<[1], [BF16, F32]>:$rhs,
                       Optional<FixedVectorOfRankAndType<[1], [F32]>>:$acc,
                       CoopVec_MathFidelityAttr:$fidelity);
  let results = (outs FixedVectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`acc` $acc^)? `fidelity` `` $fidelity attr-dict `:`
    type($lhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECNUMERICSOPS_TD
