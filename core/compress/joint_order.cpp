#include "core/compress/joint_order.h"

#include <algorithm>
#include <memory>

#include "core/anim/source_clip.h"
#include "core/compress/settings.h"

namespace animpack::core {

namespace {

std::vector<int> depths(std::span<const std::int32_t> parents) {
  std::vector<int> d(parents.size(), 0);
  for (std::size_t j = 0; j < parents.size(); ++j)
    if (parents[j] >= 0) d[j] = d[std::size_t(parents[j])] + 1;  // parents come first
  return d;
}

/// Appends `joint` after its ancestors that are not placed yet.
void place(const Skeleton& skeleton, std::int32_t joint, std::vector<bool>& placed, std::vector<std::int32_t>& out) {
  std::vector<std::int32_t> chain;
  for (std::int32_t j = joint; j >= 0 && !placed[std::size_t(j)]; j = skeleton.parents[std::size_t(j)])
    chain.push_back(j);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    placed[std::size_t(*it)] = true;
    out.push_back(*it);
  }
}

}  // namespace

Expected<std::vector<std::int32_t>> jointOrder(const Skeleton& skeleton, const JointOrder& order) {
  const std::size_t n = skeleton.jointCount();
  std::vector<std::int32_t> out;
  out.reserve(n);
  std::vector<bool> placed(n, false);
  if (order.kind == JointOrder::Kind::List) {
    for (const std::string& entry : order.first) {
      if (const std::int32_t exact = skeleton.find(entry); exact >= 0) {
        place(skeleton, exact, placed, out);
        continue;
      }
      bool matched = false;
      for (std::size_t j = 0; j < n; ++j)
        if (isWildcard(entry) && wildcardMatch(entry, skeleton.names[j])) {
          matched = true;
          place(skeleton, std::int32_t(j), placed, out);
        }
      if (!matched) return Error{"lod: '" + entry + "' matches no joint of the skeleton"};
    }
  }
  std::vector<std::int32_t> rest;
  for (std::size_t j = 0; j < n; ++j)
    if (!placed[j]) rest.push_back(std::int32_t(j));
  if (order.kind != JointOrder::Kind::Source) {
    const std::vector<int> d = depths(skeleton.parents);
    std::ranges::stable_sort(rest, {}, [&](std::int32_t j) { return d[std::size_t(j)]; });
  }
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

namespace {

template <class T>
void permute(std::vector<T>& values, std::span<const std::int32_t> order) {
  std::vector<T> out;
  out.reserve(values.size());
  for (std::int32_t j : order) out.push_back(std::move(values[std::size_t(j)]));
  values = std::move(out);
}

void reorderClip(RawClip& clip, std::span<const std::int32_t> order) {
  const std::uint32_t joints = clip.jointCount;
  std::vector<Transform> samples(clip.samples.size());
  for (std::uint32_t f = 0; f < clip.frameCount; ++f)
    for (std::uint32_t k = 0; k < joints; ++k)
      samples[std::size_t(f) * joints + k] = clip.samples[std::size_t(f) * joints + std::size_t(order[k])];
  clip.samples = std::move(samples);
  if (clip.keyedChannels.size() == joints) permute(clip.keyedChannels, order);
  if (clip.source) {
    auto chains = clip.source->chains();
    permute(chains, order);
    clip.source = std::make_shared<const SourceClip>(clip.source->nodes(), std::move(chains), clip.source->startTicks(),
                                                     clip.source->ticksPerFrame(), clip.source->endTicks());
  }
}

}  // namespace

void reorderJoints(ImportedAsset& asset, std::span<const std::int32_t> order) {
  std::vector<std::int32_t> position(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) position[std::size_t(order[k])] = std::int32_t(k);
  Skeleton& sk = asset.skeleton;
  permute(sk.names, order);
  permute(sk.parents, order);
  for (std::int32_t& p : sk.parents)
    if (p >= 0) p = position[std::size_t(p)];
  permute(sk.restLocal, order);
  if (sk.inverseBind.size() == order.size()) permute(sk.inverseBind, order);
  for (RawClip& clip : asset.clips) reorderClip(clip, order);
  for (SkinnedMesh& mesh : asset.meshes) {
    for (VertexInfluences& v : mesh.influences)
      for (std::size_t i = 0; i < v.joints.size(); ++i)
        if (v.weights[i] != 0.f && v.joints[i] < position.size())
          v.joints[i] = static_cast<std::uint16_t>(position[v.joints[i]]);
    if (mesh.rigidJoint >= 0) mesh.rigidJoint = position[std::size_t(mesh.rigidJoint)];
  }
}

void matchJointOrder(ImportedAsset& asset, std::span<const std::string> names) {
  const Skeleton& own = asset.skeleton;
  if (own.jointCount() != names.size() || std::ranges::equal(own.names, names)) return;
  std::vector<std::int32_t> order, position(own.jointCount(), -1);
  for (const std::string& name : names) {
    const std::int32_t j = own.find(name);
    if (j < 0 || position[std::size_t(j)] >= 0) return;
    position[std::size_t(j)] = std::int32_t(order.size());
    order.push_back(j);
  }
  for (std::size_t k = 0; k < order.size(); ++k)  // parents first, or it is another skeleton
    if (const std::int32_t p = own.parents[std::size_t(order[k])];
        p >= 0 && position[std::size_t(p)] >= std::int32_t(k))
      return;
  reorderJoints(asset, order);
}

Status applyJointOrder(ImportedAsset& asset, const JointOrder& order) {
  if (order.kind == JointOrder::Kind::Source || asset.skeleton.jointCount() == 0) return Status::ok();
  auto o = jointOrder(asset.skeleton, order);
  if (!o) return Error{asset.file + ": " + o.message()};
  reorderJoints(asset, *o);
  const std::string how = order.kind == JointOrder::Kind::Depth
                              ? "by depth"
                              : "with " + std::to_string(order.first.size()) + " named joint(s) first, then by depth";
  asset.diagnostics.push_back(
      {Diagnostic::Severity::Info, "joints stored " + how +
                                       " (settings lod): the first N joints of a pose are a level of "
                                       "detail (docs/RUNTIME.md \"Levels of detail\")"});
  return Status::ok();
}

std::vector<std::uint32_t> depthLevels(std::span<const std::int32_t> parents) {
  const std::vector<int> d = depths(parents);
  std::vector<std::uint32_t> out;
  for (std::size_t j = 0; j < d.size(); ++j) {  // the last joint of each depth, then carried down
    if (out.size() <= std::size_t(d[j])) out.resize(std::size_t(d[j]) + 1, 0);
    out[std::size_t(d[j])] = std::uint32_t(j + 1);
  }
  for (std::size_t level = 1; level < out.size(); ++level) out[level] = std::max(out[level], out[level - 1]);
  return out;
}

std::string levelsText(std::span<const std::uint32_t> levels, std::size_t joints) {
  if (levels.empty()) return {};
  std::string out = "lod:       depth <= 0 in the first " + std::to_string(levels[0]);
  for (std::size_t d = 1; d < levels.size(); ++d)
    out += ", <= " + std::to_string(d) + " in " + std::to_string(levels[d]);
  return out + " of " + std::to_string(joints) + " joints\n";
}

}  // namespace animpack::core
