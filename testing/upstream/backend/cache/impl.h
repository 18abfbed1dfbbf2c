// The node tree the upstream-transcribed cache tests run against, chosen
// by SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED
// (bazel/upstream_test.bzl), and how each shows its zones: the reference
// keeps the zone -> nodes map, the optimized tree lists zones and their
// nodes.
#ifndef SCHEDREF_TESTING_UPSTREAM_BACKEND_CACHE_IMPL_H_
#define SCHEDREF_TESTING_UPSTREAM_BACKEND_CACHE_IMPL_H_

#include <map>
#include <string>
#include <vector>

#if defined(SCHEDREF_IMPL_REFERENCE)
#include "reference/backend/cache/node_tree.h"
#include "reference/framework/testing/wrappers.h"
#define SCHEDREF_CACHE_NS schedref::reference::cache
#elif defined(SCHEDREF_IMPL_OPTIMIZED)
#include "optimized/backend/cache/node_tree.h"
#include "testing/st/wrappers.h"
#define SCHEDREF_CACHE_NS schedref::optimized::backend::cache
#else
#error "define SCHEDREF_IMPL_REFERENCE or SCHEDREF_IMPL_OPTIMIZED"
#endif

namespace SCHEDREF_CACHE_NS {

#if defined(SCHEDREF_IMPL_REFERENCE)
namespace st = framework::st;

inline std::map<std::string, std::vector<std::string>> TreeOf(
    const NodeTree& tree) {
  return tree.Tree();
}
#else
inline std::map<std::string, std::vector<std::string>> TreeOf(
    const NodeTree& tree) {
  std::map<std::string, std::vector<std::string>> out;
  for (const std::string& zone : tree.Zones()) {
    out[zone] = tree.NodesInZone(zone);
  }
  return out;
}
#endif

}  // namespace SCHEDREF_CACHE_NS

#endif  // SCHEDREF_TESTING_UPSTREAM_BACKEND_CACHE_IMPL_H_
