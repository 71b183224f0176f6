# This file implements the LLVM/MLIR 22 setup: it finds the packages, pulls in
# their CMake helpers (TableGen, AddMLIR, HandleLLVMOptions) and defines
# `mgp_llvm_libs`, the one target every mgp library, tool and test links for
# LLVM and MLIR. In a development build that is the shared libLLVM/libMLIR
# (fast links). With MGP_PORTABLE=ON it is every static library by file and fmt
# becomes static too, so the tools depend only on libc, libm, libz and libzstd
# (libmgp.so also on libstdc++ and libgcc_s).
#
# Rule for every CMakeLists.txt: never link an imported MLIR*/LLVM* target
# (MLIRIR, LLVMSupport, ...) directly. Debian's MLIR targets carry
# INTERFACE_LINK_LIBRARIES to the shared `LLVM`, and a binary that gets both the
# shared and the static libraries aborts at start with "Option ... registered
# more than once". Link `mgp_llvm_libs`; portable builds check the rule.
find_package(MLIR REQUIRED CONFIG PATHS /usr/lib/llvm-22/lib/cmake/mlir)
message(STATUS "Using MLIR ${LLVM_PACKAGE_VERSION} from ${MLIR_DIR}")
list(APPEND CMAKE_MODULE_PATH ${MLIR_CMAKE_DIR} ${LLVM_CMAKE_DIR})
include(TableGen)
include(AddLLVM)
include(AddMLIR)
include(HandleLLVMOptions)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})

set(MGP_LLVM_BIN_DIR ${LLVM_TOOLS_BINARY_DIR})
add_library(mgp_llvm_libs INTERFACE)
if(NOT MGP_PORTABLE)
  target_link_libraries(mgp_llvm_libs INTERFACE MLIR LLVM)
  return()
endif()

# --- Portable build ---------------------------------------------------------

# Every MLIR static library except those no compiler needs: the C API, test
# dialects and passes, the execution engine and runners, language servers and
# TableGen back ends. Inside --start-group the linker pulls only the objects
# that are referenced, so the list may be generous.
file(GLOB mgpMlirStatic ${LLVM_LIBRARY_DIR}/libMLIR*.a)
list(FILTER mgpMlirStatic EXCLUDE REGEX
  "/libMLIR(CAPI.*|.*Test.*|ExecutionEngine.*|JitRunner|.*Lsp.*|Tblgen.*|TableGen|PDLL.*|Reduce.*|Query.*|SparseTensorRuntime)\\.a$")
if(NOT mgpMlirStatic)
  message(FATAL_ERROR "MGP_PORTABLE: no static MLIR libraries (libMLIR*.a) in "
                      "${LLVM_LIBRARY_DIR}; install libmlir-22-dev")
endif()

# LLVM: every component library llvm-config knows (all targets included) that
# is installed (Debian lists libPolly.a but does not ship it). WindowsManifest
# (libxml2), LineEditor (libedit) and the Z3 solver are never referenced by
# what we use, so neither they nor their system libraries are linked.
execute_process(COMMAND ${LLVM_TOOLS_BINARY_DIR}/llvm-config --link-static --libnames all
                OUTPUT_VARIABLE mgpLlvmNames OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE mgpLlvmConfigResult)
if(NOT mgpLlvmConfigResult EQUAL 0)
  message(FATAL_ERROR "MGP_PORTABLE: llvm-config --link-static --libnames failed")
endif()
separate_arguments(mgpLlvmNames)
set(mgpLlvmStatic)
foreach(name IN LISTS mgpLlvmNames)
  if(NOT name MATCHES "^libLLVM(WindowsManifest|LineEditor)\\.a$"
     AND EXISTS ${LLVM_LIBRARY_DIR}/${name})
    list(APPEND mgpLlvmStatic ${LLVM_LIBRARY_DIR}/${name})
  endif()
endforeach()

target_link_libraries(mgp_llvm_libs INTERFACE
  -Wl,--start-group ${mgpMlirStatic} ${mgpLlvmStatic} -Wl,--end-group
  -lz -lzstd -lm ${CMAKE_DL_LIBS} -pthread)
# --gc-sections drops the unreferenced functions of the archives (LLVM and
# MLIR are built with -ffunction-sections): a third of mgpc's text, and
# less for the process to map at start-up.
target_link_options(mgp_llvm_libs INTERFACE -Wl,--as-needed -Wl,--gc-sections)

# Executables (mgpc, mgp-run, mgp-opt, the tests) link libstdc++ and libgcc in
# and are not position independent: the dynamic loader then neither resolves
# libstdc++'s symbols nor applies the 64,000 relative relocations of a PIE at
# every start. `mgpc --version` takes 2.4 ms instead of 3.7 and a small
# kernel compiles 2 ms sooner (docs/triton-suite-compile-time.md).
# libmgp.so stays as it was: it shares the host process's libstdc++.
string(APPEND CMAKE_EXE_LINKER_FLAGS " -static-libstdc++ -static-libgcc -no-pie")

# lld links the ~700 archives several times faster than GNU ld.
find_program(MGP_LLD ld.lld PATHS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
if(MGP_LLD)
  target_link_options(mgp_llvm_libs INTERFACE -B${LLVM_TOOLS_BINARY_DIR} -fuse-ld=lld)
  message(STATUS "MGP_PORTABLE: linking with ${MGP_LLD}")
endif()

# The functions that a compile runs, hottest first, at the start of the text
# (cmake/portable-symbol-order.tar.xz, written by tools/symbol-order.py from
# callgrind profiles of mgpc on the Triton suite): a small kernel's compile
# then faults in a few hundred pages of mgpc's 36 MB of text instead of
# scattered ones, 1.2x faster over the suite (docs/triton-suite-compile-time.md).
# The file's hash is in its name so that a new order relinks.
set(mgpOrderArchive ${CMAKE_CURRENT_LIST_DIR}/portable-symbol-order.tar.xz)
if(MGP_LLD AND EXISTS ${mgpOrderArchive})
  file(MD5 ${mgpOrderArchive} mgpOrderHash)
  set(mgpOrderDir ${CMAKE_BINARY_DIR}/symbol-order-${mgpOrderHash})
  if(NOT EXISTS ${mgpOrderDir}/portable-symbol-order.txt)
    file(ARCHIVE_EXTRACT INPUT ${mgpOrderArchive} DESTINATION ${mgpOrderDir})
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${mgpOrderArchive})
  set(MGP_SYMBOL_ORDER_FILE ${mgpOrderDir}/portable-symbol-order.txt)
  target_link_options(mgp_llvm_libs INTERFACE
    -Wl,--symbol-ordering-file=${MGP_SYMBOL_ORDER_FILE}
    -Wl,--no-warn-symbol-ordering)
endif()

# fmt: Debian ships only libfmt.so. Use libfmt.a where there is one, otherwise
# fmt's header-only mode. Defining fmt::fmt here, before the top-level
# find_package(fmt), makes fmt's own config keep ours (it skips its targets
# when fmt::fmt exists), so `target_link_libraries(x fmt::fmt)` stays right.
find_path(MGP_FMT_INCLUDE fmt/format.h REQUIRED)
find_library(MGP_FMT_STATIC NAMES libfmt.a)
add_library(fmt::fmt-header-only INTERFACE IMPORTED)
set_target_properties(fmt::fmt-header-only PROPERTIES
  INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1
  INTERFACE_INCLUDE_DIRECTORIES ${MGP_FMT_INCLUDE})
if(MGP_FMT_STATIC)
  add_library(fmt::fmt STATIC IMPORTED)
  set_target_properties(fmt::fmt PROPERTIES
    IMPORTED_LOCATION ${MGP_FMT_STATIC}
    INTERFACE_INCLUDE_DIRECTORIES ${MGP_FMT_INCLUDE})
  message(STATUS "MGP_PORTABLE: fmt from ${MGP_FMT_STATIC}")
else()
  add_library(fmt::fmt INTERFACE IMPORTED)
  set_target_properties(fmt::fmt PROPERTIES
    INTERFACE_LINK_LIBRARIES fmt::fmt-header-only)
  message(STATUS "MGP_PORTABLE: no libfmt.a, fmt in header-only mode")
endif()

# At the end of the configure step, fail on any target that links an imported
# MLIR/LLVM target itself (see the rule at the top of this file).
function(mgp_check_no_imported_llvm dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(target IN LISTS targets)
    get_target_property(libs ${target} LINK_LIBRARIES)
    get_target_property(ilibs ${target} INTERFACE_LINK_LIBRARIES)
    foreach(lib IN LISTS libs ilibs)
      if(lib MATCHES "^(MLIR|LLVM)[A-Za-z0-9]*$" AND TARGET ${lib})
        get_target_property(imported ${lib} IMPORTED)
        if(imported)
          message(FATAL_ERROR "MGP_PORTABLE: target '${target}' links the imported "
                  "target '${lib}', which drags in the shared libLLVM. Link "
                  "mgp_llvm_libs instead (see cmake/MgpLLVM.cmake).")
        endif()
      endif()
    endforeach()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    mgp_check_no_imported_llvm(${sub})
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR}
               CALL mgp_check_no_imported_llvm ${CMAKE_SOURCE_DIR})
