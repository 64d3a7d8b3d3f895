//===- KernelsPortable.cpp - The kernels compiled for baseline x86-64 -----===//

#include "Plan.h"
#include "SimdPortable.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace coopvec {
namespace kernels {
namespace portable {
#include "KernelBody.inc"
} // namespace portable
} // namespace kernels
} // namespace coopvec
