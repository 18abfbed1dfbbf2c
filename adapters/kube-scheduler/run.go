package main

// One scenario run: upstream's scheduler, built by scheduler.New from the
// scenario's configuration, driven one scheduling cycle at a time on a
// fake clock (docs/semantics/event-loop.md is the loop; this file follows
// its steps). The trace is read off upstream's own results: the
// ScheduleResult and the FitError of each cycle, the statuses and scores
// its framework returns, the nomination PostFilter makes, the pods its
// preemption deletes and the end of each binding cycle.

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sort"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler"
	schedulerapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	clocktesting "k8s.io/utils/clock/testing"

	"schedref.local/adapters/kube-scheduler/testplugins"
)

// How long (wall clock) the adapter waits for a binding cycle that should
// finish at the current instant. Upstream's VolumeBinding PreBind polls the
// API server for a PV controller's bindings, which this adapter does not
// run; such a cycle is reported instead of hanging the runner.
const bindingWallTimeout = 5 * time.Second

// unsupportedFeatures are the feature tags (docs/conformance-protocol.md)
// the adapter declares unsupported (schedref's test plugins are in
// testplugins/, registered in outoftree.go). extenders: a golden's
// extenders are played by schedref and answer with a virtual delay in a
// schedref-only response header, which upstream's HTTP extender client
// cannot honour (it times calls on the wall clock), and nothing serves
// them to the adapter.
func unsupportedFeatures() []string {
	return []string{"extenders"}
}

type filterResult struct {
	node   string
	status *framework.Status
}

// cycleRecord is what one scheduling cycle did, filled in by the hooks.
type cycleRecord struct {
	mu            sync.Mutex
	pod           *v1.Pod
	cycle         int64
	filtered      []filterResult
	scores        []framework.NodePluginScores
	scheduled     bool
	result        scheduler.ScheduleResult
	failure       *framework.Status
	postFilterRan bool
	nominated     string
	waitMessage   string // Permit's Wait status
}

type binding struct {
	cycle int64
	key   string
	node  string
	done  chan struct{}
	// blocked: its Bind call is held for a bind latency (until the loop
	// releases it).
	blocked bool
	// waited: the pod waited at Permit. Its binding cycle goes on only in
	// step 3 of an instant (docs/semantics/event-loop.md): permitDone is
	// closed when upstream's WaitOnPermit returns, resume by the loop.
	waited     bool
	permitDone chan struct{}
	resume     chan struct{}
}

type run struct {
	ctx      context.Context
	sched    *scheduler.Scheduler
	pq       *queue.PriorityQueue
	cl       *cluster
	clock    *clocktesting.FakeClock
	tw       *traceWriter
	feasible bool
	logger   klog.Logger
	// preempted: the victims of this run's preemptions, by UID.
	preempted *preemptionRecorder

	cycles int64
	mu     sync.Mutex
	cur    *cycleRecord
	// bindings: binding cycles that have not ended, by pod UID.
	bindings map[string]*binding
	// permitWaits: pods waiting at TestPermit, with their virtual deadline.
	permitWaits []permitWait
	// verdicts: allow and reject events of this instant, applied in step 3.
	verdicts []verdict
}

type permitWait struct {
	deadline int64
	cycle    int64
	pod      *v1.Pod
	timeout  time.Duration
}

type verdict struct {
	key    string
	allow  bool
	plugin string
}

// recordingFramework is a profile's framework with hooks on the calls
// scheduleOne makes through it. Every call goes to upstream's framework.
type recordingFramework struct {
	framework.Framework
	r *run
}

func (f *recordingFramework) RunFilterPluginsWithNominatedPods(ctx context.Context, state *framework.CycleState, pod *v1.Pod, info *framework.NodeInfo) *framework.Status {
	s := f.Framework.RunFilterPluginsWithNominatedPods(ctx, state, pod, info)
	if c := f.r.current(); c != nil {
		c.mu.Lock()
		c.filtered = append(c.filtered, filterResult{info.Node().Name, s})
		c.mu.Unlock()
	}
	return s
}

func (f *recordingFramework) RunScorePlugins(ctx context.Context, state *framework.CycleState, pod *v1.Pod, nodes []*framework.NodeInfo) ([]framework.NodePluginScores, *framework.Status) {
	scores, s := f.Framework.RunScorePlugins(ctx, state, pod, nodes)
	if c := f.r.current(); c != nil {
		c.mu.Lock()
		// selectHost reorders the slice in place (a heap): keep a copy in
		// the feasible list's order.
		c.scores = append([]framework.NodePluginScores(nil), scores...)
		c.mu.Unlock()
	}
	return scores, s
}

func (f *recordingFramework) RunPostFilterPlugins(ctx context.Context, state *framework.CycleState, pod *v1.Pod, m framework.NodeToStatusReader) (*framework.PostFilterResult, *framework.Status) {
	res, s := f.Framework.RunPostFilterPlugins(ctx, state, pod, m)
	if c := f.r.current(); c != nil {
		c.mu.Lock()
		c.postFilterRan = true
		if res != nil && res.NominatingInfo != nil && res.NominatedNodeName != "" {
			c.nominated = res.NominatedNodeName
		}
		c.mu.Unlock()
	}
	return res, s
}

func (f *recordingFramework) RunPermitPlugins(ctx context.Context, state *framework.CycleState, pod *v1.Pod, nodeName string) *framework.Status {
	s := f.Framework.RunPermitPlugins(ctx, state, pod, nodeName)
	if s.IsWait() {
		if c := f.r.current(); c != nil {
			c.mu.Lock()
			c.waitMessage = s.Message()
			c.mu.Unlock()
		}
	}
	if s.IsSuccess() || s.IsWait() {
		// Permit is the scheduling cycle's last step that can fail: the
		// binding cycle starts next, in its own goroutine.
		if c := f.r.current(); c != nil {
			f.r.mu.Lock()
			f.r.bindings[string(pod.UID)] = &binding{cycle: c.cycle, key: podKey(pod), node: nodeName, done: make(chan struct{}),
				permitDone: make(chan struct{}), resume: make(chan struct{}), waited: s.IsWait()}
			f.r.mu.Unlock()
		}
	}
	return s
}

func (f *recordingFramework) WaitOnPermit(ctx context.Context, pod *v1.Pod) *framework.Status {
	s := f.Framework.WaitOnPermit(ctx, pod)
	f.r.mu.Lock()
	b := f.r.bindings[string(pod.UID)]
	f.r.mu.Unlock()
	if b != nil {
		close(b.permitDone)
		if b.waited {
			<-b.resume
		}
	}
	return s
}

func (f *recordingFramework) RunBindPlugins(ctx context.Context, state *framework.CycleState, pod *v1.Pod, nodeName string) *framework.Status {
	f.r.mu.Lock()
	b := f.r.bindings[string(pod.UID)]
	f.r.mu.Unlock()
	if b != nil {
		f.r.cl.holdBind(b.key, b.cycle)
	}
	return f.Framework.RunBindPlugins(ctx, state, pod, nodeName)
}

func (f *recordingFramework) RunPostBindPlugins(ctx context.Context, state *framework.CycleState, pod *v1.Pod, nodeName string) {
	f.Framework.RunPostBindPlugins(ctx, state, pod, nodeName)
	f.r.bindingEnded(pod, "bound", "")
	f.r.bindingFinished(pod)
}

func (r *run) current() *cycleRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cur
}

func (r *run) now() int64 {
	r.cl.mu.Lock()
	defer r.cl.mu.Unlock()
	return r.cl.now
}

// bindingEnded writes the binding record of pod's binding cycle; the
// cycle's goroutine ends right after.
func (r *run) bindingEnded(pod *v1.Pod, outcome, message string) {
	r.mu.Lock()
	b := r.bindings[string(pod.UID)]
	r.mu.Unlock()
	if b == nil {
		return
	}
	r.tw.add(bindingRecord{Kind: "binding", T: r.now(), Cycle: b.cycle, Pod: b.key, Node: b.node, Outcome: outcome, Message: message})
}

func (r *run) bindingFinished(pod *v1.Pod) {
	r.mu.Lock()
	b := r.bindings[string(pod.UID)]
	delete(r.bindings, string(pod.UID))
	r.mu.Unlock()
	if b != nil {
		close(b.done)
	}
}

func runScenario(file string, text []byte, wantFeasible bool) (lines []any, err error) {
	defer func() {
		if p := recover(); p != nil {
			lines = nil
			err = fmt.Errorf("%s: the adapter panicked: %v\n%s", file, p, debug.Stack())
		}
	}()
	sc, err := decodeScenario(file, text)
	if err != nil {
		return nil, err
	}
	cfg, maxUnschedulable, err := decodeConfig(sc.config)
	if err != nil {
		return nil, fmt.Errorf("%s: config: %v", file, err)
	}
	tw := newTraceWriter()
	cl := newCluster(sc.start, tw, sc.bindLatencyMs)
	fc := clocktesting.NewFakeClock(sc.start)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	preempted := &preemptionRecorder{victims: map[types.UID]bool{}}
	recorders := func(string) events.EventRecorder { return preempted }
	sched, err := scheduler.New(ctx, cl.client, cl.factory, nil, recorders,
		scheduler.WithProfiles(cfg.Profiles...),
		scheduler.WithPercentageOfNodesToScore(cfg.PercentageOfNodesToScore),
		scheduler.WithParallelism(cfg.Parallelism),
		scheduler.WithPodInitialBackoffSeconds(cfg.PodInitialBackoffSeconds),
		scheduler.WithPodMaxBackoffSeconds(cfg.PodMaxBackoffSeconds),
		scheduler.WithPodMaxInUnschedulablePodsDuration(maxUnschedulable),
		scheduler.WithExtenders(cfg.Extenders...),
		scheduler.WithFrameworkOutOfTreeRegistry(outOfTreeRegistry()),
	)
	if err != nil {
		return nil, fmt.Errorf("%s: config: %v", file, err)
	}
	defer sched.Profiles.Close()
	pq, ok := sched.SchedulingQueue.(*queue.PriorityQueue)
	if !ok {
		return nil, fmt.Errorf("scheduler.New built a %T, not upstream's PriorityQueue", sched.SchedulingQueue)
	}
	if err := setQueueClock(pq, fc); err != nil {
		return nil, err
	}
	r := &run{ctx: ctx, sched: sched, pq: pq, cl: cl, clock: fc, tw: tw, feasible: wantFeasible,
		logger: klog.FromContext(ctx), bindings: map[string]*binding{}, preempted: preempted}
	r.hook()
	if err := r.loop(sc); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	tw.add(map[string]any{"kind": "placements", "placements": cl.placements()})
	return tw.lines, nil
}

// hook puts the recorders around upstream's scheduleOne steps.
func (r *run) hook() {
	for name, fwk := range r.sched.Profiles {
		r.sched.Profiles[name] = &recordingFramework{Framework: fwk, r: r}
	}
	next := r.sched.NextPod
	r.sched.NextPod = func(logger klog.Logger) (*framework.QueuedPodInfo, error) {
		pi, err := next(logger)
		if pi != nil && pi.Pod != nil {
			r.cycles++
			r.mu.Lock()
			r.cur = &cycleRecord{pod: pi.Pod, cycle: r.cycles}
			r.mu.Unlock()
			r.cl.mu.Lock()
			r.cl.preemptor = podKey(pi.Pod)
			r.cl.mu.Unlock()
		}
		return pi, err
	}
	schedulePod := r.sched.SchedulePod
	r.sched.SchedulePod = func(ctx context.Context, fwk framework.Framework, state *framework.CycleState, pod *v1.Pod) (scheduler.ScheduleResult, error) {
		res, err := schedulePod(ctx, fwk, state, pod)
		if c := r.current(); c != nil {
			c.mu.Lock()
			c.scheduled = true
			c.result = res
			c.mu.Unlock()
		}
		return res, err
	}
	failure := r.sched.FailureHandler
	r.sched.FailureHandler = func(ctx context.Context, fwk framework.Framework, podInfo *framework.QueuedPodInfo, status *framework.Status, nominatingInfo *framework.NominatingInfo, start time.Time) {
		r.mu.Lock()
		_, inBinding := r.bindings[string(podInfo.Pod.UID)]
		c := r.cur
		r.mu.Unlock()
		if inBinding {
			outcome := "failed"
			if status.IsRejected() {
				outcome = "rejected"
			}
			// The handler replaces podInfo's pod with the informer's copy,
			// which may be another pod of the same name.
			pod := podInfo.Pod
			message := status.Message()
			if fitErr, ok := status.AsError().(*framework.FitError); ok {
				// A rejection in the binding cycle (Permit, PreBind) comes
				// wrapped in a FitError for one node; the trace carries the
				// rejecting plugin's own status.
				r.mu.Lock()
				if b := r.bindings[string(pod.UID)]; b != nil {
					message = fitErr.Diagnosis.NodeToStatus.Get(b.node).Message()
				}
				r.mu.Unlock()
			}
			r.bindingEnded(pod, outcome, message)
			failure(ctx, fwk, podInfo, status, nominatingInfo, start)
			r.bindingFinished(pod)
			return
		}
		if c != nil {
			c.mu.Lock()
			c.failure = status
			c.mu.Unlock()
		}
		failure(ctx, fwk, podInfo, status, nominatingInfo, start)
	}
}

func (r *run) setNow(t int64) {
	r.cl.mu.Lock()
	r.cl.now = t
	r.cl.mu.Unlock()
	r.clock.SetTime(r.cl.start.Add(time.Duration(t) * time.Millisecond))
}

// loop is docs/semantics/event-loop.md.
func (r *run) loop(sc *decodedScenario) error {
	r.setNow(0)
	if err := r.start(sc.initial); err != nil {
		return err
	}
	next := 0
	var t int64
	for {
		r.setNow(t)
		// 1. timeline events at t, then graceful terminations due at t,
		// then the pods whose lifetimes end at t.
		for next < len(sc.events) && sc.events[next].at == t {
			if err := r.apply(sc.events[next], next); err != nil {
				return err
			}
			next++
		}
		r.cl.finishTerminations()
		r.cl.finishLifetimes()
		// 2. Permit deadlines due now (and the instant's allow and reject
		// events, which upstream's waiting pods take at once).
		ended := r.endedWaits(t, r.verdicts)
		r.expirePermits(t)
		r.applyVerdicts()
		// 3. binding cycles that can go on: waiting pods whose wait ended,
		// then Binds that complete now, in cycle order.
		if err := r.resumePermits(ended); err != nil {
			return err
		}
		if err := r.releaseBinds(t); err != nil {
			return err
		}
		// 4. the queue's flushes.
		if t%1000 == 0 {
			flushBackoffQCompleted(r.pq, r.logger)
			if t%30000 == 0 {
				flushUnschedulablePodsLeftover(r.pq, r.logger)
			}
		}
		// 5. scheduling cycles while activeQ has pods.
		for len(r.pq.PodsInActiveQ()) > 0 {
			if err := r.scheduleOne(t); err != nil {
				return err
			}
		}
		nt := (t/1000 + 1) * 1000
		if next < len(sc.events) && sc.events[next].at < nt {
			nt = sc.events[next].at
		}
		r.cl.mu.Lock()
		for _, w := range r.cl.bindWaits {
			if w.at < nt {
				nt = w.at
			}
		}
		for _, term := range r.cl.terminations {
			if term.at < nt {
				nt = term.at
			}
		}
		nt = r.cl.nextLifetimeEnd(nt)
		r.cl.mu.Unlock()
		for _, w := range r.permitWaits {
			// A deadline of now (a 0 s timeout set by this instant's
			// cycles) fires at this same instant, as time.AfterFunc(0).
			d := w.deadline
			if d < t {
				d = t
			}
			if d < nt {
				nt = d
			}
		}
		if nt == t && len(r.permitWaits) > 0 {
			continue
		}
		if !sc.hasTimelineEnd || nt > sc.lastEventAt {
			return nil
		}
		t = nt
	}
}

// start adds the initial objects: namespaces, PDBs and the storage and
// controller objects first, then nodes, then pods in manifest order.
func (r *run) start(objs []runtime.Object) error {
	rank := func(o runtime.Object) int {
		switch o.(type) {
		case *v1.Node:
			return 1
		case *v1.Pod:
			return 2
		}
		return 0
	}
	sorted := append([]runtime.Object(nil), objs...)
	sort.SliceStable(sorted, func(i, j int) bool { return rank(sorted[i]) < rank(sorted[j]) })
	for _, o := range sorted {
		if err := r.cl.create(o); err != nil {
			k, key := kindAndKey(o)
			return fmt.Errorf("objects: %s %s: %v", k, key, err)
		}
	}
	return nil
}

func (r *run) apply(e event, i int) error {
	where := fmt.Sprintf("timeline[%d]", i)
	switch e.op {
	case "create":
		if err := r.cl.create(e.obj); err != nil {
			return fmt.Errorf("%s.create: %v", where, err)
		}
	case "update":
		if p, ok := e.obj.(*v1.Pod); ok {
			r.cl.mu.Lock()
			_, err := r.cl.getPod(p.Namespace, p.Name)
			r.cl.mu.Unlock()
			if apierrors.IsNotFound(err) {
				// Gone before its update came due (preempted, finished):
				// the API server would answer NotFound.
				r.tw.note(e.at, "updateIgnored", podKey(p), "pod no longer exists")
				return nil
			}
		}
		if err := r.cl.update(e.obj); err != nil {
			return fmt.Errorf("%s.update: %v", where, err)
		}
	case "delete":
		existed, err := r.cl.remove(e.kind, e.key)
		if err != nil {
			return fmt.Errorf("%s.delete: %v", where, err)
		}
		if !existed && e.kind == "Pod" {
			r.tw.note(e.at, "deleteIgnored", e.key, "pod no longer exists")
		}
	case "advance":
	case "failBind":
		r.cl.mu.Lock()
		r.cl.bindFailures[e.key] += e.count
		r.cl.mu.Unlock()
	case "bindLatency":
		r.cl.mu.Lock()
		r.cl.bindLatency[e.key] = e.dur
		r.cl.mu.Unlock()
	case "allow", "reject":
		r.verdicts = append(r.verdicts, verdict{key: e.key, allow: e.op == "allow", plugin: e.plugin})
	}
	return nil
}

// waitingPod is the pod key's waiting pod in its profile, if it waits.
func (r *run) waitingPod(pod *v1.Pod) framework.WaitingPod {
	fwk := r.sched.Profiles[pod.Spec.SchedulerName]
	if fwk == nil {
		return nil
	}
	return fwk.GetWaitingPod(pod.UID)
}

// applyVerdicts hands this instant's allow and reject events to the
// waiting pods.
func (r *run) applyVerdicts() {
	vs := r.verdicts
	r.verdicts = nil
	for _, v := range vs {
		for _, w := range r.permitWaits {
			if podKey(w.pod) != v.key {
				continue
			}
			if wp := r.waitingPod(w.pod); wp != nil {
				if v.allow {
					wp.Allow(v.plugin)
				} else {
					wp.Reject(v.plugin, "rejected by "+v.plugin)
				}
			}
		}
	}
}

// expirePermits rejects the pods whose TestPermit wait ends now, with
// upstream's timeout message (its waiting-pod timer, on virtual time).
func (r *run) expirePermits(t int64) {
	for _, w := range r.permitWaits {
		if w.deadline > t {
			continue
		}
		if wp := r.waitingPod(w.pod); wp != nil {
			wp.Reject(testplugins.Permit, fmt.Sprintf("rejected due to timeout after waiting %v at plugin %v", w.timeout, testplugins.Permit))
		}
	}
}

// preemptionRecorder is every profile's event recorder. It keeps the
// victims of upstream's "Preempted" events: the preemption evaluator
// emits one for each victim it preempts, the waiting pods it rejects
// through the framework's waiting-pod map included, synchronously inside
// PostFilter. Every other event is dropped.
type preemptionRecorder struct {
	mu      sync.Mutex
	victims map[types.UID]bool
}

func (p *preemptionRecorder) Eventf(regarding, _ runtime.Object, _, reason, _, _ string, _ ...interface{}) {
	pod, ok := regarding.(*v1.Pod)
	if !ok || reason != "Preempted" {
		return
	}
	p.mu.Lock()
	p.victims[pod.UID] = true
	p.mu.Unlock()
}

// reset forgets the victims of earlier cycles.
func (p *preemptionRecorder) reset() {
	p.mu.Lock()
	clear(p.victims)
	p.mu.Unlock()
}

// take reports whether this cycle preempted uid.
func (p *preemptionRecorder) take(uid types.UID) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	was := p.victims[uid]
	delete(p.victims, uid)
	return was
}

// resumePermits lets every binding cycle whose Permit wait has ended go on,
// in the order of their scheduling cycles, each finishing (or holding its
// Bind) before the next. expect names pods whose wait is known to be
// over (allowed, rejected, timed out, deleted, bound by another binder).
func (r *run) resumePermits(expect map[string]bool) error {
	sort.SliceStable(r.permitWaits, func(i, j int) bool { return r.permitWaits[i].cycle < r.permitWaits[j].cycle })
	var keep []permitWait
	for _, w := range r.permitWaits {
		r.mu.Lock()
		b := r.bindings[string(w.pod.UID)]
		r.mu.Unlock()
		if b == nil {
			continue
		}
		over := false
		if expect[podKey(w.pod)] {
			select {
			case <-b.permitDone:
				over = true
			case <-time.After(bindingWallTimeout):
				return fmt.Errorf("the Permit wait of %s did not end within %v of wall time", podKey(w.pod), bindingWallTimeout)
			}
		} else {
			select {
			case <-b.permitDone:
				over = true
			default:
			}
		}
		if !over {
			keep = append(keep, w)
			continue
		}
		close(b.resume)
		if err := r.waitBinding(b.key, b.done); err != nil {
			return err
		}
		r.mu.Lock()
		if _, still := r.bindings[string(w.pod.UID)]; still {
			b.blocked = true
		}
		r.mu.Unlock()
	}
	r.permitWaits = keep
	return nil
}

// endedWaits are the waiting pods that this instant's events, deadlines
// and verdicts release.
func (r *run) endedWaits(t int64, verdicts []verdict) map[string]bool {
	out := map[string]bool{}
	for _, v := range verdicts {
		out[v.key] = true
	}
	for _, w := range r.permitWaits {
		key := podKey(w.pod)
		if w.deadline <= t {
			out[key] = true
		}
		r.cl.mu.Lock()
		cur, err := r.cl.getPod(w.pod.Namespace, w.pod.Name)
		r.cl.mu.Unlock()
		if err != nil || cur.UID != w.pod.UID || cur.Spec.NodeName != "" {
			out[key] = true
		}
	}
	return out
}

// releaseBinds lets every Bind call due at t complete, in the order of
// their scheduling cycles, each binding cycle finishing before the next.
func (r *run) releaseBinds(t int64) error {
	for {
		r.cl.mu.Lock()
		var due *bindWait
		idx := -1
		for i, w := range r.cl.bindWaits {
			if w.at <= t && (due == nil || w.cycle < due.cycle) {
				due, idx = w, i
			}
		}
		if due != nil {
			r.cl.bindWaits = append(r.cl.bindWaits[:idx], r.cl.bindWaits[idx+1:]...)
		}
		r.cl.mu.Unlock()
		if due == nil {
			return nil
		}
		var done chan struct{}
		r.mu.Lock()
		for _, b := range r.bindings {
			if b.key == due.key {
				done = b.done
			}
		}
		r.mu.Unlock()
		r.mu.Lock()
		for _, b := range r.bindings {
			if b.key == due.key {
				b.blocked = false
			}
		}
		r.mu.Unlock()
		close(due.release)
		if done != nil {
			if err := r.waitBinding(due.key, done); err != nil {
				return err
			}
		}
	}
}

func (r *run) waitBinding(key string, done chan struct{}) error {
	select {
	case <-done:
		return nil
	case k := <-r.cl.bindBlocked:
		if k != key {
			return fmt.Errorf("binding of %s blocked while %s was finishing", k, key)
		}
		return nil
	case <-time.After(bindingWallTimeout):
		return fmt.Errorf("the binding cycle of %s did not finish within %v of wall time (a PreBind plugin waiting for something the adapter does not run, such as the PV controller)", key, bindingWallTimeout)
	}
}

// scheduleOne runs upstream's ScheduleOne for the head of activeQ and
// writes its attempt record; a binding cycle that can finish now finishes
// before it returns.
func (r *run) scheduleOne(t int64) error {
	r.tw.hold()
	r.mu.Lock()
	r.cur = nil
	r.mu.Unlock()
	r.preempted.reset()
	r.sched.ScheduleOne(r.ctx)
	r.mu.Lock()
	c := r.cur
	r.cur = nil
	var b *binding
	if c != nil {
		b = r.bindings[string(c.pod.UID)]
	}
	r.mu.Unlock()
	if c == nil {
		r.tw.release(nil)
		return nil
	}
	rec := r.attempt(c, t)
	waiting := false
	if rec.Outcome == "scheduled" {
		if fwk := r.sched.Profiles[c.pod.Spec.SchedulerName]; fwk != nil && fwk.GetWaitingPod(c.pod.UID) != nil {
			rec.Outcome, waiting = "waiting", true
			rec.Message = c.waitMessage
		}
	}
	if rec.Preemption != nil && rec.Preemption.NominatedNode != "" {
		r.noticePreemptedWaiters(c, &rec)
	}
	r.tw.release(rec)
	if waiting {
		timeout, err := testplugins.PermitTimeout(c.pod)
		if err == nil {
			r.permitWaits = append(r.permitWaits, permitWait{deadline: t + timeout.Milliseconds(), cycle: c.cycle, pod: c.pod, timeout: timeout})
		}
		return nil
	}
	if rec.Outcome == "scheduled" && b != nil {
		// The binding cycle runs in upstream's goroutine: wait for its end,
		// unless a bind latency holds its Bind call.
		if err := r.waitBinding(rec.Pod, b.done); err != nil {
			return err
		}
		r.mu.Lock()
		if _, still := r.bindings[string(c.pod.UID)]; still {
			b.blocked = true
		}
		r.mu.Unlock()
	}
	return nil
}

// noticePreemptedWaiters finds the waiting pods the cycle's preemption
// rejected (upstream rejects a waiting victim instead of deleting it): a
// victim of the cycle, and a victimRejectedAtPermit note.
func (r *run) noticePreemptedWaiters(c *cycleRecord, rec *attemptRecord) {
	for _, w := range r.permitWaits {
		if w.pod.Spec.NodeName != "" {
			continue
		}
		r.mu.Lock()
		b := r.bindings[string(w.pod.UID)]
		r.mu.Unlock()
		if b == nil || b.node != rec.Preemption.NominatedNode {
			continue
		}
		// Only a pod the evaluator preempted was rejected; its binding
		// cycle then leaves the wait at once, so the bound is only a guard.
		if !r.preempted.take(w.pod.UID) {
			continue
		}
		select {
		case <-b.permitDone:
		case <-time.After(bindingWallTimeout):
			continue
		}
		key := podKey(w.pod)
		rec.Preemption.Victims = append(rec.Preemption.Victims, key)
		r.tw.note(rec.T, "victimRejectedAtPermit", key, "preempted by "+podKey(c.pod))
	}
}

func (r *run) attempt(c *cycleRecord, t int64) attemptRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	rec := attemptRecord{Kind: "attempt", T: t, Cycle: c.cycle, Pod: podKey(c.pod), Profile: c.pod.Spec.SchedulerName}
	victims := r.cl.takeVictims()
	switch {
	case !c.scheduled:
		rec.Outcome = "skipped"
		if c.pod.DeletionTimestamp != nil {
			rec.Message = fmt.Sprintf("skip schedule deleting pod: %s/%s", c.pod.Namespace, c.pod.Name)
		}
	case c.failure != nil:
		r.fillFailure(c, &rec)
	default:
		rec.Outcome = "scheduled"
		rec.Node = c.result.SuggestedHost
		rec.Evaluated = c.result.EvaluatedNodes
		rec.Feasible = c.result.FeasibleNodes
		r.fillFilters(c, &rec)
		if rec.Feasible == 1 && r.feasible {
			// One node kept (the only feasible one, or the first of an
			// early stop): the chosen one. Others that passed while the
			// search was being cancelled were dropped.
			rec.FeasibleNodes = []string{rec.Node}
		} else if len(c.scores) > 0 && r.feasible {
			// The scores come in the order of upstream's feasible list
			// (the order its parallel search kept the nodes in); the
			// filter hooks only saw the order the checks ended in.
			rec.FeasibleNodes = nil
			for _, s := range c.scores {
				rec.FeasibleNodes = append(rec.FeasibleNodes, s.Name)
			}
		}
		rec.TopScores = topScores(c.scores, rec.Node)
	}
	if c.postFilterRan {
		rec.Preemption = &preemption{NominatedNode: c.nominated, Victims: victims}
	}
	return rec
}

func (r *run) fillFilters(c *cycleRecord, rec *attemptRecord) {
	last := map[string]*framework.Status{}
	var order []string
	for _, f := range c.filtered {
		if _, seen := last[f.node]; !seen {
			order = append(order, f.node)
		}
		last[f.node] = f.status
	}
	for _, n := range order {
		s := last[n]
		if s.IsSuccess() {
			if r.feasible && len(rec.FeasibleNodes) < rec.Feasible {
				rec.FeasibleNodes = append(rec.FeasibleNodes, n)
			}
			continue
		}
		if rec.Rejections == nil {
			rec.Rejections = map[string]rejection{}
		}
		rec.Rejections[n] = toRejection(s)
	}
}

func (r *run) fillFailure(c *cycleRecord, rec *attemptRecord) {
	s := c.failure
	if fitErr, ok := s.AsError().(*framework.FitError); ok {
		rec.Outcome = "unschedulable"
		rec.Message = fitErr.Error()
		if c.scheduled && c.result.SuggestedHost != "" {
			// Rejected after the filters (Reserve or Permit): the filters'
			// verdicts stand, and the node that rejected it is the chosen
			// one.
			rec.Evaluated = c.result.EvaluatedNodes
			rec.Feasible = c.result.FeasibleNodes
			r.fillFilters(c, rec)
			return
		}
		fitErr.Diagnosis.NodeToStatus.ForEachExplicitNode(func(node string, st *framework.Status) {
			if rec.Rejections == nil {
				rec.Rejections = map[string]rejection{}
			}
			rec.Rejections[node] = toRejection(st)
			rec.Evaluated++
		})
		return
	}
	// ErrNoNodesAvailable comes as UnschedulableAndUnresolvable, other
	// errors as Error.
	rec.Outcome = "error"
	if s.IsRejected() {
		rec.Outcome = "unschedulable"
	}
	rec.Message = s.Message()
	if c.scheduled {
		rec.Evaluated = c.result.EvaluatedNodes
		rec.Feasible = c.result.FeasibleNodes
		r.fillFilters(c, rec)
	}
}

func toRejection(s *framework.Status) rejection {
	return rejection{Plugin: s.Plugin(), Code: s.Code().String(), Reasons: s.Reasons()}
}

// topScores is up to three nodes: the chosen one first, then the others by
// total score, ties in the order the scores came (the feasible list's).
func topScores(scores []framework.NodePluginScores, chosen string) []nodeScore {
	if len(scores) == 0 {
		return nil
	}
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		sa, sb := scores[idx[a]], scores[idx[b]]
		if (sa.Name == chosen) != (sb.Name == chosen) {
			return sa.Name == chosen
		}
		return sa.TotalScore > sb.TotalScore
	})
	var out []nodeScore
	for i := 0; i < len(idx) && i < 3; i++ {
		out = append(out, nodeScore{Node: scores[idx[i]].Name, Score: scores[idx[i]].TotalScore})
	}
	return out
}

// decodeConfig decodes, defaults and validates the scenario's
// KubeSchedulerConfiguration with upstream's scheme. schedref's one
// addition, podMaxInUnschedulablePodsSeconds (upstream's flag
// --pod-max-in-unschedulable-pods-duration), is taken out first.
func decodeConfig(raw json.RawMessage) (*schedulerapi.KubeSchedulerConfiguration, time.Duration, error) {
	m := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, 0, err
		}
	}
	maxUnschedulable := 300 * time.Second
	if v, ok := m["podMaxInUnschedulablePodsSeconds"]; ok {
		f, _ := v.(float64)
		maxUnschedulable = time.Duration(f) * time.Second
		delete(m, "podMaxInUnschedulablePodsSeconds")
	}
	return decodeUpstreamConfig(m, maxUnschedulable)
}
