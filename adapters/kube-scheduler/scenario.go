package main

// Reading a schedref scenario (docs/scenario-format.md) into Kubernetes API
// objects, with what the API server would have done to them on the way in:
// its defaulting (upstream's own SetObjectDefaults_* for core objects), the
// Priority admission plugin, creation timestamps and uids. The adapter
// trusts the runner to send scenarios schedref itself has decoded (the
// runner reads every file before it sends it), so its errors here are for
// scenarios that use what the adapter does not model.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"
	corev1defaults "k8s.io/kubernetes/pkg/apis/core/v1"
	"sigs.k8s.io/yaml"
)

// scenario is the decoded document, objects still as JSON until load.
type scenario struct {
	Name                 string            `json:"name"`
	Seed                 uint64            `json:"seed"`
	StartTime            string            `json:"startTime"`
	BindLatency          string            `json:"bindLatency"`
	VolumeBindingLatency string            `json:"volumeBindingLatency"`
	Config               json.RawMessage   `json:"config"`
	Objects              []json.RawMessage `json:"objects"`
	Timeline             []timelineEntry   `json:"timeline"`
	Arrivals             json.RawMessage   `json:"arrivals"`
}

type timelineEntry struct {
	At          string          `json:"at"`
	Create      json.RawMessage `json:"create"`
	Update      json.RawMessage `json:"update"`
	Delete      *objectRef      `json:"delete"`
	Advance     json.RawMessage `json:"advance"`
	FailBind    *failBind       `json:"failBind"`
	BindLatency *bindLatency    `json:"bindLatency"`
	Allow       *permitVerdict  `json:"allow"`
	Reject      *permitVerdict  `json:"reject"`
}

type objectRef struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

type failBind struct {
	Pod   string `json:"pod"`
	Count *int   `json:"count"`
}

type bindLatency struct {
	Pod      string `json:"pod"`
	Duration string `json:"duration"`
}

type permitVerdict struct {
	Pod    string `json:"pod"`
	Plugin string `json:"plugin"`
}

// event is one timeline entry, resolved.
type event struct {
	at     int64 // ms
	op     string
	obj    runtime.Object
	kind   string
	key    string
	count  int
	dur    int64
	plugin string
}

// decodedScenario is everything a run needs.
type decodedScenario struct {
	name           string
	start          time.Time
	bindLatencyMs  int64
	volumeLatency  int64
	config         json.RawMessage
	initial        []runtime.Object
	events         []event
	lastEventAt    int64
	hasTimelineEnd bool
}

// parseDurationMs reads a Go duration string as whole milliseconds.
func parseDurationMs(s string) (int64, error) {
	if s == "" || s == "0" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, err
	}
	return d.Milliseconds(), nil
}

func decodeScenario(file string, text []byte) (*decodedScenario, error) {
	j, err := yaml.YAMLToJSON(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	var raw scenario
	if err := json.Unmarshal(j, &raw); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if len(raw.Arrivals) > 0 && string(raw.Arrivals) != "null" && string(raw.Arrivals) != "[]" {
		// schedref's decoder expands the generators (SplitMix64 draws,
		// docs/scenario-format.md "arrivals"); the adapter does not.
		return nil, fmt.Errorf("%s: arrivals: generated arrivals are not supported by this adapter", file)
	}
	out := &decodedScenario{name: raw.Name, config: raw.Config}
	out.start = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	if raw.StartTime != "" {
		if out.start, err = time.Parse(time.RFC3339, raw.StartTime); err != nil {
			return nil, fmt.Errorf("%s: startTime: %v", file, err)
		}
	}
	if out.bindLatencyMs, err = parseDurationMs(raw.BindLatency); err != nil {
		return nil, fmt.Errorf("%s: bindLatency: %v", file, err)
	}
	if out.volumeLatency, err = parseDurationMs(raw.VolumeBindingLatency); err != nil {
		return nil, fmt.Errorf("%s: volumeBindingLatency: %v", file, err)
	}

	ad := newAdmission(out.start)
	for i, o := range raw.Objects {
		objs, err := decodeManifests(o)
		if err != nil {
			return nil, fmt.Errorf("%s: objects[%d]: %v", file, i, err)
		}
		for _, obj := range objs {
			if pc, ok := obj.(*schedulingv1.PriorityClass); ok {
				ad.classes[pc.Name] = pc
			}
		}
		out.initial = append(out.initial, objs...)
	}
	for i, obj := range out.initial {
		if err := ad.admit(obj, 0, true); err != nil {
			return nil, fmt.Errorf("%s: objects[%d]: %v", file, i, err)
		}
	}
	for i, e := range raw.Timeline {
		at, err := parseDurationMs(e.At)
		if err != nil {
			return nil, fmt.Errorf("%s: timeline[%d].at: %v", file, i, err)
		}
		ev := event{at: at}
		where := fmt.Sprintf("%s: timeline[%d]", file, i)
		switch {
		case e.Create != nil || e.Update != nil:
			body := e.Create
			ev.op = "create"
			if e.Update != nil {
				body, ev.op = e.Update, "update"
			}
			objs, err := decodeManifests(body)
			if err != nil || len(objs) != 1 {
				return nil, fmt.Errorf("%s.%s: %v", where, ev.op, err)
			}
			ev.obj = objs[0]
			if pc, ok := ev.obj.(*schedulingv1.PriorityClass); ok {
				ad.classes[pc.Name] = pc
			}
			if err := ad.admit(ev.obj, at, ev.op == "create"); err != nil {
				return nil, fmt.Errorf("%s.%s: %v", where, ev.op, err)
			}
			ev.kind, ev.key = kindAndKey(ev.obj)
		case e.Delete != nil:
			ev.op, ev.kind, ev.key = "delete", e.Delete.Kind, e.Delete.Name
			if ev.kind == "PriorityClass" {
				delete(ad.classes, ev.key)
			}
		case e.Advance != nil:
			ev.op = "advance"
		case e.FailBind != nil:
			ev.op, ev.key, ev.count = "failBind", e.FailBind.Pod, 1
			if e.FailBind.Count != nil {
				ev.count = *e.FailBind.Count
			}
		case e.BindLatency != nil:
			ev.op, ev.key = "bindLatency", e.BindLatency.Pod
			if ev.dur, err = parseDurationMs(e.BindLatency.Duration); err != nil {
				return nil, fmt.Errorf("%s.bindLatency.duration: %v", where, err)
			}
		case e.Allow != nil:
			ev.op, ev.key, ev.plugin = "allow", e.Allow.Pod, e.Allow.Plugin
		case e.Reject != nil:
			ev.op, ev.key, ev.plugin = "reject", e.Reject.Pod, e.Reject.Plugin
		default:
			return nil, fmt.Errorf("%s: no operation", where)
		}
		out.events = append(out.events, ev)
		out.lastEventAt = at
		out.hasTimelineEnd = true
	}
	return out, nil
}

// decodeManifests decodes one manifest, or a list of them, into typed
// objects with upstream's scheme.
func decodeManifests(raw json.RawMessage) ([]runtime.Object, error) {
	var head struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Items      []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return nil, err
	}
	if strings.HasSuffix(head.Kind, "List") {
		itemKind := strings.TrimSuffix(head.Kind, "List")
		var out []runtime.Object
		for i, item := range head.Items {
			var m map[string]any
			if err := json.Unmarshal(item, &m); err != nil {
				return nil, fmt.Errorf("items[%d]: %v", i, err)
			}
			if _, ok := m["kind"]; !ok && itemKind != "" {
				m["kind"] = itemKind
			}
			if _, ok := m["apiVersion"]; !ok {
				m["apiVersion"] = head.APIVersion
			}
			b, _ := json.Marshal(m)
			objs, err := decodeManifests(b)
			if err != nil {
				return nil, fmt.Errorf("items[%d]: %v", i, err)
			}
			out = append(out, objs...)
		}
		return out, nil
	}
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(raw, nil, nil)
	if err != nil {
		return nil, err
	}
	return []runtime.Object{obj}, nil
}

// kindAndKey names an object as the scenario format does: namespace/name
// for namespaced kinds, the bare name otherwise.
func kindAndKey(obj runtime.Object) (string, string) {
	kind := obj.GetObjectKind().GroupVersionKind().Kind
	m, err := metaOf(obj)
	if err != nil {
		return kind, ""
	}
	if m.GetNamespace() != "" {
		return kind, m.GetNamespace() + "/" + m.GetName()
	}
	return kind, m.GetName()
}

func metaOf(obj runtime.Object) (metav1.Object, error) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return nil, fmt.Errorf("%T has no metadata", obj)
	}
	return m, nil
}

// admission applies the API server's defaults and the Priority admission
// plugin to objects as they are created.
type admission struct {
	start   time.Time
	classes map[string]*schedulingv1.PriorityClass
}

func newAdmission(start time.Time) *admission {
	return &admission{start: start, classes: map[string]*schedulingv1.PriorityClass{}}
}

var builtinPriorities = map[string]int32{
	"system-cluster-critical": 2000000000,
	"system-node-critical":    2000001000,
}

func (a *admission) admit(obj runtime.Object, atMs int64, create bool) error {
	created := metav1.NewTime(a.start.Add(time.Duration(atMs) * time.Millisecond))
	switch o := obj.(type) {
	case *v1.Pod:
		corev1defaults.SetObjectDefaults_Pod(o)
		if o.Namespace == "" {
			o.Namespace = metav1.NamespaceDefault
		}
		if o.UID == "" {
			o.UID = types.UID(o.Namespace + "/" + o.Name)
		}
		if !create {
			// The cluster keeps what admission set on create
			// (cluster.updatePod).
			return nil
		}
		if o.CreationTimestamp.IsZero() {
			o.CreationTimestamp = created
		}
		if o.Spec.TerminationGracePeriodSeconds == nil {
			g := int64(v1.DefaultTerminationGracePeriodSeconds)
			o.Spec.TerminationGracePeriodSeconds = &g
		}
		if err := a.admitPriority(o); err != nil {
			return err
		}
		applyMatchLabelKeys(o)
	case *v1.Node:
		corev1defaults.SetObjectDefaults_Node(o)
		if o.UID == "" {
			o.UID = types.UID(o.Name)
		}
	case *v1.Namespace:
		corev1defaults.SetObjectDefaults_Namespace(o)
		if o.Labels == nil {
			o.Labels = map[string]string{}
		}
		o.Labels[v1.LabelMetadataName] = o.Name
	case *v1.PersistentVolume:
		corev1defaults.SetObjectDefaults_PersistentVolume(o)
		o.Namespace = ""
		if o.UID == "" {
			o.UID = types.UID(o.Name)
		}
		if o.Status.Phase == "" {
			o.Status.Phase = v1.VolumePending
		}
	case *v1.PersistentVolumeClaim:
		corev1defaults.SetObjectDefaults_PersistentVolumeClaim(o)
		if o.UID == "" {
			o.UID = types.UID(o.Namespace + "/" + o.Name)
		}
		if o.Status.Phase == "" {
			o.Status.Phase = v1.ClaimPending
		}
	case *storagev1.StorageClass:
		if o.ReclaimPolicy == nil {
			p := v1.PersistentVolumeReclaimDelete
			o.ReclaimPolicy = &p
		}
		if o.VolumeBindingMode == nil {
			m := storagev1.VolumeBindingImmediate
			o.VolumeBindingMode = &m
		}
	case *storagev1.CSIDriver:
		if o.Spec.AttachRequired == nil {
			t := true
			o.Spec.AttachRequired = &t
		}
		if o.Spec.StorageCapacity == nil {
			f := false
			o.Spec.StorageCapacity = &f
		}
	}
	return nil
}

// admitPriority is the Priority admission plugin, with schedref's one
// relaxation: a pod without a class keeps an explicit spec.priority
// (docs/scenario-format.md, "Priority admission").
func (a *admission) admitPriority(p *v1.Pod) error {
	policy := v1.PreemptLowerPriority
	if p.Spec.PriorityClassName != "" {
		if v, ok := builtinPriorities[p.Spec.PriorityClassName]; ok {
			p.Spec.Priority = &v
		} else if pc, ok := a.classes[p.Spec.PriorityClassName]; ok {
			v := pc.Value
			p.Spec.Priority = &v
			if pc.PreemptionPolicy != nil {
				policy = *pc.PreemptionPolicy
			}
		} else {
			return fmt.Errorf("spec.priorityClassName: no PriorityClass with name %s was found", p.Spec.PriorityClassName)
		}
		p.Spec.PreemptionPolicy = &policy
		return nil
	}
	if p.Spec.Priority == nil {
		var v int32
		for _, pc := range a.classes {
			if pc.GlobalDefault {
				v = pc.Value
				p.Spec.PriorityClassName = pc.Name
				if pc.PreemptionPolicy != nil {
					policy = *pc.PreemptionPolicy
				}
				p.Spec.PreemptionPolicy = &policy
			}
		}
		p.Spec.Priority = &v
	}
	if p.Spec.PreemptionPolicy == nil {
		p.Spec.PreemptionPolicy = &policy
	}
	return nil
}

// applyMatchLabelKeys is what the API server does to a new pod's affinity
// terms (pkg/registry/core/pod/strategy.go, MatchLabelKeysInPodAffinity,
// on in v1.32): each matchLabelKeys key the pod carries becomes
// "key In (value)" in the term's labelSelector, each mismatchLabelKeys key
// "key NotIn (value)". A term without a labelSelector matches nothing and
// is left alone.
func applyMatchLabelKeys(p *v1.Pod) {
	a := p.Spec.Affinity
	if a == nil {
		return
	}
	apply := func(t *v1.PodAffinityTerm) {
		if t.LabelSelector == nil || (len(t.MatchLabelKeys) == 0 && len(t.MismatchLabelKeys) == 0) {
			return
		}
		for _, k := range t.MatchLabelKeys {
			if v, ok := p.Labels[k]; ok {
				t.LabelSelector.MatchExpressions = append(t.LabelSelector.MatchExpressions,
					metav1.LabelSelectorRequirement{Key: k, Operator: metav1.LabelSelectorOpIn, Values: []string{v}})
			}
		}
		for _, k := range t.MismatchLabelKeys {
			if v, ok := p.Labels[k]; ok {
				t.LabelSelector.MatchExpressions = append(t.LabelSelector.MatchExpressions,
					metav1.LabelSelectorRequirement{Key: k, Operator: metav1.LabelSelectorOpNotIn, Values: []string{v}})
			}
		}
	}
	for _, terms := range [][]v1.PodAffinityTerm{
		podAffinityRequired(a.PodAffinity), podAntiAffinityRequired(a.PodAntiAffinity),
	} {
		for i := range terms {
			apply(&terms[i])
		}
	}
	if a.PodAffinity != nil {
		for i := range a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			apply(&a.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
		}
	}
	if a.PodAntiAffinity != nil {
		for i := range a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
			apply(&a.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[i].PodAffinityTerm)
		}
	}
}

func podAffinityRequired(a *v1.PodAffinity) []v1.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityRequired(a *v1.PodAntiAffinity) []v1.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

// podKey is namespace/name.
func podKey(p *v1.Pod) string { return p.Namespace + "/" + p.Name }

func itoa(i int64) string { return strconv.FormatInt(i, 10) }
