#include <algorithm>
#include <cstdio>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "app/cli/import_options.h"
#include "core/io/asset_importer.h"
#include "core/io/asset_json.h"

namespace animpack::cli {

int inspectCommand(int argc, char** argv, int first) {
  std::vector<Option> flags = {{"json", "", "print the JSON object (README's 'inspect --json') instead of text"},
                               {"unit-to-cm", "CM", "override the file's unit: centimetres per file unit"},
                               {"sample-rate", "HZ", "resample every clip at this rate instead of its key grid"},
                               {"lod", "ORDER",
                                "list the joints in the order settings `lod` stores them: source, depth, or joint "
                                "names and wildcards kept first, comma-separated (docs/SETTINGS.md)"}};
  for (Option& o : importOptions()) flags.push_back(std::move(o));
  Args args("inspect", "FILE [--json] [--unit-to-cm CM] [--sample-rate HZ] [--lod ORDER]",
            "Imports an animated rig through Assimp and prints its skeleton (tree), clips (duration, sample\n"
            "rate, frames, animated joints), meshes (vertices, influences), unit, scene-root transform and\n"
            "import diagnostics. Assimp runs in a child process: a file that crashes, hangs or exhausts it\n"
            "is an error naming the file and what happened.",
            flags);
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.positional().size() != 1) return usageError("inspect", "expected exactly one FILE");
  core::ImportOptions options;
  std::optional<double> unit, rate;
  std::string error;
  if (!args.number("unit-to-cm", unit, error) || !args.number("sample-rate", rate, error))
    return usageError("inspect", error);
  options.unitToCm = unit;
  options.sampleRate = rate;
  if (const std::string lod = args.value("lod").value_or(""); lod == "depth") {
    options.jointOrder.kind = core::JointOrder::Kind::Depth;
  } else if (!lod.empty() && lod != "source") {
    options.jointOrder.kind = core::JointOrder::Kind::List;
    for (std::size_t at = 0; at <= lod.size();) {
      const std::size_t comma = std::min(lod.find(',', at), lod.size());
      if (comma > at) options.jointOrder.first.push_back(lod.substr(at, comma - at));
      at = comma + 1;
    }
  }
  core::ImportFunction importFile;
  if (auto exit = readImporter(args, "inspect", importFile)) return *exit;
  const auto asset = importFile(args.positional()[0], options);
  if (!asset) return failure(asset.message());
  const std::string text = args.has("json") ? core::inspectJson(*asset) + "\n" : core::inspectText(*asset);
  std::fputs(text.c_str(), stdout);
  return kExitOk;
}

}  // namespace animpack::cli
