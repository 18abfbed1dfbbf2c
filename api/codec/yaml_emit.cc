#include "api/codec/yaml_emit.h"

#include <cstdint>
#include <algorithm>
#include <cctype>
#include <iterator>
#include <string>
#include <string_view>

#include "api/codec/manifest.h"
#include "api/codec/utf8.h"

namespace schedref::api {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Emits the subset of YAML that reads back, through ParseDocuments, as the
// JSON it came from: block mappings and sequences, plain scalars only where
// they cannot be mistaken for another type, literal blocks for multi-line
// text, double quotes for everything else.

// Code points a YAML reader treats as line breaks or byte-order marks, or
// that are not printable: written as escapes.
bool NeedsEscape(uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029 ||
         cp == 0xFEFF || cp == 0xFFFE || cp == 0xFFFF;
}

std::string DoubleQuoted(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\r':
          out += "\\r";
          break;
        default:
          if (c < 0x20 || c == 0x7F) {
            out += "\\x" + HexDigits(c, 2);
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    const Utf8Sequence seq = DecodeUtf8(s, i);
    const size_t n = seq.length;
    const uint32_t cp = seq.code_point;
    if (n == 0) {
      out += "\\uFFFD";  // Not UTF-8: replaced, as the trace writer does.
      ++i;
    } else if (NeedsEscape(cp)) {
      out += "\\u" + HexDigits(cp, 4);
      i += n;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out + "\"";
}

// Plain (unquoted) only for short, identifier-like strings that the reader
// types as this same string: "n1", "1000m", "2m0s", "kubernetes.io/os",
// but not "1", "0x1F", "yes" or "null".
bool IsPlainSafe(std::string_view s) {
  if (s.empty() || s[0] == '-' || s[0] == '.') return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    IsDigit(c) || c == '_' || c == '.' || c == '/' || c == '-';
    if (!ok) return false;
  }
  // YAML 1.1 types a plain scalar of these characters as a number, a
  // timestamp, a bool or null only if it is one of the bool/null words or
  // uses no letter beyond hex digits and the 0x / 0o prefixes (exponents
  // are "e", a hex digit). Any other letter makes it a string: most names
  // ("web-7", "128Mi") are settled here without a parse.
  static constexpr std::string_view kWords[] = {"y",   "n",    "yes",   "no", "on",
                                                "off", "true", "false", "null"};
  std::string lower(s);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool word = std::find(std::begin(kWords), std::end(kWords), lower) != std::end(kWords);
  const bool string_letter = std::any_of(lower.begin(), lower.end(), [](char c) {
    return c >= 'a' && c <= 'z' && !(c <= 'f' || c == 'x' || c == 'o');
  });
  if (!word && string_letter) return true;
  // Otherwise the reader (sigs.k8s.io/yaml's YAML 1.1 typing) is the
  // authority on what a plain scalar means, so ask it.
  StatusOr<std::vector<json>> docs =
      ParseDocuments("v: " + std::string(s) + "\n", "<plain>");
  if (!docs.ok() || docs->size() != 1) return false;
  const json& doc = (*docs)[0];
  const auto v = doc.is_object() ? doc.find("v") : doc.end();
  return doc.is_object() && v != doc.end() && v->is_string() &&
         v->get_ref<const std::string&>() == s;
}

// "|" or "|-" when `s` can be written as a literal block, "" otherwise.
std::string LiteralIndicator(std::string_view s) {
  if (s.find('\n') == std::string_view::npos) return "";
  std::string_view body = s;
  std::string indicator = "|-";
  if (body.ends_with('\n')) {
    body.remove_suffix(1);
    indicator = "|";
    if (body.ends_with('\n')) return "";
  }
  if (body.empty() || body[0] == ' ' || body[0] == '\t' || body[0] == '\n') {
    return "";
  }
  size_t line_start = 0;
  for (size_t i = 0; i <= body.size(); ++i) {
    if (i == body.size() || body[i] == '\n') {
      if (i > line_start && (body[i - 1] == ' ' || body[i - 1] == '\t')) {
        return "";
      }
      line_start = i + 1;
      continue;
    }
    const unsigned char c = static_cast<unsigned char>(body[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t') || c == 0x7F) return "";
      continue;
    }
    const Utf8Sequence seq = DecodeUtf8(body, i);
    const size_t n = seq.length;
    if (n == 0 || NeedsEscape(seq.code_point)) return "";
    i += n - 1;
  }
  return indicator;
}

std::string Scalar(const ordered_json& v) {
  switch (v.type()) {
    case ordered_json::value_t::null:
      return "null";
    case ordered_json::value_t::string: {
      const std::string& s = v.get_ref<const std::string&>();
      return IsPlainSafe(s) ? s : DoubleQuoted(s);
    }
    case ordered_json::value_t::object:
      return "{}";
    case ordered_json::value_t::array:
      return "[]";
    default:
      return v.dump();
  }
}

std::string Spaces(int n) { return std::string(static_cast<size_t>(n), ' '); }

void EmitMapping(const ordered_json& object, int indent, std::string* out);
void EmitSequence(const ordered_json& array, int indent, std::string* out);

// The value after "key:" or "-", which the caller has written.
void EmitValue(const ordered_json& v, int indent, std::string* out) {
  if (v.is_object() && !v.empty()) {
    *out += '\n';
    EmitMapping(v, indent, out);
    return;
  }
  if (v.is_array() && !v.empty()) {
    *out += '\n';
    EmitSequence(v, indent, out);
    return;
  }
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    const std::string indicator = LiteralIndicator(s);
    if (!indicator.empty()) {
      *out += " " + indicator + "\n";
      std::string_view body = s;
      if (body.ends_with('\n')) body.remove_suffix(1);
      size_t start = 0;
      while (start <= body.size()) {
        size_t end = body.find('\n', start);
        if (end == std::string_view::npos) end = body.size();
        if (end > start) *out += Spaces(indent);
        out->append(body.substr(start, end - start));
        *out += '\n';
        start = end + 1;
      }
      return;
    }
  }
  *out += " " + Scalar(v) + "\n";
}

std::string Key(const std::string& key) {
  return IsPlainSafe(key) ? key : DoubleQuoted(key);
}

void EmitMapping(const ordered_json& object, int indent, std::string* out) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    *out += Spaces(indent) + Key(it.key()) + ":";
    EmitValue(it.value(), indent + 2, out);
  }
}

void EmitSequence(const ordered_json& array, int indent, std::string* out) {
  for (const ordered_json& item : array) {
    if ((item.is_object() || item.is_array()) && !item.empty()) {
      // "- " takes the place of the first line's indentation.
      std::string nested;
      if (item.is_object()) {
        EmitMapping(item, indent + 2, &nested);
      } else {
        EmitSequence(item, indent + 2, &nested);
      }
      *out += Spaces(indent) + "- " +
              nested.substr(static_cast<size_t>(indent) + 2);
      continue;
    }
    *out += Spaces(indent) + "-";
    EmitValue(item, indent + 2, out);
  }
}

}  // namespace

ordered_json ToOrdered(const json& v) {
  switch (v.type()) {
    case json::value_t::object: {
      ordered_json out = ordered_json::object();
      for (auto it = v.begin(); it != v.end(); ++it) {
        out[it.key()] = ToOrdered(it.value());
      }
      return out;
    }
    case json::value_t::array: {
      ordered_json out = ordered_json::array();
      for (const json& item : v) out.push_back(ToOrdered(item));
      return out;
    }
    case json::value_t::string:
      return v.get<std::string>();
    case json::value_t::boolean:
      return v.get<bool>();
    case json::value_t::number_integer:
      return v.get<int64_t>();
    case json::value_t::number_unsigned:
      return v.get<uint64_t>();
    case json::value_t::number_float:
      return v.get<double>();
    default:
      return nullptr;
  }
}

std::string EmitYamlMapping(const ordered_json& document) {
  std::string out;
  EmitMapping(document, 0, &out);
  return out;
}

}  // namespace schedref::api
