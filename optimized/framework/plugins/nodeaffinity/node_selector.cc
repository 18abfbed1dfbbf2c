#include "optimized/framework/plugins/nodeaffinity/node_selector.h"

#include <charconv>
#include <string_view>
#include <utility>

#include "api/types/labels.h"

namespace schedref::optimized::framework::plugins::nodeaffinity {
namespace {

// strconv.ParseInt(s, 10, 64), which Gt/Lt apply to node label values: an
// optional sign, then at least one decimal digit, in int64 range.
// Note: api/types/labels.cc has the same rule privately; if api exports it, use
// that instead.
std::optional<int64_t> ParseInt64(std::string_view s) {
  if (!s.empty() && s[0] == '+') {
    s.remove_prefix(1);
    // from_chars would take a second sign ("+-1"); ParseInt does not.
    if (s.empty() || s[0] < '0' || s[0] > '9') return std::nullopt;
  }
  int64_t value = 0;
  const char* end = s.data() + s.size();
  const auto [ptr, ec] = std::from_chars(s.data(), end, value, 10);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

bool Contains(const std::vector<std::string>& values, const std::string& v) {
  for (const std::string& x : values) {
    if (x == v) return true;
  }
  return false;
}

}  // namespace

std::optional<CompiledTerm> CompiledTerm::Compile(
    const api::NodeSelectorTerm& term) {
  if (api::IsEmptyNodeSelectorTerm(term) ||
      api::NodeSelectorTermParseError(term).has_value()) {
    return std::nullopt;
  }
  // The term parsed: operators are known, Gt/Lt have one integer value,
  // matchFields have one value and operator In or NotIn.
  CompiledTerm out;
  out.expressions_.reserve(term.match_expressions.size());
  for (const api::NodeSelectorRequirement& r : term.match_expressions) {
    Expression e;
    e.key = r.key;
    if (r.op == "In") {
      e.op = Op::kIn;
      e.values = r.values;
    } else if (r.op == "NotIn") {
      e.op = Op::kNotIn;
      e.values = r.values;
    } else if (r.op == "Exists") {
      e.op = Op::kExists;
    } else if (r.op == "DoesNotExist") {
      e.op = Op::kDoesNotExist;
    } else {
      e.op = r.op == "Gt" ? Op::kGt : Op::kLt;
      const std::optional<int64_t> bound = ParseInt64(r.values[0]);
      // Unreachable for a term that parsed; kept as "matches nothing".
      if (!bound.has_value()) return std::nullopt;
      e.bound = *bound;
    }
    out.expressions_.push_back(std::move(e));
  }
  out.fields_.reserve(term.match_fields.size());
  for (const api::NodeSelectorRequirement& r : term.match_fields) {
    out.fields_.push_back({r.key == "metadata.name", r.op == "In", r.values[0]});
  }
  return out;
}

bool CompiledTerm::Matches(const api::Node& node) const {
  const api::Labels& labels = node.labels;
  for (const Expression& e : expressions_) {
    const auto it = labels.find(e.key);
    const bool has = it != labels.end();
    switch (e.op) {
      case Op::kIn:
        if (!has || !Contains(e.values, it->second)) return false;
        break;
      case Op::kNotIn:
        if (has && Contains(e.values, it->second)) return false;
        break;
      case Op::kExists:
        if (!has) return false;
        break;
      case Op::kDoesNotExist:
        if (has) return false;
        break;
      case Op::kGt:
      case Op::kLt: {
        if (!has) return false;
        const std::optional<int64_t> v = ParseInt64(it->second);
        if (!v.has_value()) return false;
        if (e.op == Op::kGt ? !(*v > e.bound) : !(*v < e.bound)) return false;
        break;
      }
    }
  }
  // As upstream, a node without a name offers no fields to match against.
  if (!node.name.empty()) {
    static const std::string kEmpty;
    for (const Field& f : fields_) {
      const std::string& actual = f.is_name ? node.name : kEmpty;
      if ((actual == f.value) != f.in) return false;
    }
  }
  return true;
}

CompiledNodeSelector::CompiledNodeSelector(const api::NodeSelector& selector) {
  for (const api::NodeSelectorTerm& t : selector.terms) {
    if (std::optional<CompiledTerm> c = CompiledTerm::Compile(t)) {
      terms_.push_back(*std::move(c));
    }
  }
}

bool CompiledNodeSelector::Matches(const api::Node& node) const {
  for (const CompiledTerm& t : terms_) {
    if (t.Matches(node)) return true;
  }
  return false;
}

int64_t ScorePreferred(const std::vector<CompiledPreferredTerm>& terms,
                       const api::Node& node) {
  int64_t score = 0;
  for (const CompiledPreferredTerm& t : terms) {
    if (t.term.Matches(node)) score += t.weight;
  }
  return score;
}

}  // namespace schedref::optimized::framework::plugins::nodeaffinity
