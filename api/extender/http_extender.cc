#include "api/extender/http_extender.h"

#include <openssl/pem.h>
#include <openssl/x509.h>

#include <chrono>
#include <utility>

#include <httplib.h>

namespace schedref::api::extender {
namespace {

using nlohmann::json;

// The parts of a URL the client needs.
struct Url {
  std::string scheme, host, path;
  int port = 0;
};

// Go's net/url for the URLs an extender has: scheme://host[:port][/path].
StatusOr<Url> ParseUrl(const std::string& url) {
  Url out;
  const size_t colon = url.find("://");
  if (colon == std::string::npos) {
    // Go: a URL without a scheme fails in the transport.
    return Status::Invalid("unsupported protocol scheme \"\"");
  }
  out.scheme = url.substr(0, colon);
  for (char& c : out.scheme) c = static_cast<char>(std::tolower(c));
  if (out.scheme != "http" && out.scheme != "https") {
    return Status::Invalid("unsupported protocol scheme \"" + out.scheme + "\"");
  }
  const size_t start = colon + 3;
  const size_t slash = url.find('/', start);
  const std::string authority =
      url.substr(start, slash == std::string::npos ? std::string::npos
                                                   : slash - start);
  out.path = slash == std::string::npos ? "/" : url.substr(slash);
  out.port = out.scheme == "https" ? 443 : 80;
  std::string host = authority;
  const size_t at = host.rfind('@');
  if (at != std::string::npos) host = host.substr(at + 1);
  size_t port_colon = std::string::npos;
  if (!host.empty() && host[0] == '[') {
    const size_t close = host.find(']');
    if (close == std::string::npos) return Status::Invalid("missing ']' in host");
    if (close + 1 < host.size() && host[close + 1] == ':') port_colon = close + 1;
    out.host = host.substr(1, close - 1);
  } else {
    port_colon = host.rfind(':');
    out.host = host.substr(0, port_colon);
  }
  if (port_colon != std::string::npos) {
    const std::string port = host.substr(port_colon + 1);
    if (!port.empty()) {
      int value = 0;
      for (char c : port) {
        if (c < '0' || c > '9' || value > 65535) {
          return Status::Invalid("invalid port \":" + port + "\" after host");
        }
        value = value * 10 + (c - '0');
      }
      if (value > 65535) {
        return Status::Invalid("invalid port \":" + port + "\" after host");
      }
      out.port = value;
    }
  }
  if (out.host.empty()) return Status::Invalid("no Host in request URL");
  return out;
}

std::string TrimRightSlashes(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

bool HasManaged(const std::set<std::string>& managed,
                const std::vector<Container>& containers) {
  for (const Container& c : containers) {
    for (const auto& [name, quantity] : c.requests) {
      if (managed.count(name) != 0) return true;
    }
    for (const auto& [name, quantity] : c.limits) {
      if (managed.count(name) != 0) return true;
    }
  }
  return false;
}

// Go's http.Client error for a deadline that passed before the headers came.
constexpr char kTimeout[] =
    "context deadline exceeded (Client.Timeout exceeded while awaiting "
    "headers)";

}  // namespace

// TLS material loaded once (restclient.TLSConfigFor's inputs).
struct HttpExtender::Tls {
  bool verify = true;
  std::string ca_file;
  std::string cert_data, key_data;
  std::string cert_file, key_file;
};

HttpExtender::HttpExtender(Extender config, std::optional<Redirect> redirect,
                           size_t max_reply_bytes)
    : config_(std::move(config)),
      redirect_(std::move(redirect)),
      max_reply_bytes_(max_reply_bytes) {
  for (const ExtenderManagedResource& r : config_.managed_resources) {
    managed_.insert(r.name);
  }
}

HttpExtender::~HttpExtender() = default;

StatusOr<std::unique_ptr<HttpExtender>> HttpExtender::Create(
    const Extender& config, std::optional<Redirect> redirect,
    size_t max_reply_bytes) {
  std::unique_ptr<HttpExtender> out(
      new HttpExtender(config, std::move(redirect), max_reply_bytes));
  auto tls = std::make_unique<Tls>();
  if (config.tls_config.has_value()) {
    const ExtenderTLSConfig& t = *config.tls_config;
    if (!t.server_name.empty()) {
      return Status::Invalid("extender \"" + config.url_prefix +
                             "\": tlsConfig.serverName is not supported (the "
                             "HTTP client checks the URL's host)");
    }
    tls->verify = !t.insecure;
    tls->ca_file = t.ca_file;
    tls->cert_file = t.cert_file;
    tls->key_file = t.key_file;
    tls->cert_data = t.cert_data;
    tls->key_data = t.key_data;
    if (!t.ca_data.empty()) {
      // Checked here so that a bad bundle is a configuration error; each
      // call builds its own store (the client takes ownership of it).
      BIO* bio = BIO_new_mem_buf(t.ca_data.data(),
                                 static_cast<int>(t.ca_data.size()));
      X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
      BIO_free(bio);
      if (cert == nullptr) {
        return Status::Invalid("extender \"" + config.url_prefix +
                               "\": tlsConfig.caData: no PEM certificate");
      }
      X509_free(cert);
    }
  }
  // makeTransport: HTTPS without a CA does not verify the server.
  if (config.enable_https && config.tls_config.has_value() &&
      config.tls_config->ca_file.empty() && config.tls_config->ca_data.empty()) {
    tls->verify = false;
  } else if (config.enable_https && !config.tls_config.has_value()) {
    tls->verify = false;
  }
  out->tls_ = std::move(tls);
  return out;
}

bool HttpExtender::IsInterested(const Pod& pod) const {
  if (managed_.empty()) return true;
  return HasManaged(managed_, pod.containers) ||
         HasManaged(managed_, pod.init_containers);
}

StatusOr<json> HttpExtender::Send(const std::string& verb,
                                  const json& args) const {
  const auto started = std::chrono::steady_clock::now();
  calls_.fetch_add(1);
  struct Timer {
    std::chrono::steady_clock::time_point started;
    std::atomic<int64_t>* total;
    ~Timer() {
      total->fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(
                           std::chrono::steady_clock::now() - started)
                           .count());
    }
  } timer{started, &call_nanos_};

  const std::string url = TrimRightSlashes(config_.url_prefix) + "/" + verb;
  // Transport errors read as Go's *url.Error: Post "<url>": <reason>.
  auto transport_error = [&](const std::string& reason) {
    return Status::Invalid("Post \"" + url + "\": " + reason);
  };
  StatusOr<Url> parsed = ParseUrl(url);
  if (!parsed.ok()) return transport_error(parsed.status().message());
  std::string host = parsed->host;
  int port = parsed->port;
  bool https = parsed->scheme == "https";
  if (redirect_.has_value()) {
    host = redirect_->host;
    port = redirect_->port;
    https = false;
  }

  std::unique_ptr<httplib::ClientImpl> client;
  if (https) {
    std::unique_ptr<httplib::SSLClient> ssl;
    X509* cert = nullptr;
    EVP_PKEY* key = nullptr;
    if (!tls_->cert_data.empty() && !tls_->key_data.empty()) {
      BIO* cb = BIO_new_mem_buf(tls_->cert_data.data(),
                                static_cast<int>(tls_->cert_data.size()));
      cert = PEM_read_bio_X509(cb, nullptr, nullptr, nullptr);
      BIO_free(cb);
      BIO* kb = BIO_new_mem_buf(tls_->key_data.data(),
                                static_cast<int>(tls_->key_data.size()));
      key = PEM_read_bio_PrivateKey(kb, nullptr, nullptr, nullptr);
      BIO_free(kb);
    }
    if (cert != nullptr && key != nullptr) {
      ssl = std::make_unique<httplib::SSLClient>(host, port, cert, key);
    } else if (!tls_->cert_file.empty() && !tls_->key_file.empty()) {
      ssl = std::make_unique<httplib::SSLClient>(host, port, tls_->cert_file,
                                                 tls_->key_file);
    } else {
      ssl = std::make_unique<httplib::SSLClient>(host, port);
    }
    if (cert != nullptr) X509_free(cert);
    if (key != nullptr) EVP_PKEY_free(key);
    ssl->enable_server_certificate_verification(tls_->verify);
    if (!tls_->ca_file.empty()) ssl->set_ca_cert_path(tls_->ca_file);
    if (config_.tls_config.has_value() && !config_.tls_config->ca_data.empty()) {
      const std::string& pem = config_.tls_config->ca_data;
      X509_STORE* store = X509_STORE_new();
      BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
      while (X509* c = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr)) {
        X509_STORE_add_cert(store, c);
        X509_free(c);
      }
      BIO_free(bio);
      ssl->set_ca_cert_store(store);  // the client owns it now
    }
    client = std::move(ssl);
  } else {
    client = std::make_unique<httplib::ClientImpl>(host, port);
  }
  const std::chrono::nanoseconds timeout(config_.http_timeout_ns);
  client->set_connection_timeout(timeout);
  client->set_read_timeout(timeout);
  client->set_write_timeout(timeout);
  client->set_keep_alive(false);

  const auto deadline = started + timeout;
  bool virtual_timeout = false, too_large = false, past_deadline = false;
  std::string body;
  httplib::Request req;
  req.method = "POST";
  req.path = parsed->path;
  req.headers.emplace("Content-Type", "application/json");
  req.body = args.dump(-1, ' ', false, json::error_handler_t::replace);
  req.response_handler = [&](const httplib::Response& r) {
    if (r.has_header(kVirtualDelayHeader)) {
      const std::string delay = r.get_header_value(kVirtualDelayHeader);
      int64_t ns = 0;
      for (char c : delay) {
        if (c < '0' || c > '9') break;
        ns = ns * 10 + (c - '0');
        if (ns >= config_.http_timeout_ns) break;
      }
      if (ns >= config_.http_timeout_ns) {
        virtual_timeout = true;
        return false;
      }
    }
    return true;
  };
  req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
    if (body.size() + n > max_reply_bytes_) {
      too_large = true;
      return false;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      past_deadline = true;
      return false;
    }
    body.append(data, n);
    return true;
  };
  httplib::Response res;
  httplib::Error error = httplib::Error::Success;
  const bool sent = client->send(req, res, error);
  if (virtual_timeout || past_deadline) return transport_error(kTimeout);
  const std::string prefix = "extender \"" + Name() + "\" " + verb + ": ";
  if (too_large) {
    return Status::Invalid(prefix + "reply larger than " +
                           std::to_string(max_reply_bytes_) + " bytes");
  }
  if (!sent) {
    if (error == httplib::Error::Read || error == httplib::Error::Write ||
        error == httplib::Error::ConnectionTimeout) {
      if (std::chrono::steady_clock::now() >= deadline) {
        return transport_error(kTimeout);
      }
    }
    if (error == httplib::Error::Connection) {
      return transport_error("dial tcp " + host + ":" + std::to_string(port) +
                             ": cannot connect");
    }
    return transport_error("HTTP client: " + httplib::to_string(error));
  }
  if (res.status != 200) {
    // Upstream's own message.
    return Status::Invalid("failed " + verb + " with extender at URL " + url +
                           ", code " + std::to_string(res.status));
  }
  // Note: encoding/json's Decoder reads the first JSON value and ignores
  // what follows; schedref rejects trailing data (docs/deviations.md).
  json reply = json::parse(body, nullptr, false);
  if (reply.is_discarded()) {
    return Status::Invalid(prefix + "reply is not JSON" +
                           (body.empty() ? " (empty body)" : ""));
  }
  return reply;
}

StatusOr<HttpExtender::Filtered> HttpExtender::Filter(
    const Pod& pod, const std::vector<const Node*>& nodes) const {
  Filtered out;
  if (!IsFilter()) {
    for (const Node* n : nodes) out.feasible.push_back(n->name);
    return out;
  }
  StatusOr<json> reply = Send(config_.filter_verb,
                              EncodeArgs(pod, nodes, config_.node_cache_capable));
  if (!reply.ok()) return reply.status();
  StatusOr<FilterResult> result = DecodeFilterResult(*reply);
  if (!result.ok()) {
    return Status::Invalid("extender \"" + Name() + "\" " +
                           config_.filter_verb + ": " +
                           result.status().message());
  }
  if (!result->error.empty()) return Status::Invalid(result->error);
  std::set<std::string> sent;
  for (const Node* n : nodes) sent.insert(n->name);
  // Upstream reads NodeNames only from a nodeCacheCapable extender and
  // Nodes otherwise (or when NodeNames is null); neither means no node
  // passes.
  const std::optional<std::vector<std::string>>* passing = &result->nodes;
  if (config_.node_cache_capable && result->node_names.has_value()) {
    passing = &result->node_names;
  }
  if (passing->has_value()) {
    for (const std::string& name : **passing) {
      // Note: upstream checks this only for NodeNames; a NodeList reply
      // naming another node would be scored as a node without pods.
      // schedref refuses both (docs/deviations.md).
      if (sent.count(name) == 0) {
        return Status::Invalid("extender \"" + Name() +
                               "\" claims a filtered node \"" + name +
                               "\" which is not found in the input node list");
      }
      out.feasible.push_back(name);
    }
  }
  out.failed = std::move(result->failed_nodes);
  out.failed_and_unresolvable = std::move(result->failed_and_unresolvable_nodes);
  return out;
}

StatusOr<std::vector<HostPriority>> HttpExtender::Prioritize(
    const Pod& pod, const std::vector<const Node*>& nodes) const {
  if (!IsPrioritizer()) {
    std::vector<HostPriority> zeros;
    for (const Node* n : nodes) zeros.push_back(HostPriority{n->name, 0});
    return zeros;
  }
  StatusOr<json> reply =
      Send(config_.prioritize_verb,
           EncodeArgs(pod, nodes, config_.node_cache_capable));
  if (!reply.ok()) return reply.status();
  StatusOr<std::vector<HostPriority>> list = DecodeHostPriorityList(*reply);
  if (!list.ok()) {
    return Status::Invalid("extender \"" + Name() + "\" " +
                           config_.prioritize_verb + ": " +
                           list.status().message());
  }
  return list;
}

Status HttpExtender::Bind(const Pod& pod, const std::string& node) const {
  StatusOr<json> reply = Send(config_.bind_verb, EncodeBindingArgs(pod, node));
  if (!reply.ok()) return reply.status();
  StatusOr<std::string> error = DecodeBindingResult(*reply);
  if (!error.ok()) {
    return Status::Invalid("extender \"" + Name() + "\" " + config_.bind_verb +
                           ": " + error.status().message());
  }
  if (!error->empty()) return Status::Invalid(*error);
  return Status::Ok();
}

StatusOr<std::map<std::string, Victims>> HttpExtender::ProcessPreemption(
    const Pod& pod, const std::map<std::string, Victims>& victims,
    const PodsOnNode& pods_on_node) const {
  StatusOr<json> reply =
      Send(config_.preempt_verb,
           EncodePreemptionArgs(pod, victims, config_.node_cache_capable));
  if (!reply.ok()) return reply.status();
  StatusOr<std::map<std::string, std::optional<MetaVictims>>> result =
      DecodePreemptionResult(*reply);
  if (!result.ok()) {
    return Status::Invalid("extender \"" + Name() + "\" " +
                           config_.preempt_verb + ": " +
                           result.status().message());
  }
  // convertToVictims. Note: upstream walks the reply's Go map; schedref
  // walks it by node name (docs/deviations.md).
  std::map<std::string, Victims> out;
  for (const auto& [node, meta] : *result) {
    const std::vector<const Pod*>* pods = pods_on_node(node);
    if (pods == nullptr) {
      return Status::Invalid("nodeinfo not found for node name \"" + node +
                             "\"");
    }
    Victims v;
    if (meta.has_value()) {
      v.num_pdb_violations = meta->num_pdb_violations;
      for (const std::string& uid : meta->pod_uids) {
        const Pod* found = nullptr;
        for (const Pod* p : *pods) {
          if (p->uid == uid) {
            found = p;
            break;
          }
        }
        if (found == nullptr) {
          return Status::Invalid("extender: " + Name() +
                                 " claims to preempt pod (UID: &{" + uid +
                                 "}) on node: " + node +
                                 ", but the pod is not found on that node");
        }
        v.pods.push_back(found);
      }
    }
    out[node] = std::move(v);
  }
  return out;
}

}  // namespace schedref::api::extender
