#include "reference/framework/plugins/testplugins/go_duration.h"

#include <cstdint>
#include <string>
#include <utility>

namespace schedref::reference::framework::plugins::testplugins {
namespace {

constexpr uint64_t kMaxMagnitude = uint64_t{1} << 63;

std::string Quote(std::string_view s) {
  return "\"" + std::string(s) + "\"";
}

schedref::Status Invalid(std::string_view original) {
  return schedref::Status::Invalid("time: invalid duration " + Quote(original));
}

// Leading decimal digits as an integer; `overflow` if it does not fit.
uint64_t LeadingInt(std::string_view& s, bool& overflow) {
  uint64_t x = 0;
  size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (x > kMaxMagnitude / 10) {
      overflow = true;
      return 0;
    }
    x = x * 10 + static_cast<uint64_t>(s[i] - '0');
    if (x > kMaxMagnitude) {
      overflow = true;
      return 0;
    }
  }
  s.remove_prefix(i);
  return x;
}

// Leading fraction digits: value and scale (10^digits kept).
void LeadingFraction(std::string_view& s, uint64_t& x, double& scale) {
  x = 0;
  scale = 1;
  bool overflow = false;
  size_t i = 0;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (overflow) continue;
    if (x > (INT64_MAX - 1) / 10) {
      overflow = true;  // further digits are dropped, as Go does
      continue;
    }
    const uint64_t y = x * 10 + static_cast<uint64_t>(s[i] - '0');
    if (y > kMaxMagnitude) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  s.remove_prefix(i);
}

uint64_t UnitNanos(std::string_view u) {
  if (u == "ns") return 1;
  if (u == "us" || u == "\xC2\xB5s" || u == "\xCE\xBCs") return 1000;
  if (u == "ms") return 1000 * 1000;
  if (u == "s") return 1000 * 1000 * 1000;
  if (u == "m") return uint64_t{60} * 1000 * 1000 * 1000;
  if (u == "h") return uint64_t{3600} * 1000 * 1000 * 1000;
  return 0;
}

}  // namespace

StatusOr<int64_t> ParseGoDuration(std::string_view original) {
  std::string_view s = original;
  bool neg = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return int64_t{0};
  if (s.empty()) return Invalid(original);
  uint64_t d = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || (s[0] >= '0' && s[0] <= '9'))) {
      return Invalid(original);
    }
    const size_t before = s.size();
    bool overflow = false;
    uint64_t v = LeadingInt(s, overflow);
    if (overflow) return Invalid(original);
    const bool pre = s.size() != before;
    uint64_t f = 0;
    double scale = 1;
    bool post = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      const size_t at = s.size();
      LeadingFraction(s, f, scale);
      post = s.size() != at;
    }
    if (!pre && !post) return Invalid(original);
    size_t i = 0;
    while (i < s.size() && s[i] != '.' && !(s[i] >= '0' && s[i] <= '9')) ++i;
    if (i == 0) {
      return schedref::Status::Invalid("time: missing unit in duration " +
                                       Quote(original));
    }
    const std::string_view unit_name = s.substr(0, i);
    s.remove_prefix(i);
    const uint64_t unit = UnitNanos(unit_name);
    if (unit == 0) {
      return schedref::Status::Invalid("time: unknown unit " +
                                       Quote(unit_name) + " in duration " +
                                       Quote(original));
    }
    if (v > kMaxMagnitude / unit) return Invalid(original);
    v *= unit;
    if (f > 0) {
      v += static_cast<uint64_t>(static_cast<double>(f) *
                                 (static_cast<double>(unit) / scale));
      if (v > kMaxMagnitude) return Invalid(original);
    }
    d += v;
    if (d > kMaxMagnitude) return Invalid(original);
  }
  if (neg) return -static_cast<int64_t>(d - 1) - 1;
  if (d > static_cast<uint64_t>(INT64_MAX)) return Invalid(original);
  return static_cast<int64_t>(d);
}

}  // namespace schedref::reference::framework::plugins::testplugins
