#pragma once
// The timeline under the viewport: play/pause, scrub, loop, speed (0.1-2x) and the time. It drives
// the document's current time; everything that shows the current frame follows it.

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include "widgets/document/clip_document.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace animpack::widgets {

class Timeline : public QWidget {
  Q_OBJECT
 public:
  explicit Timeline(ClipDocument* document, QWidget* parent = nullptr);
  bool isPlaying() const { return m_timer.isActive(); }
  double speed() const { return m_speed; }
  bool looping() const;

 public slots:
  void play();
  void pause();
  void togglePlay();
  void setSpeed(double speed);
  void setLooping(bool loop);
  /// Advances the time by `seconds` of wall time (times the speed), wrapping or stopping at the end.
  void advance(double seconds);
  /// The length of one loop (s) when it differs from the clip's duration: a clip that wraps from
  /// its last frame to its first plays one frame step more before it starts again. 0: the duration.
  void setCycleDuration(double seconds) { m_cycle = seconds; }

 private:
  void syncFromDocument();
  ClipDocument* m_document;
  QToolButton* m_play;
  QSlider* m_slider;
  QLabel* m_label;
  QCheckBox* m_loop;
  QComboBox* m_speedBox;
  QTimer m_timer;
  QElapsedTimer m_clock;
  double m_speed = 1.0;
  double m_cycle = 0;
  bool m_updating = false;
};

}  // namespace animpack::widgets
