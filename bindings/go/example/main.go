// Command example resolves a workload through a compiled catalog bundle with the Go binding and
// prints its components, the way a consumer of the upstream library walks a ComponentFactory.
//
//	go run ./example -bundle build/catalog.wmb catalog/examples/jobset-training.yaml
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"gopkg.in/yaml.v3"

	"github.com/wmc/wm"
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

func run(bundlePath, objectPath string) error {
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
	return nil
}

func main() {
	bundlePath := flag.String("bundle", "build/catalog.wmb", "compiled catalog bundle (.wmb)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: example -bundle BUNDLE WORKLOAD.yaml")
		os.Exit(2)
	}
	if err := run(*bundlePath, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "example:", err)
		os.Exit(1)
	}
}
