#include "reference/backend/cache/node_tree.h"

#include <algorithm>
#include <cstdio>

namespace schedref::reference::cache {
namespace {

// Go's %q for the strings a zone key holds: quoted, with '"', '\\' and
// non-printable bytes escaped ("\x00" for the NUL separator).
std::string GoQuote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      switch (c) {
        case '\n':
          out += "\\n";
          break;
        case '\t':
          out += "\\t";
          break;
        case '\r':
          out += "\\r";
          break;
        default: {
          char buf[5];
          std::snprintf(buf, sizeof(buf), "\\x%02x", c);
          out += buf;
        }
      }
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace

std::string GetZoneKey(const api::Node& node) {
  const api::Labels& labels = node.labels;
  auto read = [&](const char* deprecated, const char* current) {
    auto it = labels.find(deprecated);
    if (it != labels.end()) return it->second;
    it = labels.find(current);
    return it != labels.end() ? it->second : std::string();
  };
  std::string zone = read(kLabelFailureDomainBetaZone, kLabelTopologyZone);
  std::string region =
      read(kLabelFailureDomainBetaRegion, kLabelTopologyRegion);
  if (region.empty() && zone.empty()) return "";
  // The NUL cannot occur in a label value, so the key is unambiguous.
  return region + std::string(":\0:", 3) + zone;
}

NodeTree::NodeTree(const std::vector<api::Node>& nodes) {
  for (const api::Node& node : nodes) AddNode(node);
}

void NodeTree::AddNode(const api::Node& node) {
  const std::string zone = GetZoneKey(node);
  auto it = tree_.find(zone);
  if (it != tree_.end()) {
    std::vector<std::string>& names = it->second;
    if (std::find(names.begin(), names.end(), node.name) != names.end()) {
      return;  // upstream logs "Did not add to the NodeTree"
    }
    names.push_back(node.name);
  } else {
    zones_.push_back(zone);
    tree_[zone] = {node.name};
  }
  ++num_nodes_;
}

schedref::Status NodeTree::RemoveNode(const api::Node& node) {
  const std::string zone = GetZoneKey(node);
  auto it = tree_.find(zone);
  if (it != tree_.end()) {
    std::vector<std::string>& names = it->second;
    auto name = std::find(names.begin(), names.end(), node.name);
    if (name != names.end()) {
      names.erase(name);  // keeps the order of the others
      if (names.empty()) RemoveZone(zone);
      --num_nodes_;
      return schedref::Status::Ok();
    }
  }
  return schedref::Status::NotFound("node " + GoQuote(node.name) +
                                    " in group " + GoQuote(zone) +
                                    " was not found");
}

void NodeTree::UpdateNode(const api::Node& old_node,
                          const api::Node& new_node) {
  // A node cannot be renamed, so only the zone can move it.
  if (GetZoneKey(old_node) == GetZoneKey(new_node)) return;
  schedref::Status ignored = RemoveNode(old_node);
  (void)ignored;  // upstream ignores whether the old node was there
  AddNode(new_node);
}

void NodeTree::RemoveZone(const std::string& zone) {
  tree_.erase(zone);
  auto it = std::find(zones_.begin(), zones_.end(), zone);
  if (it != zones_.end()) zones_.erase(it);
}

std::vector<std::string> NodeTree::List() const {
  std::vector<std::string> names;
  for (size_t index = 0; names.size() < static_cast<size_t>(num_nodes_);
       ++index) {
    bool any = false;
    for (const std::string& zone : zones_) {
      const std::vector<std::string>& zone_names = tree_.at(zone);
      if (index < zone_names.size()) {
        names.push_back(zone_names[index]);
        any = true;
      }
    }
    if (!any) break;  // cannot happen: num_nodes_ counts the tree
  }
  return names;
}

}  // namespace schedref::reference::cache
