# The warnings target: core/runtime/cmake/AnimpackWarnings.cmake (the runtime builds alone with it too).
include(${PROJECT_SOURCE_DIR}/core/runtime/cmake/AnimpackWarnings.cmake)

# Sanitizers apply to everything built in this tree (the sanitizer build only builds core and its tests).
if(ANIMPACK_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  add_compile_definitions(ANIMPACK_SANITIZE=1)
endif()
