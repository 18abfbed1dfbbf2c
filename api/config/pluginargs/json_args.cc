#include "api/config/pluginargs/json_args.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace schedref::api::pluginargs {

std::string FieldPath(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

std::string IndexPath(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

schedref::Status CheckObject(const nlohmann::json& value,
                             const std::string& path,
                             std::initializer_list<const char*> allowed) {
  if (value.is_null()) return schedref::Status::Ok();
  if (!value.is_object()) {
    return schedref::Status::Invalid(
        (path.empty() ? std::string("args") : path) + ": expected an object");
  }
  for (const auto& [key, unused] : value.items()) {
    bool known = false;
    for (const char* a : allowed) known = known || key == a;
    if (!known) {
      return schedref::Status::Invalid("strict decoding error: unknown field \"" +
                                       FieldPath(path, key) + "\"");
    }
  }
  return schedref::Status::Ok();
}

bool Has(const nlohmann::json& object, const char* key) {
  return object.is_object() && object.contains(key) && !object[key].is_null();
}

StatusOr<std::string> ReadString(const nlohmann::json& value,
                                 const std::string& path) {
  if (!value.is_string()) {
    return schedref::Status::Invalid(path + ": expected a string");
  }
  return value.get<std::string>();
}

StatusOr<int64_t> ReadInt(const nlohmann::json& value, const std::string& path,
                          int64_t min, int64_t max) {
  int64_t v = 0;
  if (value.is_number_integer()) {
    if (value.is_number_unsigned() &&
        value.get<uint64_t>() >
            static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return schedref::Status::Invalid(path + ": integer out of range");
    }
    v = value.get<int64_t>();
  } else if (value.is_number_float()) {
    const double d = value.get<double>();
    // 2^63 is exactly representable; every double below it in magnitude
    // that is integral converts exactly.
    if (!(d == std::trunc(d))) {
      return schedref::Status::Invalid(path + ": expected an integer");
    }
    if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) {
      return schedref::Status::Invalid(path + ": integer out of range");
    }
    v = static_cast<int64_t>(d);
  } else {
    return schedref::Status::Invalid(path + ": expected an integer");
  }
  if (v < min || v > max) {
    return schedref::Status::Invalid(path + ": integer out of range");
  }
  return v;
}

StatusOr<std::vector<std::string>> ReadStringList(const nlohmann::json& value,
                                                  const std::string& path) {
  std::vector<std::string> out;
  if (value.is_null()) return out;
  if (!value.is_array()) {
    return schedref::Status::Invalid(path + ": expected a list of strings");
  }
  for (size_t i = 0; i < value.size(); ++i) {
    StatusOr<std::string> s = ReadString(value[i], IndexPath(path, i));
    if (!s.ok()) return s.status();
    out.push_back(*s);
  }
  return out;
}

schedref::Status CheckArray(const nlohmann::json& value,
                            const std::string& path) {
  if (value.is_null() || value.is_array()) return schedref::Status::Ok();
  return schedref::Status::Invalid(path + ": expected a list");
}

std::string GoQuote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          static const char* kHex = "0123456789abcdef";
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string FieldInvalid(const std::string& path, const std::string& value,
                         const std::string& detail) {
  return path + ": Invalid value: " + GoQuote(value) + ": " + detail;
}

std::string FieldInvalid(const std::string& path, int64_t value,
                         const std::string& detail) {
  return path + ": Invalid value: " + std::to_string(value) + ": " + detail;
}

std::string FieldNotSupported(const std::string& path, const std::string& value,
                              const std::vector<std::string>& supported) {
  std::string list;
  for (size_t i = 0; i < supported.size(); ++i) {
    if (i > 0) list += ", ";
    list += GoQuote(supported[i]);
  }
  return path + ": Unsupported value: " + GoQuote(value) +
         ": supported values: " + list;
}

std::string FieldRequired(const std::string& path, const std::string& detail) {
  return path + ": Required value: " + detail;
}

std::string FieldDuplicate(const std::string& path, const std::string& value) {
  return path + ": Duplicate value: " + GoQuote(value);
}

schedref::Status FieldErrors(const std::vector<std::string>& errors) {
  if (errors.empty()) return schedref::Status::Ok();
  return schedref::Status::Invalid(AggregateMessage(errors));
}

std::string AggregateMessage(const std::vector<std::string>& messages) {
  if (messages.size() == 1) return messages[0];
  std::string out = "[";
  for (size_t i = 0; i < messages.size(); ++i) {
    if (i > 0) out += ", ";
    out += messages[i];
  }
  return out + "]";
}

}  // namespace schedref::api::pluginargs
