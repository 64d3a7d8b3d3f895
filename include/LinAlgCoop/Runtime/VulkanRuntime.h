//===- VulkanRuntime.h - the Vulkan runtime of GPU programs -------*- C -*-===//
//
// libcoopvec_vulkan_runtime.so: the `mgpu*` functions that MLIR's
// gpu-to-llvm lowering and the GPU dialect's LLVM IR translation
// (gpu.binary / gpu.launch_func) call, implemented on Vulkan 1.3 compute.
// A module is a SPIR-V binary (little-endian 32-bit words) with GLCompute
// entry points; its workgroup size is the entry point's LocalSize, which a
// launch's block size must equal.
//
// Kernel arguments. Kernel argument i is a storage buffer at descriptor set
// 0, binding i (convert-gpu-to-spirv's layout, scalars included). The host
// passes each argument as two int64 parameters (tag, value), so
// mgpuLaunchKernel's paramsCount is twice the number of arguments:
//   tag >= 0       a memref: `tag` bytes at host address `value`. Inside a
//                  buffer of mgpuMemAlloc at an offset the device can bind,
//                  it is bound in place; otherwise it is copied to a
//                  temporary buffer and, if the kernel changed it, back.
//   tag -4 or -8   a scalar: the low 4 or 8 bytes of `value`.
// mgpuMemAlloc returns host-visible, coherent memory mapped at its address;
// launches are synchronous, so streams and events have nothing to order.
//
// Device. VkPhysicalDevice number mgpuSetDefaultDevice (before first use) or
// COOPVEC_VULKAN_DEVICE (default 0); it must support Vulkan 1.3. The
// environment variable COOPVEC_VULKAN_VALIDATION=1, or
// coopvecVulkanEnableValidation(1), runs everything under
// VK_LAYER_KHRONOS_validation: each warning or error it reports is printed as
//   <prefix>vulkan validation: <message>
// and counted.
//
// Errors. A failed call prints one line
//   <prefix>error: <mgpu function>: <what> (<VkResult name>)
// to stderr and then calls the handler installed with
// coopvecVulkanSetErrorHandler; without one it exits with status 1.
//
//===----------------------------------------------------------------------===//

#ifndef LINALGCOOP_RUNTIME_VULKANRUNTIME_H
#define LINALGCOOP_RUNTIME_VULKANRUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 0 if a Vulkan 1.3 device is usable, with its name and Vulkan version
/// ("llvmpipe (LLVM 15.0.6, 256 bits), Vulkan 1.3.230") in `message`;
/// otherwise non-zero with the reason. One line, NUL-terminated, truncated
/// to `size` bytes.
int coopvecVulkanProbe(char *message, size_t size);

/// Runs under the Khronos validation layer (non-zero) or not; only before
/// the first call that uses the device. A missing layer is an error then.
void coopvecVulkanEnableValidation(int enable);

/// How many warnings and errors the validation layer has reported.
unsigned coopvecVulkanValidationMessages(void);

/// Called with the error line (without its prefix and newline) after it
/// was printed; must not return (exit, longjmp or abort). NULL restores the
/// default (exit with status 1).
typedef void (*CoopVecVulkanErrorHandler)(const char *message);
void coopvecVulkanSetErrorHandler(CoopVecVulkanErrorHandler handler);

/// The prefix of error and validation lines (default "coopvec-vulkan: ");
/// `prefix` must outlive the library's use.
void coopvecVulkanSetErrorPrefix(const char *prefix);

#ifdef __cplusplus
}
#endif

#endif // LINALGCOOP_RUNTIME_VULKANRUNTIME_H
