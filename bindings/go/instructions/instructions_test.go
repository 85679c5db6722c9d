// Tests of the pod answers through libwm: a JobSet pod's component, instance and PodGroup, and
// upstream's error for a pod no component selects. Fixtures as in package wm (CTest capi-bundles).
package instructions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/wmc/wm"
	"gopkg.in/yaml.v3"
)

func env(t *testing.T, name string) string {
	v := os.Getenv(name)
	if v == "" {
		t.Skipf("%s is not set (run through CTest: ctest -R go)", name)
	}
	return v
}

// documents reads every YAML document of a file under catalog/examples as JSON.
func documents(t *testing.T, name string) [][]byte {
	f, err := os.Open(filepath.Join(env(t, "WM_SOURCE_DIR"), "catalog", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]byte
	decoder := yaml.NewDecoder(f)
	for {
		var doc map[string]any
		if err := decoder.Decode(&doc); err != nil {
			break
		}
		if doc == nil {
			continue
		}
		data, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

func jobset(t *testing.T) (*wm.Bundle, []byte, [][]byte) {
	b, err := wm.Open(env(t, "WM_BUNDLE"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, documents(t, "jobset-training.yaml")[0], documents(t, "pods/jobset-x-k8s-io-jobset-v1alpha2-pods.yaml")
}

func TestJobSetPod(t *testing.T) {
	b, workload, pods := jobset(t)
	name, err := InferPodComponent(b, workload, pods[0])
	if err != nil || name != "replicatedjob" {
		t.Fatalf("InferPodComponent = %q, %v", name, err)
	}
	instance, err := InferPodComponentInstance(b, workload, pods[0])
	if err != nil || instance == nil || *instance != "leader" {
		t.Fatalf("InferPodComponentInstance = %v, %v", instance, err)
	}
	a, err := AnswerPod(b, workload, pods[len(pods)-1])
	if err != nil {
		t.Fatal(err)
	}
	if a.PodGroupName == nil || *a.PodGroupName != "pg-5b0d7a56-3f0e-4d8e-9c51-7e1f3a2b9c10-job" ||
		a.PodGroups == nil || a.PodGroups.Error != "" || a.PodGroups.EffectiveComponent != "replicatedjob" ||
		a.PodGroups.MinMember != 2 || a.PodGroup == nil || a.PodGroup.SubGroup == nil || *a.PodGroup.SubGroup != "replicatedjob" {
		t.Errorf("answer: %+v", a)
	}
}

func TestPodOfAnUnknownInstance(t *testing.T) {
	b, workload, pods := jobset(t)
	var pod map[string]any
	if err := json.Unmarshal(pods[0], &pod); err != nil {
		t.Fatal(err)
	}
	pod["metadata"].(map[string]any)["labels"].(map[string]any)["jobset.sigs.k8s.io/replicatedjob-name"] = "nope"
	_, err := InferPodComponentInstance(b, workload, pod)
	answerErr, ok := err.(*AnswerError)
	if !ok || answerErr.Answer != "instance" {
		t.Fatalf("want an instance AnswerError, got %v", err)
	}
	if want := `could not match instance id "nope". existing instance ids [leader worker]`; err.Error() != want {
		t.Errorf("message %q, want %q", err.Error(), want)
	}
}

func TestWorkloadErrorsKeepTheirCode(t *testing.T) {
	b, _, pods := jobset(t)
	_, err := InferPodComponent(b, `{"apiVersion":"x/v1","kind":"Nope"}`, pods[0])
	if !wm.IsCode(err, wm.CodeNoDefinition) {
		t.Errorf("want CodeNoDefinition, got %v", err)
	}
}

func TestJobSetGangs(t *testing.T) {
	b, workload, _ := jobset(t)
	g, err := PlanPodGroups(b, workload)
	if err != nil {
		t.Fatal(err)
	}
	if g.GangSource != "podGroup" || g.PodGroup == nil || len(g.PodGroup.SubGroups) != 1 || g.PodGroup.SubGroups[0].MinMember != 3 ||
		len(g.PodGroups) != 1 || g.PodGroups[0].Members[0].Component != "replicatedjob" {
		t.Fatalf("gangs: %+v", g)
	}
	for _, c := range []struct {
		instance string
		want     int64
	}{{"", 3}, {"leader", 1}, {"worker", 2}} {
		n, err := CalculateSubtreeScale(b, workload, "replicatedjob", c.instance)
		if err != nil || n != c.want {
			t.Errorf("CalculateSubtreeScale(%q) = %d, %v; want %d", c.instance, n, err, c.want)
		}
	}
	if _, err := CalculateSubtreeScale(b, workload, "replicatedjob", "nope"); !wm.IsCode(err, wm.CodeNotFound) {
		t.Errorf("unknown instance: %v", err)
	}
}

// One batch call gives, pod for pod, the answers of one call per pod.
func TestMapPodsAgreesWithMapPod(t *testing.T) {
	b, workload, pods := jobset(t)
	raw := make([]json.RawMessage, len(pods))
	for i, p := range pods {
		raw[i] = p
	}
	batch, err := b.MapPods(workload, raw, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(batch) != len(pods) {
		t.Fatalf("%d answers for %d pods", len(batch), len(pods))
	}
	for i, p := range pods {
		one, err := b.MapPod(workload, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(batch[i])
		want, _ := json.Marshal(one)
		if string(got) != string(want) {
			t.Errorf("pod %d: batch %s, single %s", i, got, want)
		}
	}
	if _, err := b.MapPods(workload, `{"kind":"Pod"}`, nil); !wm.IsCode(err, wm.CodeInvalidInput) {
		t.Errorf("a lone Pod object: want CodeInvalidInput, got %v", err)
	}
}
