#include "api/extender/http_extender.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <cstdlib>
#include <fstream>

namespace schedref::api::extender {
namespace {

using nlohmann::json;

// A server on 127.0.0.1 at an ephemeral port that answers each verb with a
// fixed status, body and headers, and records what it was sent.
class FakeExtender {
 public:
  struct Reply {
    int status = 200;
    std::string body;
    httplib::Headers headers;
    std::chrono::milliseconds wait{0};
  };
  FakeExtender() {
    server_.Post(R"(/prefix/(\w+))", [this](const httplib::Request& req,
                                             httplib::Response& res) {
      const std::string verb = req.matches[1];
      received_[verb] = json::parse(req.body, nullptr, false);
      const Reply& r = replies_[verb];
      if (r.wait.count() > 0) std::this_thread::sleep_for(r.wait);
      res.status = r.status;
      res.headers = r.headers;
      res.set_content(r.body, "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::yield();
  }
  ~FakeExtender() {
    server_.stop();
    thread_.join();
  }
  std::string Url() const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/prefix";
  }
  void Set(const std::string& verb, Reply r) { replies_[verb] = std::move(r); }
  const json& Received(const std::string& verb) { return received_[verb]; }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::map<std::string, Reply> replies_;
  std::map<std::string, json> received_;
};

Extender Config(const std::string& url) {
  Extender e;
  e.url_prefix = url;
  e.filter_verb = "filter";
  e.prioritize_verb = "prioritize";
  e.bind_verb = "bind";
  e.preempt_verb = "preempt";
  e.weight = 1;
  e.http_timeout_ns = 2'000'000'000;
  return e;
}

struct Cluster {
  Node a, b;
  Pod pod;
  Cluster() {
    a.name = "a";
    b.name = "b";
    pod.ns = "default";
    pod.name = "p";
    pod.uid = "uid-p";
  }
  std::vector<const Node*> Nodes() const { return {&a, &b}; }
};

std::unique_ptr<HttpExtender> Make(const Extender& e, size_t max = kDefaultMaxReplyBytes) {
  StatusOr<std::unique_ptr<HttpExtender>> x = HttpExtender::Create(e, std::nullopt, max);
  EXPECT_TRUE(x.ok()) << x.status().message();
  return std::move(x).value();
}

struct FilterCase {
  std::string name;
  bool node_cache_capable;
  FakeExtender::Reply reply;
  std::string error;  // "" for success
  std::vector<std::string> feasible;
  FailedNodes failed, unresolvable;
};

TEST(HttpExtenderFilter, RepliesAndFailures) {
  FakeExtender server;
  const std::string url = server.Url() + "/filter";
  const std::vector<FilterCase> cases = {
      {"names", true,
       {200, R"({"NodeNames":["b"],"FailedNodes":{"a":"no gpu"}})"},
       "", {"b"}, {{"a", "no gpu"}}, {}},
      {"node-list", false,
       {200, R"({"Nodes":{"items":[{"metadata":{"name":"a"}}]},)"
             R"("FailedAndUnresolvableNodes":{"b":"never"}})"},
       "", {"a"}, {}, {{"b", "never"}}},
      {"names-ignored-without-node-cache", false,
       {200, R"({"NodeNames":["a"]})"}, "", {}, {}, {}},
      {"reply-error-field", true, {200, R"({"Error":"extender is sad"})"},
       "extender is sad"},
      {"unknown-node", true, {200, R"({"NodeNames":["zz"]})"},
       "extender \"" + server.Url() +
           "\" claims a filtered node \"zz\" which is not found in the input "
           "node list"},
      {"unknown-node-in-list", false,
       {200, R"({"Nodes":{"items":[{"metadata":{"name":"zz"}}]}})"},
       "extender \"" + server.Url() +
           "\" claims a filtered node \"zz\" which is not found in the input "
           "node list"},
      {"http-status", true, {500, "{}"},
       "failed filter with extender at URL " + url + ", code 500"},
      {"not-json", true, {200, "<html>"},
       "extender \"" + server.Url() + "\" filter: reply is not JSON"},
      {"empty-body", true, {200, ""},
       "extender \"" + server.Url() + "\" filter: reply is not JSON (empty body)"},
      {"wrong-shape", true, {200, R"({"NodeNames":"a"})"},
       "extender \"" + server.Url() +
           "\" filter: json: cannot unmarshal string into Go struct field "
           "ExtenderFilterResult.NodeNames of type []string"},
      {"virtual-delay-past-timeout", true,
       {200, R"({"NodeNames":["a"]})", {{kVirtualDelayHeader, "2000000000"}}},
       "Post \"" + url +
           "\": context deadline exceeded (Client.Timeout exceeded while "
           "awaiting headers)"},
      {"virtual-delay-within-timeout", true,
       {200, R"({"NodeNames":["a"]})", {{kVirtualDelayHeader, "1999999999"}}},
       "", {"a"}, {}, {}},
  };
  Cluster c;
  for (const FilterCase& fc : cases) {
    SCOPED_TRACE(fc.name);
    server.Set("filter", fc.reply);
    Extender e = Config(server.Url());
    e.node_cache_capable = fc.node_cache_capable;
    std::unique_ptr<HttpExtender> x = Make(e);
    StatusOr<HttpExtender::Filtered> got = x->Filter(c.pod, c.Nodes());
    EXPECT_EQ(x->calls(), 1);
    if (!fc.error.empty()) {
      ASSERT_FALSE(got.ok());
      EXPECT_EQ(got.status().message(), fc.error);
      continue;
    }
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(got->feasible, fc.feasible);
    EXPECT_EQ(got->failed, fc.failed);
    EXPECT_EQ(got->failed_and_unresolvable, fc.unresolvable);
    const json& sent = server.Received("filter");
    EXPECT_EQ(sent["Pod"]["metadata"]["name"], "p");
    if (fc.node_cache_capable) {
      EXPECT_EQ(sent["NodeNames"], json::array({"a", "b"}));
    } else {
      EXPECT_EQ(sent["Nodes"]["items"].size(), 2u);
    }
  }
}

TEST(HttpExtender, RealTimeoutIsBounded) {
  FakeExtender server;
  server.Set("filter", {200, "{}", {}, std::chrono::milliseconds(1500)});
  Extender e = Config(server.Url());
  e.http_timeout_ns = 200'000'000;
  std::unique_ptr<HttpExtender> x = Make(e);
  Cluster c;
  const auto start = std::chrono::steady_clock::now();
  StatusOr<HttpExtender::Filtered> got = x->Filter(c.pod, c.Nodes());
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(),
            "Post \"" + server.Url() +
                "/filter\": context deadline exceeded (Client.Timeout "
                "exceeded while awaiting headers)");
  EXPECT_LT(took, std::chrono::milliseconds(1200));
}

TEST(HttpExtender, OversizedReply) {
  FakeExtender server;
  server.Set("prioritize", {200, "[" + std::string(4096, ' ') + "]"});
  std::unique_ptr<HttpExtender> x = Make(Config(server.Url()), 1024);
  Cluster c;
  StatusOr<std::vector<HostPriority>> got = x->Prioritize(c.pod, c.Nodes());
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(), "extender \"" + server.Url() +
                                        "\" prioritize: reply larger than "
                                        "1024 bytes");
}

TEST(HttpExtender, Unreachable) {
  // Port 1 is privileged and unused: the connection is refused at once.
  const std::string prefix = "http://127.0.0.1:1";
  std::unique_ptr<HttpExtender> x = Make(Config(prefix));
  Cluster c;
  Status got = x->Bind(c.pod, "a");
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.message(), "Post \"" + prefix + "/bind\": dial tcp 127.0.0.1:1: cannot connect");

  std::unique_ptr<HttpExtender> bad = Make(Config("ftp://x"));
  got = bad->Bind(c.pod, "a");
  EXPECT_EQ(got.message(), "Post \"ftp://x/bind\": unsupported protocol scheme \"ftp\"");
}

TEST(HttpExtender, PrioritizeBindAndVerbless) {
  FakeExtender server;
  server.Set("prioritize", {200, R"([{"Host":"b","Score":7}])"});
  server.Set("bind", {200, R"({"Error":""})"});
  Cluster c;
  std::unique_ptr<HttpExtender> x = Make(Config(server.Url() + "/"));
  StatusOr<std::vector<HostPriority>> got = x->Prioritize(c.pod, c.Nodes());
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got, (std::vector<HostPriority>{{"b", 7}}));
  EXPECT_TRUE(x->Bind(c.pod, "b").ok());
  EXPECT_EQ(server.Received("bind"),
            json({{"PodName", "p"}, {"PodNamespace", "default"},
                  {"PodUID", "uid-p"}, {"Node", "b"}}));
  server.Set("bind", {200, R"({"Error":"no room"})"});
  EXPECT_EQ(x->Bind(c.pod, "b").message(), "no room");
  EXPECT_EQ(x->calls(), 3);

  // No verb: no call, every node passes and scores 0.
  Extender none;
  none.url_prefix = "http://127.0.0.1:1";
  std::unique_ptr<HttpExtender> idle = Make(none);
  EXPECT_EQ(idle->Filter(c.pod, c.Nodes())->feasible,
            (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(*idle->Prioritize(c.pod, c.Nodes()),
            (std::vector<HostPriority>{{"a", 0}, {"b", 0}}));
  EXPECT_EQ(idle->calls(), 0);
}

TEST(HttpExtender, ProcessPreemption) {
  FakeExtender server;
  Cluster c;
  Pod v1 = c.pod, v2 = c.pod;
  v1.name = "v1";
  v1.uid = "u1";
  v2.name = "v2";
  v2.uid = "u2";
  const std::vector<const Pod*> on_a = {&v1, &v2};
  HttpExtender::PodsOnNode pods = [&](const std::string& n)
      -> const std::vector<const Pod*>* { return n == "a" ? &on_a : nullptr; };
  std::map<std::string, Victims> in = {{"a", Victims{{&v1, &v2}, 0}}};
  Extender e = Config(server.Url());
  e.node_cache_capable = true;
  std::unique_ptr<HttpExtender> x = Make(e);

  server.Set("preempt", {200, R"({"NodeNameToMetaVictims":{"a":{"Pods":[{"UID":"u2"}],"NumPDBViolations":1}}})"});
  StatusOr<std::map<std::string, Victims>> got = x->ProcessPreemption(c.pod, in, pods);
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_EQ(got->at("a").pods.size(), 1u);
  EXPECT_EQ(got->at("a").pods[0], &v2);
  EXPECT_EQ(got->at("a").num_pdb_violations, 1);
  EXPECT_TRUE(server.Received("preempt")["NodeNameToVictims"].is_null());
  EXPECT_EQ(server.Received("preempt")["NodeNameToMetaVictims"]["a"]["Pods"].size(), 2u);

  server.Set("preempt", {200, R"({"NodeNameToMetaVictims":{"b":{"Pods":[]}}})"});
  EXPECT_EQ(x->ProcessPreemption(c.pod, in, pods).status().message(),
            "nodeinfo not found for node name \"b\"");
  server.Set("preempt", {200, R"({"NodeNameToMetaVictims":{"a":{"Pods":[{"UID":"u9"}]}}})"});
  EXPECT_EQ(x->ProcessPreemption(c.pod, in, pods).status().message(),
            "extender: " + server.Url() +
                " claims to preempt pod (UID: &{u9}) on node: a, but the pod "
                "is not found on that node");
}

TEST(HttpExtender, IsInterested) {
  Extender e;
  EXPECT_TRUE(Make(e)->IsInterested(Pod{}));
  e.managed_resources = {{"example.com/gpu", false}};
  std::unique_ptr<HttpExtender> x = Make(e);
  Pod plain;
  plain.containers.push_back(Container{});
  plain.containers[0].requests["cpu"] = 100;
  EXPECT_FALSE(x->IsInterested(plain));
  Pod limits = plain;
  limits.containers[0].limits["example.com/gpu"] = 1;
  EXPECT_TRUE(x->IsInterested(limits));
  Pod init = plain;
  init.init_containers.push_back(Container{});
  init.init_containers[0].requests["example.com/gpu"] = 1;
  EXPECT_TRUE(x->IsInterested(init));
}

TEST(HttpExtender, UnsupportedTls) {
  Extender e;
  e.tls_config = ExtenderTLSConfig{};
  e.tls_config->server_name = "x";
  EXPECT_FALSE(HttpExtender::Create(e).ok());
  e.tls_config->server_name = "";
  e.tls_config->ca_data = "not pem";
  EXPECT_FALSE(HttpExtender::Create(e).ok());
}


// A self-signed certificate for 127.0.0.1 (CN and subjectAltName), made
// in process so that the test needs no openssl command.
struct SelfSigned {
  EVP_PKEY* key = nullptr;
  X509* cert = nullptr;
  SelfSigned() {
    key = EVP_RSA_gen(2048);
    cert = X509_new();
    ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert), -60);
    X509_gmtime_adj(X509_getm_notAfter(cert), 24 * 3600);
    X509_set_pubkey(cert, key);
    X509_NAME* name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                               reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
    X509_set_issuer_name(cert, name);
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, cert, cert, nullptr, nullptr, 0);
    X509_EXTENSION* san =
        X509V3_EXT_conf_nid(nullptr, &ctx, NID_subject_alt_name, "IP:127.0.0.1");
    X509_add_ext(cert, san, -1);
    X509_EXTENSION_free(san);
    X509_sign(cert, key, EVP_sha256());
  }
  ~SelfSigned() {
    X509_free(cert);
    EVP_PKEY_free(key);
  }
  std::string Pem() const {
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(bio, cert);
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    std::string out(data, static_cast<size_t>(n));
    BIO_free(bio);
    return out;
  }
};

// An HTTPS extender on 127.0.0.1 whose filter keeps node "a".
class TlsExtender {
 public:
  explicit TlsExtender(const SelfSigned& identity) : server_(identity.cert, identity.key) {
    server_.Post("/prefix/filter", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"NodeNames":["a"]})", "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    while (!server_.is_running()) std::this_thread::yield();
  }
  ~TlsExtender() {
    server_.stop();
    thread_.join();
  }
  std::string Url() const { return "https://127.0.0.1:" + std::to_string(port_) + "/prefix"; }

 private:
  httplib::SSLServer server_;
  int port_ = 0;
  std::thread thread_;
};

// HTTPS as upstream's makeTransport sets it up: tlsConfig's CA (file or
// data) verifies the server; enableHTTPS without a CA, or insecure, does
// not verify; a CA that did not sign the server's certificate fails the
// call with a transport error naming the URL.
TEST(HttpExtender, Https) {
  const SelfSigned identity, stranger;
  TlsExtender server(identity);
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = tmp != nullptr ? tmp : "/tmp";
  const std::string ca_file = dir + "/extender-ca.pem";
  const std::string wrong_ca_file = dir + "/extender-wrong-ca.pem";
  std::ofstream(ca_file) << identity.Pem();
  std::ofstream(wrong_ca_file) << stranger.Pem();
  struct Case {
    std::string name;
    bool enable_https;
    std::optional<ExtenderTLSConfig> tls;
    bool ok;
  };
  auto tls = [](auto set) {
    ExtenderTLSConfig t;
    set(t);
    return std::optional<ExtenderTLSConfig>(t);
  };
  const std::vector<Case> cases = {
      {"caFile verifies", true, tls([&](ExtenderTLSConfig& t) { t.ca_file = ca_file; }), true},
      {"caData verifies", true, tls([&](ExtenderTLSConfig& t) { t.ca_data = identity.Pem(); }),
       true},
      {"enableHTTPS without a CA does not verify", true, std::nullopt, true},
      {"insecure does not verify", false,
       tls([](ExtenderTLSConfig& t) { t.insecure = true; }), true},
      {"another CA fails", true,
       tls([&](ExtenderTLSConfig& t) { t.ca_file = wrong_ca_file; }), false},
      {"another CA's data fails", true,
       tls([&](ExtenderTLSConfig& t) { t.ca_data = stranger.Pem(); }), false},
  };
  Cluster c;
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    Extender e = Config(server.Url());
    e.enable_https = tc.enable_https;
    e.tls_config = tc.tls;
    e.node_cache_capable = true;  // the reply names nodes
    std::unique_ptr<HttpExtender> x = Make(e);
    StatusOr<HttpExtender::Filtered> got = x->Filter(c.pod, c.Nodes());
    if (tc.ok) {
      ASSERT_TRUE(got.ok()) << got.status().message();
      EXPECT_EQ(got->feasible, std::vector<std::string>{"a"});
    } else {
      ASSERT_FALSE(got.ok());
      EXPECT_NE(got.status().message().find(server.Url() + "/filter"), std::string::npos)
          << got.status().message();
    }
  }
}

}  // namespace
}  // namespace schedref::api::extender
