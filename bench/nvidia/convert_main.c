/* Runs @check of the program test/Integration/GPU/Inputs/make-convert-check.py
 * writes, compiled ahead of time (bench/nvidia/convert_gpu.py prepare), on a
 * machine with a GPU but no LLVM: @check prints one line per case (case,
 * mismatches, first bad element or -1, its GPU word, its CPU word, non-zero
 * GPU words) through
 * the vector.print entry points below (those of MLIR's c_runner_utils) and
 * returns the total number of mismatches; the exit status is 1 if any. */
#include <stdint.h>
#include <stdio.h>

void printI64(int64_t v) { printf("%lld", (long long)v); }
void printU64(uint64_t v) { printf("%llu", (unsigned long long)v); }
void printOpen(void) { fputs("( ", stdout); }
void printClose(void) { fputs(" )", stdout); }
void printComma(void) { fputs(", ", stdout); }
void printNewline(void) { fputc('\n', stdout); }

int64_t check(void);

int main(void) {
  int64_t bad = check();
  printf("total mismatches %lld\n", (long long)bad);
  return bad != 0;
}
