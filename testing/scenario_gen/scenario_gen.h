// RapidCheck generators of valid scenarios (docs/scenario-format.md) for
// system-level properties of a scheduler: small clusters of labelled,
// tainted nodes, pods that select, tolerate, (anti-)attract and spread over
// those labels, and timelines that create and delete pods, add, delete and
// relabel nodes, and lift scheduling gates.
//
// Every generator draws from one shared vocabulary (the constants below), so
// that selectors match some nodes and pods and miss others. Values shrink
// towards the plainest case: fewer objects, optional features off (except
// that a node keeps its zone and a pod its app label, as most do), the
// first vocabulary entry.
//
// A generated scenario is what api::DecodeScenario returns for its
// EncodeScenario text (admission already applied: uids, priorities,
// preemption policies, creation timestamps, the defaulted configuration),
// and it satisfies the rules the properties rely on, stated at GenScenario.
#ifndef SCHEDREF_TESTING_SCENARIO_GEN_SCENARIO_GEN_H_
#define SCHEDREF_TESTING_SCENARIO_GEN_SCENARIO_GEN_H_

#include <rapidcheck.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "api/codec/scenario_encode.h"
#include "api/types/objects.h"
#include "api/types/scenario.h"

namespace schedref::testing::scenario_gen {

// --- The vocabulary ---------------------------------------------------------

inline constexpr char kNamespace[] = "default";
inline constexpr char kHostnameKey[] = "kubernetes.io/hostname";
inline constexpr char kZoneKey[] = "topology.kubernetes.io/zone";
inline constexpr char kRegionKey[] = "topology.kubernetes.io/region";
inline constexpr char kTierKey[] = "example.com/tier";
// Integer values, so that Gt / Lt node selector operators mean something.
inline constexpr char kRackKey[] = "example.com/rack";
// Pod label keys: what affinity terms and spread constraints select.
inline constexpr char kAppKey[] = "app";
inline constexpr char kTrackKey[] = "track";
// The taint upstream's NodeUnschedulable plugin treats a cordoned node as.
inline constexpr char kUnschedulableTaintKey[] =
    "node.kubernetes.io/unschedulable";

// Values the generators use for the keys above.
const std::vector<std::string>& Zones();    // z1 z2 z3
const std::vector<std::string>& Regions();  // r1 r2
const std::vector<std::string>& Tiers();    // gold silver
const std::vector<std::string>& Racks();    // 1 2 3 4
const std::vector<std::string>& Apps();     // web db cache
// Taint keys nodes may carry (pods tolerate only these, the unschedulable
// taint, and wildcards limited to NoExecute / PreferNoSchedule).
const std::vector<std::string>& TaintKeys();
// Container images, each with the size nodes report for it.
const std::vector<std::string>& Images();
// Pod priorities (spec.priority; no PriorityClass objects).
const std::vector<int32_t>& Priorities();  // 0 10 100

// --- Pieces -----------------------------------------------------------------

// Node labels: always the hostname; zone, region, tier and rack sometimes.
rc::Gen<api::Labels> GenNodeLabels(const std::string& node_name);
// Up to three taints with distinct (key, effect), every effect possible.
rc::Gen<std::vector<api::Taint>> GenTaints();
// Allocatable cpu, memory and pods from small sets.
rc::Gen<api::ResourceList> GenAllocatable();
// A node with allocatable (= capacity) cpu, memory and pods from small
// sets, labels, taints, sometimes cordoned, sometimes holding images.
rc::Gen<api::Node> GenNode(const std::string& name);
// A toleration of a vocabulary taint, the unschedulable taint, or a
// wildcard (empty key, Exists) for NoExecute or PreferNoSchedule only.
rc::Gen<api::Toleration> GenToleration();
// One requirement over the node label vocabulary (every operator).
rc::Gen<api::NodeSelectorRequirement> GenNodeSelectorRequirement();
rc::Gen<api::NodeSelectorTerm> GenNodeSelectorTerm();
rc::Gen<api::NodeAffinity> GenNodeAffinity();
// A selector over pod labels (app, track).
rc::Gen<api::LabelSelector> GenPodLabelSelector();
// A pod (anti-)affinity term over hostname, zone or region.
rc::Gen<api::PodAffinityTerm> GenPodAffinityTerm();
rc::Gen<api::PodAffinity> GenPodAffinity();
// A spread constraint over hostname, zone, tier or rack (never region:
// see GenScenario).
rc::Gen<api::TopologySpreadConstraint> GenSpreadConstraint();
// A regular (init = false) or init container; requests of cpu and memory
// present, explicitly zero, or absent.
rc::Gen<api::Container> GenContainer(const std::string& name, bool init);
// A pending pod of the default profile in namespace kNamespace, created at
// `created` (ms since the epoch), with everything the vocabulary allows:
// requests, priority, nodeSelector, node and pod (anti-)affinity,
// tolerations, spread constraints, host ports, scheduling gates.
rc::Gen<api::Pod> GenPod(const std::string& name, api::TimeMs created);

// --- Scenarios --------------------------------------------------------------

struct Options {
  // At least this many initial nodes (1 <= min_nodes <= max_nodes); a
  // larger value makes big clusters (e.g. 150 for filtering in parallel
  // batches and percentageOfNodesToScore's early stop, which need 100 nodes
  // or more). With 1, generation is exactly what it was before the knob.
  int min_nodes = 1;
  int max_nodes = 8;    // initial plus added by the timeline; at least 1
  int max_pods = 15;    // initial plus created by the timeline; at least 1
  int max_events = 16;  // timeline steps before the final advance
  // Whether the timeline may change the node tree's order other than by
  // adding nodes: deleting a node, changing a node's zone label. (Regions
  // never change.)
  bool node_tree_changes = true;
  // Whether shrinking may drop initial nodes above min_nodes and simplify
  // the others (labels, taints, allocatable, images). With hundreds of
  // nodes that takes hundreds or thousands of shrink steps, each a full
  // run; false keeps the initial nodes as generated and shrinks only the
  // pods and the timeline.
  bool shrink_nodes = true;
  // The chance, in percent, of a second profile (kSecondScheduler, default
  // plugins) with the pods spread over both and a few left to a scheduler
  // that is no profile (second_profile.h, AssignPods). 0 draws nothing, so
  // generation is exactly what it was before the knob.
  int second_profile_percent = 0;
  // The chance, in percent, of storage (AddStorage below): StorageClasses,
  // a CSIDriver, CSINodes with attach limits, PVs and claims in `objects`,
  // and pending pods that use claims. 0 draws nothing, so generation is
  // exactly what it was before the knob. Meaningful only for a profile
  // with the volume plugins: the storage invariants (invariants.h) fail
  // without them.
  int storage_percent = 0;
  // With storage drawn, also change it in the timeline (AddStorage's
  // `changes`). The storage invariants (invariants.h) read the initial
  // storage objects only, so the invariant properties leave it off.
  bool storage_changes = false;
  // The chance, in percent, of pod lifetimes (AddLifetimes below). 0 draws
  // nothing, so generation is exactly what it was before the knob.
  int lifetime_percent = 0;
  // The chance, in percent, of a declared scheduler extender
  // (AddDeclaredExtender below). 0 draws nothing, so generation is exactly
  // what it was before the knob.
  int extender_percent = 0;
};

// For use inside a generator or property: gives about half of the pods a
// lifetime (docs/scenario-format.md, "Pod lifetimes") of 0.5s to 8s,
// ending Succeeded or Failed, the same in every version of the pod (in
// `objects` and every timeline create and update). A pod may then finish
// before a timeline delete or update of it: those become the trace notes
// deleteIgnored and updateIgnored.
void AddLifetimes(api::Scenario& s);

// For use inside a generator or property: adds one scheduler extender to
// `s`'s configuration and declares its behaviour (api/types/
// declared_extender.h), served over HTTP for each run. Its verbs are drawn:
// filter (rejecting nodes by tier label or by name, failed or
// unresolvable, now and then an error), prioritize (scores by zone or by
// name, a weight of 1..3, now and then an HTTP error), bind (now and then
// refusing) and preempt (dropping candidates, keeping fewer victims);
// sometimes ignorable, nodeCacheCapable (then its rules name nodes) or
// interested only in pods with example.com/gpu.
void AddDeclaredExtender(api::Scenario& s);

// Storage vocabulary: the CSI driver every class provisions with, and the
// classes (kStorageClassWait: WaitForFirstConsumer; kStorageClassNow:
// Immediate).
inline constexpr char kCsiDriver[] = "ebs.csi.aws.com";
inline constexpr char kStorageClassWait[] = "wait";
inline constexpr char kStorageClassNow[] = "now";

// For use inside a generator or property: adds storage to `s`, in
// `objects` only (nothing on the timeline changes a storage object):
//  - the classes kStorageClassWait and kStorageClassNow (provisioner
//    kCsiDriver) and, sometimes, the CSIDriver kCsiDriver;
//  - for some initial nodes a CSINode with kCsiDriver, most with an
//    allocatable count of 0..3;
//  - claims "c1".."cN" (ReadWriteOnce, ReadWriteOncePod or ReadWriteMany):
//    bound (volumeName, bind-completed, phase Bound) to a CSI PV "pv-cI"
//    (claimRef set, a handle shared by two PVs now and then, sometimes a
//    zone node affinity), or unbound of either class; and Available PVs
//    "pv-freeI" of the WaitForFirstConsumer class;
//  - to some pods that are not bound in `objects`, the same in every
//    version of the pod: one or two claim volumes, now and then a claim
//    that does not exist or a generic ephemeral volume;
//  - iff `changes`, sometimes, in the timeline, that missing claim
//    created, a claim deleted (under pods that use it) and a CSINode's
//    limit changed, each right after a random event.
// Pods bound in `objects` get no volumes, so the initial state satisfies
// the storage invariants.
void AddStorage(api::Scenario& s, bool changes);

// A scenario with the default configuration (one default-scheduler
// profile, or sometimes two: Options::second_profile_percent), a random seed, sometimes a bind latency, min_nodes..max_nodes
// nodes
// (sometimes all with the same allocatable, so that scores tie),
// 1..max_pods pods in namespace kNamespace, some bound in `objects`, and a
// timeline of pod creations (some with a Bind failure armed), deletions and
// gate lifts, node additions, deletions and updates, injected Bind
// failures, and advances, ending with an advance that lets backoffs run
// out.
//
// Shrinking drops nodes, pods and timeline steps one at a time: objects are
// generated unnamed and named by position, and each step picks its target
// by index among what exists when it happens.
//
// Guarantees the properties rely on:
//  - names are never reused: a deleted pod or node is never created again;
//  - pods bound in `objects` fit their node (cpu, memory, pods, host
//    ports); no timeline pod is created bound; no host port names a host IP;
//  - node updates change labels, taints and unschedulable only, never
//    allocatable or images;
//  - pod updates only lift scheduling gates of a pod that is still gated
//    (so never attempted and unbound); priorities never change;
//  - the timeline deletes a pod only if its priority is at least that of
//    every pod defined so far, so no preemption can have deleted it first;
//  - no toleration tolerates a NoSchedule taint whose key is neither in
//    TaintKeys() nor the unschedulable taint's (wildcards are generated for
//    NoExecute and PreferNoSchedule only);
//  - no spread constraint uses the region key;
//  - no node affinity term uses matchFields (so there is no
//    PreFilterResult: with fewer than 100 nodes every cycle filters every
//    node).
rc::Gen<api::Scenario> GenScenario(Options options = {});

// The same scenario as EncodeScenario would write it and DecodeScenario
// read it back, or the decoder's error.
struct Canonical {
  bool ok = false;
  std::string error;
  api::Scenario scenario;
};
Canonical Canonicalize(const api::Scenario& scenario);

}  // namespace schedref::testing::scenario_gen

namespace schedref::api {

// RapidCheck prints a counterexample's generated values through showValue,
// found by argument-dependent lookup, hence this namespace: a scenario
// prints as its scenario file (EncodeScenario).
void showValue(const Scenario& scenario, std::ostream& os);

}  // namespace schedref::api

#endif  // SCHEDREF_TESTING_SCENARIO_GEN_SCENARIO_GEN_H_
