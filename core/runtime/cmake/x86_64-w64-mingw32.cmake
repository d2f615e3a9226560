# Cross toolchain for the runtime on 64-bit Windows (Debian's g++-mingw-w64-x86-64, its posix thread
# model when installed); the tests run through wine (Debian's wine64 package puts wine64 in
# /usr/lib/wine, the wine package adds /usr/bin/wine). The tests link -static (tests/CMakeLists.txt).
#   cmake -S core/runtime -B B -DCMAKE_TOOLCHAIN_FILE=core/runtime/cmake/x86_64-w64-mingw32.cmake
# scripts/test-runtime-targets uses it for its windows target (it also sets WINEPREFIX and WINEDEBUG).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)

set(ANIMPACK_CROSS_TRIPLE x86_64-w64-mingw32)
find_program(ANIMPACK_MINGW_CXX NAMES ${ANIMPACK_CROSS_TRIPLE}-g++-posix ${ANIMPACK_CROSS_TRIPLE}-g++ NO_CMAKE_FIND_ROOT_PATH)
find_program(ANIMPACK_MINGW_CC NAMES ${ANIMPACK_CROSS_TRIPLE}-gcc-posix ${ANIMPACK_CROSS_TRIPLE}-gcc NO_CMAKE_FIND_ROOT_PATH)
if(ANIMPACK_MINGW_CXX)
  set(CMAKE_CXX_COMPILER ${ANIMPACK_MINGW_CXX})
else()
  set(CMAKE_CXX_COMPILER ${ANIMPACK_CROSS_TRIPLE}-g++)
endif()
if(ANIMPACK_MINGW_CC)
  set(CMAKE_C_COMPILER ${ANIMPACK_MINGW_CC})
else()
  set(CMAKE_C_COMPILER ${ANIMPACK_CROSS_TRIPLE}-gcc)
endif()
set(CMAKE_RC_COMPILER ${ANIMPACK_CROSS_TRIPLE}-windres)

# The target's headers and libraries only from the MinGW-w64 tree; programs from the host.
set(CMAKE_FIND_ROOT_PATH /usr/${ANIMPACK_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest runs the .exe files through wine (wine64 first: Debian's wine64 package alone has no /usr/bin/wine).
find_program(ANIMPACK_WINE NAMES wine64 wine HINTS /usr/lib/wine NO_CMAKE_FIND_ROOT_PATH)
if(ANIMPACK_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${ANIMPACK_WINE})
elseif(NOT CMAKE_IN_TRY_COMPILE)
  message(WARNING "wine is not installed (apt-get install wine64): the tests build but ctest cannot run them")
endif()
