# The compiler's identity for the kernel cache: a hash of every source under
# compiler/ (cmake/HashSources.cmake), regenerated when any of them changes,
# as ${PROJECT_BINARY_DIR}/compiler/pipeline/CompilerHash.h. A target whose
# sources include that header depends on the custom target mgp_compiler_hash.
file(GLOB_RECURSE MGP_COMPILER_SOURCES CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/compiler/*.cpp ${PROJECT_SOURCE_DIR}/compiler/*.h
  ${PROJECT_SOURCE_DIR}/compiler/*.td ${PROJECT_SOURCE_DIR}/compiler/*.txt
  ${PROJECT_SOURCE_DIR}/compiler/*.ll ${PROJECT_SOURCE_DIR}/compiler/*.cmake)
set(MGP_COMPILER_HASH_HEADER
  ${PROJECT_BINARY_DIR}/compiler/pipeline/CompilerHash.h)
add_custom_command(OUTPUT ${MGP_COMPILER_HASH_HEADER}
  COMMAND ${CMAKE_COMMAND} -DOUT=${MGP_COMPILER_HASH_HEADER}
          -DROOT=${PROJECT_SOURCE_DIR} "-DFILES=${MGP_COMPILER_SOURCES}"
          -P ${PROJECT_SOURCE_DIR}/cmake/HashSources.cmake
  DEPENDS ${MGP_COMPILER_SOURCES} ${PROJECT_SOURCE_DIR}/cmake/HashSources.cmake
  COMMENT "Hashing the compiler sources (the kernel cache's compiler identity)"
  VERBATIM)
add_custom_target(mgp_compiler_hash DEPENDS ${MGP_COMPILER_HASH_HEADER})
