// A reader that turns fuzz input bytes into choices, front to back. Past the
// end every read returns 0, so every input decodes to some operation
// sequence. A stand-in for LLVM's <fuzzer/FuzzedDataProvider.h>, which ships
// with clang's libFuzzer headers only: the replay tests are built with g++.
#ifndef SCHEDREF_FUZZ_BYTE_READER_H_
#define SCHEDREF_FUZZ_BYTE_READER_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace schedref::fuzz {

class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool empty() const { return pos_ >= size_; }
  uint8_t Byte() { return empty() ? 0 : data_[pos_++]; }
  // A value in [0, n). REQUIRES: 0 < n <= 256.
  size_t Below(size_t n) { return Byte() % n; }
  // REQUIRES: !items.empty() and items.size() <= 256.
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[Below(items.size())];
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace schedref::fuzz

#endif  // SCHEDREF_FUZZ_BYTE_READER_H_
