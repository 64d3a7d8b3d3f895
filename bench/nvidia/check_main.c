/* Runs @check of test/Integration/GPU/Inputs/matvec-check.mlir or
 * batch-check.mlir compiled ahead of time (bench/nvidia/matvec_gpu.py
 * prepare), on a machine with a GPU but no LLVM: prints the F16 and I8
 * mismatch counts between the GPU kernels and the CPU runtime, exit status
 * 1 if any. */
#include <stdint.h>
#include <stdio.h>

/* @check returns (index, index): an {i64, i64} struct, returned in
 * registers by the SysV ABI as this struct is. */
typedef struct {
  int64_t f16, int8;
} Mismatches;
Mismatches check(void);

int main(void) {
  Mismatches bad = check();
  printf("f16 mismatches %lld, int8 mismatches %lld\n", (long long)bad.f16,
         (long long)bad.int8);
  return bad.f16 != 0 || bad.int8 != 0;
}
