// Every relative link and every "FILE "Section"" reference in the repository resolves: a Markdown
// link's file exists (and its #anchor is a heading of it), and a reference such as
// docs/SETTINGS.md "Shells" or README "What gets imported" names a heading of that file. Read from
// the source tree (ANIMPACK_SOURCE_DIR): Markdown, C++ sources and headers, CMake files, scripts.
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = ANIMPACK_SOURCE_DIR;

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

/// The headings of a Markdown file, as written (without the #s), outside fenced code.
std::vector<std::string> headings(const fs::path& file) {
  std::vector<std::string> out;
  std::istringstream in(readText(file));
  bool fenced = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("```")) fenced = !fenced;
    if (fenced || !line.starts_with("#")) continue;
    const std::size_t text = line.find_first_not_of('#');
    if (text == std::string::npos || line[text] != ' ') continue;
    out.push_back(line.substr(text + 1));
  }
  return out;
}

/// GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens.
std::string anchorOf(const std::string& heading) {
  std::string a;
  for (unsigned char c : lower(heading))
    if (std::isalnum(c) || c == '-' || c == '_') a += char(c);
    else if (c == ' ') a += '-';
  return a;
}

/// Files the check reads: tracked-looking text files, build trees and the fuzz corpora left out.
std::vector<fs::path> sourceFiles() {
  std::vector<fs::path> out;
  for (auto it = fs::recursive_directory_iterator(kRoot); it != fs::recursive_directory_iterator(); ++it) {
    const std::string name = it->path().filename().string();
    if (it->is_directory() && (name.starts_with(".") || name.starts_with("build") || name.starts_with("corpus"))) {
      it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file()) continue;
    const std::string ext = it->path().extension().string();
    const bool script = it->path().parent_path().filename() == "scripts";
    if (ext == ".md" || ext == ".h" || ext == ".cpp" || ext == ".txt" || ext == ".cmake" || ext == ".json" || script)
      out.push_back(it->path());
  }
  return out;
}

/// The repository file a reference names: a path from the root, from the referring file's folder,
/// or a file name found once in the tree ("FORMAT.md"); "README" is README.md.
std::optional<fs::path> resolveFile(std::string name, const fs::path& from, const std::vector<fs::path>& all) {
  if (name == "README") name = "README.md";
  for (const fs::path& base : {kRoot, from.parent_path()})
    if (fs::is_regular_file(base / name)) return fs::weakly_canonical(base / name);
  std::optional<fs::path> found;
  for (const fs::path& p : all)
    if (p.filename() == name) {
      if (found) return std::nullopt;  // ambiguous
      found = p;
    }
  return found;
}

bool hasHeading(const fs::path& file, const std::string& section) {
  const std::string want = lower(section);
  for (const std::string& h : headings(file))
    if (lower(h).starts_with(want)) return true;
  return false;
}

}  // namespace

class TestDocLinks : public QObject {
  Q_OBJECT

 private slots:
  void markdownLinksResolve() {
    const std::vector<fs::path> all = sourceFiles();
    const std::regex link("\\]\\(([^)\\s]+)\\)");
    std::vector<std::string> broken;
    int checked = 0;
    for (const fs::path& file : all) {
      if (file.extension() != ".md") continue;
      const std::string text = readText(file);
      for (auto m = std::sregex_iterator(text.begin(), text.end(), link); m != std::sregex_iterator(); ++m) {
        std::string target = (*m)[1];
        if (target.find("://") != std::string::npos || target.starts_with("mailto:")) continue;
        std::string anchor;
        if (const std::size_t hash = target.find('#'); hash != std::string::npos) {
          anchor = target.substr(hash + 1);
          target.resize(hash);
        }
        ++checked;
        const fs::path resolved = target.empty() ? file : file.parent_path() / target;
        const std::string where = fs::relative(file, kRoot).string() + ": (" + (*m)[1].str() + ")";
        if (!fs::exists(resolved)) {
          broken.push_back(where + " does not exist");
          continue;
        }
        if (anchor.empty() || resolved.extension() != ".md") continue;
        const std::vector<std::string> hs = headings(resolved);
        if (std::none_of(hs.begin(), hs.end(), [&](const std::string& h) { return anchorOf(h) == anchor; }))
          broken.push_back(where + " names no heading");
      }
    }
    for (const std::string& b : broken) qWarning("%s", b.c_str());
    QVERIFY2(broken.empty(), qPrintable(QString("%1 link(s) do not resolve (listed above)").arg(broken.size())));
    QVERIFY(checked > 10);  // the README and docs/ link to each other
  }

  void sectionReferencesResolve() {
    const std::vector<fs::path> all = sourceFiles();
    // README "Section", docs/X.md "Section", FORMAT.md, "Section", docs/X.md section "Section"
    // (quotes may be escaped inside C++ strings).
    const std::regex reference("(README|[A-Za-z0-9_./-]+\\.md)(?:,| section)? ?\\\\?\"([^\"\\\\\n]{3,80})\\\\?\"");
    std::vector<std::string> broken;
    int checked = 0;
    for (const fs::path& file : all) {
      if (file.filename() == "tst_doc_links.cpp") continue;  // its own examples
      const std::string text = readText(file);
      for (auto m = std::sregex_iterator(text.begin(), text.end(), reference); m != std::sregex_iterator(); ++m) {
        const std::string name = (*m)[1], section = (*m)[2];
        if (name.starts_with("../") || name.find("shared/") != std::string::npos) continue;  // outside the repository
        ++checked;
        const std::string where = fs::relative(file, kRoot).string() + ": " + m->str();
        const auto target = resolveFile(name, file, all);
        if (!target) broken.push_back(where + ": no such file");
        else if (!hasHeading(*target, section)) broken.push_back(where + ": no such heading");
      }
    }
    for (const std::string& b : broken) qWarning("%s", b.c_str());
    QVERIFY2(broken.empty(), qPrintable(QString("%1 reference(s) do not resolve (listed above)").arg(broken.size())));
    QVERIFY(checked > 20);
  }

  /// The check itself: a missing heading and a missing file are found.
  void theCheckFindsWhatIsMissing() {
    QVERIFY(hasHeading(kRoot / "README.md", "What gets imported"));
    QVERIFY(!hasHeading(kRoot / "README.md", "A heading nobody wrote"));
    QVERIFY(!resolveFile("docs/NOWHERE.md", kRoot / "README.md", sourceFiles()));
    QCOMPARE(anchorOf("What gets imported (the contract)"), std::string("what-gets-imported-the-contract"));
  }
};

QTEST_GUILESS_MAIN(TestDocLinks)
#include "tst_doc_links.moc"
