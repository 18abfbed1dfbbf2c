# Generates cluster.json and cluster.yaml: the same List as kubectl get nodes,pods -A -o json|yaml
# writes it (managedFields, conditions, annotations and all), for decode_test.cc.
# Run from this directory: python3 make_cluster.py (needs PyYAML).
import json, yaml, copy

def mf(manager, op, t):
    return {"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:metadata": {"f:labels": {".": {}}}},
            "manager": manager, "operation": op, "time": t}

def node(name, zone, extra_labels=None, taints=None, unsched=False, cap=None, alloc=None, images=None):
    labels = {"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
              "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
              "topology.kubernetes.io/zone": zone}
    labels.update(extra_labels or {})
    spec = {"podCIDR": "10.244.1.0/24", "podCIDRs": ["10.244.1.0/24"], "providerID": "kind://docker/kind/" + name}
    if taints: spec["taints"] = taints
    if unsched: spec["unschedulable"] = True
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "annotations": {"kubeadm.alpha.kubernetes.io/cri-socket": "unix:///run/containerd/containerd.sock",
                            "node.alpha.kubernetes.io/ttl": "0",
                            "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            "creationTimestamp": "2024-05-01T10:00:00Z",
            "labels": labels,
            "managedFields": [mf("kubelet", "Update", "2024-05-01T10:00:00Z"), mf("kube-controller-manager", "Update", "2024-05-01T10:00:30Z")],
            "name": name, "resourceVersion": "48213", "uid": "6c1f7a3e-" + name},
        "spec": spec,
        "status": {
            "addresses": [{"address": "172.18.0.3", "type": "InternalIP"}, {"address": name, "type": "Hostname"}],
            "allocatable": alloc, "capacity": cap,
            "conditions": [
                {"lastHeartbeatTime": "2024-05-02T08:00:00Z", "lastTransitionTime": "2024-05-01T10:00:00Z",
                 "message": "kubelet has sufficient memory available", "reason": "KubeletHasSufficientMemory",
                 "status": "False", "type": "MemoryPressure"},
                {"lastHeartbeatTime": "2024-05-02T08:00:00Z", "lastTransitionTime": "2024-05-01T10:00:20Z",
                 "message": "kubelet is posting ready status", "reason": "KubeletReady", "status": "True", "type": "Ready"}],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "images": images or [],
            "nodeInfo": {"architecture": "amd64", "bootID": "0d6e", "containerRuntimeVersion": "containerd://1.7.15",
                         "kernelVersion": "6.1.0-18-amd64", "kubeProxyVersion": "v1.30.0", "kubeletVersion": "v1.30.0",
                         "machineID": "abc", "operatingSystem": "linux", "osImage": "Debian GNU/Linux 12 (bookworm)",
                         "systemUUID": "def"}}}

cap_a = {"cpu": "8", "ephemeral-storage": "101430960Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": "32879608Ki", "pods": "110"}
alloc_a = {"cpu": "7800m", "ephemeral-storage": "101430960Ki", "hugepages-1Gi": "0", "hugepages-2Mi": "0", "memory": "32572408Ki", "pods": "110"}
cap_b = dict(cap_a, **{"example.com/gpu": "2", "cpu": "16"})
alloc_b = dict(alloc_a, **{"example.com/gpu": "2", "cpu": "15500m"})

nodes = [
    node("kind-control-plane", "zone-a", {"node-role.kubernetes.io/control-plane": "", "node.kubernetes.io/exclude-from-external-load-balancers": ""},
         taints=[{"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"}], cap=cap_a, alloc=alloc_a,
         images=[{"names": ["registry.k8s.io/etcd@sha256:44a8e24dcbba3470ee1fee21d5e88d128c936e9b55d4bc51fbef8086f8ed123b", "registry.k8s.io/etcd:3.5.12-0"], "sizeBytes": 57236178},
                 {"names": ["registry.k8s.io/pause:3.9"], "sizeBytes": 321520}]),
    node("kind-worker", "zone-a", cap=cap_a, alloc=alloc_a,
         images=[{"names": ["docker.io/library/nginx:1.25"], "sizeBytes": 70544635}]),
    node("kind-worker2", "zone-b", {"accelerator": "gpu"}, unsched=True,
         taints=[{"effect": "NoSchedule", "key": "node.kubernetes.io/unschedulable", "timeAdded": "2024-05-02T07:00:00Z"},
                 {"effect": "NoExecute", "key": "dedicated", "value": "gpu"}],
         cap=cap_b, alloc=alloc_b),
]

def status_running(node_name, start):
    return {"conditions": [{"lastProbeTime": None, "lastTransitionTime": start, "status": "True", "type": "Initialized"},
                           {"lastProbeTime": None, "lastTransitionTime": start, "status": "True", "type": "Ready"}],
            "containerStatuses": [{"containerID": "containerd://1a2b", "image": "x", "imageID": "y", "lastState": {},
                                   "name": "c", "ready": True, "restartCount": 0, "started": True,
                                   "state": {"running": {"startedAt": start}}}],
            "hostIP": "172.18.0.3", "hostIPs": [{"ip": "172.18.0.3"}], "phase": "Running", "podIP": "10.244.0.3",
            "podIPs": [{"ip": "10.244.0.3"}], "qosClass": "Burstable", "startTime": start}

kube_api_access = {"name": "kube-api-access-9xk2p", "projected": {"defaultMode": 420, "sources": [
    {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
    {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}}]}}

coredns = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"creationTimestamp": "2024-05-01T10:00:25Z", "generateName": "coredns-7db6d8ff4d-",
                 "labels": {"k8s-app": "kube-dns", "pod-template-hash": "7db6d8ff4d"},
                 "managedFields": [mf("kube-controller-manager", "Update", "2024-05-01T10:00:25Z")],
                 "name": "coredns-7db6d8ff4d-4x8kz", "namespace": "kube-system",
                 "ownerReferences": [{"apiVersion": "apps/v1", "blockOwnerDeletion": True, "controller": True,
                                      "kind": "ReplicaSet", "name": "coredns-7db6d8ff4d", "uid": "11aa"}],
                 "resourceVersion": "512", "uid": "0b7d1c5e-4f3a-4e0e-9b1a-2f7f3c1d9e01"},
    "spec": {
        "affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"podAffinityTerm": {"labelSelector": {"matchExpressions": [{"key": "k8s-app", "operator": "In", "values": ["kube-dns"]}]},
                                 "topologyKey": "kubernetes.io/hostname"}, "weight": 100}]}},
        "containers": [{"args": ["-conf", "/etc/coredns/Corefile"], "image": "registry.k8s.io/coredns/coredns:v1.11.1",
                        "imagePullPolicy": "IfNotPresent",
                        "livenessProbe": {"failureThreshold": 5, "httpGet": {"path": "/health", "port": 8080, "scheme": "HTTP"}},
                        "name": "coredns",
                        "ports": [{"containerPort": 53, "name": "dns", "protocol": "UDP"},
                                  {"containerPort": 53, "name": "dns-tcp", "protocol": "TCP"},
                                  {"containerPort": 9153, "name": "metrics", "protocol": "TCP"}],
                        "resources": {"limits": {"memory": "170Mi"}, "requests": {"cpu": "100m", "memory": "70Mi"}},
                        "securityContext": {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True},
                        "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
                        "volumeMounts": [{"mountPath": "/etc/coredns", "name": "config-volume", "readOnly": True}]}],
        "dnsPolicy": "Default", "enableServiceLinks": True, "nodeName": "kind-control-plane",
        "nodeSelector": {"kubernetes.io/os": "linux"}, "preemptionPolicy": "PreemptLowerPriority",
        "priority": 2000000000, "priorityClassName": "system-cluster-critical", "restartPolicy": "Always",
        "schedulerName": "default-scheduler", "securityContext": {}, "serviceAccount": "coredns",
        "serviceAccountName": "coredns", "terminationGracePeriodSeconds": 30,
        "tolerations": [{"key": "CriticalAddonsOnly", "operator": "Exists"},
                        {"effect": "NoSchedule", "key": "node-role.kubernetes.io/control-plane"},
                        {"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300},
                        {"effect": "NoExecute", "key": "node.kubernetes.io/unreachable", "operator": "Exists", "tolerationSeconds": 300}],
        "volumes": [{"configMap": {"defaultMode": 420, "items": [{"key": "Corefile", "path": "Corefile"}], "name": "coredns"},
                     "name": "config-volume"}, kube_api_access]},
    "status": status_running("kind-control-plane", "2024-05-01T10:00:40Z")}

web = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"apiVersion\":\"v1\"}"},
                 "creationTimestamp": "2024-05-02T07:59:58Z",
                 "labels": {"app": "web", "apps.kubernetes.io/pod-index": "0", "statefulset.kubernetes.io/pod-name": "web-0"},
                 "name": "web-0", "namespace": "shop", "resourceVersion": "48001", "uid": "5f0e2b44-web-0"},
    "spec": {
        "affinity": {"nodeAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"preference": {"matchExpressions": [{"key": "topology.kubernetes.io/zone", "operator": "In", "values": ["zone-b"]}]}, "weight": 20}],
            "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                {"matchExpressions": [{"key": "kubernetes.io/os", "operator": "In", "values": ["linux"]},
                                      {"key": "node-role.kubernetes.io/control-plane", "operator": "DoesNotExist"}]},
                {"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["kind-worker"]}]}]}},
            "podAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
                {"labelSelector": {"matchLabels": {"app": "cache"}}, "namespaceSelector": {},
                 "topologyKey": "topology.kubernetes.io/zone", "matchLabelKeys": ["pod-template-hash"]}]}},
        "containers": [{"image": "nginx:1.25", "name": "nginx",
                        "ports": [{"containerPort": 80, "hostPort": 8080, "protocol": "TCP", "hostIP": "0.0.0.0"}],
                        "resources": {"limits": {"cpu": "1", "memory": "1Gi"}, "requests": {"cpu": "0.5", "memory": "512Mi", "ephemeral-storage": "1G"}}}],
        "initContainers": [{"image": "busybox", "name": "log-shipper", "restartPolicy": "Always",
                            "resources": {"requests": {"cpu": "50m", "memory": "64Mi"}}},
                           {"image": "busybox", "name": "init-db", "resources": {"limits": {"cpu": "200m"}}}],
        "overhead": {"cpu": "250m", "memory": "120Mi"},
        "runtimeClassName": "kata",
        "schedulerName": "default-scheduler",
        "tolerations": [{"effect": "NoExecute", "key": "node.kubernetes.io/not-ready", "operator": "Exists", "tolerationSeconds": 300}],
        "topologySpreadConstraints": [
            {"labelSelector": {"matchLabels": {"app": "web"}}, "maxSkew": 1, "minDomains": 2,
             "matchLabelKeys": ["controller-revision-hash"], "nodeAffinityPolicy": "Honor", "nodeTaintsPolicy": "Ignore",
             "topologyKey": "topology.kubernetes.io/zone", "whenUnsatisfiable": "DoNotSchedule"},
            {"labelSelector": {"matchExpressions": [{"key": "app", "operator": "Exists"}]}, "maxSkew": 3,
             "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "ScheduleAnyway"}],
        "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data-web-0"}},
                    {"emptyDir": {}, "name": "scratch"}, kube_api_access]},
    "status": {"conditions": [{"lastProbeTime": None, "lastTransitionTime": "2024-05-02T07:59:58Z",
                               "message": "0/3 nodes are available: 3 Insufficient cpu.", "reason": "Unschedulable",
                               "status": "False", "type": "PodScheduled"}],
               "nominatedNodeName": "kind-worker", "phase": "Pending", "qosClass": "Burstable"}}

batch = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"creationTimestamp": "2024-05-02T07:30:00Z", "deletionGracePeriodSeconds": 30,
                 "deletionTimestamp": "2024-05-02T08:00:30.250Z", "labels": {"job-name": "report"},
                 "name": "report-x7k2", "namespace": "batch", "uid": "9e9e"},
    "spec": {"containers": [{"image": "python:3.12", "name": "main",
                             "resources": {"requests": {"cpu": "2", "memory": "4Gi", "example.com/gpu": "1"},
                                           "limits": {"example.com/gpu": "1"}}}],
             "nodeName": "kind-worker2", "preemptionPolicy": "Never", "priority": 0, "restartPolicy": "Never",
             "schedulerName": "batch-scheduler",
             "tolerations": [{"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoExecute"}]},
    "status": status_running("kind-worker2", "2024-05-02T07:30:05+02:00")}

gated = {
    "apiVersion": "v1", "kind": "Pod",
    "metadata": {"creationTimestamp": None, "name": "gated", "labels": {"app": "web"}},
    "spec": {"containers": [{"image": "nginx", "name": "c"}], "schedulingGates": [{"name": "example.com/quota"}]},
    "status": {"phase": "Pending"}}

lst = {"apiVersion": "v1", "items": nodes + [coredns, web, batch, gated], "kind": "List",
       "metadata": {"resourceVersion": ""}}
with open("cluster.json", "w") as f:
    json.dump(lst, f, indent=4, sort_keys=True)
    f.write("\n")

# kubectl -o yaml: the same object as YAML, keys sorted, ambiguous strings quoted.
class D(yaml.SafeDumper):
    pass
def str_rep(dumper, data):
    tag = dumper.resolve(yaml.ScalarNode, data, (True, False))
    style = '"' if tag != "tag:yaml.org,2002:str" or data == "" else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)
D.add_representer(str, str_rep)
with open("cluster.yaml", "w") as f:
    yaml.dump(lst, f, Dumper=D, default_flow_style=False, sort_keys=True, width=1000)
