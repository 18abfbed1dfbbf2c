package main

// Out-of-tree plugins: the one place a plugin author or fork adds plugins
// to the adapter. Every plugin registered here can be named in a scenario's
// configuration (profiles[].plugins, pluginConfig) beside upstream's
// in-tree ones; scheduler.New merges this registry with the in-tree one
// (WithFrameworkOutOfTreeRegistry), so a name that is also in-tree is an
// error there. The goldens that exercise a plugin set `plugins` and so need
// the custom-plugins feature tag (docs/conformance-protocol.md).

import (
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"schedref.local/adapters/kube-scheduler/examplescore"
	"schedref.local/adapters/kube-scheduler/testplugins"
)

func outOfTreeRegistry() frameworkruntime.Registry {
	r := frameworkruntime.Registry{
		examplescore.Name: examplescore.New,
	}
	// schedref's test plugins, which the goldens with the test-plugins
	// feature enable.
	for name, f := range testplugins.Factories() {
		r[name] = f
	}
	return r
}
