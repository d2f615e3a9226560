#pragma once
// One function per animpack subcommand; each parses its own arguments (argv[first..]).

namespace animpack::cli {

int inspectCommand(int argc, char** argv, int first);
int compressCommand(int argc, char** argv, int first);
int decodeCommand(int argc, char** argv, int first);
int sampleCommand(int argc, char** argv, int first);
int dumpCommand(int argc, char** argv, int first);
int verifyCommand(int argc, char** argv, int first);
int benchCommand(int argc, char** argv, int first);
int mergeCommand(int argc, char** argv, int first);
int upgradeCommand(int argc, char** argv, int first);
int projectCommand(int argc, char** argv, int first);
int approveCommand(int argc, char** argv, int first);
int buildCommand(int argc, char** argv, int first);
int reportCommand(int argc, char** argv, int first);

}  // namespace animpack::cli
