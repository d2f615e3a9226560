#pragma once
// Drives the public API (animpack/player.h) with random spans, times, weights and clips over one
// pack: the libFuzzer target fuzz_api (tests/fuzz) and the corpus replay (tst_runtime_fuzz_replay).
// Input: a 64-byte call script, then the pack's bytes. Any call that refuses must leave the
// caller's buffers as they were, and one that succeeds must write no further than the clip's joints
// and curves; a broken rule aborts (a crash the fuzzer reports).

#include <cstddef>
#include <cstdint>

namespace animpack::test {

inline constexpr std::size_t kApiScriptBytes = 64;

/// Runs the calls; returns how many succeeded (the rest were refused).
int driveApi(const std::uint8_t* data, std::size_t size);

}  // namespace animpack::test
