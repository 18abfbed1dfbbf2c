#include "conformance/engine.h"

#include <utility>

namespace schedref::conformance {
namespace {

class BuiltinEngine final : public Engine {
 public:
  explicit BuiltinEngine(std::unique_ptr<api::Scheduler> scheduler)
      : scheduler_(std::move(scheduler)) {}

  std::string Name() const override { return scheduler_->Name(); }
  std::set<std::string> Unsupported() const override { return {}; }
  StatusOr<api::Trace> Run(const ScenarioInput& input) override {
    return scheduler_->Run(*input.scenario, api::RunOptions{});
  }

 private:
  const std::unique_ptr<api::Scheduler> scheduler_;
};

}  // namespace

std::unique_ptr<Engine> MakeBuiltinEngine(
    std::unique_ptr<api::Scheduler> scheduler) {
  return std::make_unique<BuiltinEngine>(std::move(scheduler));
}

}  // namespace schedref::conformance
