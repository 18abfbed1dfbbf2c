// Kubernetes resource quantities; spec: k8s.io/apimachinery/pkg/api/resource.
// (quantity.go: ParseQuantity, parseQuantityString, CanonicalizeBytes, String;
// suffix.go; amount.go; math.go; scale_int.go; and their _test.go files.)
//
// A Quantity holds its value exactly: an arbitrary-length decimal mantissa and
// a base-10 exponent. Upstream switches between an int64 fast path and inf.Dec;
// both give the same value, so one exact representation reproduces either.
//
// Upstream behaviour kept on purpose, because manifests can rely on it:
//  - Parse rounds the magnitude up (away from zero) to a whole nanounit:
//    "0.1n" is 1n, "-3.001n" is -4n.
//  - Binary-suffixed values ("Ki".."Ei") are capped at 2^63-1 in magnitude
//    ("9Ei" is 9223372036854775807); decimal ones are not ("100E" stays 1e20).
//  - A number with no digits at all is zero: ".", "+", "-", "k", "Ki", "e5"
//    all parse as 0. Only where upstream would take its inf.Dec path ("Pi",
//    "Ei", or an exponent below -9 such as "e-10") is it an error.
//  - Suffixes are case-sensitive: "1ki" and "1KI" are errors; "1E" is exa
//    (10^18), while "1E3" and "1e3" are exponents.
//  - No whitespace anywhere. (Upstream's JSON decoding trims surrounding
//    whitespace before parsing; that belongs to the decoder, not here.)
// Where upstream releases differ, this follows current upstream (its
// quantity_overflow_test.go and TestNegativeValueRoundsAwayFromZero):
//  - Value() and MilliValue() saturate at the int64 limits and round away
//    from zero on both signs; older releases wrapped on overflow and rounded
//    some negative values toward +infinity.
//  - Exponents outside [-(2^31-1), 2^31-1] are rejected; older releases
//    truncated them to int32 ("1e4294967297" was 1e1).
//  - DecimalSI values past "E" print in exponent notation ("1000E" is
//    "1e21"); older releases dropped the suffix and printed "1".
// Deliberate difference: within a few digits of the exponent limits,
// upstream's int32 scale arithmetic on its inf.Dec path can wrap
// ("0.5e-2147483647" can come out enormous); here it is exact (that is 1n).
#ifndef SCHEDREF_API_QUANTITY_H_
#define SCHEDREF_API_QUANTITY_H_

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "api/status.h"

namespace schedref::api {

class Quantity {
 public:
  // How String() prints the value; remembered from the suffix Parse saw.
  enum class Format {
    kDecimalSI,        // "", n u m k M G T P E
    kBinarySI,         // Ki Mi Gi Ti Pi Ei
    kDecimalExponent,  // e<n> / E<n>
  };

  // Zero, DecimalSI.
  Quantity() = default;

  // ParseQuantity. Errors are Status::Invalid with message
  // `quantity "<s>": <reason>`, reason being upstream's error text.
  [[nodiscard]] static StatusOr<Quantity> Parse(std::string_view s);

  // ceil(|q|) with q's sign (rounds away from zero, like upstream Value()),
  // saturating at INT64_MIN / INT64_MAX.
  [[nodiscard]] int64_t Value() const { return ScaledUp(0); }
  // Same for q * 1000 (upstream MilliValue()).
  [[nodiscard]] int64_t MilliValue() const { return ScaledUp(3); }
  // Value() and MilliValue() where no saturation is needed; nullopt iff
  // the rounded value lies outside int64 (where upstream releases read
  // different numbers, see above).
  [[nodiscard]] std::optional<int64_t> ValueIfFits() const { return ScaledIfFits(0); }
  [[nodiscard]] std::optional<int64_t> MilliValueIfFits() const { return ScaledIfFits(3); }

  // What upstream's Quantity.String() returns for a parsed quantity: usually
  // CanonicalString(), but upstream hands back the parsed text itself when its
  // int64 fast path took the value and a cheap test called the text canonical.
  // That test is loose, so "+92", "1E3", "12e+6", "01Ki" and "10.035M" come
  // back exactly as written (their canonical forms are "92", "1e3", "12e6",
  // "1Ki" and "10035k").
  [[nodiscard]] std::string String() const;

  // Upstream's canonical form (CanonicalizeBytes): the largest suffix that
  // loses nothing and no fraction digits, e.g. "1500m", "1536Ki", "1Gi",
  // "10e99". Binary values below 1024 or with a fraction print in DecimalSI.
  [[nodiscard]] std::string CanonicalString() const;

  [[nodiscard]] Format format() const { return format_; }
  // -1, 0 or 1.
  [[nodiscard]] int Sign() const {
    return digits_.empty() ? 0 : (negative_ ? -1 : 1);
  }

  // Numeric comparison; the format and the text do not take part
  // ("1Ki" == "1024").
  friend bool operator==(const Quantity& a, const Quantity& b) {
    return a.negative_ == b.negative_ && a.exponent_ == b.exponent_ &&
           a.digits_ == b.digits_;
  }
  friend std::strong_ordering operator<=>(const Quantity& a, const Quantity& b);

 private:
  Quantity(bool negative, std::string digits, int64_t exponent, Format format,
           std::string text = {})
      : negative_(negative),
        digits_(std::move(digits)),
        exponent_(exponent),
        format_(format),
        text_(std::move(text)) {}

  // The value times 10^shift, rounded away from zero, saturated to int64.
  int64_t ScaledUp(int shift) const;
  // The same, or nullopt where it would saturate.
  std::optional<int64_t> ScaledIfFits(int shift) const;

  // Value = (negative_ ? -1 : 1) * digits_ * 10^exponent_, where digits_ is
  // decimal without leading or trailing zeros ("" for zero, then negative_ is
  // false and exponent_ 0). Canonical, so equal values compare field-equal.
  bool negative_ = false;
  std::string digits_;
  int64_t exponent_ = 0;
  Format format_ = Format::kDecimalSI;
  // The parsed text when String() echoes it (see String()), else empty.
  std::string text_;
};

}  // namespace schedref::api

#endif  // SCHEDREF_API_QUANTITY_H_
