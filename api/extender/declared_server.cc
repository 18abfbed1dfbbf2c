#include "api/extender/declared_server.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include <httplib.h>

#include "api/extender/protocol.h"
#include "api/types/labels.h"

namespace schedref::api::extender {
namespace {

using nlohmann::json;

bool Names(const DeclaredNodes& nodes, const std::string& name,
           const Labels& labels, bool names_only) {
  if (std::find(nodes.names.begin(), nodes.names.end(), name) !=
      nodes.names.end()) {
    return true;
  }
  return !names_only && nodes.selector.has_value() &&
         Matches(*nodes.selector, labels);
}

Reply BadRequest(const Status& s) {
  return Reply{400, json({{"Error", s.message()}}).dump(), 0};
}

}  // namespace

Reply Answer(const DeclaredExtender& declared, const Extender& config,
             const std::string& verb, const std::string& body) {
  const DeclaredReply* how = nullptr;
  if (verb == config.filter_verb && declared.filter.has_value()) {
    how = &declared.filter->reply;
  } else if (verb == config.prioritize_verb && declared.prioritize.has_value()) {
    how = &declared.prioritize->reply;
  } else if (verb == config.bind_verb && declared.bind.has_value()) {
    how = &*declared.bind;
  } else if (verb == config.preempt_verb && declared.preempt.has_value()) {
    how = &declared.preempt->reply;
  }
  if (how == nullptr) return Reply{404, "{}", 0};
  Reply out;
  out.delay_ns = how->delay_ms * 1'000'000;
  if (how->status != 200) {
    out.status = how->status;
    out.body = "{}";
    return out;
  }
  if (how->body.has_value()) {
    out.body = *how->body;
    return out;
  }
  const json args = json::parse(body, nullptr, false);
  if (args.is_discarded()) return BadRequest(Status::Invalid("request is not JSON"));

  if (declared.bind.has_value() && how == &*declared.bind) {
    out.body = EncodeBindingResult(how->error).dump();
    return out;
  }
  if (declared.preempt.has_value() && how == &declared.preempt->reply) {
    StatusOr<std::map<std::string, MetaVictims>> in = DecodePreemptionArgs(args);
    if (!in.ok()) return BadRequest(in.status());
    std::map<std::string, MetaVictims> kept;
    for (auto& [node, victims] : *in) {
      if (std::find(declared.preempt->drop.begin(), declared.preempt->drop.end(),
                    node) != declared.preempt->drop.end()) {
        continue;
      }
      if (declared.preempt->keep_victims.has_value() &&
          static_cast<int64_t>(victims.pod_uids.size()) >
              *declared.preempt->keep_victims) {
        victims.pod_uids.resize(
            static_cast<size_t>(*declared.preempt->keep_victims));
      }
      kept[node] = std::move(victims);
    }
    out.body = EncodePreemptionResult(kept).dump();
    return out;
  }
  StatusOr<ReceivedArgs> in = DecodeArgs(args);
  if (!in.ok()) return BadRequest(in.status());
  if (declared.filter.has_value() && how == &declared.filter->reply) {
    FilterResult result;
    std::vector<std::string> passing;
    for (size_t i = 0; i < in->node_names.size(); ++i) {
      const std::string& name = in->node_names[i];
      const DeclaredReject* rule = nullptr;
      for (const DeclaredReject& r : declared.filter->reject) {
        if (Names(r.nodes, name, in->node_labels[i], in->names_only)) {
          rule = &r;
          break;
        }
      }
      if (rule == nullptr) {
        passing.push_back(name);
      } else if (rule->unresolvable) {
        result.failed_and_unresolvable_nodes[name] = rule->reason;
      } else {
        result.failed_nodes[name] = rule->reason;
      }
    }
    if (in->names_only) {
      result.node_names = std::move(passing);
    } else {
      result.nodes = std::move(passing);
    }
    result.error = how->error;
    out.body = EncodeFilterResult(result).dump();
    return out;
  }
  // prioritize
  std::vector<HostPriority> list;
  for (size_t i = 0; i < in->node_names.size(); ++i) {
    const std::string& name = in->node_names[i];
    int64_t score = declared.prioritize->default_score;
    for (const DeclaredScore& s : declared.prioritize->scores) {
      if (Names(s.nodes, name, in->node_labels[i], in->names_only)) {
        score = s.score;
        break;
      }
    }
    list.push_back(HostPriority{name, score});
  }
  out.body = EncodeHostPriorityList(list).dump();
  return out;
}

struct DeclaredServer::Impl {
  DeclaredExtender declared;
  Extender config;
  httplib::Server server;
  std::thread thread;
};

DeclaredServer::DeclaredServer(std::unique_ptr<Impl> impl, int port)
    : impl_(std::move(impl)), port_(port) {}

DeclaredServer::~DeclaredServer() {
  impl_->server.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

StatusOr<std::unique_ptr<DeclaredServer>> DeclaredServer::Start(
    DeclaredExtender declared, Extender config) {
  auto impl = std::make_unique<Impl>();
  impl->declared = std::move(declared);
  impl->config = std::move(config);
  Impl* self = impl.get();
  impl->server.Post(".*", [self](const httplib::Request& req,
                                 httplib::Response& res) {
    const size_t slash = req.path.rfind('/');
    const std::string verb =
        slash == std::string::npos ? req.path : req.path.substr(slash + 1);
    const Reply r = Answer(self->declared, self->config, verb, req.body);
    res.status = r.status;
    if (r.delay_ns > 0) {
      res.set_header(kVirtualDelayHeader, std::to_string(r.delay_ns));
    }
    res.set_content(r.body, "application/json");
  });
  const int port = impl->server.bind_to_any_port("127.0.0.1");
  if (port <= 0) {
    return Status::FailedPrecondition(
        "declared extender \"" + impl->declared.url_prefix +
        "\": cannot listen on 127.0.0.1");
  }
  impl->thread = std::thread([self] { self->server.listen_after_bind(); });
  for (int i = 0; i < 5000 && !impl->server.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (!impl->server.is_running()) {
    impl->server.stop();
    impl->thread.join();
    return Status::FailedPrecondition(
        "declared extender \"" + impl->declared.url_prefix +
        "\": the server on 127.0.0.1 did not start");
  }
  return std::unique_ptr<DeclaredServer>(new DeclaredServer(std::move(impl), port));
}

}  // namespace schedref::api::extender
