# animpack_add_pack(TARGET name PROJECT p.anproj OUTPUT out.anpk [REQUIRE_APPROVED] [REPORT r.json]
#                   [CACHE dir] [JOBS n]): builds a project's pack with `animpack build` as a custom
# command with a DEPFILE, so Ninja or Make rebuild it only when the project or one of its sources
# changes, and build several packs in parallel. Relative OUTPUT/REPORT paths are in the current
# binary directory, a relative PROJECT in the current source directory. The `animpack` executable is
# ANIMPACK_EXECUTABLE (set by find_package(animpack); override it to use another).
function(animpack_add_pack)
  cmake_parse_arguments(P "REQUIRE_APPROVED" "TARGET;PROJECT;OUTPUT;REPORT;CACHE;JOBS" "" ${ARGN})
  foreach(required TARGET PROJECT OUTPUT)
    if(NOT P_${required})
      message(FATAL_ERROR "animpack_add_pack: ${required} is required")
    endif()
  endforeach()
  if(P_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "animpack_add_pack: unknown arguments ${P_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ANIMPACK_EXECUTABLE)
    message(FATAL_ERROR "animpack_add_pack: ANIMPACK_EXECUTABLE is not set (find_package(animpack) sets it)")
  endif()
  get_filename_component(project "${P_PROJECT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(output "${P_OUTPUT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  set(depfile "${output}.d")
  set(args build "${project}" -o "${output}" --depfile "${depfile}" -q)
  if(P_REQUIRE_APPROVED)
    list(APPEND args --require-approved)
  endif()
  set(byproducts)
  if(P_REPORT)
    get_filename_component(report "${P_REPORT}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
    list(APPEND args --report "${report}")
    list(APPEND byproducts "${report}")
  endif()
  if(P_CACHE)
    list(APPEND args --cache "${P_CACHE}")
  endif()
  if(P_JOBS)
    list(APPEND args --jobs "${P_JOBS}")
  endif()
  add_custom_command(OUTPUT "${output}"
    BYPRODUCTS ${byproducts}
    COMMAND "${ANIMPACK_EXECUTABLE}" ${args}
    DEPENDS "${project}"
    DEPFILE "${depfile}"
    COMMENT "animpack: building ${P_OUTPUT} from ${P_PROJECT}"
    VERBATIM)
  add_custom_target(${P_TARGET} ALL DEPENDS "${output}")
endfunction()
