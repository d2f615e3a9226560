# `cmake --install` puts the runtime (headers + static library + CMake package) and the CLI in the
# prefix, so a game build can find_package(animpack), link animpack::runtime and build packs with
# animpack_add_pack (cmake/AnimpackPack.cmake).
include(CMakePackageConfigHelpers)

# The runtime's public headers alone (animpack/*.h); its own headers stay in the source tree.
install(TARGETS animpack_runtime EXPORT animpackTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/core/runtime/include/animpack DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/core/runtime/FORMAT.md DESTINATION ${CMAKE_INSTALL_DATADIR}/animpack)
install(TARGETS animpack RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET animpack-studio)
  install(TARGETS animpack-studio RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/presets DESTINATION ${CMAKE_INSTALL_DATADIR}/animpack)

install(EXPORT animpackTargets NAMESPACE animpack:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/animpack)
set(ANIMPACK_WITH_CLI ON)
configure_package_config_file(${PROJECT_SOURCE_DIR}/core/runtime/animpackConfig.cmake.in
  ${PROJECT_BINARY_DIR}/animpackConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/animpack
  PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/animpackConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/animpackConfig.cmake ${PROJECT_BINARY_DIR}/animpackConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/AnimpackPack.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/animpack)
