#include "optimized/framework/fit_error.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace schedref::optimized::framework {
namespace {

Status Rejected(std::vector<std::string> reasons) {
  return Status(Code::kUnschedulable, std::move(reasons));
}

TEST(FitErrorTest, CountsReasonsOverRunsAndAbsentNodes) {
  struct Case {
    std::string name;
    std::vector<std::vector<std::string>> statuses;  // reasons per listed node
    int num_all_nodes;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"one run", {{"a"}, {"a"}, {"a"}}, 3, "0/3 nodes are available: 3 a."},
      {"runs broken and resumed",
       {{"a"}, {"a"}, {"b"}, {"a"}, {"b", "a"}},
       5,
       "0/5 nodes are available: 2 b, 4 a."},
      {"a longer list is another run", {{"a"}, {"a", "b"}, {"a"}}, 3,
       "0/3 nodes are available: 1 b, 3 a."},
      {"absent nodes take the absent status", {{"a"}}, 4,
       "0/4 nodes are available: 1 a, 3 gone."},
      {"no reasons", {{}, {}}, 2, "0/2 nodes are available:"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    FitError fit;
    fit.num_all_nodes = c.num_all_nodes;
    fit.diagnosis.node_to_status.absent_status = Rejected({"gone"});
    for (size_t i = 0; i < c.statuses.size(); ++i) {
      fit.diagnosis.node_to_status.Add("n" + std::to_string(i), static_cast<int32_t>(i),
                                       Rejected(c.statuses[i]));
    }
    EXPECT_EQ(fit.Error(), c.want);
  }
}

TEST(NodeToStatusTest, OfFindsTheRecordedStatusElseTheAbsentOne) {
  NodeToStatus m;
  m.absent_status = Rejected({"absent"});
  m.Add("n1", 0, Rejected({"one"}));
  m.Add("n2", -1, Rejected({"two"}));
  EXPECT_EQ(m.Of("n1").reasons(), std::vector<std::string>{"one"});
  EXPECT_EQ(m.Of("n2").reasons(), std::vector<std::string>{"two"});
  EXPECT_EQ(m.Of("n3").reasons(), std::vector<std::string>{"absent"});
}

}  // namespace
}  // namespace schedref::optimized::framework
