#include "optimized/framework/plugins/defaultbinder/default_binder.h"

#include "optimized/framework/plugins/names/names.h"

namespace schedref::optimized::framework::plugins::defaultbinder {

StatusOr<std::unique_ptr<Plugin>> DefaultBinder::New(
    const nlohmann::json& /*args*/, Handle* handle) {
  if (handle == nullptr) {
    return schedref::Status::FailedPrecondition(
        "DefaultBinder needs a framework handle");
  }
  return std::unique_ptr<Plugin>(new DefaultBinder(handle));
}

std::string DefaultBinder::Name() const { return names::kDefaultBinder; }

Status DefaultBinder::Bind(CycleState& /*state*/, const PodInfo& pod,
                           const std::string& node_name) {
  const schedref::Status s = handle_->BindPod(pod.pod, node_name);
  if (!s.ok()) return Status::Error(s.message());
  return Status::Success();
}

}  // namespace schedref::optimized::framework::plugins::defaultbinder
