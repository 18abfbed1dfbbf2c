#include "optimized/framework/plugins/podtopologyspread/domain_table.h"

namespace schedref::optimized::framework::plugins::podtopologyspread {

int32_t DomainTable::Intern(const std::string& value) {
  auto [it, inserted] = ids_.try_emplace(value, size());
  if (inserted) values_.push_back(&it->first);
  return it->second;
}

int32_t DomainTable::Find(const std::string& value) const {
  auto it = ids_.find(value);
  return it == ids_.end() ? -1 : it->second;
}

}  // namespace schedref::optimized::framework::plugins::podtopologyspread
