package examplescore

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestPreference(t *testing.T) {
	tests := []struct {
		name   string
		labels map[string]string
		want   int64
	}{
		{"no label", nil, 0},
		{"in range", map[string]string{Label: "42"}, 42},
		{"upper bound", map[string]string{Label: "100"}, 100},
		{"above the range", map[string]string{Label: "101"}, 0},
		{"negative", map[string]string{Label: "-1"}, 0},
		{"not a number", map[string]string{Label: "high"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", Labels: tc.labels}}
			if got := Preference(node); got != tc.want {
				t.Errorf("Preference = %d, want %d", got, tc.want)
			}
		})
	}
}
