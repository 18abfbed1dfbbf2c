// The server that plays one declared extender (api/types/declared_extender.h)
// over real HTTP on 127.0.0.1 at an ephemeral port, for the length of a run.
// It answers the verbs of the config.extenders[] entry it plays; its
// computed replies are in docs/semantics/extender.md ("Declared
// extenders"). A declared delay travels as the kVirtualDelayHeader header:
// the server never waits.
//
// Thread safety: the server's own threads (cpp-httplib's) read only the
// constant declaration.
#ifndef SCHEDREF_API_EXTENDER_DECLARED_SERVER_H_
#define SCHEDREF_API_EXTENDER_DECLARED_SERVER_H_

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "api/config/config.h"
#include "api/extender/http_extender.h"
#include "api/status.h"
#include "api/types/declared_extender.h"

namespace schedref::api::extender {

// One HTTP reply.
struct Reply {
  int status = 200;
  std::string body;
  int64_t delay_ns = 0;
};

// What `declared` answers to `verb` (one of config's verbs) with `body`.
// Pure: the server calls it for every request, tests call it directly.
[[nodiscard]] Reply Answer(const DeclaredExtender& declared,
                           const Extender& config, const std::string& verb,
                           const std::string& body);

class DeclaredServer {
 public:
  // Starts serving. Errors: FailedPrecondition when no port can be bound.
  [[nodiscard]] static StatusOr<std::unique_ptr<DeclaredServer>> Start(
      DeclaredExtender declared, Extender config);
  // Stops serving and waits for the server's threads.
  ~DeclaredServer();
  DeclaredServer(const DeclaredServer&) = delete;
  DeclaredServer& operator=(const DeclaredServer&) = delete;

  // Where the client sends the extender's requests.
  [[nodiscard]] Redirect redirect() const { return Redirect{"127.0.0.1", port_}; }

 private:
  struct Impl;
  explicit DeclaredServer(std::unique_ptr<Impl> impl, int port);
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace schedref::api::extender

#endif  // SCHEDREF_API_EXTENDER_DECLARED_SERVER_H_
