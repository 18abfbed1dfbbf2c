// How the stateful models print what they see: times, lists, and the
// visitor helper their std::visit calls share. testonly.
#ifndef SCHEDREF_TESTING_MODELS_SHOW_H_
#define SCHEDREF_TESTING_MODELS_SHOW_H_

#include <cstdint>
#include <string>

#include "api/types/objects.h"

namespace schedref::testing::models {

// "1.5s", "61s", "0s".
inline std::string ShowTime(api::TimeMs t) {
  std::string out = std::to_string(t / 1000);
  if (int64_t ms = t % 1000; ms != 0) {
    std::string frac = std::to_string(1000 + ms).substr(1);
    while (frac.back() == '0') frac.pop_back();
    out += "." + frac;
  }
  return out + "s";
}

// "[a b c]", Go's %v of a string slice.
template <typename T>
std::string Join(const T& items) {
  std::string out = "[";
  for (const auto& item : items) {
    if (out.size() > 1) out += " ";
    out += item;
  }
  return out + "]";
}

// std::visit(Overloaded{[](const A&) {...}, [](const B&) {...}}, v).
template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace schedref::testing::models

#endif  // SCHEDREF_TESTING_MODELS_SHOW_H_
