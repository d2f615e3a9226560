#pragma once
// The viewport's display options as menu actions (the studio's View menu): frame all, what is
// shown, compare mode, ghost style, grid, each with its key.

class QMenu;

namespace animpack::viewport {

class ViewportWidget;

/// Adds `view`'s display options to `menu`; the actions are owned by `menu`.
void addDisplayActions(QMenu* menu, ViewportWidget* view);

}  // namespace animpack::viewport
