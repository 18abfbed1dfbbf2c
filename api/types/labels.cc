#include "api/types/labels.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedref::api {
namespace {

constexpr size_t kLabelValueMaxLength = 63;
constexpr size_t kQualifiedNameMaxLength = 63;
constexpr size_t kDns1123SubdomainMaxLength = 253;

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], the shape shared by label
// values and the name part of qualified names.
bool IsQualifiedNamePart(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  }
  return true;
}

bool IsLowerAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*
bool IsDns1123Subdomain(std::string_view s) {
  if (s.empty()) return false;
  size_t start = 0;
  while (true) {
    const size_t dot = s.find('.', start);
    const std::string_view label =
        s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
    if (label.empty() || !IsLowerAlnum(label.front()) ||
        !IsLowerAlnum(label.back())) {
      return false;
    }
    for (char c : label) {
      if (!IsLowerAlnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// Upstream validation.RegexError: the message, then the examples and the
// pattern, in its exact punctuation.
std::string RegexError(std::string_view message, std::string_view format,
                       std::initializer_list<std::string_view> examples) {
  std::string out(message);
  out += " (e.g. ";
  bool first = true;
  for (std::string_view e : examples) {
    if (!first) out += " or ";
    first = false;
    out += "'";
    out += e;
    out += "', ";
  }
  out += "regex used for validation is '";
  out += format;
  out += "')";
  return out;
}

std::string MaxLenError(size_t length) {
  return "must be no more than " + std::to_string(length) + " characters";
}

std::string Quote(std::string_view s) {
  std::string out = "\"";
  out += s;
  out += "\"";
  return out;
}

// strconv.ParseInt(s, 10, 64): an optional sign and at least one decimal
// digit, in range.
std::optional<int64_t> ParseInt64(std::string_view s) {
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    negative = s[i] == '-';
    ++i;
  }
  if (i == s.size()) return std::nullopt;
  uint64_t magnitude = 0;
  const uint64_t limit =
      negative ? static_cast<uint64_t>(INT64_MAX) + 1 : INT64_MAX;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(s[i] - '0');
    if (magnitude > (limit - digit) / 10) return std::nullopt;
    magnitude = magnitude * 10 + digit;
  }
  if (negative) return static_cast<int64_t>(0 - magnitude);
  return static_cast<int64_t>(magnitude);
}

std::string Index(std::string_view field, size_t i) {
  return std::string(field) + "[" + std::to_string(i) + "]";
}

std::string Supported(std::string_view value,
                      std::initializer_list<std::string_view> allowed) {
  std::string list;
  for (std::string_view a : allowed) {
    if (!list.empty()) list += ", ";
    list += Quote(a);
  }
  return "unsupported value " + Quote(value) + " (supported: " + list + ")";
}

std::optional<std::string> KeyProblem(std::string_view key) {
  if (auto p = CheckQualifiedName(key)) {
    return "invalid label key " + Quote(key) + ": " + *p;
  }
  return std::nullopt;
}

std::optional<std::string> ValueProblem(std::string_view value) {
  if (auto p = CheckLabelValue(value)) {
    return "invalid label value " + Quote(value) + ": " + *p;
  }
  return std::nullopt;
}

// Requirement.Matches for the operators a label selector or a node
// selector can hold. Gt/Lt need the label and both sides to be base-10
// integers.
bool RequirementMatches(const std::string& key, const std::string& op,
                        const std::vector<std::string>& values,
                        const Labels& labels) {
  const auto it = labels.find(key);
  const bool has = it != labels.end();
  auto has_value = [&](const std::string& v) {
    for (const std::string& x : values) {
      if (x == v) return true;
    }
    return false;
  };
  if (op == "In") return has && has_value(it->second);
  if (op == "NotIn") return !has || !has_value(it->second);
  if (op == "Exists") return has;
  if (op == "DoesNotExist") return !has;
  if (op == "Gt" || op == "Lt") {
    if (!has || values.size() != 1) return false;
    const std::optional<int64_t> label = ParseInt64(it->second);
    const std::optional<int64_t> bound = ParseInt64(values[0]);
    if (!label || !bound) return false;
    return op == "Gt" ? *label > *bound : *label < *bound;
  }
  return false;
}

const std::initializer_list<std::string_view> kTaintEffects = {
    "NoSchedule", "PreferNoSchedule", "NoExecute"};

}  // namespace

// --- Syntax --------------------------------------------------------------------

std::optional<std::string> CheckDnsSubdomain(std::string_view name) {
  if (name.size() > kDns1123SubdomainMaxLength) return MaxLenError(kDns1123SubdomainMaxLength);
  if (!IsDns1123Subdomain(name)) {
    return RegexError("a lowercase RFC 1123 subdomain must consist of lower case "
                      "alphanumeric characters, '-' or '.', and must start and end "
                      "with an alphanumeric character",
                      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*",
                      {"example.com"});
  }
  return std::nullopt;
}

std::vector<std::string> QualifiedNameErrors(std::string_view value) {
  constexpr std::string_view kFormat = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  constexpr std::string_view kMessage =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start "
      "and end with an alphanumeric character";
  std::vector<std::string> errors;
  std::string_view name = value;
  const size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      return {"a qualified name " +
              RegexError(kMessage, kFormat, {"MyName", "my.name", "123-abc"}) +
              " with an optional DNS subdomain prefix and '/' (e.g. "
              "'example.com/MyName')"};
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errors.push_back("prefix part must be non-empty");
    } else {
      if (prefix.size() > kDns1123SubdomainMaxLength) {
        errors.push_back("prefix part " + MaxLenError(kDns1123SubdomainMaxLength));
      }
      if (!IsDns1123Subdomain(prefix)) {
        errors.push_back(
            "prefix part " +
            RegexError("a lowercase RFC 1123 subdomain must consist of lower case "
                       "alphanumeric characters, '-' or '.', and must start and end "
                       "with an alphanumeric character",
                       "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*",
                       {"example.com"}));
      }
    }
  }
  if (name.empty()) {
    errors.push_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    errors.push_back("name part " + MaxLenError(kQualifiedNameMaxLength));
  }
  if (!IsQualifiedNamePart(name)) {
    errors.push_back("name part " +
                     RegexError(kMessage, kFormat, {"MyName", "my.name", "123-abc"}));
  }
  return errors;
}

std::optional<std::string> CheckQualifiedName(std::string_view key) {
  std::vector<std::string> errors = QualifiedNameErrors(key);
  if (errors.empty()) return std::nullopt;
  return std::move(errors.front());
}

std::vector<std::string> LabelValueErrors(std::string_view value) {
  std::vector<std::string> errors;
  if (value.size() > kLabelValueMaxLength) errors.push_back(MaxLenError(kLabelValueMaxLength));
  if (!value.empty() && !IsQualifiedNamePart(value)) {
    errors.push_back(RegexError(
        "a valid label must be an empty string or consist of alphanumeric "
        "characters, '-', '_' or '.', and must start and end with an alphanumeric "
        "character",
        "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?", {"MyValue", "my_value", "12345"}));
  }
  return errors;
}

std::optional<std::string> CheckLabelValue(std::string_view value) {
  std::vector<std::string> errors = LabelValueErrors(value);
  if (errors.empty()) return std::nullopt;
  return std::move(errors.front());
}

std::optional<FieldProblem> ValidateLabels(const Labels& labels) {
  for (const auto& [key, value] : labels) {
    if (auto p = KeyProblem(key)) return FieldProblem{key, *p};
    if (auto p = ValueProblem(value)) return FieldProblem{key, *p};
  }
  return std::nullopt;
}

std::optional<FieldProblem> ValidateAnnotations(const Labels& annotations) {
  constexpr size_t kTotalAnnotationSizeLimitB = 256 * (1 << 10);
  size_t total = 0;
  for (const auto& [key, value] : annotations) {
    std::string lower = key;
    for (char& c : lower) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    if (auto p = CheckQualifiedName(lower)) return FieldProblem{key, *p};
    total += key.size() + value.size();
  }
  if (total > kTotalAnnotationSizeLimitB) {
    return FieldProblem{"", "Too long: may not be more than " +
                                std::to_string(kTotalAnnotationSizeLimitB) +
                                " bytes"};
  }
  return std::nullopt;
}

// --- Label selectors -------------------------------------------------------------

std::optional<FieldProblem> ValidateLabelSelector(
    const LabelSelector& selector) {
  for (const auto& [key, value] : selector.match_labels) {
    const std::string field = "matchLabels." + key;
    if (auto p = KeyProblem(key)) return FieldProblem{field, *p};
    if (auto p = ValueProblem(value)) return FieldProblem{field, *p};
  }
  for (size_t i = 0; i < selector.match_expressions.size(); ++i) {
    const LabelSelectorRequirement& r = selector.match_expressions[i];
    const std::string at = Index("matchExpressions", i);
    if (auto p = KeyProblem(r.key)) return FieldProblem{at + ".key", *p};
    if (r.op == "In" || r.op == "NotIn") {
      if (r.values.empty()) {
        return FieldProblem{at + ".values",
                            "must be non-empty when operator is " + r.op};
      }
    } else if (r.op == "Exists" || r.op == "DoesNotExist") {
      if (!r.values.empty()) {
        return FieldProblem{at + ".values",
                            "must be empty when operator is " + r.op};
      }
    } else {
      return FieldProblem{
          at + ".operator",
          Supported(r.op, {"In", "NotIn", "Exists", "DoesNotExist"})};
    }
    for (size_t j = 0; j < r.values.size(); ++j) {
      if (auto p = ValueProblem(r.values[j])) {
        return FieldProblem{Index(at + ".values", j), *p};
      }
    }
  }
  return std::nullopt;
}

bool Matches(const LabelSelector& selector, const Labels& labels) {
  for (const auto& [key, value] : selector.match_labels) {
    const auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  for (const LabelSelectorRequirement& r : selector.match_expressions) {
    // Gt/Lt are not label selector operators; RequirementMatches would
    // accept them, so they are turned away here.
    if (r.op == "Gt" || r.op == "Lt") return false;
    if (!RequirementMatches(r.key, r.op, r.values, labels)) return false;
  }
  return true;
}

// --- Node selectors ----------------------------------------------------------------

std::optional<FieldProblem> ValidateNodeSelectorTerm(
    const NodeSelectorTerm& term) {
  for (size_t i = 0; i < term.match_expressions.size(); ++i) {
    const NodeSelectorRequirement& r = term.match_expressions[i];
    const std::string at = Index("matchExpressions", i);
    if (r.op == "In" || r.op == "NotIn") {
      if (r.values.empty()) {
        return FieldProblem{at + ".values",
                            "must be non-empty when operator is " + r.op};
      }
    } else if (r.op == "Exists" || r.op == "DoesNotExist") {
      if (!r.values.empty()) {
        return FieldProblem{at + ".values",
                            "must be empty when operator is " + r.op};
      }
    } else if (r.op == "Gt" || r.op == "Lt") {
      if (r.values.size() != 1) {
        return FieldProblem{at + ".values",
                            "must have exactly one value when operator is " +
                                r.op};
      }
    } else {
      return FieldProblem{
          at + ".operator",
          Supported(r.op, {"In", "NotIn", "Exists", "DoesNotExist", "Gt",
                           "Lt"})};
    }
    if (auto p = KeyProblem(r.key)) return FieldProblem{at + ".key", *p};
  }
  for (size_t i = 0; i < term.match_fields.size(); ++i) {
    const NodeSelectorRequirement& r = term.match_fields[i];
    const std::string at = Index("matchFields", i);
    if (r.key != "metadata.name") {
      return FieldProblem{at + ".key", Supported(r.key, {"metadata.name"})};
    }
    if (r.op != "In" && r.op != "NotIn") {
      return FieldProblem{at + ".operator", Supported(r.op, {"In", "NotIn"})};
    }
    if (r.values.size() != 1) {
      return FieldProblem{at + ".values",
                          "must have exactly one value for a field selector"};
    }
  }
  return std::nullopt;
}

bool IsEmptyNodeSelectorTerm(const NodeSelectorTerm& term) {
  return term.match_expressions.empty() && term.match_fields.empty();
}

std::optional<FieldProblem> NodeSelectorTermParseError(
    const NodeSelectorTerm& term) {
  // nodeSelectorRequirementsAsSelector + labels.NewRequirement.
  for (size_t i = 0; i < term.match_expressions.size(); ++i) {
    const NodeSelectorRequirement& r = term.match_expressions[i];
    const std::string at = Index("matchExpressions", i);
    if (r.op != "In" && r.op != "NotIn" && r.op != "Exists" &&
        r.op != "DoesNotExist" && r.op != "Gt" && r.op != "Lt") {
      return FieldProblem{
          at + ".operator",
          Supported(r.op, {"In", "NotIn", "Exists", "DoesNotExist", "Gt",
                           "Lt"})};
    }
    if (auto p = KeyProblem(r.key)) return FieldProblem{at + ".key", *p};
    if ((r.op == "In" || r.op == "NotIn") && r.values.empty()) {
      return FieldProblem{at + ".values",
                          "must be non-empty when operator is " + r.op};
    }
    if ((r.op == "Exists" || r.op == "DoesNotExist") && !r.values.empty()) {
      return FieldProblem{at + ".values",
                          "must be empty when operator is " + r.op};
    }
    if (r.op == "Gt" || r.op == "Lt") {
      if (r.values.size() != 1) {
        return FieldProblem{at + ".values",
                            "must have exactly one value when operator is " +
                                r.op};
      }
      if (!ParseInt64(r.values[0])) {
        return FieldProblem{Index(at + ".values", 0),
                            "must be an integer when operator is " + r.op};
      }
    }
    for (size_t j = 0; j < r.values.size(); ++j) {
      if (auto p = ValueProblem(r.values[j])) {
        return FieldProblem{Index(at + ".values", j), *p};
      }
    }
  }
  // nodeSelectorRequirementsAsFieldSelector: the key is not checked here.
  for (size_t i = 0; i < term.match_fields.size(); ++i) {
    const NodeSelectorRequirement& r = term.match_fields[i];
    const std::string at = Index("matchFields", i);
    if (r.op != "In" && r.op != "NotIn") {
      return FieldProblem{at + ".operator", Supported(r.op, {"In", "NotIn"})};
    }
    if (r.values.size() != 1) {
      return FieldProblem{at + ".values", "must have one element"};
    }
  }
  return std::nullopt;
}

bool NodeSelectorTermMatches(const NodeSelectorTerm& term, const Node& node) {
  if (IsEmptyNodeSelectorTerm(term)) return false;
  if (NodeSelectorTermParseError(term).has_value()) return false;
  for (const NodeSelectorRequirement& r : term.match_expressions) {
    if (!RequirementMatches(r.key, r.op, r.values, node.labels)) return false;
  }
  if (!node.name.empty()) {
    for (const NodeSelectorRequirement& r : term.match_fields) {
      // The only field a node offers is metadata.name; any other key reads
      // as "", like a missing entry of a fields.Set.
      const std::string actual = r.key == "metadata.name" ? node.name : "";
      const bool equal = actual == r.values[0];
      if ((r.op == "In") != equal) return false;
    }
  }
  return true;
}

bool NodeSelectorMatches(const NodeSelector& selector, const Node& node) {
  for (const NodeSelectorTerm& term : selector.terms) {
    if (NodeSelectorTermMatches(term, node)) return true;
  }
  return false;
}

bool RequiredNodeAffinityMatches(const Pod& pod, const Node& node) {
  for (const auto& [key, value] : pod.node_selector) {
    const auto it = node.labels.find(key);
    if (it == node.labels.end() || it->second != value) return false;
  }
  if (pod.affinity && pod.affinity->node_affinity &&
      pod.affinity->node_affinity->required) {
    return NodeSelectorMatches(*pod.affinity->node_affinity->required, node);
  }
  return true;
}

// --- Taints and tolerations -----------------------------------------------------

std::optional<FieldProblem> ValidateTaints(const std::vector<Taint>& taints) {
  std::set<std::pair<std::string, std::string>> seen;  // (effect, key)
  for (size_t i = 0; i < taints.size(); ++i) {
    const Taint& t = taints[i];
    const std::string at = Index("", i);
    if (auto p = KeyProblem(t.key)) return FieldProblem{at + ".key", *p};
    if (auto p = ValueProblem(t.value)) return FieldProblem{at + ".value", *p};
    if (t.effect.empty()) {
      return FieldProblem{at + ".effect", "required field is missing"};
    }
    bool known = false;
    for (std::string_view e : kTaintEffects) known = known || t.effect == e;
    if (!known) {
      return FieldProblem{at + ".effect", Supported(t.effect, kTaintEffects)};
    }
    if (!seen.emplace(t.effect, t.key).second) {
      return FieldProblem{at, "taints must be unique by key and effect; " +
                                  Quote(t.key) + " with effect " + t.effect +
                                  " appears twice"};
    }
  }
  return std::nullopt;
}

std::optional<FieldProblem> ValidateToleration(const Toleration& t) {
  if (!t.key.empty()) {
    if (auto p = KeyProblem(t.key)) return FieldProblem{"key", *p};
  } else if (t.op != "Exists") {
    return FieldProblem{"operator",
                        "must be Exists when key is empty (a toleration "
                        "that matches every key)"};
  }
  if (t.toleration_seconds.has_value() && t.effect != "NoExecute") {
    return FieldProblem{"effect",
                        "must be NoExecute when tolerationSeconds is set"};
  }
  if (t.op.empty() || t.op == "Equal") {
    if (auto p = ValueProblem(t.value)) return FieldProblem{"value", *p};
  } else if (t.op == "Exists") {
    if (!t.value.empty()) {
      return FieldProblem{"value", "must be empty when operator is Exists"};
    }
  } else {
    return FieldProblem{"operator", Supported(t.op, {"Equal", "Exists"})};
  }
  if (!t.effect.empty()) {
    bool known = false;
    for (std::string_view e : kTaintEffects) known = known || t.effect == e;
    if (!known) {
      return FieldProblem{"effect", Supported(t.effect, kTaintEffects)};
    }
  }
  return std::nullopt;
}

bool ToleratesTaint(const Toleration& toleration, const Taint& taint) {
  if (!toleration.effect.empty() && toleration.effect != taint.effect) {
    return false;
  }
  if (!toleration.key.empty() && toleration.key != taint.key) return false;
  if (toleration.op.empty() || toleration.op == "Equal") {
    return toleration.value == taint.value;
  }
  return toleration.op == "Exists";
}

bool TolerationsTolerateTaint(const std::vector<Toleration>& tolerations,
                              const Taint& taint) {
  for (const Toleration& t : tolerations) {
    if (ToleratesTaint(t, taint)) return true;
  }
  return false;
}

}  // namespace schedref::api
