#include "api/codec/utf8.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace schedref::api {
namespace {

TEST(DecodeUtf8Test, SequencesAndTheirFirstBadByte) {
  struct Case {
    std::string name, text;
    size_t length;
    uint32_t code_point;  // when length > 0
    size_t bad;           // when length == 0
  };
  const std::vector<Case> cases = {
      {"ascii", "a", 1, 'a', 0},
      {"two bytes", "\xc3\xa9", 2, 0xE9, 0},
      {"three bytes", "\xe2\x82\xac", 3, 0x20AC, 0},
      {"four bytes", "\xf0\x9f\x98\x80", 4, 0x1F600, 0},
      {"highest", "\xf4\x8f\xbf\xbf", 4, 0x10FFFF, 0},
      {"continuation as lead", "\x80", 0, 0, 0},
      {"overlong lead", "\xc0\xaf", 0, 0, 0},
      {"lead above F4", "\xf5\x80\x80\x80", 0, 0, 0},
      {"bad second byte", "\xc3(", 0, 0, 1},
      {"overlong three bytes", "\xe0\x9f\xbf", 0, 0, 1},
      {"surrogate", "\xed\xa0\x80", 0, 0, 1},
      {"above U+10FFFF", "\xf4\x90\x80\x80", 0, 0, 1},
      {"bad third byte", "\xe2\x82(", 0, 0, 2},
      {"text ends inside", "\xe2\x82", 0, 0, 2},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Utf8Sequence got = DecodeUtf8(c.text, 0);
    EXPECT_EQ(got.length, c.length);
    if (c.length > 0) {
      EXPECT_EQ(got.code_point, c.code_point);
    } else {
      EXPECT_EQ(got.bad, c.bad);
    }
  }
}

TEST(HexDigitsTest, UpperCaseZeroPadded) {
  EXPECT_EQ(HexDigits(0xE9, 4), "00E9");
  EXPECT_EQ(HexDigits(0x1F, 2), "1F");
  EXPECT_EQ(HexDigits(0x1F600, 4), "F600");  // only the low digits
}

}  // namespace
}  // namespace schedref::api
