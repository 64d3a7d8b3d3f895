/*===- coopvec_riscv.h - what C from --convert-coopvec-to-riscv includes --===*
 *
 * RVV intrinsics, Nuclei's vqmacc intrinsics (built in with Nuclei's GCC,
 * else xl_vqmacc.h) and the error hook of the generated code, which the
 * program linking it defines (coopvec-rv-run's harness prints
 * "coopvec runtime error: <site>: <what>" and exits with status 1). It
 * must not return.
 *===----------------------------------------------------------------------===*/
#ifndef COOPVEC_RISCV_H
#define COOPVEC_RISCV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "xl_vqmacc.h"

#ifdef __cplusplus
extern "C"
#endif
    void
    coopvec_rv_error(const char *site, const char *what);

#endif /* COOPVEC_RISCV_H */
