// DomainTable: the values of one topology key (its domains) interned to
// small ids that stay valid for the plugin's lifetime, so that a node's
// domain id computed in one scheduling cycle can be reused in the next
// (docs/optimized.md "Per-node memos"). No upstream counterpart: upstream
// keys its counts by the value strings.
//
// Append-only: ids are never reassigned and values never removed (a
// value whose nodes are gone keeps its id; PreFilter registers only the
// domains of the cycle's nodes). The table grows with the number of
// distinct values ever seen, which is bounded by the nodes ever created.
//
// Thread safety: Intern() must not run concurrently with anything; the
// const methods may run concurrently with each other.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_DOMAIN_TABLE_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_DOMAIN_TABLE_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace schedref::optimized::framework::plugins::podtopologyspread {

class DomainTable {
 public:
  // The value's id, added if absent (ids are 0, 1, 2, ... in order of
  // first sight).
  int32_t Intern(const std::string& value);
  // The value's id, or -1.
  int32_t Find(const std::string& value) const;
  // REQUIRES: 0 <= id < size().
  const std::string& Value(int32_t id) const { return *values_[id]; }
  int32_t size() const { return static_cast<int32_t>(values_.size()); }

 private:
  std::unordered_map<std::string, int32_t> ids_;
  // The keys of ids_ (a node-based map: their addresses never move).
  std::vector<const std::string*> values_;
};

}  // namespace schedref::optimized::framework::plugins::podtopologyspread

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_PLUGINS_PODTOPOLOGYSPREAD_DOMAIN_TABLE_H_
