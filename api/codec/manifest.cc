#include "api/codec/manifest.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "api/codec/utf8.h"

namespace schedref::api {
namespace {

using nlohmann::json;

// --- Error positions ----------------------------------------------------------

std::string Position(const std::string& file, int64_t line, int64_t column) {
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

// 1-based line and column of byte `offset` in `text`.
std::pair<int64_t, int64_t> LineColumn(std::string_view text, size_t offset) {
  int64_t line = 1;
  int64_t column = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// JSON string syntax; bytes that are not UTF-8 (a YAML escape such as
// "\ud800" may spell them) become U+FFFD instead of making dump() throw.
std::string Quote(std::string_view s) {
  return json(std::string(s)).dump(-1, ' ', false,
                                   json::error_handler_t::replace);
}

// --- JSON ---------------------------------------------------------------------

// nlohmann's messages start with "[json.exception.parse_error.101] parse
// error at line 1, column 5: "; the position is reported by us, in the
// same form as for YAML, so only the part after it is kept.
std::string StripNlohmannPrefix(const std::string& what) {
  const size_t at = what.find(": ");
  if (what.rfind("[json.exception.", 0) == 0 && at != std::string::npos) {
    return what.substr(at + 2);
  }
  return what;
}

size_t SkipBlanks(std::string_view text, size_t pos) {
  while (pos < text.size() &&
         (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\n' ||
          text[pos] == '\r')) {
    ++pos;
  }
  return pos;
}

// Kubernetes decodes manifests and KubeSchedulerConfiguration strictly
// (sigs.k8s.io/json's UnmarshalStrict; the scheduler's codec factory is
// built with EnableStrict), where a key repeated in one object is an error;
// nlohmann keeps the last value silently. So one JSON value is read a
// second time, for its keys only. Returns the message for the first
// repeated key, naming its field path, if there is one.
std::optional<std::string> FindDuplicateJsonKey(std::string_view source) {
  // A SAX pass: keys only, no second tree.
  class KeyChecker final : public nlohmann::json_sax<json> {
   public:
    std::optional<std::string> duplicate;

    bool null() override { return Item(); }
    bool boolean(bool) override { return Item(); }
    bool number_integer(number_integer_t) override { return Item(); }
    bool number_unsigned(number_unsigned_t) override { return Item(); }
    bool number_float(number_float_t, const string_t&) override { return Item(); }
    bool string(string_t&) override { return Item(); }
    bool binary(binary_t&) override { return Item(); }
    bool start_object(std::size_t) override {
      frames_.push_back(Frame{.object = true});
      return true;
    }
    bool key(string_t& key) override {
      Frame& frame = frames_.back();
      frame.key = key;
      if (!frame.keys.insert(key).second) {
        const std::string where = Path();
        duplicate = (where.empty() ? std::string() : where + ": ") + "duplicate key " +
                    Quote(key);
        return false;  // stops the pass
      }
      return true;
    }
    bool end_object() override { return End(); }
    bool start_array(std::size_t) override {
      frames_.push_back(Frame{.object = false});
      return true;
    }
    bool end_array() override { return End(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
      // The value was read once already; nothing new to report.
      return false;
    }

   private:
    struct Frame {
      bool object = false;
      std::set<std::string> keys;  // object
      std::string key;             // object: the key being read
      size_t index = 0;            // array: the item being read
    };
    // The path of the key just read: every enclosing frame's position.
    std::string Path() const {
      std::string out;
      for (size_t i = 0; i + 1 < frames_.size(); ++i) {
        if (frames_[i].object) {
          if (!out.empty()) out += ".";
          out += frames_[i].key;
        } else {
          out += "[" + std::to_string(frames_[i].index) + "]";
        }
      }
      return out;
    }
    bool Item() {
      if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
      return true;
    }
    bool End() {
      frames_.pop_back();
      return Item();
    }
    std::vector<Frame> frames_;
  };
  KeyChecker checker;
  (void)json::sax_parse(source, &checker);
  return checker.duplicate;
}

// Kubernetes' YAMLOrJSONDecoder reads a JSON stream value after value; so
// does this, from one stream, so that long streams stay linear.
StatusOr<std::vector<json>> ParseJsonStream(std::string_view text,
                                            const std::string& file) {
  std::vector<json> documents;
  std::istringstream stream{std::string(text)};
  while (true) {
    stream >> std::ws;
    if (stream.peek() == std::char_traits<char>::eof()) break;
    const std::streamoff start = stream.tellg();
    json value;
    try {
      // Reads exactly one value and leaves the stream after it.
      stream >> value;
    } catch (const json::parse_error& e) {
      // e.byte is 1-based, counts from `start` and names the failing byte.
      const size_t offset =
          static_cast<size_t>(start) + (e.byte > 0 ? e.byte - 1 : 0);
      const auto [line, column] = LineColumn(text, offset);
      return Status::Invalid(Position(file, line, column) + ": " +
                             StripNlohmannPrefix(e.what()));
    } catch (const json::exception& e) {
      const auto [line, column] = LineColumn(text, static_cast<size_t>(start));
      return Status::Invalid(Position(file, line, column) + ": " +
                             StripNlohmannPrefix(e.what()));
    }
    const std::streamoff end =
        stream.eof() ? static_cast<std::streamoff>(text.size())
                     : static_cast<std::streamoff>(stream.tellg());
    if (end > start) {
      const std::string_view source =
          text.substr(static_cast<size_t>(start), static_cast<size_t>(end - start));
      if (std::optional<std::string> duplicate = FindDuplicateJsonKey(source)) {
        const auto [line, column] = LineColumn(text, static_cast<size_t>(start));
        return Status::Invalid(Position(file, line, column) + ": " + *duplicate);
      }
    }
    documents.push_back(std::move(value));
    if (stream.eof()) break;
    if (stream.tellg() <= start) {
      // A successful parse always consumes input; guards against looping.
      const auto [line, column] = LineColumn(text, static_cast<size_t>(start));
      return Status::Invalid(Position(file, line, column) +
                             ": no JSON value could be read");
    }
  }
  return documents;
}

// --- YAML ---------------------------------------------------------------------

// Bounds on what a YAML text may expand to through aliases: a few lines of
// anchors can describe an exponentially large (or, in yaml-cpp, a cyclic)
// tree. Without aliases a document has fewer values than its text has
// bytes, so the budget grows with the text and leaves ample room for
// ordinary anchor reuse.
constexpr int kMaxDepth = 200;
int64_t MaxNodes(size_t text_size) {
  return 10 * static_cast<int64_t>(text_size) + 10'000;
}

const std::string kTagStr = "tag:yaml.org,2002:str";
const std::string kTagInt = "tag:yaml.org,2002:int";
const std::string kTagFloat = "tag:yaml.org,2002:float";
const std::string kTagBool = "tag:yaml.org,2002:bool";
const std::string kTagNull = "tag:yaml.org,2002:null";

std::string RemoveUnderscores(std::string_view in) {
  std::string out;
  for (char c : in) {
    if (c != '_') out.push_back(c);
  }
  return out;
}

bool IsDigitIn(char c, int base) {
  if (base <= 10) return c >= '0' && c < '0' + base;
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
         (c >= 'A' && c <= 'F');
}

// Go's strconv.ParseInt/ParseUint with base 0 (prefixes 0x, 0o, 0b and a
// leading 0 for octal; an optional sign). Returns nullopt when the text is
// not such an integer; magnitudes past 2^65 are clamped there.
struct ParsedInt {
  bool negative = false;
  unsigned __int128 magnitude = 0;
};
std::optional<ParsedInt> ParseGoInt(std::string_view s) {
  ParsedInt out;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    out.negative = s[i] == '-';
    ++i;
  }
  int base = 10;
  if (s.size() - i >= 2 && s[i] == '0') {
    const char p = s[i + 1];
    if (p == 'x' || p == 'X') {
      base = 16;
      i += 2;
    } else if (p == 'o' || p == 'O') {
      base = 8;
      i += 2;
    } else if (p == 'b' || p == 'B') {
      base = 2;
      i += 2;
    } else {
      base = 8;
      i += 1;
    }
  }
  if (i >= s.size()) return std::nullopt;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (!IsDigitIn(c, base)) return std::nullopt;
    const int digit = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    out.magnitude = out.magnitude * base + digit;
    // Anything past 2^64 is out of every range we care about; clamp so
    // that the multiplication cannot wrap.
    if (out.magnitude > (static_cast<unsigned __int128>(1) << 65)) {
      out.magnitude = static_cast<unsigned __int128>(1) << 65;
    }
  }
  return out;
}

// yaml.v2's regular expression for floats: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)
// ([eE][-+]?[0-9]+)?
bool IsYamlStyleFloat(std::string_view s) {
  size_t i = 0;
  auto digits = [&]() {
    const size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  } else {
    if (digits() == 0) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

// Go's ParseFloat is more permissive than this (hex floats, "inf"), but the
// only texts that reach it here have passed IsYamlStyleFloat or start with
// '.', for which strtod agrees with it.
std::optional<double> ParseFloat(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

std::optional<json> IntToJson(const ParsedInt& p) {
  constexpr unsigned __int128 kMaxInt64 =
      static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max());
  if (p.negative) {
    if (p.magnitude <= kMaxInt64 + 1) {
      // -(2^63) is representable; compute through the unsigned magnitude.
      const uint64_t m = static_cast<uint64_t>(p.magnitude);
      return json(static_cast<int64_t>(0 - m));
    }
    return std::nullopt;
  }
  if (p.magnitude <= kMaxInt64) {
    return json(static_cast<int64_t>(p.magnitude));
  }
  if (p.magnitude <= std::numeric_limits<uint64_t>::max()) {
    return json(static_cast<uint64_t>(p.magnitude));
  }
  return std::nullopt;
}

// The value a plain (unquoted, untagged) scalar resolves to, following
// yaml.v2's resolve(): the first character decides which forms are tried.
// Timestamps stay strings, as they do when yaml.v2 decodes into interface{}.
// An error message is returned for values JSON cannot hold (.inf, .nan).
StatusOr<json> ResolvePlain(const std::string& in) {
  static const std::map<std::string, json, std::less<>> kWords = {
      {"y", true},      {"Y", true},      {"yes", true},   {"Yes", true},
      {"YES", true},    {"true", true},   {"True", true},  {"TRUE", true},
      {"on", true},     {"On", true},     {"ON", true},    {"n", false},
      {"N", false},     {"no", false},    {"No", false},   {"NO", false},
      {"false", false}, {"False", false}, {"FALSE", false}, {"off", false},
      {"Off", false},   {"OFF", false},   {"", nullptr},   {"~", nullptr},
      {"null", nullptr}, {"Null", nullptr}, {"NULL", nullptr},
  };
  static const std::set<std::string, std::less<>> kNonFinite = {
      ".nan", ".NaN", ".NAN", ".inf",  ".Inf",  ".INF",  "+.inf",
      "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
  };
  if (auto it = kWords.find(in); it != kWords.end()) return it->second;
  if (kNonFinite.count(in) > 0) {
    return Status::Invalid("value " + in + " cannot be represented in JSON");
  }
  const char first = in[0];  // in is not empty: "" is in kWords.
  if (first == '.') {
    // Go's ParseFloat fails with a range error where strtod gives inf.
    if (auto f = ParseFloat(in); f && std::isfinite(*f)) return json(*f);
    return json(in);
  }
  const bool sign = first == '+' || first == '-';
  const bool digit = first >= '0' && first <= '9';
  if (!sign && !digit) return json(in);

  const std::string plain = RemoveUnderscores(in);
  const std::optional<ParsedInt> parsed = ParseGoInt(plain);
  if (parsed.has_value()) {
    if (auto j = IntToJson(*parsed)) return *j;
  }
  if (IsYamlStyleFloat(plain)) {
    if (auto f = ParseFloat(plain)) {
      if (std::isfinite(*f)) return json(*f);
    }
  }
  if (parsed.has_value()) {
    // An integer too large for 64 bits: yaml.v2 keeps it as a big integer,
    // which JSON writes as a number; the closest we hold is a double.
    if (auto f = ParseFloat(plain); f && std::isfinite(*f)) return json(*f);
  }
  return json(in);
}

// The YAML of one document as yaml-cpp's parser reports it, before typing.
// Aliases share the node they refer to, so the tree is a DAG.
//
// The text is read through yaml-cpp's event interface rather than
// YAML::LoadAll, whose document loop never ends on some malformed input (a
// stray ',' at the top level; yaml-cpp issue #1040, fixed after 0.7): here
// a document that makes no progress is an error.
struct YamlNode {
  enum class Kind { kNull, kScalar, kSequence, kMap };
  Kind kind = Kind::kNull;
  std::string tag;
  std::string value;  // kScalar
  YAML::Mark mark;
  // kSequence: the items; kMap: key, value, key, value, ...
  std::vector<std::shared_ptr<const YamlNode>> children;
};

// Builds YamlNode trees from parser events, one document at a time.
class YamlBuilder : public YAML::EventHandler {
 public:
  std::shared_ptr<const YamlNode> root() const { return root_; }
  // Set when an alias refers to an anchor that is not complete yet (a
  // node containing itself), which JSON cannot represent.
  const std::optional<YAML::Mark>& recursive_alias() const {
    return recursive_alias_;
  }

  void Reset() {
    root_.reset();
    stack_.clear();
  }

  void OnDocumentStart(const YAML::Mark&) override { Reset(); }
  void OnDocumentEnd() override {}

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto node = std::make_shared<YamlNode>();
    node->mark = mark;
    Complete(std::move(node), anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    auto it = anchors_.find(anchor);
    if (it == anchors_.end() || it->second == nullptr) {
      if (!recursive_alias_) recursive_alias_ = mark;
      auto null = std::make_shared<YamlNode>();
      null->mark = mark;
      Add(std::move(null));
      return;
    }
    Add(it->second);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag,
                YAML::anchor_t anchor, const std::string& value) override {
    auto node = std::make_shared<YamlNode>();
    node->kind = YamlNode::Kind::kScalar;
    node->tag = tag;
    node->value = value;
    node->mark = mark;
    Complete(std::move(node), anchor);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag,
                       YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Open(YamlNode::Kind::kSequence, mark, tag, anchor);
  }
  void OnSequenceEnd() override { Close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string& tag,
                  YAML::anchor_t anchor, YAML::EmitterStyle::value) override {
    Open(YamlNode::Kind::kMap, mark, tag, anchor);
  }
  void OnMapEnd() override { Close(); }

 private:
  void Open(YamlNode::Kind kind, const YAML::Mark& mark, const std::string& tag,
            YAML::anchor_t anchor) {
    auto node = std::make_shared<YamlNode>();
    node->kind = kind;
    node->tag = tag;
    node->mark = mark;
    // Known but incomplete until Close(): an alias to it now is recursive.
    if (anchor != YAML::NullAnchor) anchors_[anchor] = nullptr;
    stack_.push_back({std::move(node), anchor});
  }

  void Close() {
    if (stack_.empty()) return;
    auto [node, anchor] = std::move(stack_.back());
    stack_.pop_back();
    Complete(std::move(node), anchor);
  }

  void Complete(std::shared_ptr<YamlNode> node, YAML::anchor_t anchor) {
    if (anchor != YAML::NullAnchor) anchors_[anchor] = node;
    Add(std::move(node));
  }

  void Add(std::shared_ptr<const YamlNode> node) {
    if (stack_.empty()) {
      root_ = std::move(node);
    } else {
      stack_.back().first->children.push_back(std::move(node));
    }
  }

  std::shared_ptr<const YamlNode> root_;
  std::vector<std::pair<std::shared_ptr<YamlNode>, YAML::anchor_t>> stack_;
  // Anchors are numbered over the whole stream; nullptr while incomplete.
  std::map<YAML::anchor_t, std::shared_ptr<const YamlNode>> anchors_;
  std::optional<YAML::Mark> recursive_alias_;
};

// YamlNode -> JSON with sigs.k8s.io/yaml's typing.
class YamlConverter {
 public:
  YamlConverter(const std::string& file, int64_t max_nodes)
      : file_(file), max_nodes_(max_nodes) {}

  StatusOr<json> Convert(const YamlNode& node, int depth) {
    if (depth > kMaxDepth) {
      return Error(node.mark, "document nested more than " +
                                  std::to_string(kMaxDepth) + " levels deep");
    }
    if (++nodes_ > max_nodes_) {
      return Error(node.mark, "text expands to more than " +
                                  std::to_string(max_nodes_) +
                                  " values (alias expansion)");
    }
    switch (node.kind) {
      case YamlNode::Kind::kNull:
        return json(nullptr);
      case YamlNode::Kind::kScalar:
        return Scalar(node);
      case YamlNode::Kind::kSequence: {
        json out = json::array();
        for (const auto& item : node.children) {
          StatusOr<json> v = Convert(*item, depth + 1);
          if (!v.ok()) return v.status();
          out.push_back(std::move(*v));
        }
        return out;
      }
      case YamlNode::Kind::kMap:
        return Map(node, depth);
    }
    return Error(node.mark, "unknown YAML node kind");
  }

  Status Error(const YAML::Mark& mark, const std::string& what) const {
    if (mark.is_null()) return Status::Invalid(file_ + ": " + what);
    return Status::Invalid(Position(file_, mark.line + 1, mark.column + 1) +
                           ": " + what);
  }

 private:
  StatusOr<json> Scalar(const YamlNode& node) {
    const std::string& tag = node.tag;
    const std::string& text = node.value;
    // "!" marks a quoted or block scalar; unknown tags (!foo, !!binary,
    // !!timestamp) are kept as the text, as Kubernetes only sees strings
    // through them.
    if (tag == "?" || tag.empty()) {
      StatusOr<json> v = ResolvePlain(text);
      if (!v.ok()) return Error(node.mark, v.status().message());
      return v;
    }
    if (tag == kTagInt || tag == kTagFloat || tag == kTagBool ||
        tag == kTagNull) {
      StatusOr<json> v = ResolvePlain(text);
      if (!v.ok()) return Error(node.mark, v.status().message());
      const bool fits =
          (tag == kTagInt && v->is_number_integer()) ||
          (tag == kTagFloat && v->is_number()) ||
          (tag == kTagBool && v->is_boolean()) ||
          (tag == kTagNull && v->is_null());
      if (!fits) {
        return Error(node.mark, "cannot decode `" + text + "` as a !!" +
                                    tag.substr(tag.rfind(':') + 1));
      }
      if (tag == kTagFloat && v->is_number_integer()) {
        return json(v->get<double>());
      }
      return v;
    }
    return json(text);
  }

  // JSON object keys are strings. Like sigs.k8s.io/yaml, scalar keys that
  // resolve to numbers or booleans become their text; null or collection
  // keys are errors.
  StatusOr<std::string> Key(const YamlNode& key) {
    if (key.kind == YamlNode::Kind::kScalar) {
      StatusOr<json> v = Scalar(key);
      if (!v.ok()) return v.status();
      if (v->is_string()) return v->get<std::string>();
      if (v->is_boolean()) return std::string(v->get<bool>() ? "true" : "false");
      if (v->is_number()) return v->dump();
    }
    return Error(key.mark,
                 "unsupported map key: keys must be strings, numbers or "
                 "booleans");
  }

  StatusOr<json> Map(const YamlNode& node, int depth) {
    json out = json::object();
    std::vector<json> merged;  // "<<" sources, highest precedence first
    for (size_t i = 0; i + 1 < node.children.size(); i += 2) {
      const YamlNode& key = *node.children[i];
      const YamlNode& value = *node.children[i + 1];
      if (key.kind == YamlNode::Kind::kScalar && key.tag == "?" &&
          key.value == "<<") {
        StatusOr<json> v = Convert(value, depth + 1);
        if (!v.ok()) return v.status();
        if (v->is_object()) {
          merged.push_back(std::move(*v));
        } else if (v->is_array() &&
                   std::all_of(v->begin(), v->end(),
                               [](const json& j) { return j.is_object(); })) {
          for (json& m : *v) merged.push_back(std::move(m));
        } else {
          return Error(value.mark,
                       "map merge requires a map or a sequence of maps");
        }
        continue;
      }
      StatusOr<std::string> k = Key(key);
      if (!k.ok()) return k.status();
      StatusOr<json> v = Convert(value, depth + 1);
      if (!v.ok()) return v.status();
      // Strict decoding, as Kubernetes decodes manifests and its
      // configuration: a repeated key is an error, not "last one wins".
      if (out.contains(*k)) {
        return Error(key.mark, "duplicate key " + Quote(*k));
      }
      out[*k] = std::move(*v);
    }
    for (const json& m : merged) {
      for (auto it = m.begin(); it != m.end(); ++it) {
        if (!out.contains(it.key())) out[it.key()] = it.value();
      }
    }
    return out;
  }

  const std::string& file_;
  const int64_t max_nodes_;
  int64_t nodes_ = 0;  // over all documents of the text
};

// go-yaml (under sigs.k8s.io/yaml) reads only UTF-8 or BOM-marked UTF-16,
// and only the characters YAML calls printable (tab, line breaks, and the
// rest of Unicode minus C0/C1 controls, surrogates and U+FFFE/U+FFFF).
// yaml-cpp is laxer: it keeps invalid bytes (its emitter then writes them
// as U+FFFD) and guesses UTF-16/32 from NUL bytes. Returns an error naming
// the first byte go-yaml would refuse.
// Note: a UTF-16 text is refused too; see docs/deviations.md.
Status CheckYamlText(std::string_view text, const std::string& file) {
  auto error = [&](size_t at, const std::string& what) {
    const auto [line, column] = LineColumn(text, at);
    return Status::Invalid(Position(file, line, column) + ": " + what);
  };
  for (size_t i = 0; i < text.size();) {
    const Utf8Sequence seq = DecodeUtf8(text, i);
    if (seq.length == 0) {
      if (seq.bad >= text.size()) {
        return error(i, "incomplete UTF-8 sequence at the end of the text");
      }
      return error(seq.bad,
                   "invalid UTF-8 byte 0x" +
                       HexDigits(static_cast<unsigned char>(text[seq.bad]), 2) +
                       " (YAML text must be UTF-8)");
    }
    const uint32_t cp = seq.code_point;
    const bool printable = cp == 0x09 || cp == 0x0A || cp == 0x0D ||
                           (cp >= 0x20 && cp <= 0x7E) || cp == 0x85 ||
                           (cp >= 0xA0 && cp <= 0xD7FF) ||
                           (cp >= 0xE000 && cp <= 0xFFFD) ||
                           (cp >= 0x10000 && cp <= 0x10FFFF);
    if (!printable) {
      return error(i, "control character U+" + HexDigits(cp, 4) +
                          " is not allowed in YAML");
    }
    i += seq.length;
  }
  return Status::Ok();
}

StatusOr<std::vector<json>> ParseYaml(std::string_view text,
                                      const std::string& file) {
  SCHEDREF_RETURN_IF_ERROR(CheckYamlText(text, file));
  std::vector<json> documents;
  YamlConverter converter(file, MaxNodes(text.size()));
  YamlBuilder builder;
  std::istringstream stream{std::string(text)};
  try {
    YAML::Parser parser(stream);
    std::optional<size_t> last_empty_at;
    // Every document consumes at least one byte; more documents than that
    // means the parser is not making progress.
    for (size_t count = 0;; ++count) {
      builder.Reset();
      if (!parser.HandleNextDocument(builder)) break;
      if (builder.recursive_alias()) {
        return converter.Error(*builder.recursive_alias(),
                               "an alias refers to a node that contains it");
      }
      const std::shared_ptr<const YamlNode> root = builder.root();
      if (root == nullptr || root->kind == YamlNode::Kind::kNull) {
        const YAML::Mark mark = root ? root->mark : YAML::Mark::null_mark();
        const size_t at = mark.is_null() ? text.size() : mark.pos;
        if ((last_empty_at && *last_empty_at == at) || count > text.size()) {
          std::string what = "invalid YAML";
          if (at < text.size()) {
            what += ": unexpected character '" + std::string(1, text[at]) + "'";
          }
          return converter.Error(mark, what);
        }
        last_empty_at = at;
        continue;  // an empty document
      }
      last_empty_at.reset();
      StatusOr<json> doc = converter.Convert(*root, 0);
      if (!doc.ok()) return doc.status();
      documents.push_back(std::move(*doc));
    }
  } catch (const YAML::Exception& e) {
    return converter.Error(e.mark, e.msg);
  }
  return documents;
}

}  // namespace

std::string JsonTypeName(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
    case json::value_t::discarded:
      return "null";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "integer";
    case json::value_t::number_float:
      return "number";
    case json::value_t::string:
      return "string";
    case json::value_t::array:
    case json::value_t::binary:
      return "array";
    case json::value_t::object:
      return "object";
  }
  return "unknown";
}

StatusOr<std::vector<json>> ParseDocuments(std::string_view text,
                                           const std::string& file) {
  // A UTF-8 byte order mark is not content.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  const size_t first = SkipBlanks(text, 0);
  if (first < text.size() && (text[first] == '{' || text[first] == '[')) {
    return ParseJsonStream(text, file);
  }
  return ParseYaml(text, file);
}

// --- FieldReader -------------------------------------------------------------

FieldReader::FieldReader(const nlohmann::json& document, std::string file,
                         std::string object)
    : FieldReader(document.is_null() ? nullptr : &document, std::move(file),
                  std::move(object), "") {}

FieldReader::FieldReader(const nlohmann::json* value, std::string file,
                         std::string object, std::string path)
    : value_(value),
      file_(std::move(file)),
      object_(std::move(object)),
      path_(std::move(path)) {}

FieldReader FieldReader::WithObject(std::string object) const {
  return FieldReader(value_, file_, std::move(object), path_);
}

FieldReader FieldReader::Child(std::string path, const nlohmann::json* value) const {
  if (value != nullptr && value->is_null()) value = nullptr;
  return FieldReader(value, file_, object_, std::move(path));
}

std::string FieldReader::ChildPath(std::string_view key) const {
  if (path_.empty()) return std::string(key);
  return path_ + "." + std::string(key);
}

Status FieldReader::Error(std::string_view problem) const {
  std::string message = file_ + ": ";
  if (!object_.empty()) message += object_ + ": ";
  if (!path_.empty()) message += path_ + ": ";
  message += problem;
  return Status::Invalid(std::move(message));
}

Status FieldReader::ErrorAt(std::string_view relative_path,
                            std::string_view problem) const {
  std::string path = path_;
  if (!relative_path.empty()) {
    if (!path.empty() && relative_path.front() != '[') path += ".";
    path += relative_path;
  }
  return FieldReader(value_, file_, object_, std::move(path)).Error(problem);
}

Status FieldReader::ExpectObject() const {
  if (value_ == nullptr || value_->is_object()) return Status::Ok();
  return Error("expected object, got " + JsonTypeName(*value_));
}

StatusOr<FieldReader> FieldReader::Field(std::string_view key) const {
  SCHEDREF_RETURN_IF_ERROR(ExpectObject());
  const nlohmann::json* child = nullptr;
  if (value_ != nullptr) {
    auto it = value_->find(key);
    if (it != value_->end()) child = &*it;
  }
  return Child(ChildPath(key), child);
}

StatusOr<FieldReader> FieldReader::Object(std::string_view key) const {
  StatusOr<FieldReader> child = Field(key);
  if (!child.ok()) return child;
  SCHEDREF_RETURN_IF_ERROR(child->ExpectObject());
  return child;
}

StatusOr<std::vector<FieldReader>> FieldReader::Array(
    std::string_view key) const {
  StatusOr<FieldReader> child = Field(key);
  if (!child.ok()) return child.status();
  std::vector<FieldReader> items;
  if (!child->present()) return items;
  if (!child->json().is_array()) {
    return child->Error("expected array, got " + JsonTypeName(child->json()));
  }
  const nlohmann::json& array = child->json();
  items.reserve(array.size());
  for (size_t i = 0; i < array.size(); ++i) {
    items.push_back(Child(child->path() + "[" + std::to_string(i) + "]",
                          &array[i]));
  }
  return items;
}

StatusOr<std::vector<std::pair<std::string, FieldReader>>>
FieldReader::Entries(std::string_view key) const {
  StatusOr<FieldReader> child = Object(key);
  if (!child.ok()) return child.status();
  std::vector<std::pair<std::string, FieldReader>> entries;
  if (!child->present()) return entries;
  for (auto it = child->json().begin(); it != child->json().end(); ++it) {
    entries.emplace_back(it.key(),
                         Child(child->path() + "." + it.key(), &it.value()));
  }
  return entries;
}

Status FieldReader::AsString(std::string* out) const {
  if (!value_->is_string()) {
    return Error("expected string, got " + JsonTypeName(*value_));
  }
  *out = value_->get<std::string>();
  return Status::Ok();
}

Status FieldReader::AsBool(bool* out) const {
  if (!value_->is_boolean()) {
    return Error("expected boolean, got " + JsonTypeName(*value_));
  }
  *out = value_->get<bool>();
  return Status::Ok();
}

Status FieldReader::AsInt64(int64_t* out) const {
  switch (value_->type()) {
    case nlohmann::json::value_t::number_integer:
      *out = value_->get<int64_t>();
      return Status::Ok();
    case nlohmann::json::value_t::number_unsigned: {
      const uint64_t v = value_->get<uint64_t>();
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return Error("integer " + std::to_string(v) + " is out of range");
      }
      *out = static_cast<int64_t>(v);
      return Status::Ok();
    }
    case nlohmann::json::value_t::number_float: {
      const double v = value_->get<double>();
      if (!std::isfinite(v) || std::trunc(v) != v) {
        return Error("expected integer, got number " + value_->dump());
      }
      // 2^63 is exactly representable; everything below it converts.
      if (v < -9223372036854775808.0 || v >= 9223372036854775808.0) {
        return Error("integer " + value_->dump() + " is out of range");
      }
      *out = static_cast<int64_t>(v);
      return Status::Ok();
    }
    default:
      return Error("expected integer, got " + JsonTypeName(*value_));
  }
}

Status FieldReader::AsInt32(int32_t* out) const {
  int64_t v = 0;
  SCHEDREF_RETURN_IF_ERROR(AsInt64(&v));
  if (v < std::numeric_limits<int32_t>::min() ||
      v > std::numeric_limits<int32_t>::max()) {
    return Error("integer " + std::to_string(v) +
                 " is out of range for int32");
  }
  *out = static_cast<int32_t>(v);
  return Status::Ok();
}

Status FieldReader::AsScalarText(std::string* out) const {
  switch (value_->type()) {
    case nlohmann::json::value_t::string:
      *out = value_->get<std::string>();
      return Status::Ok();
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
    case nlohmann::json::value_t::number_float:
      *out = value_->dump();
      return Status::Ok();
    default:
      return Error("expected string or number, got " + JsonTypeName(*value_));
  }
}

Status FieldReader::String(std::string_view key, std::string* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  return f->AsString(out);
}

Status FieldReader::String(std::string_view key,
                           std::optional<std::string>* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  std::string v;
  SCHEDREF_RETURN_IF_ERROR(f->AsString(&v));
  *out = std::move(v);
  return Status::Ok();
}

Status FieldReader::RequiredString(std::string_view key,
                                   std::string* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return f->Error("required field is missing");
  std::string v;
  SCHEDREF_RETURN_IF_ERROR(f->AsString(&v));
  if (v.empty()) return f->Error("must not be empty");
  *out = std::move(v);
  return Status::Ok();
}

namespace {
Status CheckEnum(const FieldReader& f, const std::string& value,
                 std::initializer_list<std::string_view> allowed) {
  for (std::string_view a : allowed) {
    if (value == a) return Status::Ok();
  }
  std::string list;
  for (std::string_view a : allowed) {
    if (!list.empty()) list += ", ";
    list += Quote(a);
  }
  return f.Error("unsupported value " + Quote(value) + " (supported: " + list +
                 ")");
}
}  // namespace

Status FieldReader::Enum(std::string_view key,
                         std::initializer_list<std::string_view> allowed,
                         std::string* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  std::string v;
  SCHEDREF_RETURN_IF_ERROR(f->AsString(&v));
  SCHEDREF_RETURN_IF_ERROR(CheckEnum(*f, v, allowed));
  *out = std::move(v);
  return Status::Ok();
}

Status FieldReader::Enum(std::string_view key,
                         std::initializer_list<std::string_view> allowed,
                         std::optional<std::string>* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  std::string v;
  SCHEDREF_RETURN_IF_ERROR(f->AsString(&v));
  SCHEDREF_RETURN_IF_ERROR(CheckEnum(*f, v, allowed));
  *out = std::move(v);
  return Status::Ok();
}

Status FieldReader::Bool(std::string_view key, bool* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  return f->AsBool(out);
}

Status FieldReader::Bool(std::string_view key,
                         std::optional<bool>* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  bool v = false;
  SCHEDREF_RETURN_IF_ERROR(f->AsBool(&v));
  *out = v;
  return Status::Ok();
}

Status FieldReader::Int32(std::string_view key, int32_t* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  return f->AsInt32(out);
}

Status FieldReader::Int32(std::string_view key,
                          std::optional<int32_t>* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  int32_t v = 0;
  SCHEDREF_RETURN_IF_ERROR(f->AsInt32(&v));
  *out = v;
  return Status::Ok();
}

Status FieldReader::RequiredInt32(std::string_view key, int32_t* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return f->Error("required field is missing");
  return f->AsInt32(out);
}

Status FieldReader::Int64(std::string_view key, int64_t* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  return f->AsInt64(out);
}

Status FieldReader::Int64(std::string_view key,
                          std::optional<int64_t>* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  int64_t v = 0;
  SCHEDREF_RETURN_IF_ERROR(f->AsInt64(&v));
  *out = v;
  return Status::Ok();
}

Status FieldReader::RequiredInt64(std::string_view key, int64_t* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return f->Error("required field is missing");
  return f->AsInt64(out);
}

Status FieldReader::StringMap(std::string_view key,
                              std::map<std::string, std::string>* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  StatusOr<std::vector<std::pair<std::string, FieldReader>>> entries =
      Entries(key);
  if (!entries.ok()) return entries.status();
  std::map<std::string, std::string> result;
  for (const auto& [k, v] : *entries) {
    std::string s;
    if (v.present()) {
      SCHEDREF_RETURN_IF_ERROR(v.AsString(&s));
    }
    // A null value decodes to "" in encoding/json, not to a missing key.
    result[k] = std::move(s);
  }
  *out = std::move(result);
  return Status::Ok();
}

Status FieldReader::StringList(std::string_view key,
                               std::vector<std::string>* out) const {
  StatusOr<FieldReader> f = Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) return Status::Ok();
  StatusOr<std::vector<FieldReader>> items = Array(key);
  if (!items.ok()) return items.status();
  std::vector<std::string> result;
  result.reserve(items->size());
  for (const FieldReader& item : *items) {
    std::string s;
    if (item.present()) {
      SCHEDREF_RETURN_IF_ERROR(item.AsString(&s));
    }
    result.push_back(std::move(s));
  }
  *out = std::move(result);
  return Status::Ok();
}

}  // namespace schedref::api
