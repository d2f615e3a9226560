# One warnings target every animpack target links (STYLE item 19), the runtime's alone included.
if(TARGET animpack_warnings)
  return()
endif()
add_library(animpack_warnings INTERFACE)
if(NOT MSVC)
  target_compile_options(animpack_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow)
  # GCC 12 reports false positives inside libstdc++ at -O2: -Wrestrict in std::string concatenation
  # (GCC bug 105651) and -Warray-bounds / -Wstringop-overflow when a std::vector grows (GCC bugs
  # 107852, 106199). They are switched off for GCC 12 only.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(animpack_warnings INTERFACE -Wno-restrict -Wno-array-bounds -Wno-stringop-overflow)
  endif()
  if(ANIMPACK_WERROR)
    target_compile_options(animpack_warnings INTERFACE -Werror)
  endif()
endif()
