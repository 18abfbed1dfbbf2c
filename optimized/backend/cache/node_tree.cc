#include "optimized/backend/cache/node_tree.h"

#include <algorithm>
#include <cstdio>

namespace schedref::optimized::backend::cache {
namespace {

// Go's %q for the strings a zone key holds: quoted, with '"' and '\\'
// escaped and control bytes written \n, \t, \r or \xNN (the NUL separator
// prints as \x00).
std::string GoQuote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f) {
      char buf[5];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back('"');
  return out;
}

// The label's value if the deprecated label is present (even empty), else
// the current one's, else "".
const std::string& LabelOr(const api::Labels& labels, const char* deprecated,
                           const char* current) {
  static const std::string kEmpty;
  if (auto it = labels.find(deprecated); it != labels.end()) return it->second;
  if (auto it = labels.find(current); it != labels.end()) return it->second;
  return kEmpty;
}

}  // namespace

std::string GetZoneKey(const api::Node& node) {
  const std::string& zone =
      LabelOr(node.labels, kLabelFailureDomainBetaZone, kLabelTopologyZone);
  const std::string& region =
      LabelOr(node.labels, kLabelFailureDomainBetaRegion, kLabelTopologyRegion);
  if (zone.empty() && region.empty()) return std::string();
  // A NUL never occurs in a label value, so the key is unambiguous.
  std::string key = region;
  key.append(":\0:", 3);
  key += zone;
  return key;
}

NodeTree::NodeTree(const std::vector<api::Node>& nodes) {
  for (const api::Node& n : nodes) AddNode(n);
}

const std::vector<std::string>& NodeTree::NodesInZone(const std::string& zone) const {
  static const std::vector<std::string> kNone;
  auto it = tree_.find(zone);
  return it == tree_.end() ? kNone : it->second.names;
}

void NodeTree::AddNode(const api::Node& node) {
  std::string key = GetZoneKey(node);
  auto [it, inserted] = tree_.try_emplace(key);
  Zone& zone = it->second;
  if (inserted) zones_.push_back(std::move(key));
  // upstream logs "Did not add to the NodeTree" for a duplicate.
  if (!zone.members.insert(node.name).second) return;
  zone.names.push_back(node.name);
  ++num_nodes_;
}

schedref::Status NodeTree::RemoveNode(const api::Node& node) {
  const std::string key = GetZoneKey(node);
  auto it = tree_.find(key);
  if (it == tree_.end() || it->second.members.erase(node.name) == 0) {
    return schedref::Status::NotFound("node " + GoQuote(node.name) + " in group " +
                                      GoQuote(key) + " was not found");
  }
  std::vector<std::string>& names = it->second.names;
  names.erase(std::find(names.begin(), names.end(), node.name));
  --num_nodes_;
  if (names.empty()) {
    tree_.erase(it);
    zones_.erase(std::find(zones_.begin(), zones_.end(), key));
  }
  return schedref::Status::Ok();
}

void NodeTree::UpdateNode(const api::Node& old_node, const api::Node& new_node) {
  // Names are immutable, so only a zone change moves the node.
  if (GetZoneKey(old_node) == GetZoneKey(new_node)) return;
  schedref::Status ignored = RemoveNode(old_node);
  (void)ignored;  // upstream ignores whether the old node was listed
  AddNode(new_node);
}

std::vector<std::string> NodeTree::List() const {
  std::vector<std::string> out;
  out.reserve(num_nodes_);
  std::vector<const std::vector<std::string>*> zones;
  zones.reserve(zones_.size());
  for (const std::string& z : zones_) zones.push_back(&tree_.at(z).names);
  for (size_t i = 0; out.size() < static_cast<size_t>(num_nodes_); ++i) {
    for (const std::vector<std::string>* names : zones) {
      if (i < names->size()) out.push_back((*names)[i]);
    }
  }
  return out;
}

}  // namespace schedref::optimized::backend::cache
