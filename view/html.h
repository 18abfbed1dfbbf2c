// The HTML pages' common ground: escaping, one page shell with its inline
// style and script, and the pieces every page is built from. A page is one
// self-contained file: no network (its Content-Security-Policy forbids
// any), readable with JavaScript off (the script only pages, searches and
// sorts tables that are complete without it). Pages: docs/html-view.md.
#ifndef SCHEDREF_VIEW_HTML_H_
#define SCHEDREF_VIEW_HTML_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace schedref::view {

// `s` as HTML text or as a quoted attribute value: & < > " ' escaped;
// control characters other than tab, newline and carriage return, and
// invalid UTF-8, become U+FFFD.
[[nodiscard]] std::string Escape(std::string_view s);

// A whole page: doctype, <head> with `title` (escaped), the
// Content-Security-Policy, the style and the script, then `body` (HTML).
[[nodiscard]] std::string Page(std::string_view title, std::string_view body);

// A table the script pages (100 rows at a time), searches (rows by their
// data-name attribute, which every row of its <tbody> carries) and sorts
// (header cells with data-sort="num" or "text"; a cell's data-v attribute
// is its numeric key). `id` must be unique in the page; `search_label`
// names what the search box finds ("node name").
struct TableOptions {
  std::string id;
  std::string caption;
  std::string search_label;
  std::string css_class;  // the <table>'s class, "" for none
};
[[nodiscard]] std::string TableOpen(const TableOptions& options);
[[nodiscard]] inline std::string TableClose() { return "</tbody></table></div>\n"; }

// A CamelCase plugin name with <wbr> break opportunities before each inner
// capital, escaped ("Node<wbr>Resources<wbr>Fit"), for narrow headers.
[[nodiscard]] std::string Breakable(std::string_view name);

// A count with its noun, plural unless 1: Count(3, "node") is "3 nodes".
[[nodiscard]] std::string Count(int64_t n, std::string_view noun);

}  // namespace schedref::view

#endif  // SCHEDREF_VIEW_HTML_H_
