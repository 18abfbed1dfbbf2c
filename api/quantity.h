// Kubernetes resource quantities ("100m", "1.5Gi", "2e3"). Specification:
// k8s.io/apimachinery/pkg/api/resource (quantity.go: ParseQuantity,
// parseQuantityString, CanonicalizeBytes; suffix.go; amount.go; math.go;
// scale_int.go).
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
//    all parse as 0. Only when upstream would have taken its inf.Dec path
//    ("Pi", "Ei", or an exponent below -9 such as "e-10") is it an error.
//  - Suffixes are case-sensitive: "1ki" and "1KI" are errors; "1E" is exa
//    (10^18), while "1E3" and "1e3" are exponents.
//  - No whitespace anywhere. (Upstream's JSON decoding trims surrounding
//    whitespace before parsing; that belongs to the decoder, not here.)
//  - Exponents outside [-2^31+1, 2^31-1] are rejected, as upstream does
//    instead of letting them wrap.
// Deliberate difference: for exponents within a few digits of +-2^31,
// upstream's int32 scale arithmetic on its inf.Dec path can wrap ("0.5e-2147483647"
// would come out enormous); here the arithmetic is exact (that value is 1n).
#ifndef SCHEDREF_API_QUANTITY_H_
#define SCHEDREF_API_QUANTITY_H_

#include <compare>
#include <cstdint>
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

  // Upstream's canonical form (Quantity.String()): largest suffix that loses
  // nothing, no fraction digits, e.g. "1500m", "1536Ki", "1Gi", "10e99".
  [[nodiscard]] std::string String() const;

  [[nodiscard]] Format format() const { return format_; }
  // -1, 0 or 1.
  [[nodiscard]] int Sign() const {
    return digits_.empty() ? 0 : (negative_ ? -1 : 1);
  }

  // Numeric comparison; the format does not take part ("1Ki" == "1024").
  friend bool operator==(const Quantity& a, const Quantity& b) {
    return a.negative_ == b.negative_ && a.exponent_ == b.exponent_ &&
           a.digits_ == b.digits_;
  }
  friend std::strong_ordering operator<=>(const Quantity& a,
                                          const Quantity& b);

 private:
  Quantity(bool negative, std::string digits, int64_t exponent, Format format)
      : negative_(negative),
        digits_(std::move(digits)),
        exponent_(exponent),
        format_(format) {}

  // The value times 10^shift, rounded away from zero, saturated to int64.
  int64_t ScaledUp(int shift) const;

  // Value = (negative_ ? -1 : 1) * digits_ * 10^exponent_, where digits_ is
  // decimal without leading or trailing zeros ("" for zero, then negative_ is
  // false and exponent_ 0). Canonical, so equal values compare field-equal.
  bool negative_ = false;
  std::string digits_;
  int64_t exponent_ = 0;
  Format format_ = Format::kDecimalSI;
};

}  // namespace schedref::api

#endif  // SCHEDREF_API_QUANTITY_H_
