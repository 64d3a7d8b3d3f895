/* Runs @check of test/Integration/GPU/Inputs/matvec-check.mlir,
 * batch-check.mlir, mlp-check.mlir or mlp-bf16-check.mlir compiled ahead
 * of time (bench/nvidia/matvec_gpu.py prepare), on a machine with a GPU but
 * no LLVM: prints the two mismatch counts (one with COOPVEC_ONE_COUNT)
 * between the GPU kernels and the CPU runtime, named by argv[1] and argv[2]
 * (F16 and I8 by default), exit status 1 if any. */
#include <stdint.h>
#include <stdio.h>

#ifdef COOPVEC_ONE_COUNT
/* A @check that returns one index (mlp-bf16-check.mlir), named by
 * argv[1]. */
int64_t check(void);

int main(int argc, char **argv) {
  const char *name = argc > 1 ? argv[1] : "results";
  int64_t bad = check();
  printf("%s mismatches %lld\n", name, (long long)bad);
  return bad != 0;
}
#else
/* @check returns (index, index): an {i64, i64} struct, returned in
 * registers by the SysV ABI as this struct is. */
typedef struct {
  int64_t first, second;
} Mismatches;
Mismatches check(void);

int main(int argc, char **argv) {
  const char *first = argc > 2 ? argv[1] : "f16";
  const char *second = argc > 2 ? argv[2] : "int8";
  Mismatches bad = check();
  printf("%s mismatches %lld, %s mismatches %lld\n", first,
         (long long)bad.first, second, (long long)bad.second);
  return bad.first != 0 || bad.second != 0;
}
#endif
