// StringMap and StringViewMap: the optimized implementation's hash tables
// keyed by names, pod keys and UIDs (the scheduler's pods and nodes, the
// cache's pod states and node items, the queue's entries, the snapshot's
// name index). Abseil's Swiss tables (flat_hash_map): open addressing with
// one control byte per slot, so a lookup usually touches one group of
// control bytes and the one slot that matches, where std::unordered_map
// walks a bucket's linked nodes. Upstream's equivalents are Go maps.
//
// Both look up by std::string or std::string_view without building a
// string (heterogeneous lookup).
//
// Iteration order is unspecified and changes from process to process
// (abseil seeds its hash per process): anything that ranges over one of
// these maps and lets the order show sorts first. Values move when the
// table grows: a pointer or reference to a value is valid only until the
// next insertion (erasing does not move the others).
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_STRING_MAP_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_STRING_MAP_H_

#include <cstddef>
#include <string>
#include <string_view>

#include <absl/container/flat_hash_map.h>
#include <absl/hash/hash.h>
#include <absl/strings/string_view.h>

namespace schedref::optimized::framework {

// Hashes any string-like key as its characters (Debian's abseil has its
// own absl::string_view, so std::string_view is converted by hand).
struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const noexcept {
    return absl::Hash<absl::string_view>{}(absl::string_view(s.data(), s.size()));
  }
};

struct StringEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const noexcept { return a == b; }
};

// Owns its keys.
template <typename V>
using StringMap = absl::flat_hash_map<std::string, V, StringHash, StringEq>;

// Keys are views of strings the values (or someone else) keep alive for as
// long as the entry exists.
template <typename V>
using StringViewMap = absl::flat_hash_map<std::string_view, V, StringHash, StringEq>;

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_STRING_MAP_H_
