#include "api/extender/extender_set.h"

#include <optional>
#include <utility>

namespace schedref::api::extender {

StatusOr<std::unique_ptr<ExtenderSet>> ExtenderSet::Start(
    const Scenario& scenario) {
  std::unique_ptr<ExtenderSet> out(new ExtenderSet());
  const std::string where = scenario.file.empty() ? "scenario" : scenario.file;
  for (const Extender& config : scenario.config.extenders) {
    std::optional<Redirect> redirect;
    for (const DeclaredExtender& d : scenario.extenders) {
      if (d.url_prefix != config.url_prefix) continue;
      StatusOr<std::unique_ptr<DeclaredServer>> server =
          DeclaredServer::Start(d, config);
      if (!server.ok()) return server.status().WithPrefix(where);
      redirect = (*server)->redirect();
      out->servers_.push_back(std::move(server).value());
    }
    StatusOr<std::unique_ptr<HttpExtender>> x =
        HttpExtender::Create(config, redirect);
    if (!x.ok()) return x.status().WithPrefix(where);
    out->extenders_.push_back(std::move(x).value());
  }
  for (bool ignorable : {false, true}) {
    for (const std::unique_ptr<HttpExtender>& x : out->extenders_) {
      if (x->IsIgnorable() == ignorable) out->order_.push_back(x.get());
    }
  }
  return out;
}

bool ExtenderSet::HasFilter() const {
  for (const HttpExtender* x : order_) {
    if (x->IsFilter()) return true;
  }
  return false;
}

bool ExtenderSet::HasPrioritizer() const {
  for (const HttpExtender* x : order_) {
    if (x->IsPrioritizer()) return true;
  }
  return false;
}

int64_t ExtenderSet::calls() const {
  int64_t n = 0;
  for (const HttpExtender* x : order_) n += x->calls();
  return n;
}

int64_t ExtenderSet::call_nanos() const {
  int64_t n = 0;
  for (const HttpExtender* x : order_) n += x->call_nanos();
  return n;
}

}  // namespace schedref::api::extender
