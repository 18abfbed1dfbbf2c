package main

// A synchronous shared informer: the adapter's replacement for client-go's
// list-watch informers, so that every write reaches the scheduler's event
// handlers before the adapter goes on. Upstream's informers deliver events
// from their own goroutines at wall-clock speed; lock step with a virtual
// clock (docs/conformance-protocol.md, "What an adapter must reproduce")
// needs "the informers have synced" to be a fact, not a wait. The store and
// the handlers are upstream's own (cache.Indexer, the scheduler's
// ResourceEventHandlers); only the delivery is ours.

import (
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
)

type syncInformer struct {
	mu       sync.Mutex
	indexer  cache.Indexer
	handlers []*syncRegistration
	// accept says whether an object is inside the informer's selector
	// (upstream's pod informer leaves out finished pods).
	accept func(obj runtime.Object) bool
}

type syncRegistration struct {
	handler cache.ResourceEventHandler
	removed bool
}

func (r *syncRegistration) HasSynced() bool { return true }

var _ cache.SharedIndexInformer = &syncInformer{}

func newSyncInformer(accept func(runtime.Object) bool) *syncInformer {
	return &syncInformer{
		indexer: cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}),
		accept:  accept,
	}
}

// set delivers an add, update or delete (obj == nil) of key.
func (s *syncInformer) set(key string, obj runtime.Object) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if obj != nil && s.accept != nil && !s.accept(obj) {
		obj = nil
	}
	old, exists, _ := s.indexer.GetByKey(key)
	switch {
	case obj == nil && !exists:
		return
	case obj == nil:
		_ = s.indexer.Delete(old)
		for _, h := range s.live() {
			h.OnDelete(old)
		}
	case !exists:
		_ = s.indexer.Add(obj)
		for _, h := range s.live() {
			h.OnAdd(obj, false)
		}
	default:
		_ = s.indexer.Update(obj)
		for _, h := range s.live() {
			h.OnUpdate(old, obj)
		}
	}
}

func (s *syncInformer) live() []cache.ResourceEventHandler {
	var out []cache.ResourceEventHandler
	for _, r := range s.handlers {
		if !r.removed {
			out = append(out, r.handler)
		}
	}
	return out
}

func (s *syncInformer) AddEventHandler(handler cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &syncRegistration{handler: handler}
	s.handlers = append(s.handlers, r)
	for _, obj := range s.indexer.List() {
		handler.OnAdd(obj, true)
	}
	return r, nil
}

func (s *syncInformer) AddEventHandlerWithResyncPeriod(handler cache.ResourceEventHandler, _ time.Duration) (cache.ResourceEventHandlerRegistration, error) {
	return s.AddEventHandler(handler)
}

func (s *syncInformer) RemoveEventHandler(handle cache.ResourceEventHandlerRegistration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := handle.(*syncRegistration)
	if !ok {
		return fmt.Errorf("foreign registration %T", handle)
	}
	r.removed = true
	return nil
}

func (s *syncInformer) GetStore() cache.Store                              { return s.indexer }
func (s *syncInformer) GetController() cache.Controller                    { return nil }
func (s *syncInformer) Run(stopCh <-chan struct{})                         { <-stopCh }
func (s *syncInformer) HasSynced() bool                                    { return true }
func (s *syncInformer) LastSyncResourceVersion() string                    { return "" }
func (s *syncInformer) SetWatchErrorHandler(cache.WatchErrorHandler) error { return nil }
func (s *syncInformer) SetTransform(cache.TransformFunc) error             { return nil }
func (s *syncInformer) IsStopped() bool                                    { return false }
func (s *syncInformer) AddIndexers(indexers cache.Indexers) error {
	return s.indexer.AddIndexers(indexers)
}
func (s *syncInformer) GetIndexer() cache.Indexer { return s.indexer }
