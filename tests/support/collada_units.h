#pragma once
// A real COLLADA file in another unit, for the tests of units Assimp folds into the scene root
// (docs/IMPORT.md "Scene scale").

#include <filesystem>
#include <string>

namespace animpack::test {

/// assimp-testmodels' Collada/box_nested_animation.dae (an animated file in metres) with its unit
/// changed to centimetres, written to scratchDir()/name; empty if the model is not as expected.
std::filesystem::path colladaInCentimetres(const std::string& name);

}  // namespace animpack::test
