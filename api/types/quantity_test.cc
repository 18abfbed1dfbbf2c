// Tests for api/types/quantity.h. Tables marked "upstream" transcribe the cases of
// k8s.io/apimachinery/pkg/api/resource/quantity_test.go and
// quantity_overflow_test.go (kubernetes/kubernetes, staging/src/k8s.io/
// apimachinery/pkg/api/resource); the strings were also checked against
// upstream's own ParseQuantity/String. Every value check is an exact integer.
#include "api/types/quantity.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace schedref::api {
namespace {

using F = Quantity::Format;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

constexpr char kFormatWrong[] =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr char kNumeric[] = "unable to parse numeric part of quantity";
constexpr char kSuffix[] = "unable to parse quantity's suffix";

Quantity MustParse(std::string_view s) {
  StatusOr<Quantity> q = Quantity::Parse(s);
  EXPECT_TRUE(q.ok()) << "\"" << s << "\": " << q.status().message();
  return q.ok() ? *q : Quantity();
}

// Printing and parsing again gives the same value. The format can change
// (a binary value printed without a binary suffix reads back as DecimalSI);
// when it does not, the canonical form is the same, and one more round trip
// is always a fixed point.
void ExpectRoundTrip(const Quantity& q) {
  for (const std::string& text : {q.String(), q.CanonicalString()}) {
    const StatusOr<Quantity> again = Quantity::Parse(text);
    ASSERT_TRUE(again.ok()) << text << ": " << again.status().message();
    EXPECT_EQ(*again, q) << text;
    const std::string canonical = again->CanonicalString();
    if (again->format() == q.format()) {
      EXPECT_EQ(canonical, q.CanonicalString()) << text;
    }
    const StatusOr<Quantity> third = Quantity::Parse(canonical);
    ASSERT_TRUE(third.ok()) << canonical;
    EXPECT_EQ(*third, q) << canonical;
    EXPECT_EQ(third->CanonicalString(), canonical);
  }
}

// --- upstream TestQuantityParse: the valid table ----------------------------

struct ParseCase {
  const char* input;
  // The value as upstream's decQuantity(mantissa, exponent) states it.
  const char* exact;
  F format;
  int64_t value;
  int64_t milli;
  // The same for "-" + input (rounding is away from zero; saturation is at
  // INT64_MIN, so the negative side can differ by more than the sign).
  int64_t neg_value;
  int64_t neg_milli;
  // String(); "-" + input gives "-" + this.
  const char* string;
};

const ParseCase kUpstreamParseCases[] = {
    {"0", "0", F::kDecimalSI, 0, 0, 0, 0, "0"},
    {"0n", "0", F::kDecimalSI, 0, 0, 0, 0, "0"},
    {"0u", "0", F::kDecimalSI, 0, 0, 0, 0, "0"},
    {"0m", "0", F::kDecimalSI, 0, 0, 0, 0, "0"},
    {"0Ki", "0", F::kBinarySI, 0, 0, 0, 0, "0"},
    {"0k", "0", F::kDecimalSI, 0, 0, 0, 0, "0"},
    {"0Mi", "0", F::kBinarySI, 0, 0, 0, 0, "0"},
    {"0M", "0", F::kDecimalSI, 0, 0, 0, 0, "0"},
    {"0Gi", "0", F::kBinarySI, 0, 0, 0, 0, "0"},
    {"0G", "0", F::kDecimalSI, 0, 0, 0, 0, "0"},
    {"0Ti", "0", F::kBinarySI, 0, 0, 0, 0, "0"},
    {"0T", "0", F::kDecimalSI, 0, 0, 0, 0, "0"},
    {"1", "1e0", F::kDecimalSI, 1, 1000, -1, -1000, "1"},
    {"1Ki", "1024e0", F::kBinarySI, 1024, 1024000, -1024, -1024000, "1Ki"},
    {"8Ki", "8192e0", F::kBinarySI, 8192, 8192000, -8192, -8192000, "8Ki"},
    {"7Mi", "7340032e0", F::kBinarySI, 7340032, 7340032000, -7340032,
     -7340032000, "7Mi"},
    {"6Gi", "6442450944e0", F::kBinarySI, 6442450944, 6442450944000,
     -6442450944, -6442450944000, "6Gi"},
    {"5Ti", "5497558138880e0", F::kBinarySI, 5497558138880, 5497558138880000,
     -5497558138880, -5497558138880000, "5Ti"},
    {"4Pi", "4503599627370496e0", F::kBinarySI, 4503599627370496,
     4503599627370496000, -4503599627370496, -4503599627370496000, "4Pi"},
    {"3Ei", "3458764513820540928e0", F::kBinarySI, 3458764513820540928, kMax,
     -3458764513820540928, kMin, "3Ei"},
    {"10Ti", "10995116277760e0", F::kBinarySI, 10995116277760,
     10995116277760000, -10995116277760, -10995116277760000, "10Ti"},
    {"100Ti", "109951162777600e0", F::kBinarySI, 109951162777600,
     109951162777600000, -109951162777600, -109951162777600000, "100Ti"},
    {"5n", "5e-9", F::kDecimalSI, 1, 1, -1, -1, "5n"},
    {"4u", "4e-6", F::kDecimalSI, 1, 1, -1, -1, "4u"},
    {"3m", "3e-3", F::kDecimalSI, 1, 3, -1, -3, "3m"},
    {"9", "9e0", F::kDecimalSI, 9, 9000, -9, -9000, "9"},
    {"8k", "8e3", F::kDecimalSI, 8000, 8000000, -8000, -8000000, "8k"},
    {"50k", "5e4", F::kDecimalSI, 50000, 50000000, -50000, -50000000, "50k"},
    {"7M", "7e6", F::kDecimalSI, 7000000, 7000000000, -7000000, -7000000000,
     "7M"},
    {"6G", "6e9", F::kDecimalSI, 6000000000, 6000000000000, -6000000000,
     -6000000000000, "6G"},
    {"5T", "5e12", F::kDecimalSI, 5000000000000, 5000000000000000,
     -5000000000000, -5000000000000000, "5T"},
    {"40T", "4e13", F::kDecimalSI, 40000000000000, 40000000000000000,
     -40000000000000, -40000000000000000, "40T"},
    {"300T", "3e14", F::kDecimalSI, 300000000000000, 300000000000000000,
     -300000000000000, -300000000000000000, "300T"},
    {"2P", "2e15", F::kDecimalSI, 2000000000000000, 2000000000000000000,
     -2000000000000000, -2000000000000000000, "2P"},
    {"1E", "1e18", F::kDecimalSI, 1000000000000000000, kMax,
     -1000000000000000000, kMin, "1E"},
    {"1E-3", "1e-3", F::kDecimalExponent, 1, 1, -1, -1, "1E-3"},
    {"1e3", "1e3", F::kDecimalExponent, 1000, 1000000, -1000, -1000000, "1e3"},
    {"1E6", "1e6", F::kDecimalExponent, 1000000, 1000000000, -1000000,
     -1000000000, "1E6"},
    {"1e9", "1e9", F::kDecimalExponent, 1000000000, 1000000000000, -1000000000,
     -1000000000000, "1e9"},
    {"1E12", "1e12", F::kDecimalExponent, 1000000000000, 1000000000000000,
     -1000000000000, -1000000000000000, "1E12"},
    {"1e15", "1e15", F::kDecimalExponent, 1000000000000000, 1000000000000000000,
     -1000000000000000, -1000000000000000000, "1e15"},
    {"1E18", "1e18", F::kDecimalExponent, 1000000000000000000, kMax,
     -1000000000000000000, kMin, "1E18"},
    {"1e14", "1e14", F::kDecimalExponent, 100000000000000, 100000000000000000,
     -100000000000000, -100000000000000000, "100e12"},
    {"1e13", "1e13", F::kDecimalExponent, 10000000000000, 10000000000000000,
     -10000000000000, -10000000000000000, "10e12"},
    {"100.035k", "100035e0", F::kDecimalSI, 100035, 100035000, -100035,
     -100035000, "100.035k"},
    {"0.001", "1e-3", F::kDecimalSI, 1, 1, -1, -1, "1m"},
    {"0.0005k", "5e-1", F::kDecimalSI, 1, 500, -1, -500, "500m"},
    {"0.005", "5e-3", F::kDecimalSI, 1, 5, -1, -5, "5m"},
    {"0.05", "5e-2", F::kDecimalSI, 1, 50, -1, -50, "50m"},
    {"0.5", "5e-1", F::kDecimalSI, 1, 500, -1, -500, "500m"},
    {"0.00050k", "5e-1", F::kDecimalSI, 1, 500, -1, -500, "500m"},
    {"0.00500", "5e-3", F::kDecimalSI, 1, 5, -1, -5, "5m"},
    {"0.05000", "5e-2", F::kDecimalSI, 1, 50, -1, -50, "50m"},
    {"0.50000", "5e-1", F::kDecimalSI, 1, 500, -1, -500, "500m"},
    {"0.5e0", "5e-1", F::kDecimalExponent, 1, 500, -1, -500, "500e-3"},
    {"0.5e-1", "5e-2", F::kDecimalExponent, 1, 50, -1, -50, "50e-3"},
    {"0.5e-2", "5e-3", F::kDecimalExponent, 1, 5, -1, -5, "5e-3"},
    {"10.035M", "10035e3", F::kDecimalSI, 10035000, 10035000000, -10035000,
     -10035000000, "10.035M"},
    {"1.2e3", "12e2", F::kDecimalExponent, 1200, 1200000, -1200, -1200000,
     "1200"},
    {"1.3E+6", "13e5", F::kDecimalExponent, 1300000, 1300000000, -1300000,
     -1300000000, "1300e3"},
    {"1.40e9", "14e8", F::kDecimalExponent, 1400000000, 1400000000000,
     -1400000000, -1400000000000, "1400e6"},
    {"1.53E12", "153e10", F::kDecimalExponent, 1530000000000, 1530000000000000,
     -1530000000000, -1530000000000000, "1530e9"},
    {"1.6e15", "16e14", F::kDecimalExponent, 1600000000000000,
     1600000000000000000, -1600000000000000, -1600000000000000000, "1600e12"},
    {"1.7E18", "17e17", F::kDecimalExponent, 1700000000000000000, kMax,
     -1700000000000000000, kMin, "1700e15"},
    {"9.01", "901e-2", F::kDecimalSI, 10, 9010, -10, -9010, "9010m"},
    {"8.1k", "81e2", F::kDecimalSI, 8100, 8100000, -8100, -8100000, "8100"},
    {"7.123456M", "7123456e0", F::kDecimalSI, 7123456, 7123456000, -7123456,
     -7123456000, "7.123456M"},
    {"6.987654321G", "6987654321e0", F::kDecimalSI, 6987654321, 6987654321000,
     -6987654321, -6987654321000, "6.987654321G"},
    {"5.444T", "5444e9", F::kDecimalSI, 5444000000000, 5444000000000000,
     -5444000000000, -5444000000000000, "5.444T"},
    {"40.1T", "401e11", F::kDecimalSI, 40100000000000, 40100000000000000,
     -40100000000000, -40100000000000000, "40100G"},
    {"300.2T", "3002e11", F::kDecimalSI, 300200000000000, 300200000000000000,
     -300200000000000, -300200000000000000, "300200G"},
    {"2.5P", "25e14", F::kDecimalSI, 2500000000000000, 2500000000000000000,
     -2500000000000000, -2500000000000000000, "2500T"},
    {"1.01E", "101e16", F::kDecimalSI, 1010000000000000000, kMax,
     -1010000000000000000, kMin, "1010P"},
    {"3.001n", "4e-9", F::kDecimalSI, 1, 1, -1, -1, "4n"},
    {"1.1E-9", "2e-9", F::kDecimalExponent, 1, 1, -1, -1, "2e-9"},
    {"0.0000000001", "1e-9", F::kDecimalSI, 1, 1, -1, -1, "1n"},
    {"0.0000000005", "1e-9", F::kDecimalSI, 1, 1, -1, -1, "1n"},
    {"0.00000000050", "1e-9", F::kDecimalSI, 1, 1, -1, -1, "1n"},
    {"0.5e-9", "1e-9", F::kDecimalExponent, 1, 1, -1, -1, "1e-9"},
    {"0.9n", "1e-9", F::kDecimalSI, 1, 1, -1, -1, "1n"},
    {"0.00000012345", "124e-9", F::kDecimalSI, 1, 1, -1, -1, "124n"},
    {"0.00000012354", "124e-9", F::kDecimalSI, 1, 1, -1, -1, "124n"},
    {"9Ei", "9223372036854775807e0", F::kBinarySI, kMax, kMax, -kMax, kMin,
     "9223372036854775807"},
    {"9223372036854775807Ki", "9223372036854775807e0", F::kBinarySI, kMax, kMax,
     -kMax, kMin, "9223372036854775807"},
    {"12E", "12e18", F::kDecimalSI, kMax, kMax, kMin, kMin, "12E"},
    {"100.035Ki", "10243584e-2", F::kBinarySI, 102436, 102435840, -102436,
     -102435840, "102435840m"},
    {"0.5Mi", "524288e0", F::kBinarySI, 524288, 524288000, -524288, -524288000,
     "512Ki"},
    {"0.05Gi", "536870912e-1", F::kBinarySI, 53687092, 53687091200, -53687092,
     -53687091200, "53687091200m"},
    {"0.025Ti", "274877906944e-1", F::kBinarySI, 27487790695, 27487790694400,
     -27487790695, -27487790694400, "27487790694400m"},
    {"0.000000000001Ki", "2e-9", F::kDecimalSI, 1, 1, -1, -1, "2n"},
    {".001", "1e-3", F::kDecimalSI, 1, 1, -1, -1, "1m"},
    {".0001k", "100e-3", F::kDecimalSI, 1, 100, -1, -100, "100m"},
    {"1.", "1e0", F::kDecimalSI, 1, 1000, -1, -1000, "1."},
    {"1.G", "1e9", F::kDecimalSI, 1000000000, 1000000000000, -1000000000,
     -1000000000000, "1.G"},
};

TEST(QuantityTest, UpstreamParseTable) {
  for (const ParseCase& c : kUpstreamParseCases) {
    SCOPED_TRACE(c.input);
    const Quantity q = MustParse(c.input);
    EXPECT_EQ(q, MustParse(c.exact));
    EXPECT_EQ(q.format(), c.format);
    EXPECT_EQ(q.Value(), c.value);
    EXPECT_EQ(q.MilliValue(), c.milli);
    EXPECT_EQ(q.String(), c.string);
    ExpectRoundTrip(q);

    // Upstream runs the same table with a leading "-" and with a leading "+".
    const std::string neg_input = std::string("-") + c.input;
    const Quantity neg = MustParse(neg_input);
    if (q.Sign() == 0) {
      EXPECT_EQ(neg, q);
      EXPECT_EQ(neg.String(), "0");
    } else {
      EXPECT_EQ(neg, MustParse(std::string("-") + c.exact));
      EXPECT_EQ(neg.String(), std::string("-") + c.string);
      EXPECT_LT(neg, q);
    }
    EXPECT_EQ(neg.format(), c.format);
    EXPECT_EQ(neg.Value(), c.neg_value);
    EXPECT_EQ(neg.MilliValue(), c.neg_milli);
    ExpectRoundTrip(neg);

    const Quantity pos = MustParse(std::string("+") + c.input);
    EXPECT_EQ(pos, q);
    EXPECT_EQ(pos.format(), c.format);
    EXPECT_EQ(pos.Value(), c.value);
    EXPECT_EQ(pos.MilliValue(), c.milli);
    EXPECT_EQ(pos.CanonicalString(), q.CanonicalString());
    ExpectRoundTrip(pos);
  }
}

// --- rejections -------------------------------------------------------------

struct RejectCase {
  const char* input;
  const char* reason;
};

TEST(QuantityTest, Rejects) {
  const RejectCase cases[] = {
      // upstream TestQuantityParse: the empty string and the invalid list.
      {"", kFormatWrong},
      {"1.1.M", kFormatWrong},
      {"1+1.0M", kFormatWrong},
      {"0.1mi", kSuffix},
      {"0.1am", kFormatWrong},
      {"aoeu", kFormatWrong},
      {".5i", kSuffix},
      {"1i", kSuffix},
      {"-3.01i", kSuffix},
      {"-3.01e-", kSuffix},
      {"1e4294967297", kSuffix},  // exponent past int32: rejected, not wrapped
      {" 1", kFormatWrong},
      {"1 ", kFormatWrong},
      // upstream TestQuantityParseNonNumericPanic
      {"Non-Numeric", kFormatWrong},
      // Whitespace anywhere.
      {"\t1", kFormatWrong},
      {"1\n", kFormatWrong},
      {"1 Gi", kFormatWrong},
      // Malformed numbers.
      {"1.2.3", kFormatWrong},
      {"abc", kFormatWrong},
      {"--1", kSuffix},  // the second '-' is read as the exponent sign
      {"+-1", kSuffix},
      {"1-", kSuffix},
      {"1,000", kFormatWrong},
      {"1_000", kFormatWrong},
      {"0x10", kFormatWrong},
      {"1/2", kFormatWrong},
      {"1.5.Gi", kFormatWrong},
      // Suffixes: case-sensitive, exactly one, nothing after.
      {"1Mb", kFormatWrong},
      {"1Kib", kFormatWrong},
      {"1ki", kSuffix},
      {"1KI", kFormatWrong},  // 'I' is not a suffix letter at all
      {"1mi", kSuffix},
      {"1K", kSuffix},
      {"1kk", kSuffix},
      {"1MiB", kFormatWrong},
      {"1Gi1", kSuffix},
      {"1iK", kSuffix},
      // Exponents: "e" needs digits, only one sign, an integer, int32 range.
      {"1e", kSuffix},
      {"1e+", kSuffix},
      {"1e-", kSuffix},
      {"1e+-3", kFormatWrong},
      {"1e1.5", kFormatWrong},
      {"1ee3", kSuffix},
      {"1e3k", kFormatWrong},
      {"1ke3", kSuffix},
      {"1E2147483648", kSuffix},
      {"1E-2147483648", kSuffix},
      {"1E4294967297", kSuffix},
      {"1E8589934592", kSuffix},
      {"1E9223372036854775807", kSuffix},
      {"1E9223372036854775808", kSuffix},
      {"1E6024865272343", kSuffix},
      // No digits where upstream takes its inf.Dec path.
      {"Pi", kNumeric},
      {"Ei", kNumeric},
      {"-.Pi", kNumeric},
      {"e-10", kNumeric},
      {".E-11", kNumeric},
  };
  for (const RejectCase& c : cases) {
    const StatusOr<Quantity> q = Quantity::Parse(c.input);
    ASSERT_FALSE(q.ok()) << "\"" << c.input << "\" parsed as " << q->String();
    EXPECT_TRUE(q.status().IsInvalid());
    EXPECT_EQ(q.status().message(),
              std::string("quantity \"") + c.input + "\": " + c.reason);
  }
}

// upstream TestParseQuantityString lists "." and "-." as well formed; like
// every number without digits they are zero, as long as upstream's int64
// path handles them.
TEST(QuantityTest, NoDigitsIsZero) {
  for (const char* input :
       {".",   "-.",   "+",    "-",   "+.",   "k",         "Ki",
        "Mi",  "Gi",   "Ti",   "-Ti", "n",    "e5",        "E",
        "e-9", ".e-9", "+000", "-0",  "-0.0", "00.000e-20"}) {
    SCOPED_TRACE(input);
    const Quantity q = MustParse(input);
    EXPECT_EQ(q.Sign(), 0);
    EXPECT_EQ(q.Value(), 0);
    EXPECT_EQ(q.MilliValue(), 0);
    EXPECT_EQ(q.String(), "0");
    EXPECT_EQ(q, Quantity());
  }
  // upstream TestQuantityParseZero
  EXPECT_EQ(MustParse("0").String(), "0");
  EXPECT_EQ(MustParse("Ki").format(), F::kBinarySI);
  EXPECT_EQ(MustParse("e5").format(), F::kDecimalExponent);
}

TEST(QuantityTest, DefaultIsZero) {
  const Quantity zero;
  EXPECT_EQ(zero.Sign(), 0);
  EXPECT_EQ(zero.Value(), 0);
  EXPECT_EQ(zero.MilliValue(), 0);
  EXPECT_EQ(zero.String(), "0");
  EXPECT_EQ(zero.format(), F::kDecimalSI);
  EXPECT_EQ(zero, MustParse("0Gi"));
}

// --- printing ---------------------------------------------------------------

// upstream TestQuantityParseEmit
TEST(QuantityTest, UpstreamParseEmit) {
  const struct {
    const char* input;
    const char* string;
  } cases[] = {
      {"1Ki", "1Ki"},
      {"1Mi", "1Mi"},
      {"1Gi", "1Gi"},
      {"1024Mi", "1Gi"},
      {"1000M", "1G"},
      {".001Ki", "1024m"},
      {".000001Ki", "1024u"},
      {".000000001Ki", "1024n"},
      {".000000000001Ki", "2n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    const Quantity q = MustParse(c.input);
    EXPECT_EQ(q.String(), c.string);
    EXPECT_EQ(MustParse(std::string("-") + c.input).String(),
              std::string("-") + c.string);
    ExpectRoundTrip(q);
  }
}

// upstream TestQuantityString, the rows a parse can produce: `canonical`
// parses to itself, `alternate` (when set) prints as `canonical`.
TEST(QuantityTest, UpstreamString) {
  const struct {
    const char* canonical;
    const char* alternate;
  } cases[] = {
      {"1Gi", "1024Mi"},
      {"300Mi", "307200Ki"},
      {"6Ki", ""},
      {"1001Gi", "1025024Mi"},
      {"1Ti", "1024Gi"},
      {"5", "5000m"},
      {"500m", "0.5"},
      {"1G", "1000M"},
      {"1G", "0.001T"},
      {"1m", "1000u"},
      {"80m", ""},
      {"1080m", "1.08"},
      {"1080m", "1080000000n"},
      {"300M", ""},
      {"1T", ""},
      {"1E", ""},
      // DecimalSI past "E" falls back to exponent notation.
      {"1e21", "1000E"},
      {"5e21", "5000E"},
      {"1e24", "1000000E"},
      {"10e69", ""},
      {"20e69", ""},
      {"1e72", ""},
      {"1234567M", ""},
      {"1234567m", ""},
      {"3k", ""},
      {"1025", ""},
      {"0", ""},
      {"1e9", ".001e12"},
      {"1e-3", "0.001e0"},
      {"1e-9", "1000e-12"},
      {"80e-3", ""},
      {"300e6", ""},
      {"1e12", ""},
      {"1e3", ""},
      {"3e3", ""},
      {"0", "00"},
      {"1n", ""},
      {"80n", ""},
      {"1080n", ""},
      {"1u", ""},
      {"80u", ""},
      {"1080u", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.canonical);
    const Quantity q = MustParse(c.canonical);
    EXPECT_EQ(q.String(), c.canonical);
    EXPECT_EQ(q.CanonicalString(), c.canonical);
    if (q.Sign() != 0) {
      EXPECT_EQ(MustParse(std::string("-") + c.canonical).String(),
                std::string("-") + c.canonical);
    }
    if (*c.alternate != '\0') {
      const Quantity alt = MustParse(c.alternate);
      EXPECT_EQ(alt, q);
      EXPECT_EQ(alt.String(), c.canonical);
    }
    ExpectRoundTrip(q);
  }
}

// Upstream's String() returns the parsed text itself when its int64 fast path
// judged the text canonical; the test is loose (see quantity.h).
TEST(QuantityTest, StringEchoesInputLikeUpstream) {
  const struct {
    const char* input;
    const char* string;
    const char* canonical;
  } cases[] = {
      {"+92", "+92", "92"},
      {"1E3", "1E3", "1e3"},
      {"12e+6", "12e+6", "12e6"},
      {"01Ki", "01Ki", "1Ki"},
      {"10.035M", "10.035M", "10035k"},
      {"1.755e24", "1.755e24", "1755e21"},
      {"00019E", "00019E", "19E"},
      {"1.", "1.", "1"},
      // Not echoed: a multiple of 8 Ki, "000" at the end, no integer part, a
      // scale that is not a multiple of 3, or more than 18 digits.
      {"8Ki", "8Ki", "8Ki"},
      {"+16Ki", "16Ki", "16Ki"},
      {"+1000", "1k", "1k"},
      {"+0.5", "500m", "500m"},
      {"+1.5", "1500m", "1500m"},
      {"+1234567890123456789", "1234567890123456789", "1234567890123456789"},
      {"+1Pi", "1Pi", "1Pi"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    const Quantity q = MustParse(c.input);
    EXPECT_EQ(q.String(), c.string);
    EXPECT_EQ(q.CanonicalString(), c.canonical);
    ExpectRoundTrip(q);
  }
}

// --- Value and MilliValue ---------------------------------------------------

struct ValueCase {
  const char* input;
  int64_t value;
  int64_t milli;
};

void ExpectValues(const ValueCase& c) {
  SCOPED_TRACE(c.input);
  const Quantity q = MustParse(c.input);
  EXPECT_EQ(q.Value(), c.value);
  EXPECT_EQ(q.MilliValue(), c.milli);
  ExpectRoundTrip(q);
}

// upstream TestNegativeValueRoundsAwayFromZero
TEST(QuantityTest, UpstreamRoundsAwayFromZero) {
  const ValueCase cases[] = {
      {"-.484785E-7466", -1, -1},
      {".484785E-7466", 1, 1},
      {"-.484785E-1", -1, -49},
      {".484785E-1", 1, 49},
      {"-0.0005", -1, -1},
      {"0.0005", 1, 1},
      {"-1500m", -2, -1500},
      {"1500m", 2, 1500},
      {"-9.5000000001Gi", -10200547329, -10200547328108},
      {"9.5000000001Gi", 10200547329, 10200547328108},
      {"-1", -1, -1000},
      {"1", 1, 1000},
      {"0", 0, 0},
  };
  for (const ValueCase& c : cases) ExpectValues(c);
}

// upstream quantity_overflow_test.go, quantityAccessorCases that come from a
// parse: Value and MilliValue saturate instead of wrapping.
TEST(QuantityTest, UpstreamOverflowSaturates) {
  const struct {
    const char* input;
    int64_t value;
    int64_t milli;
    const char* string;
  } cases[] = {
      {"9223372036854775807", kMax, kMax, "9223372036854775807"},
      {"1E", 1000000000000000000, kMax, "1E"},
      {"8Ei", kMax, kMax, "9223372036854775807"},
      {"-8Ei", -kMax, kMin, "-9223372036854775807"},
      {"20Ei", kMax, kMax, "9223372036854775807"},
      {"-20Ei", -kMax, kMin, "-9223372036854775807"},
      {"9223372036854775808", kMax, kMax, "9223372036854775808"},
      {"18446744073709551616", kMax, kMax, "18446744073709551616"},
      {"100E", kMax, kMax, "100E"},
      {"1000E", kMax, kMax, "1e21"},
      {"5000E", kMax, kMax, "5e21"},
      {"1e100", kMax, kMax, "10e99"},
      {"1e19", kMax, kMax, "10e18"},
      {"-9223372036854775808", kMin, kMin, "-9223372036854775808"},
      {"-9223372036854775807", kMin + 1, kMin, "-9223372036854775807"},
      {"-1e30", kMin, kMin, "-1e30"},
      {"-100E", kMin, kMin, "-100E"},
      {"-1000E", kMin, kMin, "-1e21"},
      {"-9.5Gi", -10200547328, -10200547328000, "-9728Mi"},
      {"-9.5000000001Gi", -10200547329, -10200547328108,
       "-10200547328107374183n"},
      // NewMilliQuantity(MaxInt64) / (MinInt64), written out.
      {"9223372036854775807m", 9223372036854776, kMax, "9223372036854775807m"},
      {"-9223372036854775808m", -9223372036854776, kMin,
       "-9223372036854775808m"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    const Quantity q = MustParse(c.input);
    EXPECT_EQ(q.Value(), c.value);
    EXPECT_EQ(q.MilliValue(), c.milli);
    EXPECT_EQ(q.String(), c.string);
    ExpectRoundTrip(q);
  }
}

// ValueIfFits / MilliValueIfFits: the saturating accessors' value, or nullopt
// exactly where they saturate past the limit (the limit itself fits).
TEST(QuantityTest, IfFitsStopsAtTheInt64Limits) {
  const std::optional<int64_t> none;
  const struct {
    const char* input;
    std::optional<int64_t> value;
    std::optional<int64_t> milli;
  } cases[] = {
      {"0", 0, 0},
      {"1500m", 2, 1500},
      {"9223372036854775807", kMax, none},
      {"9223372036854775808", none, none},
      {"-9223372036854775808", kMin, none},
      {"-9223372036854775809", none, none},
      {"9223372036854775.807", 9223372036854776, kMax},
      {"9223372036854775.8070001", 9223372036854776, none},
      {"-9223372036854775.808", -9223372036854776, kMin},
      {"-9223372036854775.8081", -9223372036854776, none},
      {"12345678901234567890123456789", none, none},
      {"1e400", none, none},
      {"1e19", none, none},
      {"9Ei", kMax, none},  // capped at parse, as upstream caps binary values
      {"1n", 1, 1},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.input);
    const Quantity q = MustParse(c.input);
    EXPECT_EQ(q.ValueIfFits(), c.value);
    EXPECT_EQ(q.MilliValueIfFits(), c.milli);
    if (c.value) EXPECT_EQ(q.Value(), *c.value);
    if (c.milli) EXPECT_EQ(q.MilliValue(), *c.milli);
  }
}

// Where saturation starts, one unit either side.
TEST(QuantityTest, SaturationBoundaries) {
  const ValueCase cases[] = {
      {"9223372036854775.807", 9223372036854776, kMax},
      {"9223372036854775.8070001", 9223372036854776, kMax},
      {"9223372036854775.806999", 9223372036854776, kMax},
      {"9223372036854775.806", 9223372036854776, 9223372036854775806},
      {"9223372036854775.8061", 9223372036854776, 9223372036854775807},
      {"-9223372036854775.808", -9223372036854776, kMin},
      {"-9223372036854775.8079", -9223372036854776, kMin},
      {"-9223372036854775.807", -9223372036854776, -9223372036854775807},
      {"9223372036854775806.5", kMax, kMax},
      {"9223372036854775807.000000001", kMax, kMax},
      {"-9223372036854775807.5", kMin, kMin},
      {"-9223372036854775808.000000001", kMin, kMin},
      {"99999999999999999999", kMax, kMax},
      {"-99999999999999999999", kMin, kMin},
      {"1E2147483647", kMax, kMax},
      {"-1E2147483647", kMin, kMin},
  };
  for (const ValueCase& c : cases) ExpectValues(c);
}

// upstream TestNewSet, TestMilliNewSet, TestNewScaledSet and TestScaledValue,
// through the strings those quantities print as.
TEST(QuantityTest, UpstreamSetRoundTrips) {
  const ValueCase cases[] = {
      {"1", 1, 1000},
      {"1k", 1000, 1000000},
      {"1234k", 1234000, 1234000000},
      {"1Ki", 1024, 1024000},
      {"1e6", 1000000, 1000000000},
      {"1Mi", 1048576, 1048576000},
      {"1m", 1, 1},
      {"1234", 1234, 1234000},
      {"1e3", 1000, 1000000},
      {"1024m", 2, 1024},
      {"1048576m", 1049, 1048576},
      {"1n", 1, 1},
      {"1u", 1, 1},
      {"1000n", 1, 1},
      {"1000u", 1, 1},
  };
  for (const ValueCase& c : cases) ExpectValues(c);
}

// What the scheduler reads: cpu through MilliValue, everything else through
// Value.
TEST(QuantityTest, SchedulerResources) {
  const ValueCase cases[] = {
      {"100m", 1, 100},
      {"250m", 1, 250},
      {"0.1", 1, 100},
      {"1.5", 2, 1500},
      {"2", 2, 2000},
      {"0.1m", 1, 1},  // a request below 1m still counts as 1m
      {"1n", 1, 1},
      {"128Mi", 134217728, 134217728000},
      {"1Gi", 1073741824, 1073741824000},
      {"1.0Gi", 1073741824, 1073741824000},
      {"0.5Gi", 536870912, 536870912000},
      {"1.5Gi", 1610612736, 1610612736000},
      {"1G", 1000000000, 1000000000000},
      {"500M", 500000000, 500000000000},
      {"110", 110, 110000},
      {"1e3", 1000, 1000000},
      {"10Ti", 10995116277760, 10995116277760000},
      {"0.3Ki", 308, 307200},  // 307.2 bytes
  };
  for (const ValueCase& c : cases) ExpectValues(c);
  EXPECT_EQ(MustParse("1.0Gi"), MustParse("1Gi"));
  EXPECT_EQ(MustParse("1.5Gi").String(), "1536Mi");
  EXPECT_EQ(MustParse("1.5Mi").String(), "1536Ki");
  EXPECT_EQ(MustParse("1.5").String(), "1500m");
  // A binary value that is not a whole number of Ki prints as plain bytes,
  // and then reads back as DecimalSI.
  const Quantity q = MustParse("62.5Ki");
  EXPECT_EQ(q.String(), "64000");
  EXPECT_EQ(MustParse(q.String()).format(), F::kDecimalSI);
  EXPECT_EQ(MustParse(q.String()).String(), "64k");
}

// --- exponents --------------------------------------------------------------

// upstream TestInterpretExponentInt32Bounds, through Parse.
TEST(QuantityTest, ExponentBounds) {
  EXPECT_EQ(MustParse("1e14").Value(), 100000000000000);
  const Quantity huge = MustParse("1E2147483647");
  EXPECT_EQ(huge.format(), F::kDecimalExponent);
  EXPECT_EQ(huge.String(), "10e2147483646");
  ExpectRoundTrip(huge);
  const Quantity tiny = MustParse("1E-2147483647");
  EXPECT_EQ(tiny, MustParse("1n"));
  EXPECT_EQ(tiny.String(), "1e-9");
  // Upstream's int32 scale arithmetic can wrap this one; it is exact here.
  EXPECT_EQ(MustParse("0.5e-2147483647"), MustParse("1n"));
  EXPECT_EQ(MustParse("1e+0007").Value(), 10000000);
  EXPECT_EQ(MustParse("1e00000000000000000000000003").Value(), 1000);
}

// A canonical exponent past int32 prints fine but cannot be read back; that
// needs digits as well as an exponent at the very edge.
TEST(QuantityTest, ExponentPastInt32DoesNotRoundTrip) {
  const Quantity q = MustParse("1000e2147483647");
  EXPECT_EQ(q.String(), "10e2147483649");
  EXPECT_EQ(q.Value(), kMax);
  const StatusOr<Quantity> again = Quantity::Parse(q.String());
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().message(),
            std::string("quantity \"10e2147483649\": ") + kSuffix);
}

// --- long inputs ------------------------------------------------------------

TEST(QuantityTest, LongInputsStayExact) {
  const std::string ones(1000, '1');
  const Quantity big = MustParse(ones);
  EXPECT_EQ(big.Value(), kMax);
  EXPECT_EQ(MustParse("-" + ones).Value(), kMin);
  EXPECT_EQ(big.String(), ones);
  EXPECT_LT(MustParse(ones), MustParse(ones + "1"));
  ExpectRoundTrip(big);

  // 1000 zeros and then a 1, far below a nanounit: rounds up to 1n.
  const Quantity small = MustParse("0." + std::string(1000, '0') + "1");
  EXPECT_EQ(small, MustParse("1n"));
  EXPECT_EQ(small.MilliValue(), 1);

  // Trailing zeros after the point do not change the value.
  EXPECT_EQ(MustParse("2." + std::string(1000, '0') + "Ki"), MustParse("2Ki"));
  EXPECT_EQ(MustParse("2." + std::string(1000, '0') + "Ki").String(), "2Ki");

  // A long binary fraction: 0.333...3Ki = 341.333...3, rounded up to nano.
  const Quantity third = MustParse("0." + std::string(60, '3') + "Ki");
  EXPECT_EQ(third.Value(), 342);
  EXPECT_EQ(third.MilliValue(), 341334);
  EXPECT_EQ(third.String(), "341333333334n");
}

// --- comparison -------------------------------------------------------------

// upstream TestQuantityCmp, plus the orderings the scheduler relies on.
TEST(QuantityTest, Compare) {
  EXPECT_EQ(MustParse("0") <=> MustParse("0"), std::strong_ordering::equal);
  EXPECT_GT(MustParse("100m"), MustParse("50m"));
  EXPECT_LT(MustParse("50m"), MustParse("100m"));
  EXPECT_GT(MustParse("10000T"), MustParse("100Gi"));

  EXPECT_EQ(MustParse("1Ki"), MustParse("1024"));
  EXPECT_EQ(MustParse("1k"), MustParse("1e3"));
  EXPECT_EQ(MustParse("1500m"), MustParse("1.5"));
  EXPECT_EQ(MustParse("0.5Gi"), MustParse("512Mi"));
  EXPECT_NE(MustParse("1k"), MustParse("1Ki"));
  EXPECT_LT(MustParse("1k"), MustParse("1Ki"));
  EXPECT_LT(MustParse("-1"), MustParse("0"));
  EXPECT_LT(MustParse("0"), MustParse("1n"));
  EXPECT_LT(MustParse("-2"), MustParse("-1"));
  EXPECT_LT(MustParse("-1E"), MustParse("-1P"));
  EXPECT_GT(MustParse("1e100"), MustParse("9Ei"));
  EXPECT_LT(MustParse("9Ei"), MustParse("9223372036854775808"));
  EXPECT_LT(MustParse("1.9"), MustParse("1.91"));
  EXPECT_LT(MustParse("99"), MustParse("100"));
  EXPECT_GT(MustParse("-99"), MustParse("-100"));
}

}  // namespace
}  // namespace schedref::api
