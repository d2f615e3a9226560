# Cross toolchain for the runtime on 64-bit Arm Linux (Debian's g++-aarch64-linux-gnu); the tests run
# through qemu-user (qemu-aarch64 with the cross libc under /usr/aarch64-linux-gnu).
#   cmake -S core/runtime -B B -DCMAKE_TOOLCHAIN_FILE=core/runtime/cmake/aarch64-linux-gnu.cmake
# scripts/test-runtime-targets uses it for its aarch64 target.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(ANIMPACK_CROSS_TRIPLE aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${ANIMPACK_CROSS_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${ANIMPACK_CROSS_TRIPLE}-g++)

# The target's headers and libraries only from the cross sysroot; programs from the host.
set(CMAKE_FIND_ROOT_PATH /usr/${ANIMPACK_CROSS_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# ctest (and add_custom_command) run the target's programs through qemu-user.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/${ANIMPACK_CROSS_TRIPLE})
