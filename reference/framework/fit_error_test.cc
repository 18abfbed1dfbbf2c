// FitError message format. Cases from upstream
// pkg/scheduler/framework/types_test.go TestFitError (v1.31+ form).
#include "reference/framework/fit_error.h"

#include <gtest/gtest.h>

namespace schedref::reference::framework {
namespace {

Status Unsched(std::string reason) {
  return Status(Code::kUnschedulable, std::move(reason));
}

TEST(FitErrorTest, Messages) {
  struct Case {
    std::string name;
    int num_all_nodes;
    Diagnosis diagnosis;
    std::string want;
  };
  std::vector<Case> cases;
  {
    Diagnosis d;
    d.pre_filter_msg = "Node(s) failed PreFilter plugin FalsePreFilter";
    d.node_to_status.absent_status = Status(
        Code::kUnschedulable, "Node(s) failed PreFilter plugin FalsePreFilter");
    cases.push_back({"nodes failed Prefilter plugin", 3, d,
                     "0/3 nodes are available: Node(s) failed PreFilter "
                     "plugin FalsePreFilter."});
  }
  {
    Diagnosis d;
    d.node_to_status.statuses = {{"node1", Unsched("Node(s) failed Filter plugin FalseFilter-1")},
                                 {"node2", Unsched("Node(s) failed Filter plugin FalseFilter-1")},
                                 {"node3", Unsched("Node(s) failed Filter plugin FalseFilter-2")}};
    cases.push_back({"nodes failed one Filter plugin", 3, d,
                     "0/3 nodes are available: 1 Node(s) failed Filter plugin "
                     "FalseFilter-2, 2 Node(s) failed Filter plugin "
                     "FalseFilter-1."});
  }
  {
    Diagnosis d;
    d.node_to_status.statuses = {{"node1", Unsched("Node(s) failed Filter plugin FalseFilter-1")}};
    d.post_filter_msg = "Error running PostFilter plugin FailedPostFilter";
    cases.push_back({"failed filter then postfilter", 1, d,
                     "0/1 nodes are available: 1 Node(s) failed Filter plugin "
                     "FalseFilter-1. Error running PostFilter plugin "
                     "FailedPostFilter"});
  }
  {
    // Absent nodes take the default status (v1.31 NodeToStatus).
    Diagnosis d;
    d.node_to_status.statuses = {{"node1", Unsched("a")}};
    d.node_to_status.absent_status =
        Status(Code::kUnschedulableAndUnresolvable, "node(s) didn't satisfy plugin(s) [P]");
    cases.push_back({"absent nodes counted", 12, d,
                     "0/12 nodes are available: 1 a, 11 node(s) didn't "
                     "satisfy plugin(s) [P]."});
  }
  {
    // Plain string sort: "10 x" before "2 y".
    Diagnosis d;
    for (int i = 0; i < 10; ++i) {
      d.node_to_status.statuses["x" + std::to_string(i)] = Unsched("x");
    }
    d.node_to_status.statuses["y0"] = Unsched("y");
    d.node_to_status.statuses["y1"] = Unsched("y");
    cases.push_back({"string sort", 12, d,
                     "0/12 nodes are available: 10 x, 2 y."});
  }
  for (const Case& c : cases) {
    FitError e{c.num_all_nodes, c.diagnosis};
    EXPECT_EQ(e.Error(), c.want) << c.name;
  }
}

TEST(TruncateEventMessageTest, Limit) {
  EXPECT_EQ(TruncateEventMessage(std::string(1024, 'a')), std::string(1024, 'a'));
  std::string long_msg(1100, 'b');
  std::string got = TruncateEventMessage(long_msg);
  EXPECT_EQ(got.size(), 1024u);
  EXPECT_EQ(got.substr(1020), " ...");
}

}  // namespace
}  // namespace schedref::reference::framework
