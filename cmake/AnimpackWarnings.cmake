# One warnings target every animpack target links (STYLE item 19).
add_library(animpack_warnings INTERFACE)
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

# Sanitizers apply to everything built in this tree (the sanitizer build only builds core and its tests).
if(ANIMPACK_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  add_compile_definitions(ANIMPACK_SANITIZE=1)
endif()
