// Every relative link and every "FILE "Section"" reference in the repository resolves: a Markdown
// link's file exists (and its #anchor is a heading of it), and a reference such as
// docs/SETTINGS.md "Shells" or README "What gets imported" names a heading of that file. Read from
// the source tree (ANIMPACK_SOURCE_DIR): Markdown, C++ sources and headers, CMake files, scripts.
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
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

/// Markdown link targets: what stands between "](" and ")", without blanks.
std::vector<std::string> linkTargets(const std::string& text) {
  std::vector<std::string> out;
  for (std::size_t p = text.find("]("); p != std::string::npos; p = text.find("](", p + 2)) {
    const std::size_t end = text.find(')', p + 2);
    if (end == std::string::npos) break;
    const std::string target = text.substr(p + 2, end - p - 2);
    if (!target.empty() && target.find_first_of(" \t\n") == std::string::npos) out.push_back(target);
  }
  return out;
}

/// (FILE, Section) of every reference written README "Section", docs/X.md "Section",
/// FORMAT.md, "Section" or docs/X.md section "Section" (quotes may be escaped in C++ strings).
std::vector<std::pair<std::string, std::string>> sectionReferences(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t q = text.find('"'); q != std::string::npos; q = text.find('"', q + 1)) {
    std::size_t p = q;
    if (p > 0 && text[p - 1] == '\\') --p;
    if (p > 0 && text[p - 1] == ' ') --p;
    if (p > 0 && text[p - 1] == ',') --p;
    else if (p >= 8 && text.compare(p - 8, 8, " section") == 0) p -= 8;
    std::size_t b = p;
    while (b > 0 && (std::isalnum(static_cast<unsigned char>(text[b - 1])) ||
                     std::string_view("_./-").find(text[b - 1]) != std::string_view::npos))
      --b;
    const std::string file = text.substr(b, p - b);
    if (file != "README" && !(file.size() > 3 && file.ends_with(".md"))) continue;
    const std::size_t end = text.find('"', q + 1);
    if (end == std::string::npos) break;
    std::string section = text.substr(q + 1, end - q - 1);
    if (!section.empty() && section.back() == '\\') section.pop_back();
    if (section.size() < 3 || section.size() > 80 || section.find_first_of("\n\\") != std::string::npos) continue;
    out.emplace_back(file, section);
    q = end;
  }
  return out;
}

}  // namespace

class TestDocLinks : public QObject {
  Q_OBJECT

 private slots:
  void markdownLinksResolve() {
    const std::vector<fs::path> all = sourceFiles();
    std::vector<std::string> broken;
    int checked = 0;
    for (const fs::path& file : all) {
      if (file.extension() != ".md") continue;
      for (std::string target : linkTargets(readText(file))) {
        const std::string written = target;
        if (target.find("://") != std::string::npos || target.starts_with("mailto:")) continue;
        std::string anchor;
        if (const std::size_t hash = target.find('#'); hash != std::string::npos) {
          anchor = target.substr(hash + 1);
          target.resize(hash);
        }
        ++checked;
        const fs::path resolved = target.empty() ? file : file.parent_path() / target;
        const std::string where = fs::relative(file, kRoot).string() + ": (" + written + ")";
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
    std::vector<std::string> broken;
    int checked = 0;
    for (const fs::path& file : all) {
      if (file.filename() == "tst_doc_links.cpp") continue;  // its own examples
      for (const auto& [name, section] : sectionReferences(readText(file))) {
        if (name.starts_with("../") || name.find("shared/") != std::string::npos) continue;  // outside the repository
        ++checked;
        const std::string where = fs::relative(file, kRoot).string() + ": " + name + " \"" + section + "\"";
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
    const auto refs =
        sectionReferences(R"(see docs/IMPORT.md "Clips", FORMAT.md, "Loops" and README \"Command line\"; "x.md" "no")");
    QCOMPARE(refs.size(), std::size_t(3));
    QCOMPARE(refs[0], (std::pair<std::string, std::string>{"docs/IMPORT.md", "Clips"}));
    QCOMPARE(refs[1], (std::pair<std::string, std::string>{"FORMAT.md", "Loops"}));
    QCOMPARE(refs[2], (std::pair<std::string, std::string>{"README", "Command line"}));
    QCOMPARE(linkTargets("[a](docs/A.md#b) [c](not a link) [d](e)"), (std::vector<std::string>{"docs/A.md#b", "e"}));
  }
};

QTEST_GUILESS_MAIN(TestDocLinks)
#include "tst_doc_links.moc"
