// Package testplugins is schedref's four test plugins (TestPermit,
// TestReserve, TestPreBind, TestBind; reference/framework/plugins/
// testplugins/test_plugins.h is their specification) as out-of-tree
// plugins of upstream's framework, so that the goldens that need the
// test-plugins feature run under the kube-scheduler adapter. Each reads a
// pod label and does nothing for pods without it.
package testplugins

import (
	"context"
	"fmt"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// Registry names.
const (
	Permit  = "TestPermit"
	Reserve = "TestReserve"
	PreBind = "TestPreBind"
	Bind    = "TestBind"
)

// Labels.
const (
	PermitLabel        = "schedref.test/permit"
	PermitTimeoutLabel = "schedref.test/permit-timeout"
	ReserveLabel       = "schedref.test/reserve"
	PreBindLabel       = "schedref.test/prebind"
	BindLabel          = "schedref.test/bind"
)

// DefaultPermitTimeout is TestPermit's wait without a timeout label.
const DefaultPermitTimeout = 10 * time.Second

// WallClockWait is the timeout TestPermit gives upstream's waiting-pod
// timer: upstream's maximum, far beyond any run's wall time. The adapter
// keeps the pod's own timeout on the virtual clock (PermitTimeout) and
// rejects the pod at its virtual deadline, with upstream's timeout message.
const WallClockWait = 15 * time.Minute

// PermitTimeout is the pod's wait at TestPermit.
func PermitTimeout(pod *v1.Pod) (time.Duration, error) {
	s, ok := pod.Labels[PermitTimeoutLabel]
	if !ok {
		return DefaultPermitTimeout, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("TestPermit: label %s: %v", PermitTimeoutLabel, err)
	}
	if d < 0 {
		d = 0
	}
	return d, nil
}

type testPermit struct{}

func (testPermit) Name() string { return Permit }

func (testPermit) Permit(_ context.Context, _ *framework.CycleState, pod *v1.Pod, _ string) (*framework.Status, time.Duration) {
	switch pod.Labels[PermitLabel] {
	case "reject":
		return framework.NewStatus(framework.Unschedulable, "rejected by TestPermit"), 0
	case "wait":
		if _, err := PermitTimeout(pod); err != nil {
			return framework.AsStatus(err), 0
		}
		return framework.NewStatus(framework.Wait), WallClockWait
	}
	return nil, 0
}

type testReserve struct{}

func (testReserve) Name() string { return Reserve }

func (testReserve) Reserve(_ context.Context, _ *framework.CycleState, pod *v1.Pod, _ string) *framework.Status {
	if pod.Labels[ReserveLabel] == "fail" {
		return framework.AsStatus(fmt.Errorf("reserve failed"))
	}
	return nil
}

func (testReserve) Unreserve(context.Context, *framework.CycleState, *v1.Pod, string) {}

type testPreBind struct{}

func (testPreBind) Name() string { return PreBind }

func (testPreBind) PreBindPreFlight(context.Context, *framework.CycleState, *v1.Pod, string) *framework.Status {
	return nil
}

func (testPreBind) PreBind(_ context.Context, _ *framework.CycleState, pod *v1.Pod, _ string) *framework.Status {
	switch pod.Labels[PreBindLabel] {
	case "fail":
		return framework.AsStatus(fmt.Errorf("prebind failed"))
	case "reject":
		return framework.NewStatus(framework.Unschedulable, "rejected by TestPreBind")
	}
	return nil
}

type testBind struct{ handle framework.Handle }

func (testBind) Name() string { return Bind }

func (b testBind) Bind(ctx context.Context, _ *framework.CycleState, pod *v1.Pod, nodeName string) *framework.Status {
	switch pod.Labels[BindLabel] {
	case "fail":
		return framework.AsStatus(fmt.Errorf("bind failed"))
	case "skip":
		return framework.NewStatus(framework.Skip)
	}
	binding := &v1.Binding{
		ObjectMeta: metav1.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
		Target:     v1.ObjectReference{Kind: "Node", Name: nodeName},
	}
	if err := b.handle.ClientSet().CoreV1().Pods(binding.Namespace).Bind(ctx, binding, metav1.CreateOptions{}); err != nil {
		return framework.AsStatus(err)
	}
	return nil
}

func factory(p framework.Plugin) func(context.Context, runtime.Object, framework.Handle) (framework.Plugin, error) {
	return func(context.Context, runtime.Object, framework.Handle) (framework.Plugin, error) { return p, nil }
}

// Factories maps each test plugin's name to its factory.
func Factories() map[string]func(context.Context, runtime.Object, framework.Handle) (framework.Plugin, error) {
	return map[string]func(context.Context, runtime.Object, framework.Handle) (framework.Plugin, error){
		Permit:  factory(testPermit{}),
		Reserve: factory(testReserve{}),
		PreBind: factory(testPreBind{}),
		Bind: func(_ context.Context, _ runtime.Object, h framework.Handle) (framework.Plugin, error) {
			return testBind{handle: h}, nil
		},
	}
}
