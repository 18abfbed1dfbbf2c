// Parsing, rounding and printing of resource quantities; see quantity.h for
// the behaviour and the upstream files it follows.
#include "api/types/quantity.h"

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace schedref::api {
namespace {

using Format = Quantity::Format;

// Upstream's error texts (quantity.go: ErrFormatWrong, ErrNumeric, ErrSuffix),
// so messages read the same as the API server's.
constexpr std::string_view kErrFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kErrNumeric =
    "unable to parse numeric part of quantity";
constexpr std::string_view kErrSuffix = "unable to parse quantity's suffix";

// The letters a suffix may start with. Deliberately looser than the real
// suffix list: the scanner only splits, InterpretSuffix decides.
constexpr std::string_view kSuffixLetters = "eEinumkKMGTP";

// Parse rounds every value up to a whole number of nanounits.
constexpr int64_t kNanoExponent = -9;

// Upstream stores the exponent in an int32 scale that it later negates, so it
// rejects anything whose negation would not fit.
constexpr uint64_t kMaxExponentMagnitude = std::numeric_limits<int32_t>::max();

// Binary-suffixed values are capped at this magnitude (math.go maxAllowed).
constexpr std::string_view kMaxInt64Digits = "9223372036854775807";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

Status ParseError(std::string_view input, std::string_view reason) {
  std::string message = "quantity \"";
  message.append(input);
  message.append("\": ");
  message.append(reason);
  return Status::Invalid(std::move(message));
}

// --- Magnitudes: decimal digit strings, most significant digit first. -------

// Drops leading zeros and moves trailing zeros into `exponent`, so that equal
// values have equal representations. Zero becomes "" with exponent 0.
void Normalize(std::string& digits, int64_t& exponent) {
  const size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) {
    digits.clear();
    exponent = 0;
    return;
  }
  const size_t last = digits.find_last_not_of('0');
  exponent += static_cast<int64_t>(digits.size() - 1 - last);
  digits = digits.substr(first, last - first + 1);
}

// digits *= factor, for 0 < factor <= 2^30 (keeps every step inside uint64).
void MultiplySmall(std::string& digits, uint64_t factor) {
  uint64_t carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const uint64_t v = static_cast<uint64_t>(*it - '0') * factor + carry;
    *it = static_cast<char>('0' + v % 10);
    carry = v / 10;
  }
  std::string head;
  for (; carry != 0; carry /= 10) {
    head.push_back(static_cast<char>('0' + carry % 10));
  }
  std::reverse(head.begin(), head.end());
  digits.insert(0, head);
}

// digits += 1.
void Increment(std::string& digits) {
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (*it != '9') {
      ++*it;
      return;
    }
    *it = '0';
  }
  digits.insert(digits.begin(), '1');
}

// Compares a * 10^ea with b * 10^eb; both normalized (see Normalize).
int CompareMagnitude(std::string_view a, int64_t ea, std::string_view b,
                     int64_t eb) {
  if (a.empty() || b.empty()) {
    return static_cast<int>(!a.empty()) - static_cast<int>(!b.empty());
  }
  // The position of the leading digit decides first.
  const int64_t lead_a = static_cast<int64_t>(a.size()) + ea;
  const int64_t lead_b = static_cast<int64_t>(b.size()) + eb;
  if (lead_a != lead_b) return lead_a < lead_b ? -1 : 1;
  const size_t common = std::min(a.size(), b.size());
  const int c = a.substr(0, common).compare(b.substr(0, common));
  if (c != 0) return c < 0 ? -1 : 1;
  // Normalized digits end in a non-zero digit, so the longer one is larger.
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return 0;
}

// --- Suffixes (suffix.go) ---------------------------------------------------

struct Suffix {
  Format format;
  int base;          // 10 or 2
  int64_t exponent;  // power of `base`
};

constexpr struct {
  std::string_view text;
  Suffix suffix;
} kSuffixTable[] = {
    {"", {Format::kDecimalSI, 10, 0}},   {"n", {Format::kDecimalSI, 10, -9}},
    {"u", {Format::kDecimalSI, 10, -6}}, {"m", {Format::kDecimalSI, 10, -3}},
    {"k", {Format::kDecimalSI, 10, 3}},  {"M", {Format::kDecimalSI, 10, 6}},
    {"G", {Format::kDecimalSI, 10, 9}},  {"T", {Format::kDecimalSI, 10, 12}},
    {"P", {Format::kDecimalSI, 10, 15}}, {"E", {Format::kDecimalSI, 10, 18}},
    {"Ki", {Format::kBinarySI, 2, 10}},  {"Mi", {Format::kBinarySI, 2, 20}},
    {"Gi", {Format::kBinarySI, 2, 30}},  {"Ti", {Format::kBinarySI, 2, 40}},
    {"Pi", {Format::kBinarySI, 2, 50}},  {"Ei", {Format::kBinarySI, 2, 60}},
};

// The table wins over the exponent form, which is why "1E" is exa.
bool InterpretSuffix(std::string_view text, Suffix& out) {
  for (const auto& entry : kSuffixTable) {
    if (text == entry.text) {
      out = entry.suffix;
      return true;
    }
  }
  if (text.size() < 2 || (text[0] != 'e' && text[0] != 'E')) return false;
  // The rest must be what Go's strconv.ParseInt(s, 10, 64) accepts: an
  // optional sign and at least one digit, nothing else.
  std::string_view rest = text.substr(1);
  bool negative = false;
  if (rest[0] == '+' || rest[0] == '-') {
    negative = rest[0] == '-';
    rest.remove_prefix(1);
  }
  if (rest.empty()) return false;
  uint64_t magnitude = 0;
  const char* const end = rest.data() + rest.size();
  const auto [ptr, ec] = std::from_chars(rest.data(), end, magnitude);
  if (ec != std::errc() || ptr != end) return false;
  if (magnitude > kMaxExponentMagnitude) return false;
  const auto exponent = static_cast<int64_t>(magnitude);
  out = {Format::kDecimalExponent, 10, negative ? -exponent : exponent};
  return true;
}

// Whether upstream's ParseQuantity keeps the input text as its String()
// result. It does so when its int64 fast path took the value (the digit count
// fits its precision estimate and the scale is at least nano) and:
//  - binary suffix: the integer part is not a multiple of 8;
//  - otherwise: the scale is a multiple of 3, the digits do not end in "000"
//    and the integer part is not zero.
// `int_digits` excludes leading zeros; there is at least one digit overall.
bool UpstreamKeepsText(std::string_view int_digits,
                       std::string_view frac_digits, const Suffix& suffix) {
  // Upstream reads an empty integer part as "0".
  const int64_t num_len =
      std::max<int64_t>(1, static_cast<int64_t>(int_digits.size()));
  const auto denom_len = static_cast<int64_t>(frac_digits.size());
  if (suffix.base == 2) {
    // Only integers, and only as many digits as the int64 estimate allows
    // (1Mi has ~6 decimal digits: exponent*3/10 of them).
    if (denom_len != 0) return false;
    if (15 - num_len - suffix.exponent * 3 / 10 - 1 < 0) return false;
    // Within that estimate the value and its product with 2^exponent fit an
    // int64; only the low three bits of the integer part matter.
    uint64_t value = 0;
    for (char c : int_digits)
      value = value * 10 + static_cast<uint64_t>(c - '0');
    return (value & 7) != 0;
  }
  // maxInt64Factors (18) decimal digits.
  if (num_len + denom_len > 18) return false;
  const int64_t scale = suffix.exponent - denom_len;
  if (scale < kNanoExponent || scale % 3 != 0) return false;
  if (int_digits.empty()) return false;
  std::string shifted(int_digits);
  shifted.append(frac_digits);
  return shifted.size() < 3 ||
         shifted.compare(shifted.size() - 3, 3, "000") != 0;
}

}  // namespace

StatusOr<Quantity> Quantity::Parse(std::string_view s) {
  if (s.empty()) return ParseError(s, kErrFormatWrong);
  const size_t end = s.size();
  size_t pos = 0;

  bool negative = false;
  if (s[0] == '-' || s[0] == '+') {
    negative = s[0] == '-';
    ++pos;
  }

  // Upstream stops as soon as only zeros are left: a lone sign, or a sign and
  // zeros, is zero.
  const size_t zeros_begin = pos;
  while (pos < end && s[pos] == '0') ++pos;
  if (pos == end) return Quantity();
  const bool had_leading_zeros = pos > zeros_begin;

  const size_t int_begin = pos;
  while (pos < end && IsDigit(s[pos])) ++pos;
  const std::string_view int_digits = s.substr(int_begin, pos - int_begin);

  // "5." and ".5" are both fine ("1.G" too).
  std::string_view frac_digits;
  if (pos < end && s[pos] == '.') {
    ++pos;
    const size_t frac_begin = pos;
    while (pos < end && IsDigit(s[pos])) ++pos;
    frac_digits = s.substr(frac_begin, pos - frac_begin);
  }

  // The suffix is suffix letters, an optional sign, then digits, to the end.
  const size_t suffix_begin = pos;
  while (pos < end && kSuffixLetters.find(s[pos]) != std::string_view::npos) {
    ++pos;
  }
  if (pos < end && (s[pos] == '+' || s[pos] == '-')) ++pos;
  while (pos < end && IsDigit(s[pos])) ++pos;
  if (pos != end) return ParseError(s, kErrFormatWrong);

  Suffix suffix{};
  if (!InterpretSuffix(s.substr(suffix_begin), suffix)) {
    return ParseError(s, kErrSuffix);
  }
  const bool binary = suffix.base == 2;

  if (!had_leading_zeros && int_digits.empty() && frac_digits.empty()) {
    // No digits at all. Upstream's int64 fast path reads that as 0, but its
    // inf.Dec path (taken for "Pi"/"Ei", whose int64 precision estimate is
    // too small, and for exponents finer than nano) cannot parse it.
    const bool decimal_path =
        binary ? suffix.exponent >= 50 : suffix.exponent < kNanoExponent;
    if (decimal_path) return ParseError(s, kErrNumeric);
    return Quantity(false, "", 0, suffix.format);
  }

  std::string digits;
  digits.reserve(int_digits.size() + frac_digits.size());
  digits.append(int_digits);
  digits.append(frac_digits);
  int64_t exponent = -static_cast<int64_t>(frac_digits.size());
  Normalize(digits, exponent);
  // Zero keeps the format of its suffix ("0Ki" prints as "0" either way).
  if (digits.empty()) return Quantity(false, "", 0, suffix.format);

  if (binary) {
    for (int64_t left = suffix.exponent; left > 0; left -= 30) {
      MultiplySmall(digits, uint64_t{1} << std::min<int64_t>(left, 30));
    }
    Normalize(digits, exponent);
  } else {
    exponent += suffix.exponent;
  }

  // Round the magnitude up to whole nanounits: upstream's reasoning is that
  // asking for any amount of a resource should get some of it.
  if (exponent < kNanoExponent) {
    const int64_t drop = kNanoExponent - exponent;
    // Normalized, so the dropped digits always include a non-zero one.
    if (drop >= static_cast<int64_t>(digits.size())) {
      digits = "1";
    } else {
      digits.resize(digits.size() - static_cast<size_t>(drop));
      Increment(digits);
    }
    exponent = kNanoExponent;
    Normalize(digits, exponent);
  }

  std::string text;
  if (UpstreamKeepsText(int_digits, frac_digits, suffix)) text = s;

  Format format = suffix.format;
  if (binary) {
    // Only binary values are capped; "100E" keeps its exact 1e20.
    if (CompareMagnitude(digits, exponent, kMaxInt64Digits, 0) > 0) {
      digits = kMaxInt64Digits;
      exponent = 0;
    }
    // A binary fraction below one would print badly; upstream switches it to
    // DecimalSI ("0.000000000001Ki" is "2n").
    if (CompareMagnitude(digits, exponent, "1", 0) < 0) {
      format = Format::kDecimalSI;
    }
  }
  return Quantity(negative, std::move(digits), exponent, format,
                  std::move(text));
}

std::optional<int64_t> Quantity::ScaledIfFits(int shift) const {
  if (digits_.empty()) return 0;
  const int64_t exponent = exponent_ + shift;
  // Number of digits before the decimal point (<= 0 for |q| < 1).
  const int64_t int_len = static_cast<int64_t>(digits_.size()) + exponent;
  // 2^63 has 19 digits; 21 or more are out of range in either direction,
  // and 20 fit an unsigned __int128 with room to spare.
  if (int_len > 20) return std::nullopt;
  unsigned __int128 magnitude = 0;
  for (int64_t i = 0; i < int_len; ++i) {
    const int digit = i < static_cast<int64_t>(digits_.size())
                          ? digits_[static_cast<size_t>(i)] - '0'
                          : 0;
    magnitude = magnitude * 10 + static_cast<unsigned>(digit);
  }
  // A negative exponent leaves digits after the point, and the last of them
  // is non-zero (normalized): round away from zero.
  if (exponent < 0) magnitude += 1;
  const unsigned __int128 limit =
      negative_ ? (static_cast<unsigned __int128>(1) << 63)
                : (static_cast<unsigned __int128>(1) << 63) - 1;
  if (magnitude > limit) return std::nullopt;
  return negative_ ? static_cast<int64_t>(-static_cast<__int128>(magnitude))
                   : static_cast<int64_t>(magnitude);
}

int64_t Quantity::ScaledUp(int shift) const {
  if (std::optional<int64_t> v = ScaledIfFits(shift)) return *v;
  return negative_ ? std::numeric_limits<int64_t>::min()
                   : std::numeric_limits<int64_t>::max();
}

std::string Quantity::String() const {
  return text_.empty() ? CanonicalString() : text_;
}

std::string Quantity::CanonicalString() const {
  if (digits_.empty()) return "0";
  std::string out = negative_ ? "-" : "";
  Format format = format_;

  if (format == Format::kBinarySI) {
    const int64_t int_len = static_cast<int64_t>(digits_.size()) + exponent_;
    if (exponent_ < 0 || CompareMagnitude(digits_, exponent_, "1024", 0) < 0) {
      // Small or fractional binary values print in decimal, exactly, instead
      // of being rounded to a whole number of bytes.
      format = Format::kDecimalSI;
    } else if (int_len <= 19) {
      uint64_t value = 0;
      for (int64_t i = 0; i < int_len; ++i) {
        const int digit = i < static_cast<int64_t>(digits_.size())
                              ? digits_[static_cast<size_t>(i)] - '0'
                              : 0;
        value = value * 10 + static_cast<unsigned>(digit);
      }
      int power = 0;  // of 1024
      while (value % 1024 == 0) {
        value /= 1024;
        ++power;
      }
      static constexpr std::string_view kBinarySuffixes[] = {
          "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
      if (power <= 6) {
        out += std::to_string(value);
        out += kBinarySuffixes[power];
        return out;
      }
      format = Format::kDecimalExponent;
    } else {
      // Past 2^63 there is no binary suffix to use. Parse caps binary values
      // below this, so it is only a guard; upstream prints exponent notation.
      format = Format::kDecimalExponent;
    }
  }

  // Mantissa without a fraction and an exponent that is a multiple of 3
  // (rounded down), e.g. 1.5e0 -> 1500e-3.
  int64_t pad = exponent_ % 3;
  if (pad < 0) pad += 3;
  out += digits_;
  out.append(static_cast<size_t>(pad), '0');
  const int64_t exponent = exponent_ - pad;
  if (format == Format::kDecimalSI && exponent >= -9 && exponent <= 18) {
    static constexpr std::string_view kDecimalSuffixes[] = {
        "n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
    out += kDecimalSuffixes[(exponent + 9) / 3];
    return out;
  }
  // DecimalExponent, or DecimalSI beyond its suffixes (upstream falls back to
  // exponent notation rather than drop the magnitude, e.g. "1000E" -> "1e21").
  if (exponent != 0) {
    out += 'e';
    out += std::to_string(exponent);
  }
  return out;
}

std::strong_ordering operator<=>(const Quantity& a, const Quantity& b) {
  const int sign_a = a.Sign();
  const int sign_b = b.Sign();
  if (sign_a != sign_b) return sign_a <=> sign_b;
  const int c =
      CompareMagnitude(a.digits_, a.exponent_, b.digits_, b.exponent_);
  return (sign_a < 0 ? -c : c) <=> 0;
}

}  // namespace schedref::api
