// Command example resolves a workload through a compiled catalog bundle with the Go binding and
// prints its components, the way a consumer of the upstream library walks a ComponentFactory; with
// -pods, it also maps the first pod of that file and prints its component and pod group.
//
//	go run ./example -bundle build/catalog.wmb \
//	  -pods catalog/examples/pods/jobset-x-k8s-io-jobset-v1alpha2-pods.yaml catalog/examples/jobset-training.yaml
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"gopkg.in/yaml.v3"

	"github.com/wmc/wm"
	"github.com/wmc/wm/instructions"
	"github.com/wmc/wm/resource"
)

// readObject reads a workload file (YAML or JSON) as a generic object, as a controller holds an
// unstructured object.
func readObject(path string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var object map[string]any
	if err := yaml.Unmarshal(data, &object); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return object, nil
}

// firstPod reads the first Pod of a YAML stream (catalog/examples/pods/*-pods.yaml).
func firstPod(path string) (map[string]any, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	decoder := yaml.NewDecoder(f)
	for {
		var pod map[string]any
		if err := decoder.Decode(&pod); err != nil {
			return nil, fmt.Errorf("%s: no pod: %w", path, err)
		}
		if pod != nil {
			return pod, nil
		}
	}
}

// printPod maps one pod to the workload and prints its component, instance and PodGroup.
func printPod(bundle *wm.Bundle, object map[string]any, podsPath string) error {
	pod, err := firstPod(podsPath)
	if err != nil {
		return err
	}
	a, err := instructions.AnswerPod(bundle, object, pod)
	if err != nil {
		return err
	}
	text := func(s *string) string {
		if s == nil {
			return "-"
		}
		return *s
	}
	fmt.Printf("pod %s: component %s, instance %s, pod group %s\n", a.Name, text(a.Component), text(a.Instance),
		text(a.PodGroupName))
	for answer, message := range a.Errors {
		fmt.Printf("  %s: %s\n", answer, message)
	}
	return nil
}

func run(bundlePath, objectPath, podsPath string) error {
	bundle, err := wm.Open(bundlePath, nil)
	if err != nil {
		return err
	}
	defer bundle.Close()
	object, err := readObject(objectPath)
	if err != nil {
		return err
	}
	factory, err := resource.NewComponentFactoryFromObject(bundle, object)
	if err != nil {
		return err
	}
	ctx := context.Background()
	root, err := factory.GetRootComponent()
	if err != nil {
		return err
	}
	w := factory.Workload()
	fmt.Printf("%s %s/%s (definition %s)\n", w.Kind, w.Namespace, w.Name, w.Definition)
	if status, err := root.GetStatus(ctx); err != nil {
		return err
	} else if status != nil {
		fmt.Printf("status: %v\n", status.MatchedStatuses)
	}
	children, err := factory.GetChildComponents()
	if err != nil {
		return err
	}
	for _, c := range append([]*resource.Component{root}, children...) {
		instances, err := c.GetExtractedInstances(ctx)
		if err != nil {
			return err
		}
		ids, _ := c.GetInstanceIds(ctx)
		fmt.Printf("component %s (%s, pods: %t)\n", c.Name(), c.Kind().Kind, c.HasPodDefinition())
		for _, id := range ids {
			scale, _ := json.Marshal(instances[id].Scale)
			fmt.Printf("  instance %q scale %s\n", id, scale)
		}
	}
	if podsPath != "" {
		return printPod(bundle, object, podsPath)
	}
	return nil
}

func main() {
	bundlePath := flag.String("bundle", "build/catalog.wmb", "compiled catalog bundle (.wmb)")
	podsPath := flag.String("pods", "", "pods of the workload (YAML stream): map the first one")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: example -bundle BUNDLE [-pods PODS.yaml] WORKLOAD.yaml")
		os.Exit(2)
	}
	if err := run(*bundlePath, flag.Arg(0), *podsPath); err != nil {
		fmt.Fprintln(os.Stderr, "example:", err)
		os.Exit(1)
	}
}
