// HTTPExtender: one configured scheduler extender, called over HTTP(S) with
// cpp-httplib. Specification: pkg/scheduler/extender.go (v1.32). Each call
// posts the JSON of api/extender/protocol.h to urlPrefix + "/" + verb and
// reads the reply; any failure is an error value whose message names the
// extender (its urlPrefix) and the verb. What an error does to the cycle
// (skip an ignorable extender, fail the cycle otherwise) is the caller's.
//
// Bounds: every call ends within httpTimeout (connect, write, read and the
// whole reply together) and reads at most max_reply_bytes of reply.
//
// Thread safety: the calls are const and may run concurrently; the call
// statistics are atomic.
#ifndef SCHEDREF_API_EXTENDER_HTTP_EXTENDER_H_
#define SCHEDREF_API_EXTENDER_HTTP_EXTENDER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/config/config.h"
#include "api/extender/protocol.h"
#include "api/status.h"
#include "api/types/objects.h"

namespace schedref::api::extender {

// Where requests really go when that is not the urlPrefix's host: a
// declared extender served on 127.0.0.1 (declared_server.h). The urlPrefix
// stays the extender's name and the URL its messages show.
struct Redirect {
  std::string host;
  int port = 0;
};

// The response header through which a declared extender reports its
// virtual delay in nanoseconds; a delay of at least httpTimeout is a
// timeout, decided without waiting.
inline constexpr char kVirtualDelayHeader[] = "Schedref-Virtual-Delay-Ns";

// 64 MiB: a NodeList reply for 5000 nodes is a few MiB.
inline constexpr size_t kDefaultMaxReplyBytes = size_t{64} << 20;

class HttpExtender {
 public:
  // Errors: Invalid for TLS material that cannot be loaded or a setting
  // the HTTP library cannot honour (tlsConfig.serverName).
  [[nodiscard]] static StatusOr<std::unique_ptr<HttpExtender>> Create(
      const Extender& config, std::optional<Redirect> redirect = std::nullopt,
      size_t max_reply_bytes = kDefaultMaxReplyBytes);
  ~HttpExtender();
  HttpExtender(const HttpExtender&) = delete;
  HttpExtender& operator=(const HttpExtender&) = delete;

  // The urlPrefix: the name upstream logs and reports scores under.
  [[nodiscard]] const std::string& Name() const { return config_.url_prefix; }
  [[nodiscard]] const Extender& config() const { return config_; }
  [[nodiscard]] bool IsIgnorable() const { return config_.ignorable; }
  [[nodiscard]] bool IsFilter() const { return !config_.filter_verb.empty(); }
  [[nodiscard]] bool IsPrioritizer() const {
    return !config_.prioritize_verb.empty();
  }
  [[nodiscard]] bool IsBinder() const { return !config_.bind_verb.empty(); }
  [[nodiscard]] bool SupportsPreemption() const {
    return !config_.preempt_verb.empty();
  }
  [[nodiscard]] int64_t Weight() const { return config_.weight; }

  // True iff the extender manages no resources, or a container or init
  // container of `pod` requests or limits one it manages.
  [[nodiscard]] bool IsInterested(const Pod& pod) const;

  struct Filtered {
    // The nodes that pass, in the reply's order; each one of the input.
    std::vector<std::string> feasible;
    FailedNodes failed;
    FailedNodes failed_and_unresolvable;
  };
  // Filter. Without a filterVerb every node passes, no call is made.
  // Errors: any failure of the call, the reply's own Error, a reply naming
  // a node that was not sent.
  [[nodiscard]] StatusOr<Filtered> Filter(
      const Pod& pod, const std::vector<const Node*>& nodes) const;

  // Prioritize: the reply in its order. Without a prioritizeVerb every node
  // scores 0 and no call is made.
  [[nodiscard]] StatusOr<std::vector<HostPriority>> Prioritize(
      const Pod& pod, const std::vector<const Node*>& nodes) const;

  // Bind. Errors: the call's, or the reply's own Error.
  // REQUIRES: IsBinder().
  [[nodiscard]] Status Bind(const Pod& pod, const std::string& node) const;

  // The pods on a node by name, for turning the reply's UIDs back into
  // pods; nullptr when the snapshot has no such node.
  using PodsOnNode =
      std::function<const std::vector<const Pod*>*(const std::string& node)>;
  // ProcessPreemption: the candidates the extender keeps, with their
  // victims. Errors: the call's, a node not in the snapshot, a UID not on
  // its node.
  // REQUIRES: SupportsPreemption().
  [[nodiscard]] StatusOr<std::map<std::string, Victims>> ProcessPreemption(
      const Pod& pod, const std::map<std::string, Victims>& victims,
      const PodsOnNode& pods_on_node) const;

  // Calls made and the wall time spent in them, for `schedref bench`.
  [[nodiscard]] int64_t calls() const { return calls_.load(); }
  [[nodiscard]] int64_t call_nanos() const { return call_nanos_.load(); }

 private:
  struct Tls;
  HttpExtender(Extender config, std::optional<Redirect> redirect,
               size_t max_reply_bytes);
  // POSTs `args` to the verb's URL and parses the reply as JSON.
  [[nodiscard]] StatusOr<nlohmann::json> Send(const std::string& verb,
                                              const nlohmann::json& args) const;

  // Constant after construction.
  const Extender config_;
  const std::optional<Redirect> redirect_;
  const size_t max_reply_bytes_;
  std::set<std::string> managed_;
  std::unique_ptr<Tls> tls_;

  mutable std::atomic<int64_t> calls_{0};
  mutable std::atomic<int64_t> call_nanos_{0};
};

}  // namespace schedref::api::extender

#endif  // SCHEDREF_API_EXTENDER_HTTP_EXTENDER_H_
