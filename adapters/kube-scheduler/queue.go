package main

// The two places where the adapter reaches into upstream's scheduling
// queue, because scheduler.New has no option for them:
//
//   - its clock: New builds the queue with the real clock; the queue's
//     WithClock option is not passed through. The adapter sets the queue's
//     clock to its fake clock before any pod is queued, so backoff and the
//     unschedulable-pods timeout count virtual time.
//   - its two flushes: PriorityQueue.Run starts them on wall-clock timers
//     (wait.Until, every 1 s and 30 s). The adapter never calls Run; it calls
//     the same two methods at the virtual instants those timers would fire
//     (docs/semantics/event-loop.md, "One instant", step 4).
//
// Both are upstream's own code, called as upstream calls it; only the time
// source differs. A fork that renames these must change this file.

import (
	"fmt"
	"reflect"
	"unsafe"

	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/scheduler/backend/queue"
	"k8s.io/utils/clock"
)

//go:linkname flushBackoffQCompleted k8s.io/kubernetes/pkg/scheduler/backend/queue.(*PriorityQueue).flushBackoffQCompleted
func flushBackoffQCompleted(p *queue.PriorityQueue, logger klog.Logger)

//go:linkname flushUnschedulablePodsLeftover k8s.io/kubernetes/pkg/scheduler/backend/queue.(*PriorityQueue).flushUnschedulablePodsLeftover
func flushUnschedulablePodsLeftover(p *queue.PriorityQueue, logger klog.Logger)

// setQueueClock replaces the queue's clock.
func setQueueClock(p *queue.PriorityQueue, c clock.Clock) error {
	f := reflect.ValueOf(p).Elem().FieldByName("clock")
	if !f.IsValid() || f.Type() != reflect.TypeOf((*clock.Clock)(nil)).Elem() {
		return fmt.Errorf("upstream's PriorityQueue has no field clock of type clock.Clock; the adapter cannot drive its time")
	}
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(c))
	return nil
}
