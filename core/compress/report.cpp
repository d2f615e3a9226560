#include "core/compress/report.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/compress/settings.h"

namespace animpack::core {

const char* channelName(int channel) {
  switch (channel) {
    case 0: return "rotation";
    case 1: return "translation";
    default: return "scale";
  }
}

ClipReport makeClipReport(const CompressedClip& clip, const Skeleton& skeleton, const std::string& file,
                          std::uint64_t compressedBytes) {
  const CompressionStats& s = clip.stats;
  ClipReport r;
  r.file = file;
  r.clip = clip.name;
  r.sourceClip = clip.name;
  r.clipIndex = clip.clipIndex;
  r.joints = static_cast<std::uint32_t>(skeleton.jointCount());
  r.frames = clip.frameCount;
  r.sampleRate = clip.sampleRate;
  r.rawBytes = s.rawBytes;
  r.compressedBytes = compressedBytes;
  r.maxErrorCm = s.maxErrorCm;
  r.maxErrorBetweenFramesCm = s.maxErrorBetweenFramesCm;
  r.p99ErrorCm = s.p99ErrorCm;
  r.worstJoint = s.worstJoint >= 0 ? skeleton.names[std::size_t(s.worstJoint)] : "";
  r.worstFrame = s.worstFrame;
  r.worstTimeS = s.worstTimeS;
  r.keys = s.keys;
  r.defaultTracks = s.defaultTracks;
  r.constantTracks = s.constantTracks;
  r.fittedTracks = s.keyedTracks;
  r.uniformTracks = s.uniformTracks;
  r.rawTracks = s.rawTracks;
  for (const PinnedReport& p : s.pinned) r.pinned.push_back({skeleton.names[p.joint], p.driftCm, p.driftUnpinnedCm});
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    const JointReport& jr = s.joints[j];
    for (int c = 0; c < 3; ++c)
      if (jr.wide[std::size_t(c)]) r.wideTracks.push_back(skeleton.names[j] + "." + channelName(c));
    if (!jr.withinPrecision) r.overPrecision.push_back({skeleton.names[j], jr.maxErrorCm, jr.precisionCm, jr.floorCm});
  }
  r.floorReason = s.floorReason;
  r.compressMs = s.compressMs;
  r.withinPrecision = s.withinPrecision;
  r.maxVertexErrorCm = s.maxVertexErrorCm;
  float strictest = std::numeric_limits<float>::infinity(), jointShare = 0;
  for (std::size_t j = 0; j < s.joints.size(); ++j) {
    const JointReport& jr = s.joints[j];
    r.jointSettings.push_back({skeleton.names[j], jr.precisionCm, jr.shellCm});
    strictest = std::min(strictest, jr.precisionCm);
    jointShare = std::max(jointShare, jr.maxErrorCm / jr.precisionCm);
  }
  if (r.maxVertexErrorCm >= 0 && !s.joints.empty()) r.skinBoundCm = kSkinBoundFactor * strictest;
  r.limitedBy = s.joints.empty()                                                       ? "morphs"
                : r.skinBoundCm > 0 && r.maxVertexErrorCm / r.skinBoundCm > jointShare ? "skin"
                                                                                       : "joints";
  r.loop = clip.loop;
  r.seamErrorCm = clip.loop ? s.seamErrorCm : -1.f;
  r.additiveBase = clip.additive.spelling();
  r.droppedLastFrame = clip.droppedLastFrame;
  if (const CurveReport& c = s.curves; !c.curves.empty()) {
    r.defaultCurves = c.defaultCurves;
    r.constantCurves = c.constantCurves;
    r.fittedCurves = c.keyedCurves;
    r.uniformCurves = c.uniformCurves + c.segmentedCurves;  // "uniform": a value every frame, either layout
    r.rawCurves = c.rawCurves;
    r.curveKeys = c.keys;
    r.curveBytes = c.bytes;
    r.maxMorphErrorCm = c.maxMorphErrorCm;
    r.worstCurve = c.worstCurve >= 0 ? c.names[std::size_t(c.worstCurve)] : "";
    for (std::size_t i = 0; i < c.curves.size(); ++i)
      if (!c.curves[i].withinPrecision)
        r.curvesOverPrecision.push_back({c.names[i], c.curves[i].maxErrorCm, c.curves[i].precisionCm});
  }
  if (const RootMotionReport& m = s.rootMotion; m.extracted)
    r.rootMotion = ClipReport::RootMotion{skeleton.names[m.joint], m.distanceCm, m.turnDeg, m.drift10CyclesCm,
                                          m.sourceDrift10CyclesCm};
  return r;
}

namespace {

/// An optional measure as JSON: null when negative (no skinned mesh, not looping).
nlohmann::ordered_json vertexErrorJson(float cm) {
  return cm < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(cm);
}

nlohmann::ordered_json rootMotionJson(const std::optional<ClipReport::RootMotion>& m) {
  if (!m) return nullptr;
  return {{"joint", m->joint},
          {"distance_cm", m->distanceCm},
          {"turn_deg", m->turnDeg},
          {"drift_10_cycles_cm", m->drift10CyclesCm},
          {"source_drift_10_cycles_cm", m->sourceDrift10CyclesCm}};
}

nlohmann::ordered_json toJson(const ClipReport& r) {
  using nlohmann::ordered_json;
  ordered_json pinned = ordered_json::array();
  for (const auto& p : r.pinned)
    pinned.push_back({{"joint", p.joint}, {"drift_cm", p.driftCm}, {"drift_unpinned_cm", p.driftUnpinnedCm}});
  ordered_json over = ordered_json::array();
  for (const auto& o : r.overPrecision)
    over.push_back(
        {{"joint", o.joint}, {"precision_cm", o.precisionCm}, {"max_error_cm", o.maxErrorCm}, {"floor_cm", o.floorCm}});
  ordered_json curvesOver = ordered_json::array();
  for (const auto& o : r.curvesOverPrecision)
    curvesOver.push_back({{"curve", o.curve}, {"precision_cm", o.precisionCm}, {"max_error_cm", o.maxErrorCm}});
  ordered_json jointSettings = ordered_json::array();
  for (const auto& t : r.jointSettings)
    jointSettings.push_back({{"joint", t.joint}, {"precision_cm", t.precisionCm}, {"shell_cm", t.shellCm}});
  return {{"file", r.file},
          {"clip", r.clip},
          {"source_clip", r.sourceClip},
          {"clip_index", r.clipIndex},
          {"joints", r.joints},
          {"frames", r.frames},
          {"sample_rate", r.sampleRate},
          {"raw_bytes", r.rawBytes},
          {"compressed_bytes", r.compressedBytes},
          {"resident_bytes", r.residentBytes},
          {"ratio", r.ratio()},
          {"max_error_cm", r.maxErrorCm},
          {"max_error_between_frames_cm", r.maxErrorBetweenFramesCm},
          {"p99_error_cm", r.p99ErrorCm},
          {"worst_joint", r.worstJoint},
          {"worst_frame", r.worstFrame},
          {"worst_time_s", r.worstTimeS},
          {"keys", r.keys},
          {"tracks",
           {{"default", r.defaultTracks},
            {"constant", r.constantTracks},
            {"fitted", r.fittedTracks},
            {"uniform", r.uniformTracks},
            {"raw", r.rawTracks}}},
          {"pinned", pinned},
          {"compress_ms", r.compressMs},
          {"within_precision", r.withinPrecision},
          {"wide_tracks", r.wideTracks},
          {"over_precision", over},
          {"floor_reason", r.floorReason.empty() ? ordered_json(nullptr) : ordered_json(r.floorReason)},
          {"max_vertex_error_cm", vertexErrorJson(r.maxVertexErrorCm)},
          {"skin_bound_cm", vertexErrorJson(r.skinBoundCm)},
          {"limited_by", r.limitedBy},
          {"joint_settings", jointSettings},
          {"loop", r.loop},
          {"seam_error_cm", vertexErrorJson(r.seamErrorCm)},
          {"dropped_last_frame", r.droppedLastFrame},
          {"root_motion", rootMotionJson(r.rootMotion)},
          {"additive_base", r.additiveBase.empty() ? ordered_json(nullptr) : ordered_json(r.additiveBase)},
          {"curves",
           {{"default", r.defaultCurves},
            {"constant", r.constantCurves},
            {"fitted", r.fittedCurves},
            {"uniform", r.uniformCurves},
            {"raw", r.rawCurves}}},
          {"curve_keys", r.curveKeys},
          {"curve_bytes", r.curveBytes},
          {"max_morph_error_cm", vertexErrorJson(r.maxMorphErrorCm)},
          {"worst_curve", r.worstCurve},
          {"curves_over_precision", curvesOver}};
}

}  // namespace

std::string clipReportToJson(const ClipReport& report) { return toJson(report).dump(); }

Expected<ClipReport> clipReportFromJson(const std::string& text) {
  try {
    const auto j = nlohmann::json::parse(text);
    ClipReport r;
    r.file = j.at("file").get<std::string>();
    r.clip = j.at("clip").get<std::string>();
    r.sourceClip = j.at("source_clip").get<std::string>();
    r.clipIndex = j.at("clip_index").get<std::uint32_t>();
    r.joints = j.at("joints").get<std::uint32_t>();
    r.frames = j.at("frames").get<std::uint32_t>();
    r.sampleRate = j.at("sample_rate").get<double>();
    r.rawBytes = j.at("raw_bytes").get<std::uint64_t>();
    r.compressedBytes = j.at("compressed_bytes").get<std::uint64_t>();
    r.residentBytes = j.value("resident_bytes", r.compressedBytes);  // reports before format version 5 have none
    r.maxErrorCm = j.at("max_error_cm").get<float>();
    r.maxErrorBetweenFramesCm = j.at("max_error_between_frames_cm").get<float>();
    r.p99ErrorCm = j.at("p99_error_cm").get<float>();
    r.worstJoint = j.at("worst_joint").get<std::string>();
    r.worstFrame = j.at("worst_frame").get<std::int32_t>();
    r.worstTimeS = j.at("worst_time_s").get<double>();
    r.keys = j.at("keys").get<std::uint64_t>();
    const auto& t = j.at("tracks");
    r.defaultTracks = t.at("default").get<std::uint32_t>();
    r.constantTracks = t.at("constant").get<std::uint32_t>();
    r.fittedTracks = t.at("fitted").get<std::uint32_t>();
    r.uniformTracks = t.at("uniform").get<std::uint32_t>();
    r.rawTracks = t.at("raw").get<std::uint32_t>();
    for (const auto& p : j.at("pinned"))
      r.pinned.push_back(
          {p.at("joint").get<std::string>(), p.at("drift_cm").get<float>(), p.at("drift_unpinned_cm").get<float>()});
    r.compressMs = j.at("compress_ms").get<double>();
    r.withinPrecision = j.at("within_precision").get<bool>();
    r.wideTracks = j.at("wide_tracks").get<std::vector<std::string>>();
    for (const auto& o : j.at("over_precision"))
      r.overPrecision.push_back({o.at("joint").get<std::string>(), o.at("max_error_cm").get<float>(),
                                 o.at("precision_cm").get<float>(), o.at("floor_cm").get<float>()});
    if (const auto v = j.find("floor_reason"); v != j.end() && v->is_string()) r.floorReason = v->get<std::string>();
    if (const auto v = j.find("max_vertex_error_cm"); v != j.end() && v->is_number())
      r.maxVertexErrorCm = v->get<float>();
    if (const auto v = j.find("skin_bound_cm"); v != j.end() && v->is_number()) r.skinBoundCm = v->get<float>();
    r.limitedBy = j.value("limited_by", std::string());
    if (const auto v = j.find("joint_settings"); v != j.end() && v->is_array())
      for (const auto& js : *v)
        r.jointSettings.push_back(
            {js.at("joint").get<std::string>(), js.at("precision_cm").get<float>(), js.at("shell_cm").get<float>()});
    r.loop = j.value("loop", false);
    if (const auto v = j.find("seam_error_cm"); v != j.end() && v->is_number()) r.seamErrorCm = v->get<float>();
    r.droppedLastFrame = j.value("dropped_last_frame", false);
    if (const auto m = j.find("root_motion"); m != j.end() && m->is_object())
      r.rootMotion = ClipReport::RootMotion{m->at("joint").get<std::string>(), m->at("distance_cm").get<float>(),
                                            m->at("turn_deg").get<float>(), m->at("drift_10_cycles_cm").get<float>(),
                                            m->at("source_drift_10_cycles_cm").get<float>()};
    if (const auto v = j.find("additive_base"); v != j.end() && v->is_string()) r.additiveBase = v->get<std::string>();
    if (const auto c = j.find("curves"); c != j.end() && c->is_object()) {
      r.defaultCurves = c->at("default").get<std::uint32_t>();
      r.constantCurves = c->at("constant").get<std::uint32_t>();
      r.fittedCurves = c->at("fitted").get<std::uint32_t>();
      r.uniformCurves = c->at("uniform").get<std::uint32_t>();
      r.rawCurves = c->at("raw").get<std::uint32_t>();
    }
    r.curveKeys = j.value("curve_keys", std::uint64_t(0));
    r.curveBytes = j.value("curve_bytes", std::uint64_t(0));
    if (const auto v = j.find("max_morph_error_cm"); v != j.end() && v->is_number())
      r.maxMorphErrorCm = v->get<float>();
    r.worstCurve = j.value("worst_curve", std::string());
    if (const auto v = j.find("curves_over_precision"); v != j.end() && v->is_array())
      for (const auto& o : *v)
        r.curvesOverPrecision.push_back(
            {o.at("curve").get<std::string>(), o.at("max_error_cm").get<float>(), o.at("precision_cm").get<float>()});
    return r;
  } catch (const std::exception& e) {
    return Error{std::string("not a clip report: ") + e.what()};
  }
}

std::string reportJson(const std::vector<ClipReport>& rows, std::uint64_t packBytes, std::uint64_t residentBytes,
                       const std::string& toolVersion) {
  using nlohmann::ordered_json;
  ordered_json clips = ordered_json::array();
  ordered_json failures = ordered_json::array();
  std::uint64_t raw = 0, compressed = 0, keys = 0, frames = 0;
  std::uint32_t tracks[5] = {0, 0, 0, 0, 0}, curves[5] = {0, 0, 0, 0, 0};
  std::uint64_t curveBytes = 0;
  double ms = 0;
  float maxError = 0, maxBetween = 0, maxP99 = 0, maxVertexError = -1, maxMorphError = -1;
  bool within = true;
  for (const ClipReport& r : rows) {
    if (!r.error.empty()) {
      failures.push_back({{"file", r.file}, {"clip", r.clip}, {"source_clip", r.sourceClip}, {"error", r.error}});
      within = false;
      continue;
    }
    clips.push_back(toJson(r));
    raw += r.rawBytes;
    compressed += r.compressedBytes;
    keys += r.keys;
    frames += r.frames;
    tracks[0] += r.defaultTracks;
    tracks[1] += r.constantTracks;
    tracks[2] += r.fittedTracks;
    tracks[3] += r.uniformTracks;
    tracks[4] += r.rawTracks;
    curves[0] += r.defaultCurves;
    curves[1] += r.constantCurves;
    curves[2] += r.fittedCurves;
    curves[3] += r.uniformCurves;
    curves[4] += r.rawCurves;
    curveBytes += r.curveBytes;
    maxMorphError = std::max(maxMorphError, r.maxMorphErrorCm);
    ms += r.compressMs;
    maxError = std::max(maxError, r.maxErrorCm);
    maxBetween = std::max(maxBetween, r.maxErrorBetweenFramesCm);
    maxP99 = std::max(maxP99, r.p99ErrorCm);
    maxVertexError = std::max(maxVertexError, r.maxVertexErrorCm);
    within = within && r.withinPrecision;
  }
  ordered_json doc;
  doc["tool_version"] = toolVersion;
  doc["clips"] = clips;
  doc["totals"] = {{"clips", clips.size()},
                   {"failed", failures.size()},
                   {"frames", frames},
                   {"raw_bytes", raw},
                   {"compressed_bytes", compressed},
                   {"resident_bytes", residentBytes},
                   {"ratio", compressed ? double(raw) / double(compressed) : 0.0},
                   {"max_error_cm", maxError},
                   {"max_error_between_frames_cm", maxBetween},
                   {"max_p99_error_cm", maxP99},
                   {"keys", keys},
                   {"tracks",
                    {{"default", tracks[0]},
                     {"constant", tracks[1]},
                     {"fitted", tracks[2]},
                     {"uniform", tracks[3]},
                     {"raw", tracks[4]}}},
                   {"compress_ms", ms},
                   {"within_precision", within},
                   {"max_vertex_error_cm", vertexErrorJson(maxVertexError)},
                   {"curves",
                    {{"default", curves[0]},
                     {"constant", curves[1]},
                     {"fitted", curves[2]},
                     {"uniform", curves[3]},
                     {"raw", curves[4]}}},
                   {"curve_bytes", curveBytes},
                   {"max_morph_error_cm", vertexErrorJson(maxMorphError)}};
  if (!failures.empty()) doc["failures"] = failures;
  doc["pack_bytes"] = packBytes;
  return doc.dump(2);
}

std::string reportCsv(const std::vector<ClipReport>& rows) {
  auto quote = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  std::ostringstream o;
  o << "file,clip,source_clip,clip_index,joints,frames,sample_rate,raw_bytes,compressed_bytes,resident_bytes,ratio,max_"
       "error_cm,"
       "max_error_between_frames_cm,p99_error_cm,worst_joint,worst_frame,worst_time_s,keys,tracks_default,tracks_"
       "constant,"
       "tracks_fitted,tracks_uniform,tracks_raw,compress_ms,within_precision,max_vertex_error_cm,skin_bound_cm,limited_"
       "by,seam_error_cm,"
       "root_motion_joint,root_motion_distance_cm,root_motion_turn_deg,root_motion_drift_10_cycles_cm,"
       "root_motion_source_drift_10_cycles_cm,additive_base,error,curves_default,curves_constant,curves_fitted,"
       "curves_uniform,curves_raw,curve_bytes,max_morph_error_cm,floor_reason\n";
  for (const ClipReport& r : rows) {
    o << quote(r.file) << ',' << quote(r.clip) << ',' << quote(r.sourceClip) << ',' << r.clipIndex << ',' << r.joints
      << ',' << r.frames << ',' << r.sampleRate << ',' << r.rawBytes << ',' << r.compressedBytes << ','
      << r.residentBytes << ',' << r.ratio() << ',' << r.maxErrorCm << ',' << r.maxErrorBetweenFramesCm << ','
      << r.p99ErrorCm << ',' << quote(r.worstJoint) << ',' << r.worstFrame << ',' << r.worstTimeS << ',' << r.keys
      << ',' << r.defaultTracks << ',' << r.constantTracks << ',' << r.fittedTracks << ',' << r.uniformTracks << ','
      << r.rawTracks << ',' << r.compressMs << ',' << (r.error.empty() && r.withinPrecision ? "true" : "false") << ',';
    if (r.error.empty() && r.maxVertexErrorCm >= 0) o << r.maxVertexErrorCm;  // empty: no skinned mesh
    o << ',';
    if (r.error.empty() && r.skinBoundCm >= 0) o << r.skinBoundCm;
    o << ',' << r.limitedBy << ',';
    if (r.error.empty() && r.seamErrorCm >= 0) o << r.seamErrorCm;  // empty: not looping
    o << ',';
    if (const auto& m = r.rootMotion; r.error.empty() && m)  // empty: the root keeps its motion
      o << quote(m->joint) << ',' << m->distanceCm << ',' << m->turnDeg << ',' << m->drift10CyclesCm << ','
        << m->sourceDrift10CyclesCm;
    else o << ",,,,";
    o << ',';
    if (!r.additiveBase.empty()) o << quote(r.additiveBase);  // empty: absolute
    // Columns added with morph curves (format version 6) follow the error, so earlier columns keep their places.
    o << ',' << quote(r.error) << ',' << r.defaultCurves << ',' << r.constantCurves << ',' << r.fittedCurves << ','
      << r.uniformCurves << ',' << r.rawCurves << ',' << r.curveBytes << ',';
    if (r.error.empty() && r.maxMorphErrorCm >= 0) o << r.maxMorphErrorCm;  // empty: no curves
    o << ',';
    if (!r.floorReason.empty()) o << quote(r.floorReason);  // empty: within precision, or storage could reach it
    o << '\n';
  }
  return o.str();
}

}  // namespace animpack::core
