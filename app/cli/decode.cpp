#include <cstdio>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "core/io/legacy.h"
#include "core/batch/clip_names.h"
#include "core/io/decoded_json.h"
#include "core/runtime/pack.h"

namespace animpack::cli {

int decodeCommand(int argc, char** argv, int first) {
  Args args(
      "decode", "PACK --clip NAME [--rate HZ] [--additive-deltas] -o OUT.json",
      "Decodes one clip of a pack with the runtime and writes every frame's local transforms as JSON\n"
      "(README \"Command line\"; file units; frame f at start_time + f / sample_rate). With --rate HZ the\n"
      "frames are samples at start_time + k / HZ through the runtime's Player (k = 0 .. floor(duration x HZ)),\n"
      "for checks between frames. A clip compressed with root_motion \"extract\" has its root motion folded back\n"
      "into its root joint (the source's pose); --no-root-motion writes the in-place tracks instead. No joint\n"
      "is ever added. An additive clip is written as the pose it makes on its base (base and deltas each\n"
      "sampled at the time, then applied: what a game shows, comparable with the source clip);\n"
      "--additive-deltas writes the stored deltas instead (docs/SETTINGS.md \"Keys\", additive_base). '-o -' writes to "
      "stdout.",
      {{"clip", "NAME|#N",
        "the clip: its pack name, a wildcard matching one clip, or #N (the N-th clip of the pack, from 0)"},
       {"rate", "HZ", "sample at this rate instead of the clip's frames (0 < HZ <= 10000)"},
       {"no-root-motion", "", "leave a clip's root motion out of its root joint (the in-place pose)"},
       {"additive-deltas", "", "an additive clip: write its deltas, not the pose applied on its base"},
       {"output", "OUT.json", "where to write the JSON", false, 'o'}});
  if (auto exit = args.parseOrExit(argc, argv, first)) return *exit;
  if (args.positional().size() != 1) return usageError("decode", "expected exactly one PACK");
  const auto clipName = args.value("clip");
  const auto output = args.value("output");
  if (!clipName) return usageError("decode", "missing --clip NAME");
  if (!output) return usageError("decode", "missing -o OUT.json");
  std::optional<double> rate;
  std::string error;
  if (!args.number("rate", rate, error)) return usageError("decode", error);
  if (rate && !(*rate > 0 && *rate <= 10000)) return usageError("decode", "--rate must be in (0, 10000] Hz");
  auto pack = runtime::Pack::load(args.positional()[0], runtime::anyVersion());
  if (!pack) return failure(pack.message());
  std::vector<core::ClipChoice> choices;
  for (const runtime::PackClip& c : pack->clips())
    choices.push_back({std::string(c.name()), std::string(c.sourceClip())});
  auto index = core::matchOneClip(*clipName, choices);
  if (!index) return failure("'" + args.positional()[0] + "': " + index.message());
  const std::string json = core::decodedClipJson(*pack, pack->clips()[*index], rate, !args.has("no-root-motion"),
                                                 args.has("additive-deltas"));
  return writeOutput(*output, json);
}

}  // namespace animpack::cli
