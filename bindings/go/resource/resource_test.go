// The upstream-style API on the JobSet example: the component tree, instance ids in workload
// order, scales keyed by instance id, the root's status, and upstream's "not found" wording.
package resource

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/wmc/wm"
)

func factoryFor(t *testing.T, example string) *ComponentFactory {
	bundlePath, src := os.Getenv("WM_BUNDLE"), os.Getenv("WM_SOURCE_DIR")
	if bundlePath == "" || src == "" {
		t.Skip("WM_BUNDLE / WM_SOURCE_DIR not set (run through CTest: ctest -R go)")
	}
	bundle, err := wm.Open(bundlePath, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bundle.Close() })
	data, err := os.ReadFile(filepath.Join(src, "catalog", "examples", example))
	if err != nil {
		t.Fatal(err)
	}
	var object map[string]any
	if err := yaml.Unmarshal(data, &object); err != nil {
		t.Fatal(err)
	}
	f, err := NewComponentFactoryFromObject(bundle, object)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestJobSetComponents(t *testing.T) {
	ctx := context.Background()
	f := factoryFor(t, "jobset-training.yaml")
	root, err := f.GetRootComponent()
	if err != nil || root.Name() != "jobset" || root.HasPodDefinition() {
		t.Fatalf("root: %v %+v", err, root)
	}
	children, err := f.GetChildComponentsOf("jobset")
	if err != nil || len(children) != 1 {
		t.Fatalf("children: %v %d", err, len(children))
	}
	jobs := children[0]
	if jobs.Name() != "replicatedjob" || !jobs.HasPodDefinition() || !jobs.HasInstanceIdDefinition() ||
		*jobs.Kind() != (GroupVersionKind{"batch", "v1", "Job"}) {
		t.Errorf("replicatedjob: %s %+v", jobs.Name(), jobs.Kind())
	}
	ids, err := jobs.GetInstanceIds(ctx)
	if err != nil || !reflect.DeepEqual(ids, []string{"leader", "worker"}) {
		t.Errorf("instance ids %v %v", ids, err)
	}
	rootIds, _ := root.GetInstanceIds(ctx)
	if !reflect.DeepEqual(rootIds, []string{""}) {
		t.Errorf("root instance ids %q, want the anonymous instance", rootIds)
	}
	instances, err := jobs.GetExtractedInstances(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s := instances["worker"].Scale; s == nil || s.Replicas == nil || *s.Replicas != 2 {
		scale, _ := json.Marshal(s)
		t.Errorf("worker scale %s", scale)
	}
	// The pod template, as a consumer would decode it into corev1.PodTemplateSpec.
	var template struct {
		Spec struct {
			SchedulerName string `json:"schedulerName"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(instances["leader"].PodTemplateSpec, &template); err != nil ||
		template.Spec.SchedulerName != "kai-scheduler" {
		t.Errorf("leader pod template: %v %s", err, instances["leader"].PodTemplateSpec)
	}
}

func TestStatusOnTheRootOnly(t *testing.T) {
	ctx := context.Background()
	f := factoryFor(t, "jobset-failed.yaml")
	root, _ := f.GetRootComponent()
	status, err := root.GetStatus(ctx)
	if err != nil || status == nil || len(status.MatchedStatuses) == 0 || status.MatchedStatuses[0] != "Failed" {
		t.Errorf("root status %+v %v", status, err)
	}
	if len(status.Conditions) == 0 || status.Conditions[len(status.Conditions)-1].Type == "" {
		t.Errorf("conditions %+v", status.Conditions)
	}
	jobs, _ := f.GetComponent("replicatedjob")
	if status, err := jobs.GetStatus(ctx); status != nil || err != nil {
		t.Errorf("child status %+v %v, want nil, nil", status, err)
	}
}

func TestUnknownComponent(t *testing.T) {
	_, err := factoryFor(t, "jobset-training.yaml").GetComponent("nope")
	if err == nil || err.Error() != "component nope not found" {
		t.Errorf("got %v", err)
	}
}

func TestJobSetWrites(t *testing.T) {
	ctx := context.Background()
	f := factoryFor(t, "jobset-training.yaml")
	root, _ := f.GetRootComponent()
	suspended, err := root.ApplySuspendActions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var object struct {
		Spec struct {
			Suspend *bool `json:"suspend"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(suspended, &object); err != nil || object.Spec.Suspend == nil || !*object.Spec.Suspend {
		t.Errorf("suspended: %s (%v)", suspended, err)
	}
	resumed, err := root.ApplyResumeActions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(resumed, &object); err != nil || object.Spec.Suspend == nil || *object.Spec.Suspend {
		t.Errorf("resumed: %s (%v)", resumed, err)
	}

	jobs, _ := f.GetComponent("replicatedjob")
	if _, err := jobs.ApplySuspendActions(ctx); !wm.IsCode(err, wm.CodeNoDefinition) ||
		err.Error() != "component replicatedjob does not have suspendDefinition" {
		t.Errorf("child suspend: %v", err)
	}
	spec := json.RawMessage(`{"spec":{"schedulerName":"kai"}}`)
	updated, err := jobs.UpdatePodTemplateSpec(ctx, map[string]json.RawMessage{"leader": spec, "worker": spec})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewComponentFactoryFromObject(f.bundle, updated)
	if err != nil {
		t.Fatal(err)
	}
	jobs, _ = g.GetComponent("replicatedjob")
	instances, err := jobs.GetExtractedInstances(ctx)
	if err != nil || string(instances["worker"].PodTemplateSpec) != string(spec) {
		t.Errorf("worker after update: %s (%v)", instances["worker"].PodTemplateSpec, err)
	}
	if _, err := jobs.UpdatePodTemplateSpec(ctx, map[string]json.RawMessage{"leader": spec}); !wm.IsCode(err, wm.CodeNotFound) {
		t.Errorf("missing instance: %v", err)
	}
}
