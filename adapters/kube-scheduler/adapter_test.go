package main

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

func TestTopScores(t *testing.T) {
	scores := func(pairs ...any) []framework.NodePluginScores {
		var out []framework.NodePluginScores
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, framework.NodePluginScores{Name: pairs[i].(string), TotalScore: int64(pairs[i+1].(int))})
		}
		return out
	}
	tests := []struct {
		name   string
		scores []framework.NodePluginScores
		chosen string
		want   []nodeScore
	}{
		{"none", nil, "", nil},
		{"chosen first, then by score", scores("a", 10, "b", 30, "c", 20, "d", 5), "c",
			[]nodeScore{{"c", 20}, {"b", 30}, {"a", 10}}},
		{"ties keep the feasible list's order", scores("a", 7, "b", 7, "c", 7, "d", 7), "d",
			[]nodeScore{{"d", 7}, {"a", 7}, {"b", 7}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := topScores(tc.scores, tc.chosen); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("topScores = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBindingConflict(t *testing.T) {
	now := metav1.Now()
	pod := func(mut func(*v1.Pod)) *v1.Pod {
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", UID: "u1"}}
		mut(p)
		return p
	}
	binding := &v1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", UID: "u1"}}
	tests := []struct {
		name string
		pod  *v1.Pod
		b    *v1.Binding
		want string
	}{
		{"accepted", pod(func(*v1.Pod) {}), binding, ""},
		{"uid precondition first", pod(func(p *v1.Pod) { p.UID = "u2"; p.Spec.NodeName = "n" }),
			binding, `Operation cannot be fulfilled on pods "p": StorageError: invalid object, Code: 4, Key: /registry/pods/default/p, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: u1, UID in object meta: u2`},
		{"being deleted before assigned", pod(func(p *v1.Pod) { p.DeletionTimestamp = &now; p.Spec.NodeName = "n" }),
			binding, `Operation cannot be fulfilled on pods/binding "p": pod p is being deleted, cannot be assigned to a host`},
		{"assigned", pod(func(p *v1.Pod) { p.Spec.NodeName = "n2" }),
			binding, `Operation cannot be fulfilled on pods/binding "p": pod p is already assigned to node "n2"`},
		{"gated", pod(func(p *v1.Pod) { p.Spec.SchedulingGates = []v1.PodSchedulingGate{{Name: "g"}} }),
			binding, `Operation cannot be fulfilled on pods/binding "p": pod p has non-empty .spec.schedulingGates`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := bindingConflict(tc.pod, tc.b)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("bindingConflict = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestApplyMatchLabelKeys(t *testing.T) {
	term := func(match, mismatch []string, sel *metav1.LabelSelector) v1.PodAffinityTerm {
		return v1.PodAffinityTerm{TopologyKey: "kubernetes.io/hostname", LabelSelector: sel, MatchLabelKeys: match, MismatchLabelKeys: mismatch}
	}
	sel := func() *metav1.LabelSelector { return &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}} }
	tests := []struct {
		name string
		term v1.PodAffinityTerm
		want []metav1.LabelSelectorRequirement
	}{
		{"match key present", term([]string{"version"}, nil, sel()),
			[]metav1.LabelSelectorRequirement{{Key: "version", Operator: metav1.LabelSelectorOpIn, Values: []string{"v2"}}}},
		{"mismatch key", term(nil, []string{"version"}, sel()),
			[]metav1.LabelSelectorRequirement{{Key: "version", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"v2"}}}},
		{"key the pod lacks", term([]string{"tier"}, nil, sel()), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "x", "version": "v2"}}}
			p.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{
				RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{tc.term}}}
			applyMatchLabelKeys(p)
			got := p.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("MatchExpressions = %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("no selector matches nothing and stays so", func(t *testing.T) {
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"version": "v2"}}}
		p.Spec.Affinity = &v1.Affinity{PodAffinity: &v1.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{term([]string{"version"}, nil, nil)}}}
		applyMatchLabelKeys(p)
		if s := p.Spec.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector; s != nil {
			t.Errorf("selector = %v, want nil", s)
		}
	})
}

func TestDecodeConfigDefaultsAndValidates(t *testing.T) {
	cfg, maxUnschedulable, err := decodeConfig([]byte(`{"podMaxInUnschedulablePodsSeconds": 60}`))
	if err != nil {
		t.Fatal(err)
	}
	if maxUnschedulable.Seconds() != 60 {
		t.Errorf("podMaxInUnschedulablePodsSeconds = %v, want 60s", maxUnschedulable)
	}
	if len(cfg.Profiles) != 1 || cfg.Profiles[0].SchedulerName != v1.DefaultSchedulerName || cfg.Parallelism != 16 {
		t.Errorf("defaults not applied: %d profiles, parallelism %d", len(cfg.Profiles), cfg.Parallelism)
	}
	_, _, err = decodeConfig([]byte(`{"percentageOfNodesToScore": 101}`))
	if err == nil || !strings.Contains(err.Error(), "percentageOfNodesToScore") {
		t.Errorf("validation error = %v, want one naming percentageOfNodesToScore", err)
	}
	_, _, err = decodeConfig([]byte(`{"profiles": [{"schedulerName": "a", "plugin": {}}]}`))
	if err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Errorf("strict decoding error = %v, want an unknown field", err)
	}
}

func TestPreemptionRecorderKeepsOnlyPreemptedPods(t *testing.T) {
	victim := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "v", UID: "v"}}
	other := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "o", UID: "o"}}
	node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", UID: "n"}}
	r := &preemptionRecorder{victims: map[types.UID]bool{}}
	r.Eventf(victim, nil, v1.EventTypeNormal, "Preempted", "Preempting", "Preempted by pod %v", "p")
	r.Eventf(other, nil, v1.EventTypeWarning, "FailedScheduling", "Scheduling", "no fit")
	r.Eventf(node, nil, v1.EventTypeNormal, "Preempted", "Preempting", "not a pod")
	tests := []struct {
		uid  types.UID
		want bool
	}{{"v", true}, {"v", false}, {"o", false}, {"n", false}}
	for _, tc := range tests {
		if got := r.take(tc.uid); got != tc.want {
			t.Errorf("take(%s) = %v, want %v", tc.uid, got, tc.want)
		}
	}
	r.Eventf(victim, nil, v1.EventTypeNormal, "Preempted", "Preempting", "again")
	r.reset()
	if r.take("v") {
		t.Errorf("take after reset = true, want false")
	}
}

func TestPodLifetimes(t *testing.T) {
	pod := func(name, uid, node string, ann map[string]string) *v1.Pod {
		return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(uid), Annotations: ann},
			Spec: v1.PodSpec{NodeName: node}}
	}
	runFor := func(d string) map[string]string { return map[string]string{runForAnnotation: d} }
	tests := []struct {
		name  string
		pods  []*v1.Pod
		bind  string // a pod bound at 1s by an update, "" for none
		until int64  // finishLifetimes at every second up to this
		want  []string
		gone  []string
	}{
		{"created bound: runs from t=0", []*v1.Pod{pod("a", "a", "n", runFor("2s"))}, "", 3000,
			[]string{"2000 default/a ran 2s; phase Succeeded"}, []string{"a"}},
		{"no lifetime", []*v1.Pod{pod("a", "a", "n", nil)}, "", 3000, nil, nil},
		{"unbound never finishes", []*v1.Pod{pod("a", "a", "", runFor("1s"))}, "", 3000, nil, nil},
		{"bound later: runs from its binding", []*v1.Pod{pod("a", "a", "", runFor("1s"))}, "a", 3000,
			[]string{"2000 default/a ran 1s; phase Succeeded"}, []string{"a"}},
		{"end phase and start order at one instant",
			[]*v1.Pod{pod("b", "b", "n", map[string]string{runForAnnotation: "1s", endPhaseAnnotation: "Failed"}),
				pod("a", "a", "n", runFor("1s"))}, "", 1000,
			[]string{"1000 default/b ran 1s; phase Failed", "1000 default/a ran 1s; phase Succeeded"}, []string{"a", "b"}},
		{"not yet due", []*v1.Pod{pod("a", "a", "n", runFor("1m30s"))}, "", 3000, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tw := newTraceWriter()
			cl := newCluster(time.Unix(0, 0), tw, 0)
			for _, p := range tc.pods {
				if err := cl.create(p); err != nil {
					t.Fatal(err)
				}
			}
			for now := int64(0); now <= tc.until; now += 1000 {
				cl.mu.Lock()
				cl.now = now
				cl.mu.Unlock()
				if now == 1000 && tc.bind != "" {
					cl.mu.Lock()
					p, _ := cl.getPod("default", tc.bind)
					cl.mu.Unlock()
					p = p.DeepCopy()
					p.Spec.NodeName = "n"
					if err := cl.update(p); err != nil {
						t.Fatal(err)
					}
				}
				cl.finishLifetimes()
			}
			var got []string
			for _, l := range tw.lines {
				if n, ok := l.(noteRecord); ok && n.What == "podFinished" {
					got = append(got, fmt.Sprintf("%d %s %s", n.T, n.Pod, n.Message))
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("notes = %q, want %q", got, tc.want)
			}
			for _, name := range tc.gone {
				if _, err := cl.getPod("default", name); err == nil {
					t.Errorf("pod %s is still in the store", name)
				}
			}
		})
	}
}
