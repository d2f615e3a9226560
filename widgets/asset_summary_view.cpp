#include "widgets/asset_summary_view.h"

#include <QFontDatabase>

#include "core/io/asset_json.h"

namespace animpack::widgets {

AssetSummaryView::AssetSummaryView(QWidget* parent) : QPlainTextEdit(parent) {
  setReadOnly(true);
  setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  setLineWrapMode(QPlainTextEdit::NoWrap);
}

void AssetSummaryView::setAsset(const core::ImportedAsset& asset) {
  setPlainText(QString::fromStdString(core::inspectText(asset)));
}

}  // namespace animpack::widgets
