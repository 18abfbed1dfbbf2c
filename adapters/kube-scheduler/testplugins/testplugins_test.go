package testplugins

import (
	"context"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

func pod(labels map[string]string) *v1.Pod {
	return &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", Labels: labels}}
}

func TestPermit(t *testing.T) {
	tests := []struct {
		name        string
		labels      map[string]string
		wantCode    framework.Code
		wantMessage string
		wantTimeout time.Duration // PermitTimeout
	}{
		{"no label", nil, framework.Success, "", DefaultPermitTimeout},
		{"reject", map[string]string{PermitLabel: "reject"}, framework.Unschedulable, "rejected by TestPermit", DefaultPermitTimeout},
		{"wait, default timeout", map[string]string{PermitLabel: "wait"}, framework.Wait, "", DefaultPermitTimeout},
		{"wait, own timeout", map[string]string{PermitLabel: "wait", PermitTimeoutLabel: "1m30s"}, framework.Wait, "", 90 * time.Second},
		{"wait, negative is 0", map[string]string{PermitLabel: "wait", PermitTimeoutLabel: "-5s"}, framework.Wait, "", 0},
		{"wait, malformed timeout", map[string]string{PermitLabel: "wait", PermitTimeoutLabel: "soon"}, framework.Error,
			`TestPermit: label schedref.test/permit-timeout: time: invalid duration "soon"`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, wait := testPermit{}.Permit(context.Background(), nil, pod(tc.labels), "n1")
			if s.Code() != tc.wantCode || s.Message() != tc.wantMessage {
				t.Errorf("Permit = %v %q, want %v %q", s.Code(), s.Message(), tc.wantCode, tc.wantMessage)
			}
			if tc.wantCode == framework.Wait && wait != WallClockWait {
				t.Errorf("wall-clock wait = %v, want %v", wait, WallClockWait)
			}
			if got, err := PermitTimeout(pod(tc.labels)); err == nil && got != tc.wantTimeout {
				t.Errorf("PermitTimeout = %v, want %v", got, tc.wantTimeout)
			}
		})
	}
}

func TestReservePreBindBind(t *testing.T) {
	ctx := context.Background()
	if s := (testReserve{}).Reserve(ctx, nil, pod(map[string]string{ReserveLabel: "fail"}), "n1"); s.Code() != framework.Error || s.Message() != "reserve failed" {
		t.Errorf("Reserve fail = %v", s)
	}
	if s := (testReserve{}).Reserve(ctx, nil, pod(nil), "n1"); !s.IsSuccess() {
		t.Errorf("Reserve = %v, want success", s)
	}
	if s := (testPreBind{}).PreBind(ctx, nil, pod(map[string]string{PreBindLabel: "reject"}), "n1"); s.Code() != framework.Unschedulable || s.Message() != "rejected by TestPreBind" {
		t.Errorf("PreBind reject = %v", s)
	}
	if s := (testPreBind{}).PreBind(ctx, nil, pod(map[string]string{PreBindLabel: "fail"}), "n1"); s.Code() != framework.Error {
		t.Errorf("PreBind fail = %v", s)
	}
	if s := (testBind{}).Bind(ctx, nil, pod(map[string]string{BindLabel: "skip"}), "n1"); s.Code() != framework.Skip {
		t.Errorf("Bind skip = %v", s)
	}
	if s := (testBind{}).Bind(ctx, nil, pod(map[string]string{BindLabel: "fail"}), "n1"); s.Code() != framework.Error || s.Message() != "bind failed" {
		t.Errorf("Bind fail = %v", s)
	}
}
