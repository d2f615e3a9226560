#include "core/review/review_packet.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace animpack::core {
namespace {

std::string escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

template <class... A>
std::string format(const char* pattern, A... args) {
  char buf[256];
  std::snprintf(buf, sizeof(buf), pattern, args...);
  return buf;
}

std::string kib(std::uint64_t bytes) { return format("%.1f KiB", double(bytes) / 1024.0); }
std::string cm(float v) { return format("%.4f cm", double(v)); }

std::string approvalLabel(const ReviewApproval& a) {
  if (!a.outdated.empty()) return "needs review (" + a.outdated + ")";
  if (a.state == "approved") return "approved";
  if (a.state == "rejected") return "rejected";
  return "needs review";
}

std::string approvalClass(const ReviewApproval& a) { return a.outdated.empty() ? a.state : "needs_review"; }

const char* kStyle = R"css(
body{font:14px/1.4 "DejaVu Sans",Arial,sans-serif;margin:24px;color:#222;background:#fff}
h1{font-size:22px;margin:0 0 4px} h2{font-size:17px;margin:28px 0 8px}
.meta{color:#666;font-size:12px}
.totals{display:flex;gap:28px;flex-wrap:wrap;margin:16px 0}
.totals div{min-width:110px} .totals b{display:block;font-size:20px}
.meter{height:14px;background:#e6e6e6;border-radius:7px;overflow:hidden;width:420px;max-width:100%}
.meter span{display:block;height:100%;background:#3a8f4e} .meter.over span{background:#c8281e}
.over-text{color:#c8281e;font-weight:bold} .ok-text{color:#3a8f4e;font-weight:bold}
table{border-collapse:collapse;font-size:13px} th,td{padding:3px 8px;border-bottom:1px solid #e4e4e4;text-align:right}
th{background:#f3f3f0;position:sticky;top:0} td.l,th.l{text-align:left}
tr.failed td{color:#c8281e}
.approved{color:#1e8232} .rejected{color:#c8281e} .needs_review{color:#966e00}
.pictures{display:flex;flex-wrap:wrap;gap:16px} figure{margin:0} figcaption{font-size:12px;color:#444;max-width:360px}
.legend i{display:inline-block;width:18px;height:4px;margin:0 4px 3px 10px;vertical-align:middle}
)css";

std::string totalsSection(const ReviewPacket& packet, const ReviewTotals& t) {
  std::string h = "<h2>Pack</h2>\n<div class=\"totals\">";
  auto item = [&](const std::string& label, const std::string& value) {
    h += "<div>" + label + "<b>" + value + "</b></div>";
  };
  item("clips", std::to_string(t.clips) + (t.failed ? format(" (+%zu failed)", t.failed) : ""));
  item("raw", kib(t.rawBytes));
  item("compressed", kib(t.compressedBytes));
  item("ratio", format("%.1f:1", t.ratio()));
  item("max error", cm(t.maxErrorCm));
  if (t.morphClips) {
    item("morph curves", kib(t.curveBytes));
    item("max morph error", cm(t.maxMorphErrorCm));
  }
  item("pack file", kib(packet.packBytes));
  item("resident once opened", kib(packet.residentBytes));
  item("approved", format("%zu of %zu", t.approved, t.clips));
  h += "</div>\n";
  if (packet.budgetKib) {
    const bool resident = packet.budgetKind == BudgetKind::Resident;
    const double used = double(budgetedBytes(packet.budgetKind, packet.packBytes, packet.residentBytes)) / 1024.0;
    const bool over = used > *packet.budgetKib;
    const double fill = *packet.budgetKib > 0 ? std::min(used / *packet.budgetKib, 1.0) * 100 : 100;
    h += format("<p id=\"budget\">Budget %.1f KiB %s: ", *packet.budgetKib,
                resident ? "resident (the pack and what opening it derives)" : "for the pack file");
    h += over ? format("<span class=\"over-text\">over by %.1f KiB</span>", used - *packet.budgetKib)
              : format("<span class=\"ok-text\">%.1f KiB left</span>", *packet.budgetKib - used);
    h += format(" (%.0f %% used)</p>\n<div class=\"meter%s\"><span style=\"width:%.1f%%\"></span></div>\n",
                *packet.budgetKib > 0 ? used / *packet.budgetKib * 100 : 0.0, over ? " over" : "", fill);
  } else {
    h += "<p id=\"budget\">No budget is set in the project.</p>\n";
  }
  return h;
}

std::string clipTable(const ReviewPacket& packet, bool morphs) {
  std::string h =
      "<h2>Clips</h2>\n<table id=\"clips\"><thead><tr><th class=\"l\">file</th><th class=\"l\">clip</th><th>frames</th>"
      "<th>bytes</th><th>ratio</th><th>max error</th><th>p99 error</th>";
  // Morph curves (when a clip carries them): their bytes, part of the clip's, and their max error.
  if (morphs) h += "<th>morph bytes</th><th>morph error</th>";
  h += "<th class=\"l\">worst joint</th><th>worst frame</th><th class=\"l\">approval</th><th class=\"l\">by</th><th "
       "class=\"l\">when</th></tr></thead><tbody>\n";
  for (const ReviewClip& c : packet.clips) {
    const ClipReport& r = c.report;
    if (!r.error.empty()) {
      h += "<tr class=\"clip failed\"><td class=\"l\">" + escape(r.file) + "</td><td class=\"l\">" + escape(r.clip) +
           format("</td><td class=\"l\" colspan=\"%d\">failed: ", morphs ? 12 : 10) + escape(r.error) + "</td></tr>\n";
      continue;
    }
    h += "<tr class=\"clip\"><td class=\"l\">" + escape(r.file) + "</td><td class=\"l\">" + escape(r.clip) + "</td>";
    h += "<td>" + std::to_string(r.frames) + "</td><td>" + std::to_string(r.compressedBytes) + "</td>";
    h += format("<td>%.1f:1</td>", r.ratio());
    h += std::string("<td") + (r.withinPrecision ? "" : " class=\"rejected\" title=\"over its precision\"") + ">" +
         cm(r.maxErrorCm) + "</td><td>" + cm(r.p99ErrorCm) + "</td>";
    if (morphs && r.maxMorphErrorCm >= 0)
      h += "<td>" + std::to_string(r.curveBytes) + "</td><td>" + cm(r.maxMorphErrorCm) + "</td>";
    else if (morphs) h += "<td></td><td></td>";
    h += "<td class=\"l\">" + escape(r.worstJoint) + "</td><td>" + std::to_string(r.worstFrame) + "</td>";
    std::string approval = approvalLabel(c.approval);
    if (c.approval.maxErrorCm && c.approval.state != "needs_review")
      approval += format(" at %.4f cm", double(*c.approval.maxErrorCm));
    h += "<td class=\"l " + approvalClass(c.approval) + "\">" + escape(approval) + "</td>";
    h += "<td class=\"l\">" + escape(c.approval.by) + "</td><td class=\"l\">" + escape(c.approval.at) + "</td></tr>\n";
  }
  return h + "</tbody></table>\n";
}

/// Size (x) against max error (y), one dot per clip coloured by approval, the worst clips labelled.
std::string chart(const ReviewPacket& packet, const std::vector<std::size_t>& worst) {
  const double w = 720, hgt = 360, left = 70, right = 20, top = 16, bottom = 46;
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < packet.clips.size(); ++i)
    if (packet.clips[i].report.error.empty()) shown.push_back(i);
  std::string s = "<h2>Size against error</h2>\n";
  if (shown.empty()) return s + "<p>No clip compressed.</p>\n";
  double maxBytes = 1, maxError = 1e-6;
  for (std::size_t i : shown) {
    maxBytes = std::max(maxBytes, double(packet.clips[i].report.compressedBytes));
    maxError = std::max(maxError, double(packet.clips[i].report.maxErrorCm));
  }
  maxBytes *= 1.08;
  maxError *= 1.12;
  auto x = [&](double bytes) { return left + bytes / maxBytes * (w - left - right); };
  auto y = [&](double error) { return hgt - bottom - error / maxError * (hgt - top - bottom); };
  s += format(
      "<svg id=\"chart\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
      "font-family=\"DejaVu Sans,Arial,sans-serif\" font-size=\"11\">\n",
      w, hgt, w, hgt);
  s += format("<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"#fafaf7\" stroke=\"#bbb\"/>\n", left,
              top, w - left - right, hgt - top - bottom);
  for (int k = 0; k <= 4; ++k) {
    const double bx = maxBytes * k / 4, ey = maxError * k / 4;
    s += format("<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#e2e2e2\"/>", x(bx), top, x(bx),
                hgt - bottom);
    s +=
        format("<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%.1f</text>\n", x(bx), hgt - bottom + 15, bx / 1024);
    s += format("<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#e2e2e2\"/>", left, y(ey), w - right,
                y(ey));
    s += format("<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", left - 6, y(ey) + 4, ey);
  }
  s += format("<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">compressed size (KiB)</text>\n",
              (left + w - right) / 2, hgt - 10);
  s += format("<text transform=\"translate(16 %.0f) rotate(-90)\" text-anchor=\"middle\">max error (cm)</text>\n",
              (top + hgt - bottom) / 2);
  for (std::size_t i : shown) {
    const ReviewClip& c = packet.clips[i];
    const std::string cls = approvalClass(c.approval);
    const char* fill = cls == "approved" ? "#1e8232" : cls == "rejected" ? "#c8281e" : "#d49a00";
    s += format(
        "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" fill-opacity=\"0.8\" stroke=\"#333\" "
        "stroke-width=\"0.5\">",
        x(double(c.report.compressedBytes)), y(double(c.report.maxErrorCm)), fill);
    s += "<title>" + escape(c.report.clip) +
         format(": %llu bytes, %.4f cm", static_cast<unsigned long long>(c.report.compressedBytes),
                double(c.report.maxErrorCm)) +
         "</title></circle>\n";
  }
  for (std::size_t i : worst) {
    const ReviewClip& c = packet.clips[i];
    s += format("<text x=\"%.1f\" y=\"%.1f\" fill=\"#333\">", x(double(c.report.compressedBytes)) + 7,
                y(double(c.report.maxErrorCm)) - 6) +
         escape(c.report.clip) + "</text>\n";
  }
  s += "</svg>\n<p class=\"legend\"><i style=\"background:#1e8232\"></i>approved<i "
       "style=\"background:#d49a00\"></i>needs review"
       "<i style=\"background:#c8281e\"></i>rejected</p>\n";
  return s;
}

std::string picturesSection(const ReviewPacket& packet) {
  std::string h = "<h2>Worst frames</h2>\n";
  if (!packet.pictures.empty())
    h += "<p class=\"legend\"><i style=\"background:" + escape(packet.picturesLegend.original) +
         "\"></i>original <i style=\"background:" + escape(packet.picturesLegend.compressed) + "\"></i>compressed; " +
         escape(packet.picturesLegend.marks) + "; drawn by the " + escape(packet.picturesRenderer) +
         ".</p>\n<div class=\"pictures\">\n";
  for (const ReviewPicture& p : packet.pictures) {
    const ClipReport& r = packet.clips[p.clip].report;
    h += format("<figure><img alt=\"worst frame\" width=\"%d\" height=\"%d\" src=\"data:image/png;base64,", p.width,
                p.height) +
         base64(p.png) + "\"><figcaption><b>" + escape(r.clip) + "</b> frame " + std::to_string(r.worstFrame) +
         ", worst joint " + escape(r.worstJoint) + ", " + cm(r.maxErrorCm) + "</figcaption></figure>\n";
  }
  if (!packet.pictures.empty()) h += "</div>\n";
  if (!packet.picturesNote.empty()) h += "<p id=\"pictures-note\">" + escape(packet.picturesNote) + "</p>\n";
  return h;
}

}  // namespace

ReviewTotals reviewTotals(const std::vector<ReviewClip>& clips) {
  ReviewTotals t;
  for (const ReviewClip& c : clips) {
    if (!c.report.error.empty()) {
      ++t.failed;
      continue;
    }
    ++t.clips;
    t.rawBytes += c.report.rawBytes;
    t.compressedBytes += c.report.compressedBytes;
    t.maxErrorCm = std::max(t.maxErrorCm, c.report.maxErrorCm);
    if (c.report.maxMorphErrorCm >= 0) {
      ++t.morphClips;
      t.curveBytes += c.report.curveBytes;
      t.maxMorphErrorCm = std::max(t.maxMorphErrorCm, c.report.maxMorphErrorCm);
    }
    t.overPrecision += !c.report.withinPrecision;
    const std::string state = approvalClass(c.approval);
    t.approved += state == "approved";
    t.rejected += state == "rejected";
    t.needsReview += state == "needs_review";
  }
  return t;
}

std::vector<std::size_t> worstClips(const std::vector<ReviewClip>& clips, std::size_t count) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < clips.size(); ++i)
    if (clips[i].report.error.empty()) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return clips[a].report.maxErrorCm > clips[b].report.maxErrorCm;
  });
  if (order.size() > count) order.resize(count);
  return order;
}

std::string base64(const std::vector<std::uint8_t>& bytes) {
  static const char* kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t n = std::uint32_t(bytes[i]) << 16 |
                            (i + 1 < bytes.size() ? std::uint32_t(bytes[i + 1]) << 8 : 0u) |
                            (i + 2 < bytes.size() ? std::uint32_t(bytes[i + 2]) : 0u);
    out += kDigits[n >> 18 & 63];
    out += kDigits[n >> 12 & 63];
    out += i + 1 < bytes.size() ? kDigits[n >> 6 & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[n & 63] : '=';
  }
  return out;
}

std::string reviewPacketHtml(const ReviewPacket& packet) {
  const ReviewTotals totals = reviewTotals(packet.clips);
  const std::vector<std::size_t> worst = worstClips(packet.clips, 5);
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Review: " + escape(packet.title) +
      "</title>\n<style>" + kStyle + "</style></head><body>\n";
  h += "<h1>Review packet: " + escape(packet.title) + "</h1>\n<p class=\"meta\">Generated " +
       escape(packet.generatedAt) + " by animpack " + escape(packet.toolVersion) +
       ". Errors are object-space centimetres on each joint's shell" +
       (totals.morphClips ? "; a morph target's, its weight error times its largest vertex displacement" : "") +
       "; bytes are each clip's own bytes in the pack" + (totals.morphClips ? " (morph curves included)" : "") +
       ".</p>\n";
  h += totalsSection(packet, totals);
  h += chart(packet, worst);
  h += picturesSection(packet);
  h += clipTable(packet, totals.morphClips > 0);
  return h + "</body></html>\n";
}

}  // namespace animpack::core
