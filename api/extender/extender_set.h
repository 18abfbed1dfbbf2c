// The extenders of one run: an HttpExtender per config.extenders[] entry in
// upstream's call order (buildExtenders: the non-ignorable ones as
// configured, then the ignorable ones), with a DeclaredServer for each
// entry the scenario declares. Both implementations build one at the start
// of Run and drop it at the end, which stops the servers.
#ifndef SCHEDREF_API_EXTENDER_EXTENDER_SET_H_
#define SCHEDREF_API_EXTENDER_EXTENDER_SET_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "api/extender/declared_server.h"
#include "api/extender/http_extender.h"
#include "api/status.h"
#include "api/types/scenario.h"

namespace schedref::api::extender {

class ExtenderSet {
 public:
  // Errors: Invalid or FailedPrecondition from HttpExtender::Create and
  // DeclaredServer::Start, prefixed with the scenario's file.
  [[nodiscard]] static StatusOr<std::unique_ptr<ExtenderSet>> Start(
      const Scenario& scenario);

  [[nodiscard]] bool empty() const { return order_.empty(); }
  // In call order.
  [[nodiscard]] const std::vector<const HttpExtender*>& extenders() const {
    return order_;
  }
  [[nodiscard]] bool HasFilter() const;
  [[nodiscard]] bool HasPrioritizer() const;
  // Totals over the extenders (HttpExtender::calls, call_nanos).
  [[nodiscard]] int64_t calls() const;
  [[nodiscard]] int64_t call_nanos() const;

 private:
  ExtenderSet() = default;
  // Declared servers outlive nothing that calls them: extenders_ goes first.
  std::vector<std::unique_ptr<DeclaredServer>> servers_;
  std::vector<std::unique_ptr<HttpExtender>> extenders_;
  std::vector<const HttpExtender*> order_;
};

}  // namespace schedref::api::extender

#endif  // SCHEDREF_API_EXTENDER_EXTENDER_SET_H_
