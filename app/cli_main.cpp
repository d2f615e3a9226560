// animpack: the command-line batch tool (README "Command line"; commands in app/cli/).

#include <cstdio>
#include <cstring>
#include <string>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "core/io/isolated_import.h"

namespace {

struct Command {
  const char* name;
  int (*run)(int, char**, int);
  const char* summary;
};

const Command kCommands[] = {
    {"inspect", animpack::cli::inspectCommand, "show a file's skeleton, clips, meshes, unit and diagnostics"},
    {"compress", animpack::cli::compressCommand, "compress animation files into a pack, verified against the source"},
    {"merge", animpack::cli::mergeCommand, "merge packs of one skeleton built separately into one"},
    {"upgrade", animpack::cli::upgradeCommand, "rewrite a pack of an older format version in the current one"},
    {"decode", animpack::cli::decodeCommand, "write a clip of a pack as per-frame JSON"},
    {"sample", animpack::cli::sampleCommand, "write a file's uncompressed clip in the decode JSON"},
    {"dump", animpack::cli::dumpCommand, "show a pack's header, skeleton, clips, section sizes and track kinds"},
    {"verify", animpack::cli::verifyCommand, "validate a pack; with its sources, measure every joint's error"},
    {"project", animpack::cli::projectCommand, "create a project of many files, add or remove files (docs/PROJECT.md)"},
    {"approve", animpack::cli::approveCommand, "measure a project's clips and approve them as they are"},
    {"build", animpack::cli::buildCommand, "build a project's pack: depfile, report, approvals, budget, cache"},
    {"report", animpack::cli::reportCommand, "write a project's review packet: one self-contained HTML file"},
    {"bench", animpack::cli::benchCommand, "time decoding a pack: forward, backward, random, blended, raw"},
};

void printUsage(FILE* out) {
  std::fprintf(out, "usage: animpack COMMAND [ARGS...]\n\nSkeletal-animation compression.\n\ncommands:\n");
  for (const Command& c : kCommands) std::fprintf(out, "  %-10s %s\n", c.name, c.summary);
  std::fprintf(out, "\n'animpack COMMAND --help' describes a command.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    printUsage(stderr);
    return animpack::cli::kExitUsage;
  }
  const std::string name = argv[1];
  // Not a command: the child process `compress`, `inspect` and the studio import through.
  if (name == animpack::core::kImportChildCommand) return animpack::core::runImportChild(argc, argv, 2);
  if (name == "--help" || name == "-h" || name == "help") {
    printUsage(stdout);
    return animpack::cli::kExitOk;
  }
  if (name == "--version") {
    std::printf("animpack %s\n", ANIMPACK_VERSION);
    return animpack::cli::kExitOk;
  }
  for (const Command& c : kCommands)
    if (name == c.name) {
      try {
        return c.run(argc, argv, 2);
      } catch (const std::exception& e) {
        return animpack::cli::failure(std::string("internal error: ") + e.what());
      }
    }
  std::fprintf(stderr, "animpack: unknown command '%s'\n\n", name.c_str());
  printUsage(stderr);
  return animpack::cli::kExitUsage;
}
