// Test helper: a strict reader of the HTML subset the pages are written
// in, so that a test fails when escaping or nesting is wrong. Tags are
// `<name attr="value" ...>` with double-quoted values, `</name>`; text and
// values hold `&` only as an entity and never `<` (values never `"`);
// every element but the void ones is closed in order; <script> and
// <style> hold raw text up to their end tag.
#ifndef SCHEDREF_VIEW_HTML_CHECKER_H_
#define SCHEDREF_VIEW_HTML_CHECKER_H_

#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace schedref::view::testing {

struct HtmlCheck {
  std::string error;              // "" iff well-formed
  std::set<std::string> elements;  // every element name met
};

inline bool ValidEntity(std::string_view s, size_t amp) {
  size_t semi = s.find(';', amp);
  if (semi == std::string_view::npos || semi - amp > 10) return false;
  std::string_view name = s.substr(amp + 1, semi - amp - 1);
  static const std::set<std::string_view> kNamed = {"amp", "lt", "gt", "quot"};
  if (kNamed.count(name) > 0) return true;
  if (name.size() < 2 || name[0] != '#') return false;
  for (char c : name.substr(1)) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

inline HtmlCheck CheckHtml(std::string_view s) {
  static const std::set<std::string> kVoid = {"meta", "br", "wbr", "input", "hr", "img", "link"};
  HtmlCheck out;
  std::vector<std::string> open;
  auto fail = [&](size_t at, const std::string& what) {
    out.error = "at byte " + std::to_string(at) + ": " + what + " near \"" +
                std::string(s.substr(at > 40 ? at - 40 : 0, 80)) + "\"";
    return out;
  };
  size_t i = 0;
  if (s.rfind("<!DOCTYPE html>", 0) != 0) return fail(0, "no doctype");
  i = std::string_view("<!DOCTYPE html>").size();
  while (i < s.size()) {
    const char c = s[i];
    if (c == '&') {
      if (!ValidEntity(s, i)) return fail(i, "a bare &");
      ++i;
      continue;
    }
    if (c != '<') {
      if (c == '>') return fail(i, "a bare >");
      ++i;
      continue;
    }
    const bool closing = i + 1 < s.size() && s[i + 1] == '/';
    size_t j = i + (closing ? 2 : 1);
    size_t name_start = j;
    while (j < s.size() && std::isalnum(static_cast<unsigned char>(s[j]))) ++j;
    const std::string name(s.substr(name_start, j - name_start));
    if (name.empty()) return fail(i, "a bare <");
    if (closing) {
      if (j >= s.size() || s[j] != '>') return fail(i, "a malformed end tag");
      if (open.empty() || open.back() != name) {
        return fail(i, "</" + name + "> closes " + (open.empty() ? "nothing" : open.back()));
      }
      open.pop_back();
      i = j + 1;
      continue;
    }
    out.elements.insert(name);
    // Attributes: name="value" or a bare name.
    while (true) {
      while (j < s.size() && s[j] == ' ') ++j;
      if (j >= s.size()) return fail(i, "an unterminated tag");
      if (s[j] == '>') break;
      size_t a = j;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '-')) ++j;
      if (j == a) return fail(j, "a bad attribute name");
      if (s[j] == '=') {
        if (s[j + 1] != '"') return fail(j, "an unquoted attribute value");
        size_t end = s.find('"', j + 2);
        if (end == std::string_view::npos) return fail(j, "an unterminated attribute value");
        std::string_view value = s.substr(j + 2, end - j - 2);
        for (size_t k = 0; k < value.size(); ++k) {
          if (value[k] == '<' || value[k] == '>') return fail(j + 2 + k, "< or > in a value");
          if (value[k] == '&' && !ValidEntity(value, k)) return fail(j + 2 + k, "a bare & in a value");
        }
        j = end + 1;
      }
    }
    i = j + 1;
    if (name == "script" || name == "style") {
      const std::string end = "</" + name + ">";
      size_t e = s.find(end, i);
      if (e == std::string_view::npos) return fail(i, "an unterminated " + name);
      i = e + end.size();
      continue;
    }
    if (kVoid.count(name) == 0) open.push_back(name);
  }
  if (!open.empty()) return fail(s.size(), "<" + open.back() + "> is not closed");
  return out;
}

}  // namespace schedref::view::testing

#endif  // SCHEDREF_VIEW_HTML_CHECKER_H_
