// Command schedref-kube-scheduler runs upstream kube-scheduler (the Go
// packages of k8s.io/kubernetes v1.32.5) behind the schedref conformance
// protocol (docs/conformance-protocol.md): it reads run requests on stdin,
// drives the real scheduler through each scenario in lock step with the
// scenario's virtual clock, and writes the trace (docs/trace-format.md) on
// stdout. Logs go to stderr; stdout carries protocol lines only.
//
// Out-of-tree plugins are registered in outoftree.go; everything else is
// upstream's own code: the scheduling queue, cache, framework, in-tree
// plugins, DefaultPreemption and DefaultBinder.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"k8s.io/klog/v2"
)

const (
	protocolName    = "schedref-conformance"
	protocolVersion = 1
)

// request is one line from the runner: the handshake or a run request.
type request struct {
	Protocol string         `json:"protocol"`
	Version  *int           `json:"version"`
	Kind     string         `json:"kind"`
	File     string         `json:"file"`
	Scenario string         `json:"scenario"`
	Options  map[string]any `json:"options"`
}

func main() {
	name := flag.String("name", "kube-scheduler-v1.32.5", "the implementation name given in the handshake")
	verbosity := flag.Int("v", 0, "klog verbosity of upstream's logs on stderr")
	flag.Parse()

	klogFlags := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(klogFlags)
	_ = klogFlags.Set("v", fmt.Sprint(*verbosity))
	_ = klogFlags.Set("logtostderr", "true")
	if *verbosity == 0 {
		// Upstream logs every unschedulable pod at level 0-2; the runner's
		// stderr is for the adapter's own diagnostics.
		klog.SetOutput(io.Discard)
		_ = klogFlags.Set("logtostderr", "false")
		_ = klogFlags.Set("stderrthreshold", "FATAL")
	}

	if err := serve(os.Stdin, os.Stdout, *name); err != nil {
		fmt.Fprintln(os.Stderr, "schedref-kube-scheduler:", err)
		os.Exit(1)
	}
}

// serve runs one protocol session: the handshake, then one answer per run
// request, until stdin ends.
func serve(in io.Reader, out io.Writer, name string) error {
	reader := bufio.NewReaderSize(in, 1<<20)
	w := bufio.NewWriter(out)
	send := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if _, err := w.Write(append(b, '\n')); err != nil {
			return err
		}
		return nil
	}

	handshakeDone := false
	for {
		line, err := reader.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var req request
		if jerr := json.Unmarshal(line, &req); jerr != nil {
			if e := send(map[string]string{"kind": "error", "message": "request is not a JSON object: " + jerr.Error()}); e != nil {
				return e
			}
			if e := w.Flush(); e != nil {
				return e
			}
			continue
		}
		if !handshakeDone {
			if req.Protocol != protocolName || req.Version == nil {
				_ = send(map[string]string{"kind": "error", "message": fmt.Sprintf("expected a %s handshake", protocolName)})
				_ = w.Flush()
				return fmt.Errorf("no handshake")
			}
			handshakeDone = true
			if err := send(map[string]any{
				"protocol":     protocolName,
				"version":      protocolVersion,
				"name":         name,
				"capabilities": map[string]any{"unsupported": unsupportedFeatures()},
			}); err != nil {
				return err
			}
			if err := w.Flush(); err != nil {
				return err
			}
			continue
		}
		if req.Kind != "run" {
			if err := send(map[string]string{"kind": "error", "message": fmt.Sprintf("unknown request kind %q", req.Kind)}); err != nil {
				return err
			}
		} else {
			feasible, _ := req.Options["feasibleNodes"].(bool)
			lines, runErr := runScenario(req.File, []byte(req.Scenario), feasible)
			for _, l := range lines {
				if err := send(l); err != nil {
					return err
				}
			}
			if runErr != nil {
				if err := send(map[string]string{"kind": "error", "message": runErr.Error()}); err != nil {
					return err
				}
			}
		}
		if err := w.Flush(); err != nil {
			return err
		}
	}
}
