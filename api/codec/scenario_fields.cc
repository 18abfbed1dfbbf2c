#include "api/codec/scenario_fields.h"

#include <algorithm>
#include <string>

#include "api/gocompat/go_duration.h"

namespace schedref::api {
namespace {

constexpr int64_t kNanosPerMs = 1'000'000;

}  // namespace

Status CheckKnownFields(const FieldReader& r,
                        std::initializer_list<std::string_view> known) {
  if (!r.present() || !r.json().is_object()) return Status::Ok();
  for (auto it = r.json().begin(); it != r.json().end(); ++it) {
    if (std::find(known.begin(), known.end(), it.key()) == known.end()) {
      return r.ErrorAt(it.key(), "unknown field");
    }
  }
  return Status::Ok();
}

Status ReadDuration(const FieldReader& parent, std::string_view key,
                    bool required, int64_t* out) {
  StatusOr<FieldReader> f = parent.Field(key);
  if (!f.ok()) return f.status();
  if (!f->present()) {
    return required ? f->Error("required field is missing") : Status::Ok();
  }
  if (!f->json().is_string()) {
    return f->Error("expected a duration string such as \"1.5s\", got " +
                    JsonTypeName(f->json()));
  }
  const std::string text = f->json().get<std::string>();
  const StatusOr<int64_t> ns = ParseGoDuration(text);
  if (!ns.ok()) return f->Error("invalid duration \"" + text + "\"");
  if (*ns < 0) return f->Error("duration \"" + text + "\" is negative");
  if (*ns % kNanosPerMs != 0) {
    return f->Error("duration \"" + text +
                    "\" is not a whole number of milliseconds");
  }
  *out = *ns / kNanosPerMs;
  return Status::Ok();
}

}  // namespace schedref::api
