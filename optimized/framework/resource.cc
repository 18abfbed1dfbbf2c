#include "optimized/framework/resource.h"

#include <algorithm>

#include "api/types/resource.h"

namespace schedref::optimized::framework {

void Resource::AddScalar(std::string_view name, int64_t amount) {
  auto it = std::lower_bound(
      scalar.begin(), scalar.end(), name,
      [](const std::pair<std::string, int64_t>& e, std::string_view n) {
        return e.first < n;
      });
  if (it != scalar.end() && it->first == name) {
    it->second += amount;
  } else {
    scalar.insert(it, {std::string(name), amount});
  }
}

int64_t Resource::Scalar(std::string_view name) const {
  auto it = std::lower_bound(
      scalar.begin(), scalar.end(), name,
      [](const std::pair<std::string, int64_t>& e, std::string_view n) {
        return e.first < n;
      });
  return it != scalar.end() && it->first == name ? it->second : 0;
}

void Resource::AddList(const api::ResourceList& list) {
  for (const auto& [name, amount] : list) {
    if (name == api::kResourceCpu) {
      milli_cpu += amount;
    } else if (name == api::kResourceMemory) {
      memory += amount;
    } else if (name == api::kResourceEphemeralStorage) {
      ephemeral_storage += amount;
    } else if (name == api::kResourcePods) {
      allowed_pod_number += amount;
    } else if (api::IsScalarResourceName(name)) {
      AddScalar(name, amount);
    }
  }
}

void Resource::Add(const Resource& other) {
  milli_cpu += other.milli_cpu;
  memory += other.memory;
  ephemeral_storage += other.ephemeral_storage;
  allowed_pod_number += other.allowed_pod_number;
  for (const auto& [name, amount] : other.scalar) AddScalar(name, amount);
}

void Resource::Sub(const Resource& other) {
  milli_cpu -= other.milli_cpu;
  memory -= other.memory;
  ephemeral_storage -= other.ephemeral_storage;
  allowed_pod_number -= other.allowed_pod_number;
  for (const auto& [name, amount] : other.scalar) AddScalar(name, -amount);
}

int64_t Resource::Get(std::string_view name) const {
  if (name == api::kResourceCpu) return milli_cpu;
  if (name == api::kResourceMemory) return memory;
  if (name == api::kResourceEphemeralStorage) return ephemeral_storage;
  if (name == api::kResourcePods) return allowed_pod_number;
  return Scalar(name);
}

}  // namespace schedref::optimized::framework
