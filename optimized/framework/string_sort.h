// Comparing string keys by 64-bit words. KeyWordAt: eight bytes of a key
// as one integer that orders as the bytes do (the queue's tie-break keys).
// SortByKey: sorts (key, value) pairs by key, as std::sort with the keys'
// string order would, faster when the keys share a long prefix (pod keys
// "namespace/name-NNNN" do: a plain sort compares those bytes at every
// step). Used for the trace's placements, thousands of pods per run.
#ifndef SCHEDREF_OPTIMIZED_FRAMEWORK_STRING_SORT_H_
#define SCHEDREF_OPTIMIZED_FRAMEWORK_STRING_SORT_H_

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

namespace schedref::optimized::framework {

// The eight bytes of `key` from `at` (zero past its end) as one integer,
// the first byte most significant: two keys that agree before `at`
// compare as these words do, unless the words are equal.
inline uint64_t KeyWordAt(std::string_view key, size_t at) {
  unsigned char bytes[8] = {};
  if (at < key.size()) std::memcpy(bytes, key.data() + at, std::min<size_t>(8, key.size() - at));
  uint64_t word;
  std::memcpy(&word, bytes, 8);
  if constexpr (std::endian::native == std::endian::little) word = __builtin_bswap64(word);
  return word;
}

// Keys need not be distinct; equal keys keep no particular order (as with
// std::sort). The keys are compared by the sixteen bytes after the prefix
// they all share, as two integers, and whole only when those are equal.
template <typename T>
void SortByKey(std::vector<std::pair<std::string_view, T>>& items) {
  if (items.size() < 2) return;
  // The prefix every key shares.
  const std::string_view first = items.front().first;
  size_t common = first.size();
  for (const auto& item : items) {
    const std::string_view key = item.first;
    size_t i = 0;
    const size_t limit = std::min(common, key.size());
    while (i < limit && key[i] == first[i]) ++i;
    common = i;
  }
  struct Keyed {
    uint64_t word0, word1;
    std::pair<std::string_view, T> item;
  };
  std::vector<Keyed> keyed;
  keyed.reserve(items.size());
  for (auto& item : items) {
    keyed.push_back(Keyed{KeyWordAt(item.first, common),
                          KeyWordAt(item.first, common + 8), std::move(item)});
  }
  std::sort(keyed.begin(), keyed.end(), [](const Keyed& a, const Keyed& b) {
    if (a.word0 != b.word0) return a.word0 < b.word0;
    if (a.word1 != b.word1) return a.word1 < b.word1;
    return a.item.first < b.item.first;
  });
  for (size_t i = 0; i < items.size(); ++i) items[i] = std::move(keyed[i].item);
}

}  // namespace schedref::optimized::framework

#endif  // SCHEDREF_OPTIMIZED_FRAMEWORK_STRING_SORT_H_
