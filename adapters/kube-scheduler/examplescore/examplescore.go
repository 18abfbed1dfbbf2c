// Package examplescore is an example out-of-tree Score plugin for the
// kube-scheduler adapter: NodePreference scores a node by the integer in
// its label schedref.example/preference (0 to 100; a node without the
// label, or with another value, scores 0). It shows what an out-of-tree
// plugin needs to run under the conformance runner; its goldens are in
// adapters/kube-scheduler/goldens/.
package examplescore

import (
	"context"
	"fmt"
	"strconv"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/scheduler/framework"
)

// Name is the plugin's registry name.
const Name = "NodePreference"

// Label holds a node's preference.
const Label = "schedref.example/preference"

// NodePreference is the plugin.
type NodePreference struct {
	handle framework.Handle
}

var _ framework.ScorePlugin = &NodePreference{}

// New is the plugin's factory; it takes no arguments.
func New(_ context.Context, _ runtime.Object, h framework.Handle) (framework.Plugin, error) {
	return &NodePreference{handle: h}, nil
}

func (*NodePreference) Name() string { return Name }

// Score reads the node's label from the cycle's snapshot.
func (p *NodePreference) Score(_ context.Context, _ *framework.CycleState, _ *v1.Pod, nodeName string) (int64, *framework.Status) {
	nodeInfo, err := p.handle.SnapshotSharedLister().NodeInfos().Get(nodeName)
	if err != nil {
		return 0, framework.AsStatus(fmt.Errorf("getting node %q from the snapshot: %w", nodeName, err))
	}
	return Preference(nodeInfo.Node()), nil
}

// Preference is a node's score: its label's value when that is an integer
// in [MinNodeScore, MaxNodeScore], else MinNodeScore.
func Preference(node *v1.Node) int64 {
	v, err := strconv.ParseInt(node.Labels[Label], 10, 64)
	if err != nil || v < framework.MinNodeScore || v > framework.MaxNodeScore {
		return framework.MinNodeScore
	}
	return v
}

// ScoreExtensions: scores are already in range; no normalization.
func (*NodePreference) ScoreExtensions() framework.ScoreExtensions { return nil }
