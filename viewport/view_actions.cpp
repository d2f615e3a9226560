#include "viewport/view_actions.h"

#include <QActionGroup>
#include <QMenu>
#include <functional>
#include <initializer_list>
#include <utility>

#include "viewport/viewport_widget.h"

namespace animpack::viewport {

void addDisplayActions(QMenu* menu, ViewportWidget* view) {
  menu->addAction("&Frame all", QKeySequence(Qt::Key_F), view, &ViewportWidget::frameAll);
  auto toggle = [menu, view](const QString& text, bool on, void (ViewportWidget::*setter)(bool),
                             const QKeySequence& key) {
    QAction* a = menu->addAction(text);
    a->setCheckable(true);
    a->setChecked(on);
    a->setShortcut(key);
    QObject::connect(a, &QAction::toggled, view, setter);
  };
  toggle("Show &original", true, &ViewportWidget::setShowOriginal, QKeySequence(Qt::Key_1));
  toggle("Show &compressed", true, &ViewportWidget::setShowCompressed, QKeySequence(Qt::Key_2));
  toggle("Show &mesh", true, &ViewportWidget::setShowMesh, QKeySequence(Qt::Key_M));
  toggle("Show s&keleton", true, &ViewportWidget::setShowSkeleton, QKeySequence(Qt::Key_K));
  toggle("Colour mesh by &vertex error", false, &ViewportWidget::setVertexErrorColoring, QKeySequence(Qt::Key_V));
  menu->addSeparator();
  // Exclusive choices: one checkable action per value, the first checked.
  auto choice = [menu](std::initializer_list<std::pair<QString, std::function<void()>>> entries) {
    auto* group = new QActionGroup(menu);
    for (const auto& [text, apply] : entries) {
      QAction* a = menu->addAction(text);
      a->setCheckable(true);
      a->setChecked(group->actions().isEmpty());
      group->addAction(a);
      QObject::connect(a, &QAction::triggered, menu, apply);
    }
  };
  choice({{"Compare: o&verlay", [view] { view->setCompareMode(CompareMode::Overlay); }},
          {"Compare: &side by side", [view] { view->setCompareMode(CompareMode::SideBySide); }}});
  choice({{"Ghost: &translucent", [view] { view->setGhostStyle(GhostStyle::Translucent); }},
          {"Ghost: &wireframe", [view] { view->setGhostStyle(GhostStyle::Wireframe); }}});
  toggle("Show &grid", true, &ViewportWidget::setShowGrid, QKeySequence(Qt::Key_G));
  menu->addSeparator();
  toggle("Show root &trajectory", true, &ViewportWidget::setShowRootTrajectory, QKeySequence(Qt::Key_T));
  toggle("Root motion &in place", false, &ViewportWidget::setInPlace, QKeySequence(Qt::Key_I));
}

}  // namespace animpack::viewport
