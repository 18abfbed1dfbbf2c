#include "conformance/engine.h"

#include <utility>

namespace schedref::conformance {
namespace {

class BuiltinEngine final : public Engine {
 public:
  BuiltinEngine(std::unique_ptr<api::Scheduler> scheduler, int threads)
      : scheduler_(std::move(scheduler)), threads_(threads) {}

  std::string Name() const override { return scheduler_->Name(); }
  std::set<std::string> Unsupported() const override { return {}; }
  StatusOr<api::Trace> Run(const ScenarioInput& input) override {
    api::RunOptions options;
    options.threads = threads_;
    options.record_feasible_nodes = input.feasible_nodes;
    return scheduler_->Run(*input.scenario, options);
  }

 private:
  const std::unique_ptr<api::Scheduler> scheduler_;
  const int threads_;
};

}  // namespace

std::unique_ptr<Engine> MakeBuiltinEngine(
    std::unique_ptr<api::Scheduler> scheduler, int threads) {
  return std::make_unique<BuiltinEngine>(std::move(scheduler), threads);
}

}  // namespace schedref::conformance
