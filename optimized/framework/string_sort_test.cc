#include "optimized/framework/string_sort.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedref::optimized::framework {
namespace {

// What SortByKey must give: the keys in std::string order.
std::vector<std::string> Expected(std::vector<std::string> keys) {
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::vector<std::string> Sorted(const std::vector<std::string>& keys) {
  std::vector<std::pair<std::string_view, int>> items;
  for (size_t i = 0; i < keys.size(); ++i) items.emplace_back(keys[i], static_cast<int>(i));
  SortByKey(items);
  std::vector<std::string> out;
  for (const auto& [key, index] : items) {
    EXPECT_EQ(key, keys[index]) << "a key lost its value";
    out.emplace_back(key);
  }
  return out;
}

TEST(SortByKeyTest, OrdersAsStringsDo) {
  struct Case {
    std::string name;
    std::vector<std::string> keys;
  };
  const std::vector<Case> cases = {
      {"none", {}},
      {"one", {"a"}},
      {"shared prefix, numbered", {"ns/pod-10", "ns/pod-9", "ns/pod-1", "ns/pod-100"}},
      {"a key is the shared prefix", {"ns/pod-1", "ns/pod-", "ns/pod-0"}},
      {"differ past eight bytes after the prefix",
       {"p/abcdefgh2", "p/abcdefgh1", "p/abcdefgh", "p/abcdefgh10"}},
      {"NUL bytes and padding", {std::string("ab\0", 3), "ab", std::string("ab\0\0c", 5)}},
      {"high bytes sort after low ones", {"k\xff", "k\x01", "k\x7f", "k"}},
      {"duplicates", {"x/1", "x/0", "x/1"}},
      {"no shared prefix", {"b", "a", "ab", ""}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Sorted(c.keys), Expected(c.keys));
  }
}

RC_GTEST_PROP(SortByKeyTest, AgreesWithStdSort, ()) {
  const std::string prefix = *rc::gen::container<std::string>(
      rc::gen::element<char>('n', 's', '/', '-', '\0'));
  const std::vector<std::string> keys = *rc::gen::container<std::vector<std::string>>(
      rc::gen::map(rc::gen::container<std::string>(rc::gen::element<char>('0', '1', '9', '\0', 'z')),
                   [&](const std::string& rest) { return prefix + rest; }));
  RC_ASSERT(Sorted(keys) == Expected(keys));
}

}  // namespace
}  // namespace schedref::optimized::framework
