// Fuzz target for label selectors and node selector terms (api/types/labels.h) as
// the manifest decoder produces them (api/codec/decode.h).
//
// Input: YAML or JSON text, every document of which is used as the `spec` of
// a Pod (so the seeds are the selector parts of golden pods: nodeSelector,
// affinity, topologySpreadConstraints). The Pod decodes or fails with an
// Invalid status whose message names the file; nothing else is allowed.
// When it decodes:
//  - it survives EncodeObject -> DecodeObject unchanged;
//  - every label selector in it (pod (anti-)affinity labelSelector and
//    namespaceSelector, required and preferred; topology spread
//    labelSelector) passes ValidateLabelSelector, and every node selector
//    term (required node affinity, preferred preferences) passes
//    ValidateNodeSelectorTerm;
//  - on label sets and nodes built from the selectors' own vocabulary (each
//    key absent or holding one of the values the selectors mention, another
//    value, or the neighbours of a Gt/Lt bound; node names from matchFields,
//    another name and ""), every exhaustively while there are at most
//    kMaxCandidates combinations, otherwise a sample seeded by the input:
//      Matches / NodeSelectorTermMatches / NodeSelectorMatches /
//      RequiredNodeAffinityMatches agree with the naive restatement below;
//      a selector or term matches iff each of its requirements alone does;
//      matchLabels {k: v} is matchExpressions {k In [v]};
//      In and NotIn, Exists and DoesNotExist (and matchFields In and NotIn on
//      a named node) are complements, and Gt and Lt on one bound never both
//      match.
// A violation aborts after printing the input's decoded pod and the
// counterexample.
#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/codec/decode.h"
#include "api/codec/encode.h"
#include "api/codec/manifest.h"
#include "api/types/labels.h"
#include "api/types/objects.h"

namespace {

namespace api = schedref::api;

constexpr char kFile[] = "selector.yaml";
constexpr size_t kMaxCandidates = 256;

std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string Show(const api::Labels& labels) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : labels) j[k] = v;
  return Dump(j);
}

[[noreturn]] void Fail(const api::Pod& pod, const std::string& what) {
  std::fprintf(stderr, "selector_fuzz: %s\npod: %s\n", what.c_str(),
               Dump(api::EncodeObject(api::AnyObject(pod))).c_str());
  std::abort();
}

// --- The naive restatement ---------------------------------------------------

// strconv.ParseInt(s, 10, 64): an optional '+' or '-', then decimal digits
// only, in range.
std::optional<int64_t> NaiveParseInt(std::string_view s) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const std::string_view digits =
      !s.empty() && s.front() == '-' ? s.substr(1) : s;
  if (digits.empty() ||
      !std::all_of(digits.begin(), digits.end(),
                   [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<std::string_view> Lookup(const api::Labels& labels,
                                       const std::string& key) {
  const auto it = labels.find(key);
  if (it == labels.end()) return std::nullopt;
  return it->second;
}

bool Contains(const std::vector<std::string>& values, std::string_view v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// A requirement of either kind, by operator. Unknown operators match
// nothing (validation keeps them out).
bool NaiveRequirement(const std::string& key, const std::string& op,
                      const std::vector<std::string>& values,
                      const api::Labels& labels) {
  const std::optional<std::string_view> label = Lookup(labels, key);
  const bool in = label.has_value() && Contains(values, *label);
  if (op == "In") return in;
  if (op == "NotIn") return !in;
  if (op == "Exists") return label.has_value();
  if (op == "DoesNotExist") return !label.has_value();
  if (op == "Gt" || op == "Lt") {
    if (!label.has_value() || values.size() != 1) return false;
    const std::optional<int64_t> have = NaiveParseInt(*label);
    const std::optional<int64_t> bound = NaiveParseInt(values[0]);
    if (!have || !bound) return false;
    return op == "Gt" ? *have > *bound : *have < *bound;
  }
  return false;
}

bool NaiveLabelSelector(const api::LabelSelector& s,
                        const api::Labels& labels) {
  for (const auto& [k, v] : s.match_labels) {
    if (Lookup(labels, k) != std::optional<std::string_view>(v)) return false;
  }
  for (const api::LabelSelectorRequirement& r : s.match_expressions) {
    if (r.op == "Gt" || r.op == "Lt") return false;  // not selector operators
    if (!NaiveRequirement(r.key, r.op, r.values, labels)) return false;
  }
  return true;
}

// The scheduler's parse of a term that passed ValidateNodeSelectorTerm
// (keys, operators and value counts are already right): every value of a
// label requirement is a label value, and a Gt/Lt value an integer.
bool NaiveTermParses(const api::NodeSelectorTerm& t) {
  for (const api::NodeSelectorRequirement& r : t.match_expressions) {
    for (const std::string& v : r.values) {
      if (api::CheckLabelValue(v).has_value()) return false;
      if ((r.op == "Gt" || r.op == "Lt") && !NaiveParseInt(v)) return false;
    }
  }
  return true;
}

bool NaiveTerm(const api::NodeSelectorTerm& t, const api::Node& node) {
  if (t.match_expressions.empty() && t.match_fields.empty()) return false;
  if (!NaiveTermParses(t)) return false;
  for (const api::NodeSelectorRequirement& r : t.match_expressions) {
    if (!NaiveRequirement(r.key, r.op, r.values, node.labels)) return false;
  }
  if (node.name.empty()) return true;  // matchFields are not consulted
  for (const api::NodeSelectorRequirement& r : t.match_fields) {
    if ((node.name == r.values[0]) != (r.op == "In")) return false;
  }
  return true;
}

// --- Candidates --------------------------------------------------------------

// Every key the selectors mention, with the values worth trying for it.
struct Vocabulary {
  std::map<std::string, std::set<std::string>> values;
  std::set<std::string> node_names = {"", "fuzz-node"};

  void Add(const std::string& key, const std::vector<std::string>& vs,
           const std::string& op) {
    std::set<std::string>& into = values[key];
    into.insert("fuzz-other");
    for (const std::string& v : vs) {
      into.insert(v);
      if (op != "Gt" && op != "Lt") continue;
      if (const std::optional<int64_t> b = NaiveParseInt(v)) {
        if (*b > INT64_MIN) into.insert(std::to_string(*b - 1));
        if (*b < INT64_MAX) into.insert(std::to_string(*b + 1));
      }
    }
  }
  void Add(const api::LabelSelector& s) {
    for (const auto& [k, v] : s.match_labels) Add(k, {v}, "In");
    for (const auto& r : s.match_expressions) Add(r.key, r.values, r.op);
  }
  void Add(const api::NodeSelectorTerm& t) {
    for (const auto& r : t.match_expressions) Add(r.key, r.values, r.op);
    for (const auto& r : t.match_fields) {
      node_names.insert(r.values.begin(), r.values.end());
    }
  }
};

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Nodes whose name and labels are drawn from `vocab`: each key absent or
// holding one of its values. All combinations if there are at most
// kMaxCandidates, else kMaxCandidates of them chosen with `seed`.
std::vector<api::Node> Candidates(const Vocabulary& vocab, uint64_t seed) {
  struct Dimension {
    const std::string* key;  // nullptr: the node name
    std::vector<std::string> choices;
  };
  std::vector<Dimension> dims;
  dims.push_back({nullptr, {vocab.node_names.begin(), vocab.node_names.end()}});
  for (const auto& [key, values] : vocab.values) {
    Dimension d{&key, {""}};  // choice 0: absent
    d.choices.insert(d.choices.end(), values.begin(), values.end());
    dims.push_back(std::move(d));
  }
  size_t total = 1;
  for (const Dimension& d : dims) {
    total = total > kMaxCandidates ? total : total * d.choices.size();
  }
  const bool exhaustive = total <= kMaxCandidates;
  std::vector<api::Node> nodes;
  for (size_t i = 0; i < std::min(total, kMaxCandidates); ++i) {
    api::Node node;
    size_t rest = i;
    for (const Dimension& d : dims) {
      const size_t c = exhaustive ? rest % d.choices.size()
                                  : SplitMix64(seed) % d.choices.size();
      rest /= d.choices.size();
      if (d.key == nullptr) {
        node.name = d.choices[c];
      } else if (c != 0) {
        node.labels[*d.key] = d.choices[c];
      }
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

// --- Properties --------------------------------------------------------------

std::string Opposite(const std::string& op) {
  if (op == "In") return "NotIn";
  if (op == "NotIn") return "In";
  if (op == "Exists") return "DoesNotExist";
  if (op == "DoesNotExist") return "Exists";
  return "";
}

void CheckLabelSelector(const api::Pod& pod, const std::string& where,
                        const api::LabelSelector& s,
                        const std::vector<api::Node>& candidates) {
  if (auto p = api::ValidateLabelSelector(s)) {
    Fail(pod, where + ": decoded, but invalid at " + p->field + ": " +
                  p->problem);
  }
  // Each requirement alone, with its opposite where it has one, and each
  // matchLabels entry also as the expression it stands for.
  struct Part {
    api::LabelSelector alone;
    api::LabelSelector other;
    bool complement;  // `other` is the opposite (else: the same selector)
  };
  std::vector<Part> parts;
  for (const auto& [k, v] : s.match_labels) {
    Part part{{}, {}, false};
    part.alone.match_labels[k] = v;
    part.other.match_expressions.push_back({k, "In", {v}});
    parts.push_back(std::move(part));
  }
  for (const api::LabelSelectorRequirement& r : s.match_expressions) {
    Part part{{}, {}, true};
    part.alone.match_expressions.push_back(r);
    part.other = part.alone;
    part.other.match_expressions[0].op = Opposite(r.op);
    parts.push_back(std::move(part));
  }
  for (const api::Node& c : candidates) {
    const api::Labels& labels = c.labels;
    const bool got = api::Matches(s, labels);
    auto fail = [&](const std::string& what) {
      Fail(pod, where + " on labels " + Show(labels) + ": " + what);
    };
    if (got != NaiveLabelSelector(s, labels)) {
      fail(std::string("Matches says ") + (got ? "true" : "false") +
           ", the naive restatement the opposite");
    }
    bool all = true;
    for (size_t i = 0; i < parts.size(); ++i) {
      const bool alone = api::Matches(parts[i].alone, labels);
      const bool other = api::Matches(parts[i].other, labels);
      all = all && alone;
      if (parts[i].complement == (alone == other)) {
        fail("requirement " + std::to_string(i) + " gives " +
             (alone ? "true" : "false") + " and its " +
             (parts[i].complement ? "opposite " : "matchExpressions form ") +
             (other ? "true" : "false"));
      }
    }
    if (all != got) {
      fail(std::string("the selector ") + (got ? "matches" : "does not match") +
           " but its requirements one by one " + (all ? "all do" : "do not"));
    }
  }
}

// `term` alone as a one-term NodeSelector, for messages.
std::string ShowTerm(const api::NodeSelectorTerm& term) {
  api::Pod p;
  p.affinity.emplace().node_affinity.emplace().required.emplace().terms = {term};
  return Dump(api::EncodeObject(api::AnyObject(p))["spec"]["affinity"]
                  ["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
                  ["nodeSelectorTerms"][0]);
}

void CheckTerm(const api::Pod& pod, const std::string& where,
               const api::NodeSelectorTerm& term,
               const std::vector<api::Node>& candidates) {
  if (auto p = api::ValidateNodeSelectorTerm(term)) {
    Fail(pod, where + ": decoded, but invalid at " + p->field + ": " +
                  p->problem);
  }
  if (api::NodeSelectorTermParseError(term).has_value() ==
      NaiveTermParses(term)) {
    Fail(pod, where + ": NodeSelectorTermParseError and the naive parse "
                      "disagree");
  }
  struct Part {
    api::NodeSelectorTerm alone;
    std::optional<api::NodeSelectorTerm> opposite;  // complement (on a name)
    std::optional<api::NodeSelectorTerm> exclusive;  // never both
  };
  std::vector<Part> parts;
  for (const api::NodeSelectorRequirement& r : term.match_expressions) {
    Part part;
    part.alone.match_expressions = {r};
    api::NodeSelectorTerm other = part.alone;
    if (r.op == "Gt" || r.op == "Lt") {
      other.match_expressions[0].op = r.op == "Gt" ? "Lt" : "Gt";
      part.exclusive = other;
    } else {
      other.match_expressions[0].op = Opposite(r.op);
      part.opposite = other;
    }
    parts.push_back(std::move(part));
  }
  for (const api::NodeSelectorRequirement& r : term.match_fields) {
    Part part;
    part.alone.match_fields = {r};
    api::NodeSelectorTerm other = part.alone;
    other.match_fields[0].op = Opposite(r.op);
    part.opposite = other;
    parts.push_back(std::move(part));
  }
  const bool parses = NaiveTermParses(term);
  for (const api::Node& node : candidates) {
    auto fail = [&](const std::string& what) {
      Fail(pod, where + " " + ShowTerm(term) + " on node \"" + node.name +
                    "\" labels " + Show(node.labels) + ": " + what);
    };
    const bool got = api::NodeSelectorTermMatches(term, node);
    if (got != NaiveTerm(term, node)) {
      fail(std::string("NodeSelectorTermMatches says ") +
           (got ? "true" : "false") + ", the naive restatement the opposite");
    }
    bool all = !parts.empty();
    for (size_t i = 0; i < parts.size(); ++i) {
      const bool alone = api::NodeSelectorTermMatches(parts[i].alone, node);
      all = all && alone;
      if (!parses) continue;
      if (parts[i].opposite) {
        const bool opposite =
            api::NodeSelectorTermMatches(*parts[i].opposite, node);
        // An unnamed node passes every matchFields requirement.
        const bool both_expected =
            !parts[i].alone.match_fields.empty() && node.name.empty();
        if (both_expected ? !(alone && opposite) : alone == opposite) {
          fail("requirement " + std::to_string(i) + " " +
               ShowTerm(parts[i].alone) + " and its opposite give " +
               (alone ? "true" : "false") + " and " +
               (opposite ? "true" : "false"));
        }
      }
      if (parts[i].exclusive && alone &&
          api::NodeSelectorTermMatches(*parts[i].exclusive, node)) {
        fail("requirement " + std::to_string(i) + " and the opposite "
             "comparison both match");
      }
    }
    if (parses && all != got) {
      fail(std::string("the term ") + (got ? "matches" : "does not match") +
           " but its requirements one by one " + (all ? "all do" : "do not"));
    }
  }
}

void CheckPod(const api::Pod& pod, uint64_t seed) {
  // Round trip.
  const nlohmann::json encoded = api::EncodeObject(api::AnyObject(pod));
  auto again = api::DecodeObject(encoded, "encoded", 1);
  if (!again.ok()) Fail(pod, "encoded pod does not decode: " + again.status().message());
  if (!(*again == api::AnyObject(pod))) Fail(pod, "pod changed in a round trip");

  // Every selector, where it is.
  std::vector<std::pair<std::string, const api::LabelSelector*>> selectors;
  std::vector<std::pair<std::string, const api::NodeSelectorTerm*>> terms;
  auto add_term = [&](const std::string& where, const api::PodAffinityTerm& t) {
    if (t.label_selector) selectors.emplace_back(where + ".labelSelector", &*t.label_selector);
    if (t.namespace_selector) {
      selectors.emplace_back(where + ".namespaceSelector", &*t.namespace_selector);
    }
  };
  if (pod.affinity) {
    for (const auto& [name, pa] : {std::pair{"podAffinity", &pod.affinity->pod_affinity},
                                   std::pair{"podAntiAffinity", &pod.affinity->pod_anti_affinity}}) {
      if (!*pa) continue;
      const std::string at = std::string("affinity.") + name;
      for (size_t i = 0; i < (*pa)->required.size(); ++i) {
        add_term(at + ".required[" + std::to_string(i) + "]", (*pa)->required[i]);
      }
      for (size_t i = 0; i < (*pa)->preferred.size(); ++i) {
        add_term(at + ".preferred[" + std::to_string(i) + "]", (*pa)->preferred[i].term);
      }
    }
    if (const auto& na = pod.affinity->node_affinity) {
      if (na->required) {
        for (size_t i = 0; i < na->required->terms.size(); ++i) {
          terms.emplace_back("nodeAffinity.required[" + std::to_string(i) + "]",
                             &na->required->terms[i]);
        }
      }
      for (size_t i = 0; i < na->preferred.size(); ++i) {
        terms.emplace_back("nodeAffinity.preferred[" + std::to_string(i) + "]",
                           &na->preferred[i].preference);
      }
    }
  }
  for (size_t i = 0; i < pod.topology_spread_constraints.size(); ++i) {
    if (const auto& s = pod.topology_spread_constraints[i].label_selector) {
      selectors.emplace_back("topologySpreadConstraints[" + std::to_string(i) + "]", &*s);
    }
  }

  Vocabulary vocab;
  for (const auto& [k, v] : pod.node_selector) vocab.Add(k, {v}, "In");
  for (const auto& [where, s] : selectors) vocab.Add(*s);
  for (const auto& [where, t] : terms) vocab.Add(*t);
  const std::vector<api::Node> candidates = Candidates(vocab, seed);

  for (const auto& [where, s] : selectors) CheckLabelSelector(pod, where, *s, candidates);
  for (const auto& [where, t] : terms) CheckTerm(pod, where, *t, candidates);

  // The pod's required node affinity: nodeSelector AND any required term.
  const std::optional<api::NodeSelector>* required = nullptr;
  if (pod.affinity && pod.affinity->node_affinity) {
    required = &pod.affinity->node_affinity->required;
  }
  for (const api::Node& node : candidates) {
    bool want = true;
    for (const auto& [k, v] : pod.node_selector) {
      want = want && Lookup(node.labels, k) == std::optional<std::string_view>(v);
    }
    if (required != nullptr && required->has_value()) {
      bool any = false;
      for (const api::NodeSelectorTerm& t : (*required)->terms) {
        any = any || NaiveTerm(t, node);
      }
      want = want && any;
    }
    if (api::RequiredNodeAffinityMatches(pod, node) != want) {
      Fail(pod, "RequiredNodeAffinityMatches on node \"" + node.name +
                    "\" labels " + Show(node.labels) + " says " +
                    (want ? "false" : "true") +
                    ", the naive restatement the opposite");
    }
  }
}

// A clean failure: Invalid, and the message starts with the file name.
void CheckError(const schedref::Status& status, std::string_view text) {
  if (status.IsInvalid() && status.message().rfind(kFile, 0) == 0) return;
  std::fprintf(stderr, "selector_fuzz: not a clean error: %s\ninput: %.*s\n",
               status.message().c_str(), static_cast<int>(text.size()),
               text.data());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto documents = api::ParseDocuments(text, kFile);
  if (!documents.ok()) {
    CheckError(documents.status(), text);
    return 0;
  }
  // FNV-1a of the input: the candidates sampled for large vocabularies.
  uint64_t seed = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < size; ++i) seed = (seed ^ data[i]) * 0x100000001b3ULL;

  for (size_t i = 0; i < documents->size(); ++i) {
    nlohmann::json manifest = {
        {"apiVersion", "v1"},
        {"kind", "Pod"},
        {"metadata", {{"name", "fuzz"}, {"namespace", "default"}}},
        {"spec", (*documents)[i]}};
    auto decoded = api::DecodeObject(manifest, kFile, static_cast<int>(i + 1));
    if (!decoded.ok()) {
      CheckError(decoded.status(), text);
      continue;
    }
    CheckPod(std::get<api::Pod>(*decoded), seed);
  }
  return 0;
}
