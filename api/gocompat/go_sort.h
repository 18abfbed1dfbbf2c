// Go's sort.Slice, step for step, so that an order upstream computes with it
// can be reproduced exactly. Specification: Go src/sort/slice.go (Slice)
// and src/sort/zsortfunc.go (pdqsort_func and its helpers), go1.19-go1.23:
// pattern-defeating quicksort, insertion sort for at most 12 elements,
// heapsort after too many unbalanced partitions, and a xorshift generator
// seeded by the length (deterministic).
//
// Why it matters: upstream sorts with comparators that are not strict weak
// orders. util.MoreImportantPod reads time.Now() for every pod without a
// start time, so of two such pods of equal priority the one passed first is
// always "more important"; sort.Slice then yields a definite order (for at
// most 12 elements: such pods end in reverse input order) that no standard
// C++ sort reproduces, and which decides the victims preemption picks.
//
// GoSortSlice(n, less, swap) makes exactly the calls less(i, j) and
// swap(i, j) (indices into the sequence being sorted) that Go's
// sort.Slice(x, less) makes on a slice of length n, in the same order, so
// any comparator gives the same final order as in Go.
#ifndef SCHEDREF_API_GO_SORT_H_
#define SCHEDREF_API_GO_SORT_H_

#include <bit>
#include <cstddef>
#include <cstdint>

namespace schedref::api {
namespace go_sort_internal {

enum class Hint { kUnknown, kIncreasing, kDecreasing };

template <typename Less, typename Swap>
struct Data {
  Less& less;
  Swap& swap;
  bool Lt(int64_t i, int64_t j) { return less(static_cast<size_t>(i), static_cast<size_t>(j)); }
  void Sw(int64_t i, int64_t j) { swap(static_cast<size_t>(i), static_cast<size_t>(j)); }
};

template <typename D>
void InsertionSort(D& d, int64_t a, int64_t b) {
  for (int64_t i = a + 1; i < b; ++i) {
    for (int64_t j = i; j > a && d.Lt(j, j - 1); --j) d.Sw(j, j - 1);
  }
}

template <typename D>
void SiftDown(D& d, int64_t lo, int64_t hi, int64_t first) {
  int64_t root = lo;
  while (true) {
    int64_t child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && d.Lt(first + child, first + child + 1)) ++child;
    if (!d.Lt(first + root, first + child)) return;
    d.Sw(first + root, first + child);
    root = child;
  }
}

template <typename D>
void HeapSort(D& d, int64_t a, int64_t b) {
  const int64_t first = a;
  const int64_t hi = b - a;
  for (int64_t i = (hi - 1) / 2; i >= 0; --i) SiftDown(d, i, hi, first);
  for (int64_t i = hi - 1; i >= 0; --i) {
    d.Sw(first, first + i);
    SiftDown(d, 0, i, first);
  }
}

// order2: the pair ordered so that the element at the first is not greater.
template <typename D>
void Order2(D& d, int64_t& a, int64_t& b, int& swaps) {
  if (d.Lt(b, a)) {
    ++swaps;
    const int64_t t = a;
    a = b;
    b = t;
  }
}

template <typename D>
int64_t Median(D& d, int64_t a, int64_t b, int64_t c, int& swaps) {
  Order2(d, a, b, swaps);
  Order2(d, b, c, swaps);
  Order2(d, a, b, swaps);
  return b;
}

template <typename D>
int64_t ChoosePivot(D& d, int64_t a, int64_t b, Hint& hint) {
  constexpr int64_t kShortestNinther = 50;
  constexpr int kMaxSwaps = 4 * 3;
  const int64_t l = b - a;
  int swaps = 0;
  int64_t i = a + l / 4 * 1;
  int64_t j = a + l / 4 * 2;
  int64_t k = a + l / 4 * 3;
  if (l >= 8) {
    if (l >= kShortestNinther) {
      i = Median(d, i - 1, i, i + 1, swaps);
      j = Median(d, j - 1, j, j + 1, swaps);
      k = Median(d, k - 1, k, k + 1, swaps);
    }
    j = Median(d, i, j, k, swaps);
  }
  hint = swaps == 0 ? Hint::kIncreasing : swaps == kMaxSwaps ? Hint::kDecreasing : Hint::kUnknown;
  return j;
}

template <typename D>
void ReverseRange(D& d, int64_t a, int64_t b) {
  for (int64_t i = a, j = b - 1; i < j; ++i, --j) d.Sw(i, j);
}

template <typename D>
bool PartialInsertionSort(D& d, int64_t a, int64_t b) {
  constexpr int kMaxSteps = 5;
  constexpr int64_t kShortestShifting = 50;
  int64_t i = a + 1;
  for (int step = 0; step < kMaxSteps; ++step) {
    while (i < b && !d.Lt(i, i - 1)) ++i;
    if (i == b) return true;
    if (b - a < kShortestShifting) return false;
    d.Sw(i, i - 1);
    // As in Go, this loop runs down to index 1, not to a.
    if (i - a >= 2) {
      for (int64_t j = i - 1; j >= 1; --j) {
        if (!d.Lt(j, j - 1)) break;
        d.Sw(j, j - 1);
      }
    }
    if (b - i >= 2) {
      for (int64_t j = i + 1; j < b; ++j) {
        if (!d.Lt(j, j - 1)) break;
        d.Sw(j, j - 1);
      }
    }
  }
  return false;
}

template <typename D>
void BreakPatterns(D& d, int64_t a, int64_t b) {
  const int64_t length = b - a;
  if (length < 8) return;
  uint64_t random = static_cast<uint64_t>(length);
  const uint64_t modulus = uint64_t{1} << std::bit_width(static_cast<uint64_t>(length));
  for (int64_t idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1; ++idx) {
    random ^= random << 13;
    random ^= random >> 17;
    random ^= random << 5;
    int64_t other = static_cast<int64_t>(random & (modulus - 1));
    if (other >= length) other -= length;
    d.Sw(idx, a + other);
  }
}

template <typename D>
int64_t PartitionEqual(D& d, int64_t a, int64_t b, int64_t pivot) {
  d.Sw(a, pivot);
  int64_t i = a + 1, j = b - 1;
  while (true) {
    while (i <= j && !d.Lt(a, i)) ++i;
    while (i <= j && d.Lt(a, j)) --j;
    if (i > j) break;
    d.Sw(i, j);
    ++i;
    --j;
  }
  return i;
}

template <typename D>
int64_t Partition(D& d, int64_t a, int64_t b, int64_t pivot, bool& already_partitioned) {
  d.Sw(a, pivot);
  int64_t i = a + 1, j = b - 1;
  while (i <= j && d.Lt(i, a)) ++i;
  while (i <= j && !d.Lt(j, a)) --j;
  if (i > j) {
    d.Sw(j, a);
    already_partitioned = true;
    return j;
  }
  d.Sw(i, j);
  ++i;
  --j;
  while (true) {
    while (i <= j && d.Lt(i, a)) ++i;
    while (i <= j && !d.Lt(j, a)) --j;
    if (i > j) break;
    d.Sw(i, j);
    ++i;
    --j;
  }
  d.Sw(j, a);
  already_partitioned = false;
  return j;
}

template <typename D>
void PdqSort(D& d, int64_t a, int64_t b, int limit) {
  constexpr int64_t kMaxInsertion = 12;
  bool was_balanced = true;
  bool was_partitioned = true;
  while (true) {
    const int64_t length = b - a;
    if (length <= kMaxInsertion) {
      InsertionSort(d, a, b);
      return;
    }
    if (limit == 0) {
      HeapSort(d, a, b);
      return;
    }
    if (!was_balanced) {
      BreakPatterns(d, a, b);
      --limit;
    }
    Hint hint = Hint::kUnknown;
    int64_t pivot = ChoosePivot(d, a, b, hint);
    if (hint == Hint::kDecreasing) {
      ReverseRange(d, a, b);
      pivot = (b - 1) - (pivot - a);
      hint = Hint::kIncreasing;
    }
    if (was_balanced && was_partitioned && hint == Hint::kIncreasing) {
      if (PartialInsertionSort(d, a, b)) return;
    }
    if (a > 0 && !d.Lt(a - 1, pivot)) {
      a = PartitionEqual(d, a, b, pivot);
      continue;
    }
    bool already_partitioned = false;
    const int64_t mid = Partition(d, a, b, pivot, already_partitioned);
    was_partitioned = already_partitioned;
    const int64_t left_len = mid - a, right_len = b - mid;
    const int64_t balance_threshold = length / 8;
    if (left_len < right_len) {
      was_balanced = left_len >= balance_threshold;
      PdqSort(d, a, mid, limit);
      a = mid + 1;
    } else {
      was_balanced = right_len >= balance_threshold;
      PdqSort(d, mid + 1, b, limit);
      b = mid;
    }
  }
}

}  // namespace go_sort_internal

// Go's sort.Slice on a sequence of n elements, through less(i, j) ("element
// i sorts before element j") and swap(i, j).
template <typename Less, typename Swap>
void GoSortSlice(size_t n, Less less, Swap swap) {
  go_sort_internal::Data<Less, Swap> d{less, swap};
  const int limit = static_cast<int>(std::bit_width(n));
  go_sort_internal::PdqSort(d, 0, static_cast<int64_t>(n), limit);
}

}  // namespace schedref::api

#endif  // SCHEDREF_API_GO_SORT_H_
