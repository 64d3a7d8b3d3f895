//===- IsaGeneric.cpp - Kernel levels of an architecture without a folder -===//

#include "Isa.h"

namespace coopvec {
namespace kernels {

uint64_t cpuFeatures() { return 0; }

const char *detectedCpuKind() { return "generic"; }

const IsaEntry kIsaTable[] = {
    {IsaLevel::Portable, "portable", 0, portable::matVecTask,
     portable::mlpTask},
};
const unsigned kIsaTableSize = sizeof(kIsaTable) / sizeof(kIsaTable[0]);

} // namespace kernels
} // namespace coopvec
