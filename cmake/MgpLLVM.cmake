# Finds LLVM/MLIR 22 and defines `mgp_llvm_libs`, the one target every mgp
# library links for LLVM and MLIR: the shared libLLVM/libMLIR in a development
# build (fast links), every static library by file with MGP_PORTABLE=ON.
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
else()
  file(GLOB mgpMlirStatic ${LLVM_LIBRARY_DIR}/libMLIR*.a)
  # C API, test-only and execution-engine libraries are never needed and
  # some of them define symbols that clash with the core libraries.
  list(FILTER mgpMlirStatic EXCLUDE REGEX "libMLIR(CAPI|Test|ExecutionEngine|JitRunner|Python|CRunnerUtils|RunnerUtils|.*Runtime|LspServer|MlirLsp|ToolsLsp|Float16Utils|SparseTensorRuntime|TableGen|Pdll|PDLLCodeGen|PDLLAST|PDLLODS|Reduce).*")
  execute_process(COMMAND ${LLVM_TOOLS_BINARY_DIR}/llvm-config --link-static
                          --libs nvptx ipo passes core irreader asmparser bitreader
                          bitwriter linker target mc support frontendopenmp
                  OUTPUT_VARIABLE mgpLlvmStatic OUTPUT_STRIP_TRAILING_WHITESPACE)
  separate_arguments(mgpLlvmStatic)
  target_link_libraries(mgp_llvm_libs INTERFACE
    -Wl,--start-group ${mgpMlirStatic} ${mgpLlvmStatic} -Wl,--end-group
    -Wl,-Bstatic -lfmt -Wl,-Bdynamic -lz -lzstd -ldl -lpthread)
  target_link_options(mgp_llvm_libs INTERFACE -static-libgcc -Wl,--as-needed)
endif()
