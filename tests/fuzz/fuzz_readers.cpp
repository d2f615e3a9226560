// The fuzz targets of core's readers: settings JSON, projects and the import stream (see fuzz_target.h).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/compress/settings.h"
#include "core/io/import_stream.h"
#include "core/project/project.h"
#include "core/runtime/hash.h"
#include "tests/fuzz/fuzz_target.h"

namespace animpack::test {
namespace {

[[noreturn]] void broken(const char* invariant) {
  std::fprintf(stderr, "fuzz invariant broken: %s\n", invariant);
  std::abort();
}

core::Skeleton smallSkeleton() {
  core::Skeleton s;
  s.names = {"Hips", "Spine", "Head", "foot_l", "Hand*"};
  s.parents = {-1, 0, 1, 0, 1};
  s.restLocal.resize(s.names.size());
  s.inverseBind.resize(s.names.size());
  return s;
}

}  // namespace

void fuzzSettings(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto settings = core::CompressionSettings::fromJson(text, "fuzz.json");
  if (!settings) {
    if (settings.message().empty()) broken("an error without a message");
    return;
  }
  const bool valid = bool(settings->validate());
  const std::string json = settings->toJson();
  auto again = core::CompressionSettings::fromJson(json, "fuzz-again.json");
  if (!again) broken("the JSON form of parsed settings does not parse");
  if (!(*again == *settings) || again->hash() != settings->hash()) broken("the JSON form parses to different settings");
  if (!valid) return;
  static const core::Skeleton skeleton = smallSkeleton();
  for (const char* clip : {"Idle", "Run_01", "", "*"}) (void)core::resolve(*settings, skeleton, clip).hash();
}

void fuzzProject(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::filesystem::path where = "/fuzz/character/p.anproj";
  auto project = core::parseProject(text, where);
  if (!project) {
    if (project.message().empty()) broken("an error without a message");
    return;
  }
  for (std::size_t i = 0; i <= project->sources.size(); ++i) (void)project->settingsFor(i).hash();
  (void)project->approval("walk", "Motion");
  const std::string json = core::projectJson(*project, where);
  auto again = core::parseProject(json, where);
  if (!again) broken("the JSON form of a parsed project does not parse");
  // Version 1 keys approvals by animation name; its version-2 form keeps the keys as they were.
  again->approvalsBySourceName = project->approvalsBySourceName;
  if (!(*again == *project)) broken("the JSON form parses to a different project");
  if (core::projectJson(*again, where) != json) broken("writing a project twice gives different JSON");
}

void fuzzImportStream(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  if (size >= core::kImportStreamHeaderBytes) {
    const std::uint64_t payload = size - core::kImportStreamHeaderBytes;
    const std::uint64_t checksum = runtime::fnv1a64(std::span(bytes).subspan(core::kImportStreamHeaderBytes));
    std::memcpy(bytes.data() + 16, &payload, sizeof(payload));
    std::memcpy(bytes.data() + 24, &checksum, sizeof(checksum));
  }
  auto asset = core::readImportStream(bytes, "fuzz");
  if (!asset) return;
  if (core::writeImportStream(*asset) != bytes) broken("a stream that reads does not write back to the same bytes");
}

}  // namespace animpack::test
