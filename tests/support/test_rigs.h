#pragma once
// Rigs the tests generate themselves (written as glTF), and paths to real test data.

#include <filesystem>
#include <string>
#include <vector>

#include "core/compress/track_encoding.h"
#include "core/io/asset_importer.h"
#include "tests/support/gltf_writer.h"

namespace animpack::test {

/// A file under the assimp-testmodels directory (Debian package assimp-testmodels).
std::filesystem::path model(const std::string& relative);
/// A per-process scratch directory, created on first use and removed at exit.
std::filesystem::path scratchDir();
/// Imports `path`, or ends the test run with the importer's message.
core::ImportedAsset importOrFail(const std::filesystem::path& path);
/// Writes `scene` to scratchDir()/name and returns the path.
std::filesystem::path writeScene(const GltfScene& scene, const std::string& name);

/// Scene -> Armature (x `armatureScale`, like Blender's FBX export) -> Hips -> Spine -> Head and
/// Hips -> LeftLeg -> LeftFoot, plus a skinned "Body" mesh. One LINEAR clip "Walk" of `frames`
/// keys at `rate` Hz animates Hips translation and every joint's rotation; a second clip "Wave"
/// animates only the head. Lengths inside the armature are in its own units (file metres).
GltfScene armatureRig(float armatureScale, int frames = 25, float rate = 25.f);
/// `scene` with every length (offsets, translation keys, mesh positions) times `size`: e.g.
/// scaledRig(armatureRig(1), 40) is a character 52 m tall in file metres, with 17 m bones.
GltfScene scaledRig(GltfScene scene, float size);
/// armatureRig with its Body mesh bound in the armature's own space, as Blender's FBX export binds
/// it: positions divided by the armature's scale and inverse binds that take the scale back, so the
/// skinned mesh sits where armatureRig's does while its raw vertices are x`armatureScale` off.
GltfScene armatureSpaceRig(float armatureScale);
/// armatureRig(1, frames) with only its "Walk" clip, named `clipName`: a file of one take as DCC
/// tools export them (every file's clip carrying the same name, such as "Take 001").
GltfScene singleTakeRig(int frames, const std::string& clipName = "Take 001");
/// `scene` without its first node, an identity root: its children become roots of their own, so
/// the file has several roots (Assimp then adds a root of its own). unrootedRig(armatureRig(1)) has
/// the roots Armature and Body.
GltfScene unrootedRig(GltfScene scene);
/// `scene` under one new root node "SceneRoot" scaled `scale` on every axis (glTF: the scene's
/// only root): Assimp's scene root, which stays out of the skeleton (docs/IMPORT.md "Scene scale").
GltfScene wrappedRig(GltfScene scene, float scale);
/// Writes `scene` to `path`, creating its folders; false on I/O failure.
bool writeSceneAt(const GltfScene& scene, const std::filesystem::path& path);

/// How keyTimingRig places its keys (the cases of docs/IMPORT.md "What gets imported").
enum class KeyTiming {
  Regular,     ///< every channel at k / 30 s
  Drifting,    ///< k / 30.0006 s plus a jitter of up to 0.4 % of a step (an exporter's float rounding)
  Mixed,       ///< one channel every frame at 30 Hz, one every third frame, one on a 24 Hz grid of its own
  MixedApart,  ///< as Mixed with the third channel's grid 0.37 of its step later: no grid holds every key
  Irregular,   ///< every channel at times 0.6 to 1.4 steps apart
};
/// How bipedRig keys its walk.
enum class BipedKeys {
  Grid,      ///< every channel at k / 30 s
  OwnTimes,  ///< every channel at times of its own, 0.6 to 1.4 steps of 30 Hz apart
  Thinned,   ///< the 30 Hz keys an exporter's key reduction keeps (a line through the kept keys misses
             ///< no dropped key by over half a degree or 0.5 mm): fewer keys, on no regular spacing
};
/// A walking biped of bipedJointCount() joints (Hips > Spine > Chest > Neck > Head, shoulders, arms
/// and hands, legs and feet), no mesh: clip "Walk", 3 s, every joint's rotation and the hips'
/// translation an analytic function of time, keyed as `keys` says (docs/PERFORMANCE.md "Key grids").
GltfScene bipedRig(BipedKeys keys);
int bipedJointCount();
/// A scene's mean key rate: key intervals per second, averaged over its channels (what ACL is given
/// a clip sampled at, docs/PERFORMANCE.md "Key grids").
double meanKeyRate(const GltfScene& scene);
/// A chain Root > Upper > Lower > Tip moving 2 s of smooth motion, keyed as `timing` says, whose
/// Tip turns 170 degrees between two keys at 1 s; clip "Keys".
GltfScene keyTimingRig(KeyTiming timing);
/// Expected local transform of joint `node` (a GltfScene node index) in clip "Walk" at key `frame`.
core::Transform armatureRigKey(const GltfScene& scene, int node, int frame);
/// armatureRig (scale 1) with layers on one rig: "Idle" (the Walk motion of every joint), "Upper"
/// (Idle plus a wave of Spine and Head: the legs and hips move exactly as in Idle) and the Walk/Wave
/// clips renamed "Walk"/"Wave", for additive clips (docs/SETTINGS.md `additive_base`).
GltfScene layeredRig(int frames = 25, float rate = 25.f);
/// A chain of `links` joints `lengthM` metres long in all, from "Root" to "Link<links>", no mesh: clip
/// "Idle" sways every link slowly, "Swing" adds a fast swing about another axis on top of it (for
/// tight precisions on long levers, absolute and additive on Idle).
GltfScene longChainRig(int links = 5, float lengthM = 2.f, int frames = 48, float rate = 30.f);
/// armatureRig(1, 25) whose Body mesh has four morph targets: "Smile" (2 cm at weight 1), "Blink" (1 cm),
/// an unnamed one (0.5 cm, default weight 0.25) and a second "Smile" (3 cm); its "Walk" clip animates
/// all four weights at every frame (morphRigWeight), "Wave" none.
GltfScene morphRig();
/// The weight morphRig's Walk gives target `target` at frame `frame`.
float morphRigWeight(int target, int frame);
/// How a face target's weight moves in faceRig's "Talk" clip.
enum class FaceCurveKind {
  Smooth,    ///< a sum of two slow sines, inside 0..1
  Blink,     ///< 0, or 1 for 3-4 frames with a one-frame rise and fall (eyeBlinkLeft/Right)
  Bump,      ///< exactly 0 but for one or two smooth bumps of 0.3-1.0 over 10-20 frames
  Constant,  ///< one non-zero weight the whole clip (not its rest weight)
  Rest,      ///< never animated: keyed at its rest weight the whole clip
};
/// One of faceRig's morph targets.
struct FaceTarget {
  std::string name;       ///< an ARKit blend-shape name; the imported curve is "Face/" + name
  double displacementCm;  ///< cm, the largest vertex displacement at weight 1 (object space)
  float restWeight;       ///< mesh.weights
  FaceCurveKind kind;
};
/// faceRig's number of morph targets (52).
int faceTargetCount();
/// Target `target` (0 <= target < faceTargetCount()), in the mesh's order.
FaceTarget faceTarget(int target);
/// A head: Scene -> Neck -> Head -> Jaw, and Scene -> "Face", an identity node with a skinned head
/// mesh (738 vertices, skinned to Head and Jaw) and faceTargetCount() ARKit-named morph targets, each
/// moving a local region of vertices. Two LINEAR clips of `frames` keys at `rate` Hz (key k at k / rate
/// s), keyed at every frame for every target: "Talk" (head and neck turn gently; weights as
/// FaceCurveKind says, faceWeight) and "Idle" (neck and head sway; only the blinks, browInnerUp and
/// mouthSmileLeft/Right move, faceIdleWeight). Lengths in metres. frames >= 2.
GltfScene faceRig(int frames = 180, float rate = 30.f);
/// The weight faceRig(frames, rate)'s Talk clip gives `target` at `seconds` from its first key, in
/// double precision: the generator's formula at each key (key k at k / rate exactly; the file stores
/// the key as a float; within 1e-9 frames of a key gives the key), linear between keys as glTF LINEAR,
/// held before the first and after the last.
double faceWeight(int target, double seconds, int frames = 180, float rate = 30.f);
/// faceWeight for the Idle clip.
double faceIdleWeight(int target, double seconds, int frames = 180, float rate = 30.f);
/// faceRig's head with one clip, "Capture" (`frames` keys at `rate` Hz, every target keyed at every
/// frame), shaped like a facial capture (docs/PERFORMANCE.md "Morph targets"): each of the 52 weights
/// rests at its own level, drifts slowly (two sines, periods 3-20 s), carries per-frame sensor noise
/// with a standard deviation of `noise` x its weight tolerance at the default precision
/// (faceCaptureTolerance), and the blinks step up and down within a frame or two every 3.2 s;
/// clamped to 0..1. Deterministic: the same file on every run.
GltfScene faceCaptureRig(int frames = 600, float rate = 30.f, double noise = 1.5);
/// The weight faceCaptureRig's clip gives `target` at `seconds` (as faceWeight: its keys, linear between).
double faceCaptureWeight(int target, double seconds, int frames = 600, float rate = 30.f, double noise = 1.5);
/// Target `target`'s weight tolerance at the default precision (0.01 cm): 0.01 / its displacement in cm.
double faceCaptureTolerance(int target);
/// A single animated node whose second rotation key is NaN.
GltfScene nanRig();
/// `count` animated nodes under one root.
GltfScene manyJointsRig(int count);
/// A skinned-mesh node named "Hips" listed before the armature whose root bone is also "Hips":
/// Scene -> Hips (mesh), Scene -> Armature -> Hips -> Spine. Clip "Move" translates the bone Hips
/// by sharedNameRigOffset(key) over 5 keys at 10 Hz and turns Spine.
GltfScene sharedNameRig();
core::Vec3 sharedNameRigOffset(int key);
/// A walker for root motion: Scene -> Hips -> Spine -> Head and Hips -> LeftLeg -> LeftFoot, no
/// mesh. One LINEAR clip "Walk" of `frames` keys at `rate` Hz: Hips moves walkerStride() metres
/// along +X in a straight line at constant speed (bobbing up and down) while it turns `turnDeg`
/// degrees about +Y at a constant rate and rocks about its X axis; the other joints swing.
GltfScene walkerRig(float turnDeg, int frames = 31, float rate = 30.f);
/// Metres Hips travels in walkerRig's clip, first key to last.
inline constexpr float walkerStride() { return 1.2f; }
/// Nodes and a mesh but no bone and no animation.
GltfScene staticRig();

/// armatureRig(1, 90, 30 Hz) imported, its Walk clip's head spinning one and a half turns (a range
/// no three components hold: keys change their largest component and sign, so keyed windows rebuilt
/// from a snapshot can hold the same keys negated).
core::ImportedAsset spinningArmature();
/// `asset`'s first clip written with every animated track of one storage kind (keyed or uniform,
/// encoded directly at 1e-4, or timed: keys every 1.5 frames within 2e-2, odd joints' rotations as float32), so a test
/// controls the kind; `snapshotFrames` apart seek snapshots.
std::vector<std::uint8_t> clipOfOneKind(const core::ImportedAsset& asset, core::TrackKind kind,
                                        std::uint32_t snapshotFrames);

}  // namespace animpack::test
