package main

// The cluster around the scheduler: an API server (client-go's fake
// clientset and its object tracker) whose every write reaches the
// scheduler's informers at once (syncInformer), with the API server's rules
// the scheduler depends on that the fake does not have: Binding, graceful
// deletion of bound pods, and the pod-update rules of
// docs/scenario-format.md ("timeline", update). Injected bind failures and
// bind latency are the scenario's (docs/semantics/event-loop.md).

import (
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	schedutil "k8s.io/kubernetes/pkg/scheduler/util"
)

// The kinds the scheduler's informers watch, by Go type.
var watchedTypes = []runtime.Object{
	&v1.Pod{}, &v1.Node{}, &v1.Namespace{}, &v1.PersistentVolume{},
	&v1.PersistentVolumeClaim{}, &v1.Service{}, &v1.ReplicationController{},
	&appsv1.ReplicaSet{}, &appsv1.StatefulSet{}, &policyv1.PodDisruptionBudget{},
	&storagev1.StorageClass{}, &storagev1.CSINode{}, &storagev1.CSIDriver{},
	&storagev1.CSIStorageCapacity{}, &storagev1.VolumeAttachment{},
	&schedulingv1.PriorityClass{},
}

type termination struct {
	at    int64
	key   string
	uid   string
	grace int64
}

// lifetime is a running pod's schedref.io/run-for: at is when it ends,
// seq the order in which the pods started running.
type lifetime struct {
	at     int64
	seq    int64
	key    string
	uid    string
	runFor int64
	phase  string
}

// The pod lifetime annotations (docs/scenario-format.md, "Pod lifetimes").
const (
	runForAnnotation   = "schedref.io/run-for"
	endPhaseAnnotation = "schedref.io/end-phase"
)

type bindWait struct {
	at      int64
	cycle   int64
	key     string
	release chan struct{}
}

type cluster struct {
	client    *fake.Clientset
	tracker   clienttesting.ObjectTracker
	factory   informers.SharedInformerFactory
	informers map[reflect.Type]*syncInformer

	// mu guards everything below, and serializes writes: upstream's
	// preemption deletes victims from several goroutines.
	mu           sync.Mutex
	now          int64 // ms of virtual time
	rv           int64 // the last resourceVersion handed out
	start        time.Time
	trace        *traceWriter
	preemptor    string    // the pod whose scheduling cycle runs, for victim notes
	victims      []*v1.Pod // deleted by the running cycle's preemption
	terminations []termination
	lifetimes    []lifetime
	started      int64 // lifetimes started so far
	bindFailures map[string]int
	bindLatency  map[string]int64 // pod key -> ms; "" for every pod
	bindWaits    []*bindWait
	bindBlocked  chan string
}

func newCluster(start time.Time, trace *traceWriter, defaultLatency int64) *cluster {
	c := &cluster{
		client:       fake.NewSimpleClientset(),
		informers:    map[reflect.Type]*syncInformer{},
		start:        start,
		trace:        trace,
		bindFailures: map[string]int{},
		bindLatency:  map[string]int64{"": defaultLatency},
		bindBlocked:  make(chan string, 16),
	}
	c.tracker = c.client.Tracker()
	c.factory = informers.NewSharedInformerFactory(c.client, 0)
	for _, t := range watchedTypes {
		var accept func(runtime.Object) bool
		if _, ok := t.(*v1.Pod); ok {
			// The scheduler's pod informer selects
			// status.phase!=Succeeded,status.phase!=Failed.
			accept = func(o runtime.Object) bool {
				p := o.(*v1.Pod)
				return p.Status.Phase != v1.PodSucceeded && p.Status.Phase != v1.PodFailed
			}
		}
		inf := newSyncInformer(accept)
		c.informers[reflect.TypeOf(t)] = inf
		c.factory.InformerFor(t, func(_ kubernetes.Interface, _ time.Duration) cache.SharedIndexInformer { return inf })
	}
	c.client.PrependReactor("*", "*", c.react)
	return c
}

func gvrOf(obj runtime.Object) (schema.GroupVersionResource, error) {
	kinds, _, err := scheme.Scheme.ObjectKinds(obj)
	if err != nil || len(kinds) == 0 {
		return schema.GroupVersionResource{}, fmt.Errorf("unknown kind %T", obj)
	}
	gvr, _ := meta.UnsafeGuessKindToResource(kinds[0])
	return gvr, nil
}

// deliver hands the tracker's current state of obj's key to its informer.
func (c *cluster) deliver(gvr schema.GroupVersionResource, exampleType reflect.Type, ns, name string) {
	inf := c.informers[exampleType]
	if inf == nil {
		return
	}
	key := name
	if ns != "" {
		key = ns + "/" + name
	}
	cur, err := c.tracker.Get(gvr, ns, name)
	if err != nil {
		inf.set(key, nil)
		return
	}
	// The fake tracker keeps no resourceVersions; the scheduler's handlers
	// ignore an update that keeps one. A write that changes nothing keeps
	// it (and is no event), as on the API server.
	next := cur.DeepCopyObject()
	m, _ := metaOf(next)
	if old, exists, _ := inf.indexer.GetByKey(key); exists {
		om, _ := metaOf(old.(runtime.Object))
		m.SetResourceVersion(om.GetResourceVersion())
		if reflect.DeepEqual(old, next) {
			return
		}
	}
	c.rv++
	m.SetResourceVersion(strconv.FormatInt(c.rv, 10))
	_ = c.tracker.Update(gvr, next.DeepCopyObject(), ns)
	if p, ok := next.(*v1.Pod); ok {
		c.startLifetime(inf, key, p)
	}
	inf.set(key, next)
}

// startLifetime starts p's lifetime, if it has one, when the informers are
// about to see it bound for the first time: created bound, or an update
// from unbound to bound (its Binding, or another binder's update).
func (c *cluster) startLifetime(inf *syncInformer, key string, p *v1.Pod) {
	runFor, ok := p.Annotations[runForAnnotation]
	if !ok || p.Spec.NodeName == "" || (inf.accept != nil && !inf.accept(p)) {
		return
	}
	if old, exists, _ := inf.indexer.GetByKey(key); exists && old.(*v1.Pod).Spec.NodeName != "" {
		return
	}
	// The runner decoded the scenario and checked the annotations.
	d, err := time.ParseDuration(runFor)
	if err != nil || d <= 0 {
		return
	}
	phase := p.Annotations[endPhaseAnnotation]
	if phase == "" {
		phase = string(v1.PodSucceeded)
	}
	c.lifetimes = append(c.lifetimes, lifetime{at: c.now + d.Milliseconds(), seq: c.started, key: key,
		uid: string(p.UID), runFor: d.Milliseconds(), phase: phase})
	c.started++
}

// finishLifetimes ends the lifetimes due now, in the order the pods started
// running: a pod that still exists (same uid), is not being deleted and
// has not finished otherwise gets a podFinished note, then the status
// update to its end phase (a delete to the scheduler's informers), then it
// leaves the store.
func (c *cluster) finishLifetimes() {
	c.mu.Lock()
	defer c.mu.Unlock()
	sort.SliceStable(c.lifetimes, func(i, j int) bool {
		a, b := c.lifetimes[i], c.lifetimes[j]
		return a.at < b.at || (a.at == b.at && a.seq < b.seq)
	})
	var keep []lifetime
	for _, l := range c.lifetimes {
		if l.at > c.now {
			keep = append(keep, l)
			continue
		}
		ns, name, _ := cache.SplitMetaNamespaceKey(l.key)
		pod, err := c.getPod(ns, name)
		if err != nil || string(pod.UID) != l.uid || pod.DeletionTimestamp != nil ||
			pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed {
			continue
		}
		c.trace.note(c.now, "podFinished", l.key,
			fmt.Sprintf("ran %v; phase %s", time.Duration(l.runFor)*time.Millisecond, l.phase))
		done := pod.DeepCopy()
		done.Status.Phase = v1.PodPhase(l.phase)
		if err := c.tracker.Update(podGVR, done, ns); err == nil {
			c.deliver(podGVR, reflect.TypeOf(&v1.Pod{}), ns, name)
		}
		_ = c.tracker.Delete(podGVR, ns, name)
		c.deliver(podGVR, reflect.TypeOf(&v1.Pod{}), ns, name)
	}
	c.lifetimes = keep
}

// nextLifetimeEnd is the earliest lifetime end after now, or limit.
func (c *cluster) nextLifetimeEnd(limit int64) int64 {
	for _, l := range c.lifetimes {
		if l.at < limit {
			limit = l.at
		}
	}
	return limit
}

// create, update and remove are the scenario's own writes.
func (c *cluster) create(obj runtime.Object) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.put(obj, true)
}

func (c *cluster) update(obj runtime.Object) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := obj.(*v1.Pod); ok {
		cur, err := c.getPod(p.Namespace, p.Name)
		if err != nil {
			return err
		}
		mergePodUpdate(cur, p)
		if reflect.DeepEqual(cur, p) {
			// No change: the API server keeps the resourceVersion and the
			// informers see nothing.
			return nil
		}
	}
	return c.put(obj, false)
}

// mergePodUpdate applies the API server's rules for a pod update written
// by the scenario (docs/scenario-format.md, timeline update).
func mergePodUpdate(cur, next *v1.Pod) {
	if next.Spec.NodeName == "" {
		next.Spec.NodeName = cur.Spec.NodeName
	}
	if cur.DeletionTimestamp != nil {
		next.DeletionTimestamp = cur.DeletionTimestamp
		next.DeletionGracePeriodSeconds = cur.DeletionGracePeriodSeconds
	}
	if next.Status.Conditions == nil {
		next.Status.Conditions = cur.Status.Conditions
	}
	if next.Status.NominatedNodeName == "" {
		next.Status.NominatedNodeName = cur.Status.NominatedNodeName
	}
	if next.Spec.Priority == nil {
		next.Spec.Priority = cur.Spec.Priority
	}
	if next.Spec.PreemptionPolicy == nil {
		next.Spec.PreemptionPolicy = cur.Spec.PreemptionPolicy
	}
	if next.Spec.PriorityClassName == "" {
		next.Spec.PriorityClassName = cur.Spec.PriorityClassName
	}
	if next.CreationTimestamp.IsZero() {
		next.CreationTimestamp = cur.CreationTimestamp
	}
	if next.UID == "" || next.UID == "/" {
		next.UID = cur.UID
	}
	if next.Spec.TerminationGracePeriodSeconds == nil {
		next.Spec.TerminationGracePeriodSeconds = cur.Spec.TerminationGracePeriodSeconds
	}
	next.ResourceVersion = cur.ResourceVersion
}

func (c *cluster) put(obj runtime.Object, create bool) error {
	gvr, err := gvrOf(obj)
	if err != nil {
		return err
	}
	m, err := metaOf(obj)
	if err != nil {
		return err
	}
	if create {
		err = c.tracker.Create(gvr, obj, m.GetNamespace())
	} else {
		err = c.tracker.Update(gvr, obj, m.GetNamespace())
	}
	if err != nil {
		return err
	}
	c.deliver(gvr, reflect.TypeOf(obj), m.GetNamespace(), m.GetName())
	return nil
}

var kindTypes = map[string]runtime.Object{
	"Pod": &v1.Pod{}, "Node": &v1.Node{}, "Namespace": &v1.Namespace{},
	"PersistentVolume": &v1.PersistentVolume{}, "PersistentVolumeClaim": &v1.PersistentVolumeClaim{},
	"Service": &v1.Service{}, "ReplicationController": &v1.ReplicationController{},
	"ReplicaSet": &appsv1.ReplicaSet{}, "StatefulSet": &appsv1.StatefulSet{},
	"PodDisruptionBudget": &policyv1.PodDisruptionBudget{}, "StorageClass": &storagev1.StorageClass{},
	"CSINode": &storagev1.CSINode{}, "CSIDriver": &storagev1.CSIDriver{},
	"CSIStorageCapacity": &storagev1.CSIStorageCapacity{}, "PriorityClass": &schedulingv1.PriorityClass{},
}

// remove deletes kind/key at once; it reports whether the object existed.
func (c *cluster) remove(kind, key string) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	example, ok := kindTypes[kind]
	if !ok {
		return false, fmt.Errorf("delete of unknown kind %q", kind)
	}
	gvr, _ := gvrOf(example)
	ns, name, _ := cache.SplitMetaNamespaceKey(key)
	if err := c.tracker.Delete(gvr, ns, name); err != nil {
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return false, err
	}
	c.deliver(gvr, reflect.TypeOf(example), ns, name)
	return true, nil
}

var debugActions = os.Getenv("SCHEDREF_ADAPTER_DEBUG") != ""

var podGVR = v1.SchemeGroupVersion.WithResource("pods")

// The API server names the subresource in a Binding's errors.
var bindingResource = schema.GroupResource{Resource: "pods/binding"}

func (c *cluster) getPod(ns, name string) (*v1.Pod, error) {
	o, err := c.tracker.Get(podGVR, ns, name)
	if err != nil {
		return nil, err
	}
	return o.(*v1.Pod), nil
}

// react handles the scheduler's own API calls.
func (c *cluster) react(action clienttesting.Action) (bool, runtime.Object, error) {
	if debugActions {
		fmt.Fprintf(os.Stderr, "action %s %s/%s %T\n", action.GetVerb(), action.GetResource().Resource, action.GetSubresource(), action)
	}
	if action.GetResource().Resource == "pods" {
		switch a := action.(type) {
		case clienttesting.CreateAction:
			if a.GetSubresource() == "binding" {
				return true, nil, c.bind(a.GetObject().(*v1.Binding))
			}
		case clienttesting.DeleteAction:
			return true, nil, c.deleteVictim(a.GetNamespace(), a.GetName())
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	handled, obj, err := clienttesting.ObjectReaction(c.tracker)(action)
	if err != nil || !handled {
		return handled, obj, err
	}
	switch action.GetVerb() {
	case "create", "update", "patch", "delete":
		var name string
		switch a := action.(type) {
		case clienttesting.CreateAction:
			if m, e := metaOf(a.GetObject()); e == nil {
				name = m.GetName()
			}
		case clienttesting.UpdateAction:
			if m, e := metaOf(a.GetObject()); e == nil {
				name = m.GetName()
			}
		case clienttesting.PatchAction:
			name = a.GetName()
		case clienttesting.DeleteAction:
			name = a.GetName()
		}
		for t := range c.informers {
			ex := reflect.New(t.Elem()).Interface().(runtime.Object)
			if gvr, e := gvrOf(ex); e == nil && gvr.Resource == action.GetResource().Resource && gvr.Group == action.GetResource().Group {
				c.deliver(gvr, t, action.GetNamespace(), name)
			}
		}
	}
	return handled, obj, err
}

// holdBind blocks a binding cycle's Bind call for the pod's bind latency
// (the scenario's bindLatency), until the loop releases it at the virtual
// instant the call completes. It runs before the Bind plugins, outside the
// fake clientset: the clientset serializes its reactors, and the scheduler
// goes on writing through it meanwhile.
func (c *cluster) holdBind(key string, cycle int64) {
	c.mu.Lock()
	latency, ok := c.bindLatency[key]
	if !ok {
		latency = c.bindLatency[""]
	}
	var w *bindWait
	if latency > 0 {
		w = &bindWait{at: c.now + latency, cycle: cycle, key: key, release: make(chan struct{})}
		c.bindWaits = append(c.bindWaits, w)
	}
	c.mu.Unlock()
	if w != nil {
		c.bindBlocked <- key
		<-w.release
	}
}

// bind is the API server's pods/binding subresource, with the scenario's
// injected failures.
func (c *cluster) bind(b *v1.Binding) error {
	key := b.Namespace + "/" + b.Name
	c.mu.Lock()
	defer c.mu.Unlock()
	pod, err := c.getPod(b.Namespace, b.Name)
	if err != nil {
		return err
	}
	if err := bindingConflict(pod, b); err != nil {
		return err
	}
	if n := c.bindFailures[key]; n > 0 {
		c.bindFailures[key] = n - 1
		return fmt.Errorf("injected bind failure for pod %s", key)
	}
	bound := pod.DeepCopy()
	bound.Spec.NodeName = b.Target.Name
	if err := c.tracker.Update(podGVR, bound, bound.Namespace); err != nil {
		return err
	}
	c.deliver(podGVR, reflect.TypeOf(&v1.Pod{}), bound.Namespace, bound.Name)
	return nil
}

// bindingConflict is the API server's refusal of a Binding
// (BindingREST.setPodHostAndAnnotations and the UID precondition of its
// storage update), in upstream's order and text.
func bindingConflict(pod *v1.Pod, b *v1.Binding) error {
	if b.UID != "" && pod.UID != b.UID {
		return fmt.Errorf("Operation cannot be fulfilled on pods %q: StorageError: invalid object, Code: 4, Key: /registry/pods/%s/%s, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: %s, UID in object meta: %s",
			pod.Name, pod.Namespace, pod.Name, b.UID, pod.UID)
	}
	var problem string
	switch {
	case pod.DeletionTimestamp != nil:
		problem = "is being deleted, cannot be assigned to a host"
	case pod.Spec.NodeName != "":
		problem = fmt.Sprintf("is already assigned to node %q", pod.Spec.NodeName)
	case len(pod.Spec.SchedulingGates) > 0:
		problem = "has non-empty .spec.schedulingGates"
	default:
		return nil
	}
	return apierrors.NewConflict(bindingResource, pod.Name, fmt.Errorf("pod %s %s", pod.Name, problem))
}

// deleteVictim is a pod DELETE from the scheduler: preemption's. A bound
// pod with a grace period is marked terminating and deleted when the
// period ends (docs/deviations.md, "Preemption victims").
func (c *cluster) deleteVictim(ns, name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	pod, err := c.getPod(ns, name)
	if err != nil {
		return err
	}
	key := podKey(pod)
	c.victims = append(c.victims, pod.DeepCopy())
	by := "preempted by " + c.preemptor
	grace := deleteGracePeriodSeconds(pod)
	if grace == 0 {
		c.trace.note(c.now, "victimDeleted", key, by)
		if err := c.tracker.Delete(podGVR, ns, name); err != nil {
			return err
		}
		c.deliver(podGVR, reflect.TypeOf(&v1.Pod{}), ns, name)
		return nil
	}
	if pod.DeletionTimestamp != nil {
		c.trace.note(c.now, "victimTerminating", key, by+"; already terminating")
		return nil
	}
	c.trace.note(c.now, "victimTerminating", key, fmt.Sprintf("%s; terminationGracePeriodSeconds %d", by, grace))
	terminating := pod.DeepCopy()
	ts := metav1.NewTime(c.start.Add(time.Duration(c.now)*time.Millisecond + time.Duration(grace)*time.Second))
	terminating.DeletionTimestamp = &ts
	terminating.DeletionGracePeriodSeconds = &grace
	c.terminations = append(c.terminations, termination{at: c.now + grace*1000, key: key, uid: string(pod.UID), grace: grace})
	if err := c.tracker.Update(podGVR, terminating, ns); err != nil {
		return err
	}
	c.deliver(podGVR, reflect.TypeOf(&v1.Pod{}), ns, name)
	return nil
}

func deleteGracePeriodSeconds(p *v1.Pod) int64 {
	if p.Spec.NodeName == "" || p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
		return 0
	}
	g := int64(v1.DefaultTerminationGracePeriodSeconds)
	if p.Spec.TerminationGracePeriodSeconds != nil {
		g = *p.Spec.TerminationGracePeriodSeconds
	}
	if g < 0 {
		return 1
	}
	return g
}

// finishTerminations deletes the victims whose grace period ends now.
func (c *cluster) finishTerminations() {
	c.mu.Lock()
	defer c.mu.Unlock()
	var keep []termination
	for _, t := range c.terminations {
		if t.at > c.now {
			keep = append(keep, t)
			continue
		}
		ns, name, _ := cache.SplitMetaNamespaceKey(t.key)
		if pod, err := c.getPod(ns, name); err == nil && string(pod.UID) == t.uid {
			c.trace.note(c.now, "victimTerminated", t.key, fmt.Sprintf("terminationGracePeriodSeconds %d elapsed", t.grace))
			_ = c.tracker.Delete(podGVR, ns, name)
			c.deliver(podGVR, reflect.TypeOf(&v1.Pod{}), ns, name)
		}
	}
	c.terminations = keep
}

// takeVictims returns the running cycle's victims, most important first
// (the order in which schedref lists them; upstream deletes them in
// parallel).
func (c *cluster) takeVictims() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.victims
	c.victims = nil
	sort.SliceStable(v, func(i, j int) bool { return schedutil.MoreImportantPod(v[i], v[j]) })
	var out []string
	for _, p := range v {
		out = append(out, podKey(p))
	}
	return out
}

// placements maps every pod that still exists to its node.
func (c *cluster) placements() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]string{}
	objs, _ := c.tracker.List(podGVR, v1.SchemeGroupVersion.WithKind("Pod"), "")
	if list, ok := objs.(*v1.PodList); ok {
		for _, p := range list.Items {
			if p.Status.Phase == v1.PodSucceeded || p.Status.Phase == v1.PodFailed {
				continue
			}
			out[p.Namespace+"/"+p.Name] = p.Spec.NodeName
		}
	}
	return out
}
