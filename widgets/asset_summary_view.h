#pragma once
// A read-only text panel with an imported asset's summary (the `animpack inspect` text).

#include <QPlainTextEdit>

#include "core/io/asset_importer.h"

namespace animpack::widgets {

class AssetSummaryView : public QPlainTextEdit {
  Q_OBJECT
 public:
  explicit AssetSummaryView(QWidget* parent = nullptr);
  /// Shows the summary of `asset`.
  void setAsset(const core::ImportedAsset& asset);
};

}  // namespace animpack::widgets
