// Tests for Status: value semantics, including for statuses that share a
// static StatusRep (Status::Shared) and switch to its attributed twin.
#include "optimized/framework/status.h"

#include <gtest/gtest.h>

namespace schedref::optimized::framework {
namespace {

TEST(StatusTest, OwnedCopiesAreIndependent) {
  Status a(Code::kUnschedulable, "no room");
  Status b = a;
  b.WithPlugin("P");
  EXPECT_EQ(a.plugin(), "");
  EXPECT_EQ(b.plugin(), "P");
  EXPECT_EQ(b.reasons(), std::vector<std::string>{"no room"});
  Status c = std::move(b);
  EXPECT_EQ(c.plugin(), "P");
  a = c;
  EXPECT_EQ(a, c);
  EXPECT_TRUE(Status().IsSuccess());
  EXPECT_EQ(Status().plugin(), "");
}

TEST(StatusTest, SharedStatusesPointAtTheirRep) {
  static const StatusRep kAttributed{{"Insufficient cpu"}, "Fit", nullptr};
  static const StatusRep kPlain{{"Insufficient cpu"}, "", &kAttributed};
  Status s = Status::Shared(Code::kUnschedulable, kPlain);
  EXPECT_EQ(s, Status(Code::kUnschedulable, "Insufficient cpu"));
  Status copy = s;
  EXPECT_EQ(&copy.reasons(), &kPlain.reasons);  // no copy made
  // The twin's plugin: switch to the twin, still shared.
  copy.WithPlugin("Fit");
  EXPECT_EQ(&copy.reasons(), &kAttributed.reasons);
  EXPECT_EQ(copy.plugin(), "Fit");
  // Another plugin: an owned copy; the shared reps are untouched.
  Status other = s;
  other.WithPlugin("Other");
  EXPECT_NE(&other.reasons(), &kPlain.reasons);
  EXPECT_EQ(other.plugin(), "Other");
  EXPECT_EQ(other.reasons(), kPlain.reasons);
  EXPECT_EQ(kPlain.plugin, "");
  EXPECT_EQ(kAttributed.plugin, "Fit");
  // Re-attributing the twin to another plugin copies it too.
  copy.WithPlugin("Third");
  EXPECT_EQ(copy.plugin(), "Third");
  EXPECT_EQ(kAttributed.plugin, "Fit");
  // Assignments over shared and owned statuses.
  other = s;
  EXPECT_EQ(&other.reasons(), &kPlain.reasons);
  s = Status(Code::kError, "boom");
  EXPECT_EQ(s.Message(), "boom");
  EXPECT_EQ(other.Message(), "Insufficient cpu");
}

inline constexpr char kReason[] = "no room";
inline constexpr char kPlugin[] = "Fit";

TEST(StatusTest, SharedRejectionOfIsOneStatusPerReason) {
  Status a = SharedRejectionOf<Code::kUnschedulable, kReason, kPlugin>();
  Status b = SharedRejectionOf<Code::kUnschedulable, kReason, kPlugin>();
  EXPECT_EQ(a, Status(Code::kUnschedulable, "no room"));
  EXPECT_EQ(&a.reasons(), &b.reasons());  // one rep for both
  a.WithPlugin("Fit");
  b.WithPlugin("Fit");
  EXPECT_EQ(&a.reasons(), &b.reasons());  // the twin, shared too
  EXPECT_EQ(a.plugin(), "Fit");
  EXPECT_EQ(b, a);
}

}  // namespace
}  // namespace schedref::optimized::framework
