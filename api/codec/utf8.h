// UTF-8 decoding and code-point formatting shared by the YAML reader
// (api/codec/manifest.cc, which refuses what go-yaml refuses) and the scenario
// writer (api/codec/scenario_decode.cc, which escapes what a reader would not
// take literally). Specification: RFC 3629 (no overlong forms, no
// surrogates, nothing above U+10FFFF).
#ifndef SCHEDREF_API_UTF8_H_
#define SCHEDREF_API_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace schedref::api {

struct Utf8Sequence {
  size_t length = 0;        // bytes; 0 iff the sequence is invalid
  uint32_t code_point = 0;  // when valid
  // When invalid: the offset of the first byte that makes it so, or
  // s.size() when the text ends inside the sequence.
  size_t bad = 0;
};

// The sequence starting at s[i]. REQUIRES: i < s.size().
Utf8Sequence DecodeUtf8(std::string_view s, size_t i);

// The low `digits` hex digits of `value`, upper case, zero-padded ("00E9").
std::string HexDigits(uint32_t value, int digits);

}  // namespace schedref::api

#endif  // SCHEDREF_API_UTF8_H_
