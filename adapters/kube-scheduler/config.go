package main

// The scenario's KubeSchedulerConfiguration, read as kube-scheduler reads
// its --config file: upstream's scheme decodes it strictly, defaults it
// (kubescheduler.config.k8s.io/v1 defaults) and converts it to the internal
// type, and upstream's validation checks it.

import (
	"encoding/json"
	"fmt"
	"time"

	schedulerapi "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/validation"
)

func decodeUpstreamConfig(m map[string]any, maxUnschedulable time.Duration) (*schedulerapi.KubeSchedulerConfiguration, time.Duration, error) {
	if _, ok := m["apiVersion"]; !ok {
		m["apiVersion"] = "kubescheduler.config.k8s.io/v1"
	}
	if _, ok := m["kind"]; !ok {
		m["kind"] = "KubeSchedulerConfiguration"
	}
	data, err := json.Marshal(m)
	if err != nil {
		return nil, 0, err
	}
	obj, gvk, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if err != nil {
		return nil, 0, err
	}
	cfg, ok := obj.(*schedulerapi.KubeSchedulerConfiguration)
	if !ok {
		return nil, 0, fmt.Errorf("decoded %v, not a KubeSchedulerConfiguration", gvk)
	}
	if err := validation.ValidateKubeSchedulerConfiguration(cfg); err != nil {
		return nil, 0, err
	}
	return cfg, maxUnschedulable, nil
}
