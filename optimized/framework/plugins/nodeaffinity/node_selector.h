// Node selector terms compiled once per pod (or once per plugin for
// args.addedAffinity), so matching a node neither validates nor parses the
// term. The meaning is api/types/labels.h's: CompiledTerm::Compile(t)->Matches(n)
// == api::NodeSelectorTermMatches(t, n) for every term and node, and a term
// that is empty or does not parse compiles to nothing (it matches no node).
// Specification: component-helpers/scheduling/corev1/nodeaffinity
// (nodeSelectorTerm, LazyErrorNodeSelector, PreferredSchedulingTerms), v1.32.
//
// What compiling buys: api::NodeSelectorTermMatches re-checks every key and
// value (NodeSelectorTermParseError) and re-parses Gt/Lt bounds on each call;
// here that happens once, and Matches does one label lookup per requirement.
// node_selector_test.cc holds the equivalence as a property.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEAFFINITY_NODE_SELECTOR_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEAFFINITY_NODE_SELECTOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/types/objects.h"

namespace schedref::optimized::framework::plugins::nodeaffinity {

// One parsed node selector term. Immutable; safe to match from many threads.
class CompiledTerm {
 public:
  // nullopt iff api::IsEmptyNodeSelectorTerm(term) or
  // api::NodeSelectorTermParseError(term) reports a problem.
  static std::optional<CompiledTerm> Compile(const api::NodeSelectorTerm& term);

  // api::NodeSelectorTermMatches(term, node) for the compiled term. Does not
  // allocate.
  bool Matches(const api::Node& node) const;

 private:
  enum class Op : uint8_t { kIn, kNotIn, kExists, kDoesNotExist, kGt, kLt };
  struct Expression {
    std::string key;
    Op op;
    std::vector<std::string> values;  // In, NotIn
    int64_t bound = 0;                // Gt, Lt
  };
  // A matchFields requirement: parsing leaves exactly one value and the
  // operator In or NotIn; the key is not checked.
  struct Field {
    bool is_name;  // key == "metadata.name"; other keys read as ""
    bool in;
    std::string value;
  };

  std::vector<Expression> expressions_;
  std::vector<Field> fields_;
};

// Terms ORed (core/v1 NodeSelector); terms that compile to nothing are
// dropped, so a selector whose terms all fail matches no node.
class CompiledNodeSelector {
 public:
  CompiledNodeSelector() = default;
  explicit CompiledNodeSelector(const api::NodeSelector& selector);

  // api::NodeSelectorMatches(selector, node). Does not allocate.
  bool Matches(const api::Node& node) const;

 private:
  std::vector<CompiledTerm> terms_;
};

// A preferred term with its weight.
struct CompiledPreferredTerm {
  CompiledTerm term;
  int32_t weight = 0;
};

// Sum of the weights of the terms matching `node`
// (PreferredSchedulingTerms.Score). Does not allocate.
int64_t ScorePreferred(const std::vector<CompiledPreferredTerm>& terms,
                       const api::Node& node);

}  // namespace schedref::optimized::framework::plugins::nodeaffinity

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_NODEAFFINITY_NODE_SELECTOR_H_
