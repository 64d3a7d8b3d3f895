//===- CoopVecTileOps.td - the target-independent tile level ---*- tablegen -*-===//
//
// Between coopvec.batch_matvec and the targets: a matrix packed into tiles of
// a fixed shape and one tile multiply-accumulate that each target maps to
// its instruction (a tensor-core mma, AMX tdp*, vpdpbusd panels, vqmacc).
// `--coopvec-tile` produces them.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECTILEOPS_TD
#define LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECTILEOPS_TD

// A tile-major buffer: (row tiles) x (column tiles) x (tile rows) x (tile
// columns), static shape.
def CoopVec_TileBuffer : StaticShapeMemRefOf<[AnyType]>;

// A 2-D fixed-length vector: one tile in registers.
def CoopVec_Tile : Type<IsFixedVectorOfRankPred<[2]>, "2-D fixed-length vector",
                        "::mlir::VectorType">;

def CoopVec_TilePackOp : CoopVec_Op<"tile_pack", [
    DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>]> {
  let summary = "decode a described matrix into a tile-major buffer";
  let description = [{
    Reads the `M`x`K` matrix described by `matrix_desc` (stored in `%matrix`
    at byte offset `%offset`, with the stride of a strided layout) and writes
    it to `%packed`, a `TR`x`TC`x`tm`x`tk` memref of tiles:

    ```
    packed[i][j][a][b] = W[i*tm + a][j*tk + b]   (0 where the row is >= M or
                                                  the column is >= K)
    ```

    where `W` is the matrix as the multiply reads it (after `transpose`).
    Each element is decoded to the buffer's element type, a value-preserving
    change of representation: `I8`, `U8`, `I4`, `U4` become `i8` (the 4-bit
    values sign- or zero-extended, so the signedness stays with the
    interpretation), `I16`/`U16` `i16`, `I32`/`U32` `i32`, and a float
    interpretation its own element type (`F16` -> `f16`, `BF16` -> `bf16`,
    `F32` -> `f32`, ...).

    ```mlir
    coopvec.tile_pack %w[%off] matrix<I8, 64x32, InferencingOptimal>
        into %tiles : memref<?xi8>, memref<4x2x16x16xi8>
    ```

    Rules checked by the verifier:
    * `%packed` has rank 4, `TR = ceil(M / tm)` and `TC = ceil(K / tk)`;
    * its element type is the decoded type of the interpretation (above);
    * a stride is given exactly when the layout is RowMajor or ColumnMajor.
  }];
  let arguments = (ins
    Arg<CoopVec_ByteBuffer, "the described matrix", [MemRead]>:$matrix,
    Index:$matrix_offset,
    Optional<Index>:$matrix_stride,
    CoopVec_MatrixDescAttr:$matrix_desc,
    Arg<CoopVec_TileBuffer, "the tile-major buffer", [MemWrite]>:$packed
  );
  let assemblyFormat = [{
    $matrix `[` $matrix_offset `]` `matrix` `` $matrix_desc
    (`stride` $matrix_stride^)? `into` $packed
    attr-dict `:` type($matrix) `,` type($packed)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The element type `desc`'s interpretation decodes to in a tile, or
    /// null if there is none (packed interpretations).
    static ::mlir::Type getDecodedType(MatrixDescAttr desc);
  }];
}

def CoopVec_TileMmaOp : CoopVec_Op<"tile_mma", [Pure,
    AllTypesMatch<["acc", "result"]>,
    DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>]> {
  let summary = "one tile multiply-accumulate: acc + lhs * rhs";
  let description = [{
    Multiplies the `M`x`K` tile `%lhs` by the `K`x`N` tile `%rhs` and adds
    the product to the `M`x`N` accumulator:

    ```
    result[i][j] = acc[i][j] + sum_k ext(lhs[i][k]) * ext(rhs[k][j])
    ```

    * Integer tiles are extended to `i32` (zero-extended where `unsigned`
      marks the operand, else sign-extended); products and sums wrap in
      `i32`, so any summation order gives the same bits.
    * Float tiles are extended to `f32` (exact); each `k` is one fused
      multiply-add into the `f32` accumulator, in increasing `k`. A chain of
      `tile_mma` over the `K` tiles that carries the accumulator therefore
      sums every result element in increasing `k`, as the CPU runtime's
      untiled kernels do. A target whose instruction sums a tile in another
      order (a tree, wider partial sums) stays within the float bound of
      `coopvec.matvec`: `|y - ref| <= (K + 2) * 2^-24 * sum |w x|` before
      the rounding to the output type.

    This is the one op each target maps to its tile instruction; the CPU
    lowers it to `vector.outerproduct` (one FMA row per `k`).

    ```mlir
    %r = coopvec.tile_mma %a, %b unsigned, %acc
        : vector<16x32xi8>, vector<32x8xi8> -> vector<16x8xi32>
    ```

    Rules checked by the verifier:
    * `lhs` is `M`x`K`, `rhs` `K`x`N`, the accumulator and result `M`x`N`;
    * both operands are integers of at most 16 bits with an `i32`
      accumulator, or both floats of at most 32 bits with an `f32`
      accumulator;
    * `unsigned` marks integer operands only.

    **Math fidelity.** With a `fidelity` clause the tile is one Wormhole
    matrix-unit step: `%rhs` (`K`x`N`, the activations) is in0 in SrcB,
    `%lhs` the weights in SrcA, and `%acc` (`f32`) is the Dst register:
    each value enters Dst as the FPU writes it (rounded to the Dst format,
    ties away from zero; +0 below 2^-126 and for -0), then for each 32-wide
    K tile and each phase the 16-wide chunks are added to Dst and rounded to
    its format; the result is Dst. `f32` operands pass the unpacker as TF32.
    Rules: both operands are `bf16` or both `f32`; `K` is a multiple of 32
    (the hardware's tile); no packer settings (`pack`, `l1_acc`,
    `k_block`): the tile ends in Dst, and `coopvec.tile_pack_dst` is the
    packer. The CPU
    target runs the Wormhole model on the tile (`coopvecCpuTileMmaFidelity`,
    bit-exact to the model of `coopvec.matvec` with fidelity); no other
    target lowers `coopvec.tile_mma`.

    ```mlir
    %r = coopvec.tile_mma %a, %b, %acc fidelity<hifi4, dst = f32>
        : vector<32x32xbf16>, vector<32x8xbf16> -> vector<32x8xf32>
    ```
  }];
  let arguments = (ins
    CoopVec_Tile:$lhs,
    UnitAttr:$lhs_unsigned,
    CoopVec_Tile:$rhs,
    UnitAttr:$rhs_unsigned,
    CoopVec_Tile:$acc,
    OptionalAttr<CoopVec_MathFidelityAttr>:$fidelity
  );
  let results = (outs CoopVec_Tile:$result);
  let assemblyFormat = [{
    $lhs (`unsigned` $lhs_unsigned^)? `,` $rhs (`unsigned` $rhs_unsigned^)?
    `,` $acc (`fidelity` `` $fidelity^)? attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The rules of the math-fidelity form.
    ::mlir::LogicalResult verifyFidelity();
  }];
}

def CoopVec_TilePackDstOp : CoopVec_Op<"tile_pack_dst", [Pure,
    AllTypesMatch<["dst", "result"]>,
    OptionalTypesMatchWith<"acc has the result's type", "result", "acc",
                           "$_self">,
    DeclareOpInterfaceMethods<CoopVec_SupportRequirementsOpInterface>]> {
  let summary = "the Wormhole packer on a Dst tile: convert, L1-accumulate";
  let description = [{
    Writes a Dst tile to L1 as the Wormhole B0 packer does (the runtime
    model of `docs/WormholeFidelity.md`, `coopvecWormholePack`): the step
    that ends a chain of `coopvec.tile_mma` with fidelity, which end in Dst.

    ```
    result[i][j] = conv(dst[i][j])                        (no l1_acc)
    result[i][j] = L1(acc[i][j] + conv(dst[i][j]))        (l1_acc)
    ```

    * Each `%dst` value is first taken as Dst holds it (rounded to the `dst`
      format as the FPU writes it, ties away from zero, +0 below 2^-126 and
      for -0): the values a `tile_mma` with the same `dst` format produced
      pass unchanged.
    * `conv` is the packer's conversion to the `pack` format: from an `f32`
      Dst to `bf16` it rounds to nearest, ties away from zero (early
      conversion); every other pair is exact. Left out, `pack` is the Dst
      format.
    * With `l1_acc` (`packer_l1_acc`), the datum is added to `%acc`, the L1
      values (of the `pack` format, as `f32`), and the sum rounded to the
      `pack` format as the packer writes L1.
    * The fidelity itself (`lofi`..`hifi4`) is not used: it is the clause of
      the products the tile came from.

    `--coopvec-tile` emits one per K block (`k_block`, or all of `K`) of a
    math-fidelity `batch_matvec` whose packer converts or accumulates: the
    block's `tile_mma` chain starts from a zero Dst and the pack carries
    the L1 values, from the bias, across the blocks.

    ```mlir
    %l1 = coopvec.tile_pack_dst %d acc %l0 fidelity<hifi2, dst = f32, pack = bf16, l1_acc>
        : vector<16x8xf32>
    ```

    Rules (verifier): `%dst`, `%acc` and the result are the same `f32`
    tile; `%acc` is given exactly when the clause has `l1_acc`; no
    `k_block` (a tile's K blocks are the ops around it).
  }];
  let arguments = (ins
    FixedVectorOfRankAndType<[2], [F32]>:$dst,
    Optional<FixedVectorOfRankAndType<[2], [F32]>>:$acc,
    CoopVec_MathFidelityAttr:$fidelity
  );
  let results = (outs FixedVectorOfRankAndType<[2], [F32]>:$result);
  let assemblyFormat = [{
    $dst (`acc` $acc^)? `fidelity` `` $fidelity attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

#endif // LINALGCOOP_DIALECT_COOPVEC_IR_COOPVECTILEOPS_TD
