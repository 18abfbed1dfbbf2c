package main

// The trace records of docs/trace-format.md. The runner re-encodes every
// line canonically, so field order is free here; what must hold is which
// fields are present (empty ones are left out, the always-written ones are
// always written).

import "sync"

type rejection struct {
	Plugin  string   `json:"plugin"`
	Code    string   `json:"code"`
	Reasons []string `json:"reasons,omitempty"`
}

type nodeScore struct {
	Node  string `json:"node"`
	Score int64  `json:"score"`
}

type preemption struct {
	NominatedNode string   `json:"nominatedNode,omitempty"`
	Victims       []string `json:"victims,omitempty"`
}

type attemptRecord struct {
	Kind          string               `json:"kind"`
	T             int64                `json:"t"`
	Cycle         int64                `json:"cycle"`
	Pod           string               `json:"pod"`
	Profile       string               `json:"profile,omitempty"`
	Outcome       string               `json:"outcome"`
	Node          string               `json:"node,omitempty"`
	Evaluated     int                  `json:"evaluated"`
	Feasible      int                  `json:"feasible"`
	FeasibleNodes []string             `json:"feasibleNodes,omitempty"`
	Rejections    map[string]rejection `json:"rejections,omitempty"`
	TopScores     []nodeScore          `json:"topScores,omitempty"`
	Message       string               `json:"message,omitempty"`
	Preemption    *preemption          `json:"preemption,omitempty"`
}

type bindingRecord struct {
	Kind    string `json:"kind"`
	T       int64  `json:"t"`
	Cycle   int64  `json:"cycle"`
	Pod     string `json:"pod,omitempty"`
	Node    string `json:"node,omitempty"`
	Outcome string `json:"outcome"`
	Message string `json:"message,omitempty"`
}

type noteRecord struct {
	Kind    string `json:"kind"`
	T       int64  `json:"t"`
	What    string `json:"what,omitempty"`
	Pod     string `json:"pod,omitempty"`
	Message string `json:"message,omitempty"`
}

// traceWriter collects the lines of one run. Records raised while a
// scheduling cycle runs (preemption's victims, the end of the binding
// cycle it starts) are held until the cycle's attempt line is written,
// which they follow in a trace.
type traceWriter struct {
	mu      sync.Mutex
	lines   []any
	holding bool
	held    []any
}

func newTraceWriter() *traceWriter {
	return &traceWriter{lines: []any{map[string]any{"format": "schedref-trace", "kind": "header", "version": 1}}}
}

func (w *traceWriter) add(rec any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.holding {
		// A binding cycle can end before the scheduling cycle that started
		// it has written its attempt.
		w.held = append(w.held, rec)
		return
	}
	w.lines = append(w.lines, rec)
}

func (w *traceWriter) note(t int64, what, pod, message string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	rec := noteRecord{Kind: "note", T: t, What: what, Pod: pod, Message: message}
	if w.holding {
		w.held = append(w.held, rec)
		return
	}
	w.lines = append(w.lines, rec)
}

// hold starts holding notes; release writes rec (if any), then the held
// notes.
func (w *traceWriter) hold() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.holding = true
}

func (w *traceWriter) release(rec any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if rec != nil {
		w.lines = append(w.lines, rec)
	}
	w.lines = append(w.lines, w.held...)
	w.held = nil
	w.holding = false
}
