#include "tests/support/source_check.h"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <map>

#include "core/compress/compress_setup.h"
#include "core/compress/compressor.h"
#include "core/runtime/additive.h"
#include "core/runtime/player.h"
#include "core/runtime/root_motion.h"

namespace animpack::test {
namespace {

using Affine = Eigen::Transform<double, 3, Eigen::Affine>;

Affine fromAssimp(const aiMatrix4x4& m) {
  Affine a = Affine::Identity();
  const double v[16] = {m.a1, m.a2, m.a3, m.a4, m.b1, m.b2, m.b3, m.b4, m.c1, m.c2, m.c3, m.c4, m.d1, m.d2, m.d3, m.d4};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) a.matrix()(r, c) = v[r * 4 + c];
  return a;
}

Affine trs(const Eigen::Vector3d& t, const Eigen::Quaterniond& q, const Eigen::Vector3d& s) {
  Affine a = Affine::Identity();
  a.translate(t);
  a.rotate(q.normalized());
  a.scale(s);
  return a;
}

/// Fraction between keys i and i+1 at `ticks` (clamped), keys within 1e-6 relative are one time,
/// as animpack's importer documents.
template <typename Key>
double bracket(const Key* keys, unsigned count, double ticks, unsigned& i) {
  i = 0;
  if (count < 2 || ticks <= keys[0].mTime) return 0;
  if (ticks >= keys[count - 1].mTime) {
    i = count - 2;
    return 1;
  }
  while (i + 2 < count && keys[i + 1].mTime <= ticks) ++i;
  const double t0 = keys[i].mTime, t1 = keys[i + 1].mTime, eps = 1e-6 * std::max(1.0, std::fabs(ticks));
  return ticks <= t0 + eps ? 0.0 : ticks >= t1 - eps ? 1.0 : (ticks - t0) / (t1 - t0);
}

Eigen::Quaterniond slerpSines(Eigen::Quaterniond a, Eigen::Quaterniond b, double t) {
  a.normalize();
  b.normalize();
  double d = a.dot(b);
  if (d < 0) {
    b.coeffs() = -b.coeffs();
    d = -d;
  }
  if (d > 1 - 1e-15) return a;
  const double th = std::acos(std::min(1.0, d));
  Eigen::Quaterniond q;
  q.coeffs() = (std::sin((1 - t) * th) * a.coeffs() + std::sin(t * th) * b.coeffs()) / std::sin(th);
  return q.normalized();
}

Eigen::Quaterniond toEigen(const aiQuaternion& q) { return Eigen::Quaterniond(q.w, q.x, q.y, q.z); }
Eigen::Vector3d toEigen(const aiVector3D& v) { return {v.x, v.y, v.z}; }

/// One channel's keys, sorted by time.
struct Channel {
  std::vector<aiQuatKey> rotations;
  std::vector<aiVectorKey> positions, scales;
};

Eigen::Vector3d lerpKeys(const std::vector<aiVectorKey>& keys, double ticks) {
  unsigned i = 0;
  const double a = bracket(keys.data(), unsigned(keys.size()), ticks, i);
  if (keys.size() < 2) return toEigen(keys[0].mValue);
  return toEigen(keys[i].mValue) * (1 - a) + toEigen(keys[i + 1].mValue) * a;
}

/// A node's local matrix at `ticks`: its channel's keys interpolated, or its static matrix.
Affine nodeLocal(const aiNode* node, const Channel* ch, double ticks) {
  if (!ch) return fromAssimp(node->mTransformation);
  aiVector3D st, ss;
  aiQuaternion sr;
  node->mTransformation.Decompose(ss, sr, st);
  Eigen::Vector3d t = toEigen(st), s = toEigen(ss);
  Eigen::Quaterniond r = toEigen(sr);
  if (!ch->rotations.empty()) {
    unsigned i = 0;
    const double a = bracket(ch->rotations.data(), unsigned(ch->rotations.size()), ticks, i);
    r = ch->rotations.size() < 2
            ? toEigen(ch->rotations[0].mValue)
            : slerpSines(toEigen(ch->rotations[i].mValue), toEigen(ch->rotations[i + 1].mValue), a);
  }
  if (!ch->positions.empty()) t = lerpKeys(ch->positions, ticks);
  if (!ch->scales.empty()) s = lerpKeys(ch->scales, ticks);
  return trs(t, r, s);
}

Affine decodedLocal(const runtime::Transform& x) {
  return trs({x.translation.x, x.translation.y, x.translation.z},
             Eigen::Quaterniond(x.rotation.w, x.rotation.x, x.rotation.y, x.rotation.z),
             {x.scale.x, x.scale.y, x.scale.z});
}

}  // namespace

SourceCheck checkAgainstSource(const std::filesystem::path& file, const core::ImportedAsset& asset,
                               std::uint32_t clipIndex, const runtime::ClipView& view, std::span<const float> shellCm,
                               int subSteps, const runtime::ClipView* additiveBase, std::int32_t baseFrame) {
  SourceCheck out;
  Assimp::Importer importer;
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
  const aiScene* scene = importer.ReadFile(file.string(), aiProcess_Triangulate);
  if (!scene || clipIndex >= scene->mNumAnimations) {
    out.error = "cannot read " + file.string();
    return out;
  }
  const aiAnimation* anim = scene->mAnimations[clipIndex];
  const double tps = anim->mTicksPerSecond > 0 ? anim->mTicksPerSecond : 30.0;
  // Keys sorted by time (stable: keys at one time keep their order), as the importer reads them.
  std::vector<Channel> sorted(anim->mNumChannels);
  auto byTime = [](const auto& x, const auto& y) { return x.mTime < y.mTime; };
  for (unsigned c = 0; c < anim->mNumChannels; ++c) {
    const aiNodeAnim* ch = anim->mChannels[c];
    sorted[c].rotations.assign(ch->mRotationKeys, ch->mRotationKeys + ch->mNumRotationKeys);
    sorted[c].positions.assign(ch->mPositionKeys, ch->mPositionKeys + ch->mNumPositionKeys);
    sorted[c].scales.assign(ch->mScalingKeys, ch->mScalingKeys + ch->mNumScalingKeys);
    std::stable_sort(sorted[c].rotations.begin(), sorted[c].rotations.end(), byTime);
    std::stable_sort(sorted[c].positions.begin(), sorted[c].positions.end(), byTime);
    std::stable_sort(sorted[c].scales.begin(), sorted[c].scales.end(), byTime);
  }
  std::map<std::string, const Channel*> channels;
  double start = 1e300, end = -1e300;
  for (unsigned c = 0; c < anim->mNumChannels; ++c) {
    channels.emplace(anim->mChannels[c]->mNodeName.C_Str(), &sorted[c]);
    auto span = [&](const auto& keys) {
      for (const auto& k : keys) {
        start = std::min(start, k.mTime);
        end = std::max(end, k.mTime);
      }
    };
    span(sorted[c].rotations);
    span(sorted[c].positions);
    span(sorted[c].scales);
  }
  if (start > end) start = end = 0;
  const core::RawClip& clip = asset.clips[clipIndex];
  // The rule of docs/IMPORT.md "What gets imported", applied here on Assimp's own keys: a key list whose
  // keys all lie within 1 % of a step of the clip's frame grid has the grid's times.
  start = clip.startTime * tps;
  const double step = tps / clip.sampleRate;
  auto snap = [&](auto& keys) {
    auto residual = [&](double t) { return std::fabs((t - start) / step - std::round((t - start) / step)); };
    if (!std::all_of(keys.begin(), keys.end(), [&](const auto& k) { return residual(k.mTime) <= 0.01; })) return;
    for (auto& k : keys) k.mTime = std::min(start + std::round((k.mTime - start) / step) * step, end);
  };
  for (Channel& c : sorted) {
    snap(c.rotations);
    snap(c.positions);
    snap(c.scales);
  }
  const std::size_t joints = asset.skeleton.jointCount();
  // Joints follow the nodes in depth-first order; names the importer made unique ("name#index",
  // "joint#index" for an empty name) are matched by that order.
  // The hierarchy is the tree of child lists (some loaders' parent pointers disagree with it).
  std::vector<const aiNode*> order;
  std::map<const aiNode*, const aiNode*> parentOf;
  std::vector<const aiNode*> stack{scene->mRootNode};
  while (!stack.empty()) {
    const aiNode* n = stack.back();
    stack.pop_back();
    order.push_back(n);
    for (unsigned c = n->mNumChildren; c-- > 0;) {
      parentOf[n->mChildren[c]] = n;
      stack.push_back(n->mChildren[c]);
    }
  }
  std::vector<const aiNode*> nodes(joints);
  std::size_t next = 0;
  for (std::size_t j = 0; j < joints; ++j) {
    std::string name = asset.skeleton.names[j];
    const std::string suffix = "#" + std::to_string(j);
    const bool renamed =
        name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (renamed) name.resize(name.size() - suffix.size());
    for (; next < order.size() && !nodes[j]; ++next) {
      const std::string nodeName = order[next]->mName.C_Str();
      if (nodeName == name || (renamed && name == "joint" && nodeName.empty())) nodes[j] = order[next];
    }
    if (!nodes[j]) {
      out.error = "no node '" + asset.skeleton.names[j] + "'";
      return out;
    }
  }
  const bool rootIsJoint = nodes[0] == scene->mRootNode;
  // Object matrices of the source at frame position u: every node from the top (the scene root
  // only when it is a joint) down to the joint.
  auto sourceObject = [&](double u, std::vector<Affine>& object) {
    const double ticks = std::min(start + u * tps / clip.sampleRate, end);
    for (std::size_t j = 0; j < joints; ++j) {
      Affine m = Affine::Identity();
      for (const aiNode* n = nodes[j]; n && (n != scene->mRootNode || rootIsJoint);
           n = parentOf.count(n) ? parentOf.at(n) : nullptr) {
        const auto it = channels.find(n->mName.C_Str());
        m = nodeLocal(n, it == channels.end() ? nullptr : it->second, ticks) * m;
      }
      object[j] = m;
    }
  };
  std::vector<Affine> src(joints), dec(joints);
  sourceObject(0, src);
  std::vector<std::array<Eigen::Vector3d, 3>> shell(joints);
  for (std::size_t j = 0; j < joints; ++j)
    for (int a = 0; a < 3; ++a) {
      const double len = src[j].linear().col(a).norm();
      shell[j][std::size_t(a)] =
          Eigen::Vector3d::Unit(a) * (double(shellCm[j]) / asset.unitToCm / (len > 1e-12 ? len : 1.0));
    }
  out.jointMaxAtFramesCm.assign(joints, 0.0);
  runtime::Player player, basePlayer;
  runtime::RootMotionScratch rootScratch;
  std::vector<runtime::Transform> pose(joints);
  std::vector<runtime::Transform> base(asset.skeleton.restLocal.begin(), asset.skeleton.restLocal.end());
  const std::uint32_t frames = clip.frameCount;
  for (std::uint32_t f = 0; f < frames; ++f)
    for (int k = 0; k < (f + 1 < frames ? subSteps : 1); ++k) {
      const float u = static_cast<float>(f) + static_cast<float>(k) / static_cast<float>(subSteps);
      sourceObject(double(u), src);
      player.sampleFrame(view, u, pose);
      runtime::applyRootMotionAtFrame(player, view, u, asset.skeleton.parents, pose,
                                      rootScratch);  // the pose decode gives
      if (view.additive()) {
        if (additiveBase)
          basePlayer.sampleFrame(*additiveBase,
                                 runtime::additiveBaseFrame(*additiveBase, baseFrame, u / view.sampleRate()), base);
        runtime::applyAdditive(base, pose, 1.f, pose);
      }
      for (std::size_t j = 0; j < joints; ++j) {
        const std::int32_t p = asset.skeleton.parents[j];
        dec[j] = p < 0 ? decodedLocal(pose[j]) : dec[std::size_t(p)] * decodedLocal(pose[j]);
        double worst = 0;
        for (const auto& v : shell[j]) worst = std::max(worst, (dec[j] * v - src[j] * v).norm());
        const double cm = worst * asset.unitToCm;
        if (k == 0) {
          out.maxAtFramesCm = std::max(out.maxAtFramesCm, cm);
          out.jointMaxAtFramesCm[j] = std::max(out.jointMaxAtFramesCm[j], cm);
        }
        if (cm > out.maxCm) {
          out.maxCm = cm;
          out.worstJoint = asset.skeleton.names[j];
          out.worstFrame = u;
        }
      }
    }
  return out;
}

std::string compressAndCheck(const std::filesystem::path& file, int subSteps, double* worstCm) {
  const auto asset = core::importAsset(file);
  if (!asset) return asset.message();
  std::string problems;
  double worst = 0;
  for (std::uint32_t c = 0; c < asset->clips.size(); ++c) {
    const core::RawClip& raw = asset->clips[c];
    const core::EffectiveSettings settings = core::resolve({}, asset->skeleton, raw.name);
    auto compressed = core::makeCompressJob(*asset, raw, settings).run();
    if (!compressed) return raw.name + ": " + compressed.message();
    auto view = runtime::ClipView::open(compressed->data, asset->skeleton.restLocal);
    if (!view) return raw.name + ": " + view.message();
    std::vector<float> shells;
    for (const auto& j : settings.joints) shells.push_back(j.shellCm);
    const SourceCheck check = checkAgainstSource(file, *asset, c, *view, shells, subSteps);
    if (!check.error.empty()) return check.error;
    worst = std::max(worst, check.maxCm);
    if (check.maxCm > double(core::kDefaultPrecisionCm) * 1.001)
      problems += raw.name + ": " + std::to_string(check.maxCm) + " cm at " + check.worstJoint + ", frame " +
                  std::to_string(check.worstFrame) + " (animpack measured " +
                  std::to_string(compressed->stats.maxErrorCm) + " cm); ";
  }
  if (worstCm) *worstCm = worst;
  return problems;
}

}  // namespace animpack::test
