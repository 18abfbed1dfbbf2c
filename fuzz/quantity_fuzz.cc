// libFuzzer target for api::Quantity::Parse (api/types/quantity.h): any bytes must
// parse or be rejected without crashing, and an accepted quantity must print
// back to the same value and keep Value/MilliValue consistent. Aborts on a
// broken invariant so the fuzzer records the input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>

#include "api/types/quantity.h"

namespace {

using schedref::StatusOr;
using schedref::api::Quantity;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

[[noreturn]] void Fail(const char* what, std::string_view input) {
  std::fprintf(stderr, "quantity_fuzz: %s; input: \"%.*s\"\n", what,
               static_cast<int>(input.size()), input.data());
  std::abort();
}

void Check(bool ok, const char* what, std::string_view input) {
  if (!ok) Fail(what, input);
}

// Whether `text` ends in an exponent outside int32, which Parse rejects. The
// canonical form of a value like 1000e2147483647 has one (upstream too).
bool HasExponentPastInt32(const std::string& text) {
  const size_t e = text.find('e');
  if (e == std::string::npos) return false;
  std::string_view digits(text);
  digits.remove_prefix(e + 1);
  if (!digits.empty() && digits[0] == '-') digits.remove_prefix(1);
  return digits.size() > 10 ||
         (digits.size() == 10 && digits > std::string_view("2147483647"));
}

// Parsing `text` gives back `q` (or `text` is one of the unreadable
// exponents above). The printed form need not keep the format: "62.5Ki"
// prints as "64000", which reads back as DecimalSI and prints as "64k". With
// the format kept the canonical form is the same, and one more round is
// always a fixed point.
void CheckReparses(const Quantity& q, const std::string& text,
                   std::string_view input) {
  const StatusOr<Quantity> again = Quantity::Parse(text);
  if (!again.ok()) {
    Check(HasExponentPastInt32(text), "printed form does not parse", input);
    return;
  }
  Check(*again == q, "printed form parses to another value", input);
  Check((*again <=> q) == 0, "<=> disagrees with ==", input);
  const std::string canonical = again->CanonicalString();
  if (again->format() == q.format()) {
    Check(canonical == q.CanonicalString(),
          "same format, different canonical form", input);
  }
  const StatusOr<Quantity> third = Quantity::Parse(canonical);
  if (!third.ok()) {
    Check(HasExponentPastInt32(canonical), "canonical form does not parse",
          input);
    return;
  }
  Check(*third == q, "canonical form parses to another value", input);
  Check(third->CanonicalString() == canonical,
        "canonical form is not a fixed point", input);
}

// Value() = ceil(|q|) and MilliValue() = ceil(1000|q|), both with q's sign,
// saturated. So unless Milli saturated, (|v| - 1) * 1000 < |m| <= |v| * 1000.
void CheckValues(const Quantity& q, std::string_view input) {
  const int64_t v = q.Value();
  const int64_t m = q.MilliValue();
  const int sign = q.Sign();
  Check((v > 0) - (v < 0) == sign, "Value has the wrong sign", input);
  Check((m > 0) - (m < 0) == sign, "MilliValue has the wrong sign", input);
  if (sign == 0) return;
  const __int128 abs_v = v < 0 ? -static_cast<__int128>(v) : v;
  const __int128 abs_m = m < 0 ? -static_cast<__int128>(m) : m;
  const bool milli_saturated = m == kMax || m == kMin;
  if (!milli_saturated) {
    Check((abs_v - 1) * 1000 < abs_m && abs_m <= abs_v * 1000,
          "Value and MilliValue disagree", input);
  } else {
    // Milli saturates from 2^63/1000 on, long before Value does.
    Check(abs_v >= 9223372036854775, "MilliValue saturated too early", input);
  }
  if (q.format() == Quantity::Format::kBinarySI) {
    // Binary values are at least 1 in magnitude (smaller ones switch to
    // DecimalSI) and at most 2^63-1 (capped).
    Check(abs_m >= 1000, "binary quantity below 1", input);
    Check(v != kMin, "binary quantity below -(2^63-1)", input);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const StatusOr<Quantity> parsed = Quantity::Parse(input);
  if (!parsed.ok()) {
    Check(!parsed.status().message().empty(), "error without a message", input);
    return 0;
  }
  const Quantity& q = *parsed;
  Check(q == q && (q <=> q) == 0, "not equal to itself", input);
  Check((q <=> Quantity()) == (q.Sign() <=> 0), "<=> 0 disagrees with Sign",
        input);

  CheckReparses(q, q.String(), input);
  CheckReparses(q, q.CanonicalString(), input);
  CheckValues(q, input);

  // A leading '-' negates exactly: same format, mirrored values.
  if (!input.empty() && input[0] != '-' && input[0] != '+') {
    const StatusOr<Quantity> neg = Quantity::Parse("-" + std::string(input));
    Check(neg.ok(), "negation does not parse", input);
    Check(neg->Sign() == -q.Sign(), "negation keeps the sign", input);
    Check(neg->format() == q.format(), "negation changes the format", input);
    if (q.Sign() != 0) {
      Check(*neg < q, "negation is not smaller", input);
      Check(neg->CanonicalString() == "-" + q.CanonicalString(),
            "negation prints differently", input);
    }
    // At the top the positive side saturates to 2^63-1 and the negative side
    // to -2^63, unless the value is exactly 2^63-1.
    const int64_t v = q.Value();
    const int64_t m = q.MilliValue();
    Check(v == kMax ? (neg->Value() == -kMax || neg->Value() == kMin)
                    : neg->Value() == -v,
          "negation changes Value", input);
    Check(m == kMax ? (neg->MilliValue() == -kMax || neg->MilliValue() == kMin)
                    : neg->MilliValue() == -m,
          "negation changes MilliValue", input);
  }
  return 0;
}
