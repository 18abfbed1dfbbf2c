#include "api/gocompat/go_duration.h"

#include <cstdint>
#include <string>

namespace schedref::api {
namespace {

// 2^63: the magnitude of the most negative duration.
constexpr uint64_t kLimit = uint64_t{1} << 63;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Go's time.quote.
std::string GoTimeQuote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : s) {
    const auto b = static_cast<unsigned char>(ch);
    if (b < 0x20 || b >= 0x80) {
      out += "\\x";
      out += kHex[b >> 4];
      out += kHex[b & 0xF];
      continue;
    }
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

schedref::Status InvalidDuration(std::string_view original) {
  return schedref::Status::Invalid("time: invalid duration " +
                                   GoTimeQuote(original));
}

// Nanoseconds per unit; 0 for an unknown unit.
uint64_t UnitNanos(std::string_view unit) {
  constexpr uint64_t kMicro = 1000;
  constexpr uint64_t kMilli = 1000 * kMicro;
  constexpr uint64_t kSecond = 1000 * kMilli;
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return kMicro;
  if (unit == "ms") return kMilli;
  if (unit == "s") return kSecond;
  if (unit == "m") return 60 * kSecond;
  if (unit == "h") return 3600 * kSecond;
  return 0;
}

// One "<int>[.<frac>]" number at the front of `rest`, consumed.
struct Number {
  uint64_t whole = 0;
  uint64_t fraction = 0;  // the fraction's digits kept, as an integer
  double scale = 1;       // 10^(digits kept)
  bool has_digits = false;
  bool overflow = false;  // the whole part does not fit 2^63
};

Number ReadNumber(std::string_view& rest) {
  Number n;
  size_t i = 0;
  for (; i < rest.size() && IsDigit(rest[i]); ++i) {
    if (n.whole > kLimit / 10) {
      n.overflow = true;
      return n;
    }
    n.whole = n.whole * 10 + static_cast<uint64_t>(rest[i] - '0');
    if (n.whole > kLimit) {
      n.overflow = true;
      return n;
    }
  }
  n.has_digits = i > 0;
  rest.remove_prefix(i);
  if (rest.empty() || rest[0] != '.') return n;
  rest.remove_prefix(1);
  // Fraction digits beyond what an int64 holds are read and dropped.
  bool saturated = false;
  size_t j = 0;
  for (; j < rest.size() && IsDigit(rest[j]); ++j) {
    if (saturated) continue;
    if (n.fraction > (kLimit - 1) / 10) {
      saturated = true;
      continue;
    }
    const uint64_t next = n.fraction * 10 + static_cast<uint64_t>(rest[j] - '0');
    if (next > kLimit) {
      saturated = true;
      continue;
    }
    n.fraction = next;
    n.scale *= 10;
  }
  n.has_digits = n.has_digits || j > 0;
  rest.remove_prefix(j);
  return n;
}

}  // namespace

StatusOr<int64_t> ParseGoDuration(std::string_view original) {
  std::string_view rest = original;
  bool negative = false;
  if (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) {
    negative = rest[0] == '-';
    rest.remove_prefix(1);
  }
  if (rest == "0") return int64_t{0};
  if (rest.empty()) return InvalidDuration(original);

  uint64_t total = 0;
  while (!rest.empty()) {
    if (rest[0] != '.' && !IsDigit(rest[0])) return InvalidDuration(original);
    const Number n = ReadNumber(rest);
    if (n.overflow || !n.has_digits) return InvalidDuration(original);

    size_t unit_len = 0;
    while (unit_len < rest.size() && rest[unit_len] != '.' &&
           !IsDigit(rest[unit_len])) {
      ++unit_len;
    }
    if (unit_len == 0) {
      return schedref::Status::Invalid("time: missing unit in duration " +
                                       GoTimeQuote(original));
    }
    const std::string_view unit_name = rest.substr(0, unit_len);
    rest.remove_prefix(unit_len);
    const uint64_t unit = UnitNanos(unit_name);
    if (unit == 0) {
      return schedref::Status::Invalid("time: unknown unit " +
                                       GoTimeQuote(unit_name) +
                                       " in duration " + GoTimeQuote(original));
    }

    if (n.whole > kLimit / unit) return InvalidDuration(original);
    uint64_t value = n.whole * unit;
    if (n.fraction > 0) {
      // float64, as Go: exact enough to the nanosecond for fractions of an
      // hour, and the value the plugins observe.
      value += static_cast<uint64_t>(static_cast<double>(n.fraction) *
                                     (static_cast<double>(unit) / n.scale));
      if (value > kLimit) return InvalidDuration(original);
    }
    total += value;
    if (total > kLimit) return InvalidDuration(original);
  }
  if (negative) {
    // total <= 2^63: its negation fits, -2^63 included.
    return static_cast<int64_t>(~total + 1);
  }
  if (total > kLimit - 1) return InvalidDuration(original);
  return static_cast<int64_t>(total);
}

namespace {

// The fraction v / 10^prec without trailing zeros (and without the point
// when it is zero) in front of `out`; returns v / 10^prec.
uint64_t PrependFraction(std::string& out, uint64_t v, int prec) {
  std::string digits;
  bool print = false;
  for (int i = 0; i < prec; ++i) {
    const uint64_t digit = v % 10;
    print = print || digit != 0;
    if (print) digits.insert(digits.begin(), static_cast<char>('0' + digit));
    v /= 10;
  }
  if (print) out.insert(0, "." + digits);
  return v;
}

}  // namespace

std::string FormatGoDuration(int64_t ns) {
  const bool negative = ns < 0;
  // Two's complement negation of the magnitude, as Go's uint64(-d).
  uint64_t u = negative ? ~static_cast<uint64_t>(ns) + 1 : static_cast<uint64_t>(ns);
  std::string out;
  constexpr uint64_t kMicro = 1000, kMilli = 1000 * kMicro, kSecond = 1000 * kMilli;
  if (u < kSecond) {
    if (u == 0) return "0s";
    int prec = 0;
    if (u < kMicro) {
      out = "ns";
    } else if (u < kMilli) {
      prec = 3;
      out = "\u00b5s";  // U+00B5 MICRO SIGN, as Go writes it
    } else {
      prec = 6;
      out = "ms";
    }
    u = PrependFraction(out, u, prec);
    out.insert(0, std::to_string(u));
  } else {
    out = "s";
    u = PrependFraction(out, u, 9);
    out.insert(0, std::to_string(u % 60));
    u /= 60;
    if (u > 0) {
      out.insert(0, std::to_string(u % 60) + "m");
      u /= 60;
      if (u > 0) out.insert(0, std::to_string(u) + "h");
    }
  }
  return negative ? "-" + out : out;
}

std::optional<int64_t> ParseDurationMs(std::string_view text) {
  constexpr int64_t kNanosPerMs = 1'000'000;
  const StatusOr<int64_t> ns = ParseGoDuration(text);
  if (!ns.ok() || *ns % kNanosPerMs != 0) return std::nullopt;
  return *ns / kNanosPerMs;
}

std::string FormatDurationMs(int64_t ms) {
  if (ms == 0) return "0s";
  // Magnitude in unsigned arithmetic: INT64_MIN has no positive twin.
  const bool negative = ms < 0;
  const uint64_t u =
      negative ? ~static_cast<uint64_t>(ms) + 1 : static_cast<uint64_t>(ms);
  std::string out = negative ? "-" : "";
  if (u < 1000) return out + std::to_string(u) + "ms";
  const uint64_t hours = u / 3'600'000;
  const uint64_t minutes = (u / 60'000) % 60;
  const uint64_t seconds = (u / 1000) % 60;
  const uint64_t millis = u % 1000;
  if (hours > 0) out += std::to_string(hours) + "h";
  if (hours > 0 || minutes > 0) out += std::to_string(minutes) + "m";
  out += std::to_string(seconds);
  if (millis > 0) {
    std::string frac = std::to_string(millis);
    frac = std::string(3 - frac.size(), '0') + frac;
    while (frac.ends_with('0')) frac.pop_back();
    out += "." + frac;
  }
  return out + "s";
}

}  // namespace schedref::api
