#include "api/codec/utf8.h"

namespace schedref::api {

Utf8Sequence DecodeUtf8(std::string_view s, size_t i) {
  const auto lead = static_cast<unsigned char>(s[i]);
  Utf8Sequence out;
  size_t length = 0;
  uint32_t cp = 0;
  // The second byte's range excludes overlong forms, surrogates and code
  // points above U+10FFFF.
  unsigned char low = 0x80, high = 0xBF;
  if (lead < 0x80) {
    out.length = 1;
    out.code_point = lead;
    return out;
  } else if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    cp = lead & 0x0F;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    cp = lead & 0x07;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    out.bad = i;
    return out;
  }
  for (size_t k = 1; k < length; ++k) {
    if (i + k >= s.size()) {
      out.bad = s.size();
      return out;
    }
    const auto next = static_cast<unsigned char>(s[i + k]);
    if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF)) {
      out.bad = i + k;
      return out;
    }
    cp = (cp << 6) | (next & 0x3F);
  }
  out.length = length;
  out.code_point = cp;
  return out;
}

std::string HexDigits(uint32_t value, int digits) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out(static_cast<size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, value >>= 4) {
    out[static_cast<size_t>(i)] = kDigits[value & 0xF];
  }
  return out;
}

}  // namespace schedref::api
