#include <cstdio>

#include "app/cli/args.h"
#include "app/cli/commands.h"
#include "core/io/decoded_json.h"
#include "core/io/pack_writer.h"
#include "core/runtime/pack.h"

namespace animpack::cli {

int decodeCommand(int argc, char** argv, int first) {
  Args args("decode", "PACK --clip NAME [--rate HZ] -o OUT.json",
            "Decodes one clip of a pack with the runtime and writes every frame's local transforms as JSON\n"
            "(README \"Command line\"; file units; frame f at start_time + f / sample_rate). With --rate HZ the\n"
            "frames are samples at start_time + k / HZ through the runtime's Player (k = 0 .. floor(duration x HZ)),\n"
            "for checks between frames. '-o -' writes to stdout.",
            {{"clip", "NAME", "the clip to decode"},
             {"rate", "HZ", "sample at this rate instead of the clip's frames (0 < HZ <= 10000)"},
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
  auto pack = runtime::Pack::load(args.positional()[0]);
  if (!pack) return failure(pack.message());
  const runtime::PackClip* clip = pack->findClip(*clipName);
  if (!clip) {
    std::string names;
    for (const auto& c : pack->clips()) names += (names.empty() ? "" : ", ") + c.name;
    return failure("no clip '" + *clipName + "' in '" + args.positional()[0] + "' (clips: " + names + ")");
  }
  const std::string json = core::decodedClipJson(*pack, *clip, rate);
  if (*output == "-") {
    std::fwrite(json.data(), 1, json.size(), stdout);
    return kExitOk;
  }
  if (auto st = core::writeFileAtomic(*output, std::span(reinterpret_cast<const std::uint8_t*>(json.data()), json.size())); !st)
    return failure(st.message());
  return kExitOk;
}

}  // namespace animpack::cli
