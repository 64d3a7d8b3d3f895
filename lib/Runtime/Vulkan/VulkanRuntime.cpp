//===- VulkanRuntime.cpp - mgpu* on Vulkan 1.3 compute --------------------===//
//
// The functions that gpu.launch_func, gpu.alloc, gpu.memcpy, ... lower to
// (MLIR 22's GPUToLLVMConversion.cpp and SelectObjectAttr.cpp), with the
// signatures of upstream's CudaRuntimeWrappers.cpp, on Vulkan: a module is a
// SPIR-V binary, a launch one synchronous vkCmdDispatch, and the kernel
// arguments are storage buffers bound as VulkanRuntime.h describes.
//
//===----------------------------------------------------------------------===//

#include "LinAlgCoop/Runtime/VulkanRuntime.h"

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

std::atomic<CoopVecVulkanErrorHandler> errorHandler{nullptr};
std::atomic<const char *> errorPrefix{"coopvec-vulkan: "};
std::atomic<unsigned> validationMessages{0};
std::atomic<int> validationRequested{-1};

/// snprintf that accepts an empty buffer.
void format(char *out, size_t size, const char *format, ...) {
  if (!size)
    return;
  va_list args;
  va_start(args, format);
  std::vsnprintf(out, size, format, args);
  va_end(args);
}

/// Prints the error line and ends the run: the handler, or _Exit(1).
[[noreturn]] void fail(const char *message) {
  std::fflush(stdout);
  std::fprintf(stderr, "%serror: %s\n", errorPrefix.load(), message);
  std::fflush(stderr);
  if (CoopVecVulkanErrorHandler handler = errorHandler.load())
    handler(message);
  // Not exit(): its atexit handlers include the JIT's global destructors,
  // which would call back into a runtime that just failed.
  std::_Exit(1);
}

/// fail() with a formatted message that starts with the mgpu function.
[[noreturn]] void failf(const char *function, const char *what, ...) {
  char detail[768], message[1024];
  va_list args;
  va_start(args, what);
  std::vsnprintf(detail, sizeof(detail), what, args);
  va_end(args);
  format(message, sizeof(message), "%s: %s", function, detail);
  fail(message);
}

const char *resultName(VkResult result) {
  switch (result) {
#define COOPVEC_VK_RESULT(name)                                                \
  case name:                                                                   \
    return #name;
    COOPVEC_VK_RESULT(VK_SUCCESS)
    COOPVEC_VK_RESULT(VK_NOT_READY)
    COOPVEC_VK_RESULT(VK_TIMEOUT)
    COOPVEC_VK_RESULT(VK_INCOMPLETE)
    COOPVEC_VK_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
    COOPVEC_VK_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    COOPVEC_VK_RESULT(VK_ERROR_INITIALIZATION_FAILED)
    COOPVEC_VK_RESULT(VK_ERROR_DEVICE_LOST)
    COOPVEC_VK_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
    COOPVEC_VK_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
    COOPVEC_VK_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
    COOPVEC_VK_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
    COOPVEC_VK_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
    COOPVEC_VK_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
    COOPVEC_VK_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
    COOPVEC_VK_RESULT(VK_ERROR_FRAGMENTED_POOL)
    COOPVEC_VK_RESULT(VK_ERROR_UNKNOWN)
    COOPVEC_VK_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
    COOPVEC_VK_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    COOPVEC_VK_RESULT(VK_ERROR_FRAGMENTATION)
    COOPVEC_VK_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    COOPVEC_VK_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
    COOPVEC_VK_RESULT(VK_ERROR_INVALID_SHADER_NV)
    COOPVEC_VK_RESULT(VK_ERROR_VALIDATION_FAILED_EXT)
#undef COOPVEC_VK_RESULT
  default:
    return "unknown VkResult";
  }
}

/// A Vulkan structure of type `type`, every other field zero.
template <typename T> T make(VkStructureType type) {
  T value{};
  value.sType = type;
  return value;
}

/// Ends the run if `result` is an error of `call` made by `function`.
void check(const char *function, const char *call, VkResult result) {
  if (result == VK_SUCCESS)
    return;
  failf(function, "%s failed (%s)", call, resultName(result));
}

#define COOPVEC_VK_CHECK(call, ...) check(__func__, #call, call(__VA_ARGS__))

//===----------------------------------------------------------------------===//
// SPIR-V modules
//===----------------------------------------------------------------------===//

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpConstant = 43;
constexpr uint32_t kOpExecutionModeId = 331;
constexpr uint32_t kExecutionModelGLCompute = 5;
constexpr uint32_t kExecutionModeLocalSize = 17;
constexpr uint32_t kExecutionModeLocalSizeId = 38;

/// An OpEntryPoint and its workgroup size (0 where none was declared).
struct EntryPoint {
  std::string name;
  uint32_t model = 0;
  uint32_t id = 0;
  uint32_t localSize[3] = {0, 0, 0};
};

/// A compute pipeline for a given number of kernel arguments.
struct Pipeline {
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

struct Module;

/// What mgpuModuleGetFunction returns: an entry point of a module and its
/// pipelines, built on first launch with each argument count.
struct Function {
  Module *module = nullptr;
  EntryPoint entry;
  std::map<size_t, Pipeline> pipelines;
};

struct Module {
  VkShaderModule shader = VK_NULL_HANDLE;
  std::vector<EntryPoint> entries;
  std::vector<std::unique_ptr<Function>> functions;
};

/// Parses the entry points and their LocalSize; on a malformed binary
/// returns false with the reason in `why`.
bool parseSpirv(const uint32_t *words, size_t count,
                std::vector<EntryPoint> &entries, char *why, size_t size) {
  if (count < 5) {
    format(why, size, "is too short for a SPIR-V header (%zu words)", count);
    return false;
  }
  if (words[0] != kSpirvMagic) {
    format(why, size, "is not SPIR-V: the first word is 0x%08x, not 0x%08x",
           words[0], kSpirvMagic);
    return false;
  }
  std::map<uint32_t, uint32_t> constants;
  struct Mode {
    uint32_t entry;
    bool byId;
    uint32_t size[3];
  };
  std::vector<Mode> modes;
  for (size_t at = 5; at < count;) {
    uint32_t wordCount = words[at] >> 16, opcode = words[at] & 0xffff;
    if (wordCount == 0 || wordCount > count - at) {
      format(why, size,
             "is malformed: the instruction at word %zu (opcode %u) has "
             "%u words, %zu remain",
             at, opcode, wordCount, count - at);
      return false;
    }
    const uint32_t *op = words + at;
    if (opcode == kOpEntryPoint) {
      if (wordCount < 4) {
        format(why, size, "is malformed: OpEntryPoint at word %zu is too short",
               at);
        return false;
      }
      const char *name = reinterpret_cast<const char *>(op + 3);
      size_t limit = (wordCount - 3) * sizeof(uint32_t);
      size_t length = strnlen(name, limit);
      if (length == limit) {
        format(why, size,
               "is malformed: the name of OpEntryPoint at word %zu is "
               "not terminated",
               at);
        return false;
      }
      EntryPoint entry;
      entry.model = op[1];
      entry.id = op[2];
      entry.name.assign(name, length);
      entries.push_back(std::move(entry));
    } else if ((opcode == kOpExecutionMode || opcode == kOpExecutionModeId) &&
               wordCount >= 6 &&
               (op[2] == kExecutionModeLocalSize ||
                op[2] == kExecutionModeLocalSizeId)) {
      modes.push_back(
          {op[1], op[2] == kExecutionModeLocalSizeId, {op[3], op[4], op[5]}});
    } else if (opcode == kOpConstant && wordCount == 4) {
      constants[op[2]] = op[3];
    }
    at += wordCount;
  }
  for (const Mode &mode : modes) {
    uint32_t sizes[3];
    for (int i = 0; i < 3; ++i) {
      sizes[i] = mode.size[i];
      if (!mode.byId)
        continue;
      auto constant = constants.find(sizes[i]);
      if (constant == constants.end()) {
        format(why, size,
               "is malformed: LocalSizeId names %%%u, not a 32-bit "
               "constant",
               sizes[i]);
        return false;
      }
      sizes[i] = constant->second;
    }
    for (EntryPoint &entry : entries)
      if (entry.id == mode.entry)
        std::memcpy(entry.localSize, sizes, sizeof(sizes));
  }
  return true;
}

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

/// A VkBuffer in host-visible, coherent memory, mapped at `mapped`.
struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint64_t size = 0;
  char *mapped = nullptr;
};

/// The instance, the device and everything made on it. Created on first use;
/// destroyed at exit (after which the calls that global destructors make,
/// mgpuModuleUnload and mgpuMemFree, do nothing).
struct Context {
  // Why Vulkan is unusable; empty once the device is created.
  char failure[512] = "";
  // The device's name and version, for the probe.
  char description[320] = "";
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkPhysicalDeviceLimits limits = {};
  VkPhysicalDeviceMemoryProperties memory = {};
  VkDevice device = VK_NULL_HANDLE;
  uint32_t queueFamily = 0;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool commandPool = VK_NULL_HANDLE;
  VkCommandBuffer commandBuffer = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  int ordinal = 0;
  // mgpuMemAlloc's buffers by mapped address.
  std::map<uintptr_t, Buffer> allocations;
  std::vector<std::unique_ptr<Module>> modules;
  std::mutex mutex;

  ~Context();
};

/// Set once the context is destroyed at exit.
std::atomic<bool> shutDown{false};

/// The device that mgpuSetDefaultDevice chose (-1: COOPVEC_VULKAN_DEVICE).
std::atomic<int> defaultDevice{-1};

VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT /*severity*/,
    VkDebugUtilsMessageTypeFlagsEXT /*types*/,
    const VkDebugUtilsMessengerCallbackDataEXT *data, void * /*user*/) {
  validationMessages.fetch_add(1);
  std::fflush(stdout);
  std::fprintf(stderr, "%svulkan validation: %s\n", errorPrefix.load(),
               data && data->pMessage ? data->pMessage : "(no message)");
  std::fflush(stderr);
  return VK_FALSE;
}

bool validationEnabled() {
  int requested = validationRequested.load();
  if (requested >= 0)
    return requested;
  const char *env = std::getenv("COOPVEC_VULKAN_VALIDATION");
  return env && *env && std::strcmp(env, "0") != 0;
}

bool hasExtension(const std::vector<VkExtensionProperties> &extensions,
                  const char *name) {
  for (const VkExtensionProperties &extension : extensions)
    if (!std::strcmp(extension.extensionName, name))
      return true;
  return false;
}

/// Creates the instance: on failure leaves the reason in `failure`.
bool createInstance(Context &c) {
  bool validate = validationEnabled();
  const char *layer = "VK_LAYER_KHRONOS_validation";
  if (validate) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    bool found = false;
    for (const VkLayerProperties &properties : layers)
      found |= !std::strcmp(properties.layerName, layer);
    if (!found) {
      format(c.failure, sizeof(c.failure),
             "validation was requested but the layer %s is not installed",
             layer);
      return false;
    }
  }
  auto application =
      make<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  application.pApplicationName = "coopvec";
  application.pEngineName = "coopvec";
  application.apiVersion = VK_API_VERSION_1_3;
  auto messenger = make<VkDebugUtilsMessengerCreateInfoEXT>(
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  messenger.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                              VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                          VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger.pfnUserCallback = onValidationMessage;
  const char *extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  auto info =
      make<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pApplicationInfo = &application;
  if (validate) {
    // Chained, the messenger also reports on vkCreateInstance and
    // vkDestroyInstance.
    info.pNext = &messenger;
    info.enabledLayerCount = 1;
    info.ppEnabledLayerNames = &layer;
    info.enabledExtensionCount = 1;
    info.ppEnabledExtensionNames = &extension;
  }
  VkResult result = vkCreateInstance(&info, nullptr, &c.instance);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER) {
    format(c.failure, sizeof(c.failure),
           "the Vulkan loader found no driver (vkCreateInstance: %s)",
           resultName(result));
    return false;
  }
  if (result != VK_SUCCESS) {
    c.instance = VK_NULL_HANDLE;
    format(c.failure, sizeof(c.failure),
           "cannot create a Vulkan instance (vkCreateInstance: %s)",
           resultName(result));
    return false;
  }
  if (validate) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(c.instance, "vkCreateDebugUtilsMessengerEXT"));
    result = create ? create(c.instance, &messenger, nullptr, &c.messenger)
                    : VK_ERROR_EXTENSION_NOT_PRESENT;
    if (result != VK_SUCCESS) {
      format(c.failure, sizeof(c.failure),
             "cannot report validation messages "
             "(vkCreateDebugUtilsMessengerEXT: %s)",
             resultName(result));
      return false;
    }
  }
  return true;
}

/// Picks the physical device and a compute queue family.
bool pickDevice(Context &c) {
  uint32_t count = 0;
  VkResult result = vkEnumeratePhysicalDevices(c.instance, &count, nullptr);
  if (result != VK_SUCCESS) {
    format(c.failure, sizeof(c.failure),
           "cannot list Vulkan devices (vkEnumeratePhysicalDevices: %s)",
           resultName(result));
    return false;
  }
  if (count == 0) {
    format(c.failure, sizeof(c.failure), "no Vulkan device");
    return false;
  }
  std::vector<VkPhysicalDevice> devices(count);
  result = vkEnumeratePhysicalDevices(c.instance, &count, devices.data());
  if (result != VK_SUCCESS && result != VK_INCOMPLETE) {
    format(c.failure, sizeof(c.failure),
           "cannot list Vulkan devices (vkEnumeratePhysicalDevices: %s)",
           resultName(result));
    return false;
  }
  c.ordinal = defaultDevice.load();
  if (c.ordinal < 0) {
    c.ordinal = 0;
    if (const char *env = std::getenv("COOPVEC_VULKAN_DEVICE"); env && *env) {
      char *end = nullptr;
      long value = std::strtol(env, &end, 10);
      if (*end || value < 0 || value > INT32_MAX) {
        format(c.failure, sizeof(c.failure),
               "COOPVEC_VULKAN_DEVICE=%s is not a device number", env);
        return false;
      }
      c.ordinal = static_cast<int>(value);
    }
  }
  if (static_cast<uint32_t>(c.ordinal) >= count) {
    format(c.failure, sizeof(c.failure),
           "no Vulkan device %d (%u device%s found)", c.ordinal, count,
           count == 1 ? "" : "s");
    return false;
  }
  c.physical = devices[c.ordinal];
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(c.physical, &properties);
  uint32_t version = properties.apiVersion;
  if (VK_API_VERSION_MAJOR(version) == 1 && VK_API_VERSION_MINOR(version) < 3) {
    format(c.failure, sizeof(c.failure),
           "device %d (%s) supports Vulkan %u.%u; coopvec needs 1.3", c.ordinal,
           properties.deviceName, VK_API_VERSION_MAJOR(version),
           VK_API_VERSION_MINOR(version));
    return false;
  }
  c.limits = properties.limits;
  vkGetPhysicalDeviceMemoryProperties(c.physical, &c.memory);
  format(c.description, sizeof(c.description), "%s, Vulkan %u.%u.%u",
         properties.deviceName, VK_API_VERSION_MAJOR(version),
         VK_API_VERSION_MINOR(version), VK_API_VERSION_PATCH(version));

  uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(c.physical, &families, nullptr);
  std::vector<VkQueueFamilyProperties> familyProperties(families);
  vkGetPhysicalDeviceQueueFamilyProperties(c.physical, &families,
                                           familyProperties.data());
  for (uint32_t i = 0; i < families; ++i)
    if (familyProperties[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
      c.queueFamily = i;
      return true;
    }
  format(c.failure, sizeof(c.failure), "device %d (%s) has no compute queue",
         c.ordinal, properties.deviceName);
  return false;
}

/// Creates the device with the optional features that kernels may use,
/// each enabled where the device supports it, and its queue, command
/// buffer and fence.
bool createDevice(Context &c) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(c.physical, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> extensions(count);
  vkEnumerateDeviceExtensionProperties(c.physical, nullptr, &count,
                                       extensions.data());
  bool atomicFloat =
      hasExtension(extensions, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);

  // What the device supports.
  auto hasAtomic = make<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
  auto has13 = make<VkPhysicalDeviceVulkan13Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  has13.pNext = atomicFloat ? &hasAtomic : nullptr;
  auto has12 = make<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  has12.pNext = &has13;
  auto has11 = make<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  has11.pNext = &has12;
  auto has = make<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  has.pNext = &has11;
  vkGetPhysicalDeviceFeatures2(c.physical, &has);

  // What is enabled: those alone.
  auto useAtomic = make<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
  useAtomic.shaderBufferFloat32Atomics = hasAtomic.shaderBufferFloat32Atomics;
  useAtomic.shaderBufferFloat32AtomicAdd =
      hasAtomic.shaderBufferFloat32AtomicAdd;
  auto use13 = make<VkPhysicalDeviceVulkan13Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  use13.shaderIntegerDotProduct = has13.shaderIntegerDotProduct;
  auto use12 = make<VkPhysicalDeviceVulkan12Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  use12.pNext = &use13;
  use12.storageBuffer8BitAccess = has12.storageBuffer8BitAccess;
  use12.shaderInt8 = has12.shaderInt8;
  use12.shaderFloat16 = has12.shaderFloat16;
  auto use11 = make<VkPhysicalDeviceVulkan11Features>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  use11.pNext = &use12;
  use11.storageBuffer16BitAccess = has11.storageBuffer16BitAccess;
  auto use = make<VkPhysicalDeviceFeatures2>(
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  use.pNext = &use11;
  use.features.shaderInt64 = has.features.shaderInt64;
  use.features.shaderInt16 = has.features.shaderInt16;
  use.features.shaderFloat64 = has.features.shaderFloat64;

  const char *atomicName = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
  bool useAtomicFloat = atomicFloat && (useAtomic.shaderBufferFloat32Atomics ||
                                        useAtomic.shaderBufferFloat32AtomicAdd);
  if (useAtomicFloat)
    use13.pNext = &useAtomic;

  float priority = 1.0f;
  auto queue =
      make<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queue.queueFamilyIndex = c.queueFamily;
  queue.queueCount = 1;
  queue.pQueuePriorities = &priority;
  auto info = make<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  info.pNext = &use;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue;
  info.enabledExtensionCount = useAtomicFloat ? 1 : 0;
  info.ppEnabledExtensionNames = &atomicName;
  VkResult result = vkCreateDevice(c.physical, &info, nullptr, &c.device);
  if (result != VK_SUCCESS) {
    c.device = VK_NULL_HANDLE;
    format(c.failure, sizeof(c.failure),
           "cannot create device %d (vkCreateDevice: %s)", c.ordinal,
           resultName(result));
    return false;
  }
  vkGetDeviceQueue(c.device, c.queueFamily, 0, &c.queue);

  auto pool =
      make<VkCommandPoolCreateInfo>(VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = c.queueFamily;
  result = vkCreateCommandPool(c.device, &pool, nullptr, &c.commandPool);
  if (result == VK_SUCCESS) {
    auto buffer = make<VkCommandBufferAllocateInfo>(
        VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
    buffer.commandPool = c.commandPool;
    buffer.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    buffer.commandBufferCount = 1;
    result = vkAllocateCommandBuffers(c.device, &buffer, &c.commandBuffer);
  }
  if (result == VK_SUCCESS) {
    auto fence = make<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
    result = vkCreateFence(c.device, &fence, nullptr, &c.fence);
  }
  if (result != VK_SUCCESS) {
    format(c.failure, sizeof(c.failure),
           "cannot create the command buffer of device %d (%s)", c.ordinal,
           resultName(result));
    return false;
  }
  return true;
}

void destroyBuffer(VkDevice device, Buffer &buffer) {
  if (buffer.buffer)
    vkDestroyBuffer(device, buffer.buffer, nullptr);
  if (buffer.memory)
    vkFreeMemory(device, buffer.memory, nullptr);
  buffer = Buffer();
}

void destroyPipelines(VkDevice device, Function &function) {
  for (auto &[count, pipeline] : function.pipelines) {
    vkDestroyPipeline(device, pipeline.pipeline, nullptr);
    vkDestroyPipelineLayout(device, pipeline.layout, nullptr);
    vkDestroyDescriptorSetLayout(device, pipeline.setLayout, nullptr);
  }
  function.pipelines.clear();
}

void destroyModule(VkDevice device, Module &module) {
  for (std::unique_ptr<Function> &function : module.functions)
    destroyPipelines(device, *function);
  vkDestroyShaderModule(device, module.shader, nullptr);
}

Context::~Context() {
  shutDown.store(true);
  if (device) {
    vkDeviceWaitIdle(device);
    for (std::unique_ptr<Module> &module : modules)
      destroyModule(device, *module);
    for (auto &[address, buffer] : allocations)
      destroyBuffer(device, buffer);
    if (fence)
      vkDestroyFence(device, fence, nullptr);
    if (commandPool)
      vkDestroyCommandPool(device, commandPool, nullptr);
    vkDestroyDevice(device, nullptr);
  }
  if (messenger) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy)
      destroy(instance, messenger, nullptr);
  }
  if (instance)
    vkDestroyInstance(instance, nullptr);
}

Context *theContext = nullptr;

void destroyContext() {
  Context *c = theContext;
  theContext = nullptr;
  delete c;
}

/// The context, created on first use and destroyed at exit. Its exit
/// handler is registered once the instance and device exist, so after the
/// loader loaded the driver and the layers: exit runs it before their own
/// static destructors, which would otherwise leave vkDestroyDevice and
/// vkDestroyInstance to a torn-down layer.
Context &context() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto *c = new Context;
    if (createInstance(*c) && pickDevice(*c))
      createDevice(*c);
    theContext = c;
    std::atexit(destroyContext);
  });
  return *theContext;
}

/// The context, which must not have been destroyed yet.
Context &aliveContext(const char *function) {
  if (shutDown.load())
    failf(function, "called after the Vulkan runtime shut down");
  return context();
}

/// The context for a call from lowered code, locked: an unusable device
/// ends the run.
struct Use {
  Context &c;
  std::unique_lock<std::mutex> lock;

  explicit Use(const char *function)
      : c(aliveContext(function)), lock(c.mutex) {
    if (c.failure[0])
      failf(function, "%s", c.failure);
  }
};

/// A storage buffer of `size` bytes in host-visible, coherent memory, mapped.
Buffer createBuffer(Context &c, const char *function, uint64_t size) {
  Buffer result;
  result.size = size;
  auto info = make<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = size;
  info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
               VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  check(function, "vkCreateBuffer",
        vkCreateBuffer(c.device, &info, nullptr, &result.buffer));
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(c.device, result.buffer, &requirements);
  constexpr VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                           VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = UINT32_MAX;
  for (uint32_t i = 0; i < c.memory.memoryTypeCount && type == UINT32_MAX; ++i)
    if ((requirements.memoryTypeBits & (1u << i)) &&
        (c.memory.memoryTypes[i].propertyFlags & wanted) == wanted)
      type = i;
  if (type == UINT32_MAX) {
    destroyBuffer(c.device, result);
    failf(function,
          "device %d has no host-visible, coherent memory for a "
          "storage buffer",
          c.ordinal);
  }
  auto allocate =
      make<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = type;
  VkResult status =
      vkAllocateMemory(c.device, &allocate, nullptr, &result.memory);
  if (status == VK_SUCCESS)
    status = vkBindBufferMemory(c.device, result.buffer, result.memory, 0);
  void *mapped = nullptr;
  if (status == VK_SUCCESS)
    status = vkMapMemory(c.device, result.memory, 0, VK_WHOLE_SIZE, 0, &mapped);
  if (status != VK_SUCCESS) {
    destroyBuffer(c.device, result);
    failf(function, "cannot allocate %llu bytes of host-visible memory (%s)",
          static_cast<unsigned long long>(size), resultName(status));
  }
  result.mapped = static_cast<char *>(mapped);
  return result;
}

/// The compute pipeline of `function` with `count` storage buffers.
const Pipeline &pipelineFor(Context &c, Function &function, size_t count) {
  auto found = function.pipelines.find(count);
  if (found != function.pipelines.end())
    return found->second;
  const char *name = "mgpuLaunchKernel";
  Pipeline pipeline;
  std::vector<VkDescriptorSetLayoutBinding> bindings(count);
  for (size_t i = 0; i < count; ++i) {
    bindings[i].binding = static_cast<uint32_t>(i);
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  auto setInfo = make<VkDescriptorSetLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  setInfo.bindingCount = static_cast<uint32_t>(count);
  setInfo.pBindings = bindings.data();
  check(name, "vkCreateDescriptorSetLayout",
        vkCreateDescriptorSetLayout(c.device, &setInfo, nullptr,
                                    &pipeline.setLayout));
  auto layoutInfo = make<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  layoutInfo.setLayoutCount = 1;
  layoutInfo.pSetLayouts = &pipeline.setLayout;
  check(
      name, "vkCreatePipelineLayout",
      vkCreatePipelineLayout(c.device, &layoutInfo, nullptr, &pipeline.layout));
  auto info = make<VkComputePipelineCreateInfo>(
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = function.module->shader;
  info.stage.pName = function.entry.name.c_str();
  info.layout = pipeline.layout;
  VkResult result = vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &info,
                                             nullptr, &pipeline.pipeline);
  if (result != VK_SUCCESS)
    failf(name,
          "kernel '%s' with %zu arguments: vkCreateComputePipelines "
          "failed (%s)",
          function.entry.name.c_str(), count, resultName(result));
  return function.pipelines[count] = pipeline;
}

/// The head of MLIR's ranked memref descriptor.
struct MemRefDescriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
};

} // namespace

//===----------------------------------------------------------------------===//
// Probing and configuration
//===----------------------------------------------------------------------===//

extern "C" int coopvecVulkanProbe(char *message, size_t size) {
  Context &c = context();
  if (c.failure[0]) {
    format(message, size, "%s", c.failure);
    return 1;
  }
  format(message, size, "%s", c.description);
  return 0;
}

extern "C" void coopvecVulkanEnableValidation(int enable) {
  validationRequested.store(enable ? 1 : 0);
}

extern "C" unsigned coopvecVulkanValidationMessages(void) {
  return validationMessages.load();
}

extern "C" void
coopvecVulkanSetErrorHandler(CoopVecVulkanErrorHandler handler) {
  errorHandler.store(handler);
}

extern "C" void coopvecVulkanSetErrorPrefix(const char *prefix) {
  errorPrefix.store(prefix ? prefix : "");
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

extern "C" void *mgpuModuleLoad(void *data, size_t gpuBlobSize) {
  if (!data && gpuBlobSize)
    failf(__func__, "the kernel binary is a null pointer");
  if (gpuBlobSize % 4)
    failf(__func__,
          "the kernel binary (%zu bytes) is not SPIR-V: not a whole "
          "number of 32-bit words",
          gpuBlobSize);
  std::vector<uint32_t> words(gpuBlobSize / 4);
  if (gpuBlobSize)
    std::memcpy(words.data(), data, gpuBlobSize);
  auto module = std::make_unique<Module>();
  char why[400];
  if (!parseSpirv(words.data(), words.size(), module->entries, why,
                  sizeof(why)))
    failf(__func__, "the kernel binary (%zu bytes) %s", gpuBlobSize, why);
  Use use(__func__);
  auto info = make<VkShaderModuleCreateInfo>(
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  info.codeSize = gpuBlobSize;
  info.pCode = words.data();
  COOPVEC_VK_CHECK(vkCreateShaderModule, use.c.device, &info, nullptr,
                   &module->shader);
  use.c.modules.push_back(std::move(module));
  return use.c.modules.back().get();
}

/// Called from a global destructor, maybe after the context's own one,
/// which released every module.
extern "C" void mgpuModuleUnload(void *module) {
  if (shutDown.load())
    return;
  Use use(__func__);
  for (auto it = use.c.modules.begin(); it != use.c.modules.end(); ++it)
    if (it->get() == module) {
      destroyModule(use.c.device, **it);
      use.c.modules.erase(it);
      return;
    }
  failf(__func__, "%p is not a loaded module", module);
}

extern "C" void *mgpuModuleGetFunction(void *handle, const char *name) {
  Use use(__func__);
  Module *module = nullptr;
  for (std::unique_ptr<Module> &loaded : use.c.modules)
    if (loaded.get() == handle)
      module = loaded.get();
  if (!module)
    failf(__func__, "%p is not a loaded module", handle);
  if (!name)
    failf(__func__, "no kernel name");
  for (std::unique_ptr<Function> &function : module->functions)
    if (function->entry.name == name)
      return function.get();
  std::string known;
  for (const EntryPoint &entry : module->entries) {
    if (entry.model != kExecutionModelGLCompute)
      continue;
    if (entry.name == name) {
      if (!entry.localSize[0] || !entry.localSize[1] || !entry.localSize[2])
        failf(__func__, "kernel '%s' has no LocalSize execution mode", name);
      auto function = std::make_unique<Function>();
      function->module = module;
      function->entry = entry;
      module->functions.push_back(std::move(function));
      return module->functions.back().get();
    }
    known += known.empty() ? "'" : ", '";
    known += entry.name + "'";
  }
  failf(__func__, "the module has no GLCompute entry point '%s' (%s)", name,
        known.empty() ? "it has none" : ("it has " + known).c_str());
}

extern "C" void mgpuLaunchKernel(void *handle, intptr_t gridX, intptr_t gridY,
                                 intptr_t gridZ, intptr_t blockX,
                                 intptr_t blockY, intptr_t blockZ, int32_t smem,
                                 void * /*stream*/, void **params,
                                 void ** /*extra*/, size_t paramsCount) {
  Use use(__func__);
  Context &c = use.c;
  Function *function = nullptr;
  for (std::unique_ptr<Module> &module : c.modules)
    for (std::unique_ptr<Function> &known : module->functions)
      if (known.get() == handle)
        function = known.get();
  if (!function)
    failf(__func__, "%p is not a kernel of a loaded module", handle);
  const char *name = function->entry.name.c_str();
  const uint32_t *local = function->entry.localSize;
  if (blockX != local[0] || blockY != local[1] || blockZ != local[2])
    failf(__func__,
          "kernel '%s' was compiled for workgroups of %ux%ux%u invocations "
          "but is launched with %lldx%lldx%lld",
          name, local[0], local[1], local[2], static_cast<long long>(blockX),
          static_cast<long long>(blockY), static_cast<long long>(blockZ));
  intptr_t grid[3] = {gridX, gridY, gridZ};
  for (int i = 0; i < 3; ++i)
    if (grid[i] < 1 ||
        static_cast<uint64_t>(grid[i]) > c.limits.maxComputeWorkGroupCount[i])
      failf(__func__,
            "kernel '%s': grid %c is %lld, not in [1, %u] "
            "(maxComputeWorkGroupCount)",
            name, "xyz"[i], static_cast<long long>(grid[i]),
            c.limits.maxComputeWorkGroupCount[i]);
  if (smem != 0)
    failf(__func__,
          "kernel '%s': %d bytes of dynamic shared memory requested; Vulkan "
          "kernels declare their workgroup memory statically",
          name, smem);
  if (paramsCount % 2)
    failf(__func__,
          "kernel '%s': %zu parameters; each argument takes two (tag, value)",
          name, paramsCount);
  if (paramsCount && !params)
    failf(__func__, "kernel '%s': %zu parameters but no parameter array", name,
          paramsCount);
  size_t count = paramsCount / 2;
  if (count > c.limits.maxPerStageDescriptorStorageBuffers)
    failf(__func__,
          "kernel '%s': %zu arguments, the device binds at most %u storage "
          "buffers",
          name, count, c.limits.maxPerStageDescriptorStorageBuffers);

  // Each argument as a buffer range; staged arguments get a temporary
  // buffer (`source` is then where its bytes come from, or null).
  struct Binding {
    VkBuffer buffer;
    VkDeviceSize offset, range;
    Buffer staging;
    char *source;
  };
  std::vector<Binding> bindings(count);
  auto releaseStaging = [&] {
    for (Binding &binding : bindings)
      destroyBuffer(c.device, binding.staging);
  };
  for (size_t i = 0; i < count; ++i) {
    if (!params[2 * i] || !params[2 * i + 1]) {
      releaseStaging();
      failf(__func__, "kernel '%s': parameter %zu is a null pointer", name,
            params[2 * i] ? 2 * i + 1 : 2 * i);
    }
    int64_t tag = *static_cast<int64_t *>(params[2 * i]);
    int64_t value = *static_cast<int64_t *>(params[2 * i + 1]);
    Binding &binding = bindings[i];
    binding = Binding{VK_NULL_HANDLE, 0, 0, Buffer(), nullptr};
    if (tag == -4 || tag == -8) {
      binding.staging = createBuffer(c, __func__, 8);
      std::memcpy(binding.staging.mapped, &value, 8);
      binding.buffer = binding.staging.buffer;
      binding.range = static_cast<VkDeviceSize>(-tag);
      continue;
    }
    if (tag < 0) {
      releaseStaging();
      failf(__func__,
            "kernel '%s': argument %zu has tag %lld; expected a byte size "
            "(>= 0), -4 or -8",
            name, i, static_cast<long long>(tag));
    }
    if (static_cast<uint64_t>(tag) > c.limits.maxStorageBufferRange) {
      releaseStaging();
      failf(__func__,
            "kernel '%s': argument %zu is %lld bytes, the device binds at "
            "most %u (maxStorageBufferRange)",
            name, i, static_cast<long long>(tag),
            c.limits.maxStorageBufferRange);
    }
    if (tag == 0) {
      // Vulkan binds no empty range: a small unused buffer instead.
      binding.staging = createBuffer(c, __func__, 16);
      binding.buffer = binding.staging.buffer;
      binding.range = VK_WHOLE_SIZE;
      continue;
    }
    if (!value) {
      releaseStaging();
      failf(__func__, "kernel '%s': argument %zu is %lld bytes at address 0",
            name, i, static_cast<long long>(tag));
    }
    uintptr_t address = static_cast<uintptr_t>(value);
    uint64_t size = static_cast<uint64_t>(tag);
    auto owner = c.allocations.upper_bound(address);
    if (owner != c.allocations.begin()) {
      --owner;
      uint64_t offset = address - owner->first;
      if (offset < owner->second.size && size <= owner->second.size - offset &&
          offset % c.limits.minStorageBufferOffsetAlignment == 0) {
        binding.buffer = owner->second.buffer;
        binding.offset = offset;
        binding.range = size;
        continue;
      }
    }
    binding.staging = createBuffer(c, __func__, size);
    binding.source = reinterpret_cast<char *>(address);
    std::memcpy(binding.staging.mapped, binding.source, size);
    binding.buffer = binding.staging.buffer;
    binding.range = size;
  }

  const Pipeline &pipeline = pipelineFor(c, *function, count);
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  if (count) {
    VkDescriptorPoolSize poolSize = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                     static_cast<uint32_t>(count)};
    auto poolInfo = make<VkDescriptorPoolCreateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    poolInfo.maxSets = 1;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &poolSize;
    COOPVEC_VK_CHECK(vkCreateDescriptorPool, c.device, &poolInfo, nullptr,
                     &pool);
    auto setInfo = make<VkDescriptorSetAllocateInfo>(
        VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    setInfo.descriptorPool = pool;
    setInfo.descriptorSetCount = 1;
    setInfo.pSetLayouts = &pipeline.setLayout;
    COOPVEC_VK_CHECK(vkAllocateDescriptorSets, c.device, &setInfo, &set);
    std::vector<VkDescriptorBufferInfo> infos(count);
    std::vector<VkWriteDescriptorSet> writes(count);
    for (size_t i = 0; i < count; ++i) {
      infos[i] = {bindings[i].buffer, bindings[i].offset, bindings[i].range};
      writes[i] =
          make<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
      writes[i].dstSet = set;
      writes[i].dstBinding = static_cast<uint32_t>(i);
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(c.device, static_cast<uint32_t>(count),
                           writes.data(), 0, nullptr);
  }

  auto begin = make<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  COOPVEC_VK_CHECK(vkBeginCommandBuffer, c.commandBuffer, &begin);
  vkCmdBindPipeline(c.commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE,
                    pipeline.pipeline);
  if (count)
    vkCmdBindDescriptorSets(c.commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE,
                            pipeline.layout, 0, 1, &set, 0, nullptr);
  vkCmdDispatch(c.commandBuffer, static_cast<uint32_t>(gridX),
                static_cast<uint32_t>(gridY), static_cast<uint32_t>(gridZ));
  // The kernel's writes, visible to the host once the fence signals.
  auto barrier = make<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(c.commandBuffer, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0, nullptr,
                       0, nullptr);
  COOPVEC_VK_CHECK(vkEndCommandBuffer, c.commandBuffer);
  auto submit = make<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &c.commandBuffer;
  COOPVEC_VK_CHECK(vkQueueSubmit, c.queue, 1, &submit, c.fence);
  COOPVEC_VK_CHECK(vkWaitForFences, c.device, 1, &c.fence, VK_TRUE, UINT64_MAX);
  COOPVEC_VK_CHECK(vkResetFences, c.device, 1, &c.fence);
  COOPVEC_VK_CHECK(vkResetCommandBuffer, c.commandBuffer, 0);
  if (pool)
    vkDestroyDescriptorPool(c.device, pool, nullptr);

  // Staged memrefs back to the host, where the kernel changed them: the
  // source may be read-only (a constant global).
  for (Binding &binding : bindings)
    if (binding.source &&
        std::memcmp(binding.source, binding.staging.mapped, binding.range))
      std::memcpy(binding.source, binding.staging.mapped, binding.range);
  releaseStaging();
}

//===----------------------------------------------------------------------===//
// Streams and events: launches are synchronous, so these order nothing.
//===----------------------------------------------------------------------===//

namespace {
/// The one stream and event handle (callers only compare it with null).
char dummyHandle;
} // namespace

extern "C" void *mgpuStreamCreate() {
  Use use(__func__);
  return &dummyHandle;
}

extern "C" void mgpuStreamDestroy(void * /*stream*/) {}

extern "C" void mgpuStreamSynchronize(void * /*stream*/) {}

extern "C" void mgpuStreamWaitEvent(void * /*stream*/, void * /*event*/) {}

extern "C" void *mgpuEventCreate() {
  Use use(__func__);
  return &dummyHandle;
}

extern "C" void mgpuEventDestroy(void * /*event*/) {}

extern "C" void mgpuEventSynchronize(void * /*event*/) {}

extern "C" void mgpuEventRecord(void * /*event*/, void * /*stream*/) {}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// gpu.alloc: a storage buffer in host-visible memory, which the host may
/// access too (so `isHostShared` changes nothing).
extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, void * /*stream*/,
                              bool /*isHostShared*/) {
  Use use(__func__);
  if (sizeBytes == 0)
    return nullptr;
  Buffer buffer = createBuffer(use.c, __func__, sizeBytes);
  use.c.allocations[reinterpret_cast<uintptr_t>(buffer.mapped)] = buffer;
  return buffer.mapped;
}

/// Maybe called from a global destructor after the context's own one,
/// which released every allocation.
extern "C" void mgpuMemFree(void *ptr, void * /*stream*/) {
  if (!ptr || shutDown.load())
    return;
  Use use(__func__);
  auto found = use.c.allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (found == use.c.allocations.end())
    failf(__func__, "%p was not allocated by mgpuMemAlloc", ptr);
  destroyBuffer(use.c.device, found->second);
  use.c.allocations.erase(found);
}

/// gpu.memcpy in any direction: every buffer is mapped at its address.
extern "C" void mgpuMemcpy(void *dst, void *src, size_t sizeBytes,
                           void * /*stream*/) {
  if (sizeBytes)
    std::memmove(dst, src, sizeBytes);
}

extern "C" void mgpuMemset32(void *dst, unsigned value, size_t count,
                             void * /*stream*/) {
  auto *out = static_cast<uint32_t *>(dst);
  for (size_t i = 0; i < count; ++i)
    out[i] = value;
}

extern "C" void mgpuMemset16(void *dst, unsigned short value, size_t count,
                             void * /*stream*/) {
  auto *out = static_cast<uint16_t *>(dst);
  for (size_t i = 0; i < count; ++i)
    out[i] = value;
}

// gpu.host_register: host memory is staged at each launch, so registering
// it changes nothing.
extern "C" void mgpuMemHostRegister(void * /*ptr*/, uint64_t /*sizeBytes*/) {}

extern "C" void mgpuMemHostUnregister(void * /*ptr*/) {}

extern "C" void mgpuMemHostRegisterMemRef(int64_t /*rank*/,
                                          MemRefDescriptor * /*descriptor*/,
                                          int64_t /*elementSizeBytes*/) {}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t /*rank*/,
                                            MemRefDescriptor * /*descriptor*/,
                                            int64_t /*elementSizeBytes*/) {}

/// Takes effect at the first call that uses the device, which picks the
/// device once for the whole run.
extern "C" void mgpuSetDefaultDevice(int32_t device) {
  defaultDevice.store(device);
}
