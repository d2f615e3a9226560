// ClipDocument's additive clips (docs/SETTINGS.md `additive_base`): the base of each clip resolved
// among the file's clips, and the undoable edit of the setting.
#include "core/compress/additive_edit.h"
#include "widgets/document/clip_document.h"

namespace animpack::widgets {

core::AdditiveLink ClipDocument::additiveLink(int clip) const {
  if (!hasAsset() || clip < 0 || clip >= clipCount()) return {};
  std::vector<core::AdditiveCandidate> candidates;
  for (int c = 0; c < clipCount(); ++c) {
    const std::string name = clipName(c).toStdString();
    candidates.push_back(
        {name, sourceClipName(c).toStdString(), core::additiveBaseSetting(m_settings, name), rawClip(c).frameCount});
  }
  return core::linkAdditiveBases(candidates)[std::size_t(clip)];
}

int ClipDocument::additiveBaseClip(int clip) const {
  const core::AdditiveLink link = additiveLink(clip);
  if (link.ref.kind != core::AdditiveRef::Kind::Clip) return -1;
  for (int c = 0; c < clipCount(); ++c)
    if (clipName(c).toStdString() == link.ref.clip) return c;
  return -1;
}

void ClipDocument::setAdditiveBase(int clip, const QString& base) {
  if (!hasAsset() || clip < 0 || clip >= clipCount()) return;
  const QString text =
      base.isEmpty()
          ? QString("Make %1 absolute").arg(clipName(clip))
          : QString("Make %1 additive on %2").arg(clipName(clip), base == "rest" ? QString("the rest pose") : base);
  pushSettings(text, core::withAdditiveBase(m_settings, clipName(clip).toStdString(), base.toStdString()));
}

}  // namespace animpack::widgets
