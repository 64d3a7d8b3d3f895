# CoopVecInstall.cmake: what `cmake --install` puts in the prefix, and the
# CMake package (find_package(CoopVec)) that describes it. Included from the
# top-level CMakeLists.txt after every target is defined.
#
#   bin/                   coopvec-opt, coopvec-run (RPATH: ../lib and LLVM's)
#   lib/                   MLIR libraries (libMLIRCoopVec*.a), runtime archives,
#                          libcoopvec_runtime.so, libcoopvec_dxil_driver.so,
#                          libcoopvec_cuda_runtime.so,
#                          libcoopvec_vulkan_runtime.so (where CMake found Vulkan)
#   include/LinAlgCoop/    headers, .td files and the generated .inc files
#   lib/cmake/CoopVec/     CoopVecConfig.cmake, CoopVecConfigVersion.cmake,
#                          CoopVecTargets.cmake (targets named CoopVec::...)
#
# Libraries go to lib${LLVM_LIBDIR_SUFFIX}, not GNUInstallDirs' libdir
# (lib/x86_64-linux-gnu under /usr): add_mlir_library installs there whatever
# GNUInstallDirs says, and one directory keeps one RPATH, the build tree's
# layout and coopvec-run's lookup of ../lib/libcoopvec_runtime.so valid.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(COOPVEC_VERSION 0.1.0)
set(COOPVEC_INSTALL_LIBDIR lib${LLVM_LIBDIR_SUFFIX})
set(COOPVEC_INSTALL_CMAKEDIR ${COOPVEC_INSTALL_LIBDIR}/cmake/CoopVec)

# add_mlir_library already installs each library (AddMLIR.cmake,
# add_mlir_library_install) into the export set MLIRTargets; in this project
# that set holds only coopvec's libraries. The runtime and the tools join it,
# and it is installed as CoopVecTargets.cmake.
set(COOPVEC_EXPORT_SET MLIRTargets)
get_property(COOPVEC_MLIR_LIBS GLOBAL PROPERTY MLIR_EXPORTS)

# Runtime (lib/Runtime): the shared libraries that JIT-compiled code links
# against, the static components, and every other library of this project
# that an installed library links (an exported target's dependencies must be
# exported too), found by following the link libraries, so that a runtime
# component added, renamed or moved is installed without a change here.
set(COOPVEC_RUNTIME_LIBS)
set(seen)
set(pending ${COOPVEC_MLIR_LIBS} CoopVecNumerics CoopVecLayout CoopVecKernels
  CoopVecDxil coopvec_runtime coopvec_dxil_driver coopvec_cuda_runtime
  coopvec_vulkan_runtime)
while(pending)
  list(POP_FRONT pending lib)
  if(NOT TARGET ${lib} OR lib IN_LIST seen)
    continue()
  endif()
  list(APPEND seen ${lib})
  get_target_property(imported ${lib} IMPORTED)
  get_target_property(type ${lib} TYPE)
  if(imported OR NOT type MATCHES "^(STATIC|SHARED|INTERFACE)_LIBRARY$")
    continue()
  endif()
  if(NOT lib IN_LIST COOPVEC_MLIR_LIBS)
    list(APPEND COOPVEC_RUNTIME_LIBS ${lib})
  endif()
  foreach(property LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
    get_target_property(deps ${lib} ${property})
    if(deps)
      list(APPEND pending ${deps})
    endif()
  endforeach()
endwhile()
set(COOPVEC_TOOLS)
foreach(tool coopvec-opt coopvec-run coopvec-translate)
  if(TARGET ${tool})
    list(APPEND COOPVEC_TOOLS ${tool})
  endif()
endforeach()

# Installed targets find the headers under include/; the build tree keeps
# its global include_directories.
foreach(lib ${COOPVEC_MLIR_LIBS})
  target_include_directories(${lib} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
endforeach()

install(TARGETS ${COOPVEC_RUNTIME_LIBS}
  EXPORT ${COOPVEC_EXPORT_SET}
  LIBRARY DESTINATION ${COOPVEC_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${COOPVEC_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# Installed tools find libMLIR.so in LLVM's directory and coopvec's shared
# libraries next to them.
file(RELATIVE_PATH COOPVEC_BIN_TO_LIB /${CMAKE_INSTALL_BINDIR}
  /${COOPVEC_INSTALL_LIBDIR})
set_target_properties(${COOPVEC_TOOLS} PROPERTIES
  INSTALL_RPATH "\$ORIGIN/${COOPVEC_BIN_TO_LIB};${LLVM_LIBRARY_DIR}")
install(TARGETS ${COOPVEC_TOOLS}
  EXPORT ${COOPVEC_EXPORT_SET}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Headers: the source tree's .h and .td files (downstream projects can
# mlir-tblgen against the .td files) and the build tree's generated .inc.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/LinAlgCoop
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td" PATTERN "*.def")
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/LinAlgCoop
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# The package.
install(EXPORT ${COOPVEC_EXPORT_SET}
  FILE CoopVecTargets.cmake
  NAMESPACE CoopVec::
  DESTINATION ${COOPVEC_INSTALL_CMAKEDIR})
list(TRANSFORM COOPVEC_MLIR_LIBS PREPEND CoopVec:: OUTPUT_VARIABLE
  COOPVEC_PACKAGE_LIBRARIES)
set(COOPVEC_RUNTIME_FILE_NAME
  ${CMAKE_SHARED_LIBRARY_PREFIX}coopvec_runtime${CMAKE_SHARED_LIBRARY_SUFFIX})
set(COOPVEC_DXIL_DRIVER_FILE_NAME
  ${CMAKE_SHARED_LIBRARY_PREFIX}coopvec_dxil_driver${CMAKE_SHARED_LIBRARY_SUFFIX})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/CoopVecConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/CoopVec/CoopVecConfig.cmake
  INSTALL_DESTINATION ${COOPVEC_INSTALL_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_BINDIR
            COOPVEC_INSTALL_LIBDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/CoopVec/CoopVecConfigVersion.cmake
  VERSION ${COOPVEC_VERSION}
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/lib/cmake/CoopVec/CoopVecConfig.cmake
  ${PROJECT_BINARY_DIR}/lib/cmake/CoopVec/CoopVecConfigVersion.cmake
  DESTINATION ${COOPVEC_INSTALL_CMAKEDIR})

# `cmake --install` copies what `all` builds; the install test
# (test/Install) runs it, so the test targets build everything it copies.
if(TARGET coopvec-test-depends)
  add_dependencies(coopvec-test-depends ${COOPVEC_MLIR_LIBS}
    ${COOPVEC_RUNTIME_LIBS} ${COOPVEC_TOOLS})
endif()
if(TARGET check-coopvec)
  add_dependencies(check-coopvec ${COOPVEC_MLIR_LIBS}
    ${COOPVEC_RUNTIME_LIBS} ${COOPVEC_TOOLS})
endif()
