// Tests of the cgo layer against a real bundle: open (file, bytes, errors), the listing, resolve
// with its error codes and limits, many goroutines on one bundle, use after Close. The bundles come
// from CTest's capi-bundles fixture: WM_BUNDLE (catalog, interpreter), WM_NATIVE_BUNDLE (JobSet,
// native code), WM_SOURCE_DIR (the catalog examples).
package wm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"
)

func env(t testing.TB, name string) string {
	v := os.Getenv(name)
	if v == "" {
		t.Skipf("%s is not set (run through CTest: ctest -R go)", name)
	}
	return v
}

// exampleJSON reads a catalog example (YAML) as JSON bytes.
func exampleJSON(t testing.TB, name string) []byte {
	data, err := os.ReadFile(filepath.Join(env(t, "WM_SOURCE_DIR"), "catalog", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	var object map[string]any
	if err := yaml.Unmarshal(data, &object); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(object)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func openCatalog(t testing.TB) *Bundle {
	b, err := Open(env(t, "WM_BUNDLE"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func TestDefinitions(t *testing.T) {
	defs, err := openCatalog(t).Definitions()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range defs {
		if d.Kind == "JobSet" {
			if d.APIVersion != "jobset.x-k8s.io/v1alpha2" || len(d.Components) != 2 || d.Components[0].Owner != nil ||
				!d.Components[1].HasInstanceIDPath {
				t.Errorf("JobSet definition: %+v", d)
			}
			return
		}
	}
	t.Errorf("no JobSet among %d definitions", len(defs))
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open("/nonexistent.wmb", nil); !IsCode(err, CodeBadBundle) {
		t.Errorf("missing file: %v", err)
	}
	data, err := os.ReadFile(env(t, "WM_BUNDLE"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{nil, []byte("not a bundle"), data[:len(data)/2], data[:len(data)-1]} {
		if _, err := OpenBytes(bad, nil); !IsCode(err, CodeBadBundle) {
			t.Errorf("%d bytes: %v", len(bad), err)
		}
	}
	b, err := OpenBytes(data, &Options{InterpreterOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.ResolveJSON(exampleJSON(t, "jobset-training.yaml"), nil); err != nil {
		t.Error(err)
	}
}

func TestResolveJobSet(t *testing.T) {
	w, err := openCatalog(t).Resolve(exampleJSON(t, "jobset-training.yaml"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if w.Name != "llama-pretrain" || w.Definition != "jobset-x-k8s-io-jobset-v1alpha2" || w.Resources.GPUs != 12 {
		t.Errorf("workload: %+v", w)
	}
	if len(w.Status) != 1 || w.Status[0] != "Running" {
		t.Errorf("status %v", w.Status)
	}
	jobs := w.Component("replicatedjob")
	if jobs == nil || len(jobs.Instances) != 2 || jobs.Instances[0].ID != "leader" || *jobs.Instances[1].Replicas != 2 {
		t.Fatalf("replicatedjob: %+v", jobs)
	}
}

func TestResolveAcceptsGoValues(t *testing.T) {
	var object map[string]any
	if err := json.Unmarshal(exampleJSON(t, "jobset-training.yaml"), &object); err != nil {
		t.Fatal(err)
	}
	w, err := openCatalog(t).Resolve(object, nil)
	if err != nil || w.Resources.GPUs != 12 {
		t.Fatalf("%v %+v", err, w)
	}
}

func TestResolveErrors(t *testing.T) {
	b := openCatalog(t)
	cases := []struct {
		object string
		code   Code
	}{
		{`{"apiVersion":`, CodeInvalidInput},
		{`[1,2]`, CodeInvalidInput},
		{`{"kind":"JobSet"}`, CodeInvalidInput},
		{`{"apiVersion":"example.com/v1","kind":"Widget"}`, CodeNoDefinition},
	}
	for _, c := range cases {
		_, err := b.ResolveJSON([]byte(c.object), nil)
		if !IsCode(err, c.code) || err.Error() == "" {
			t.Errorf("%s: got %v, want code %d", c.object, err, c.code)
		}
	}
}

func TestLimits(t *testing.T) {
	w, err := openCatalog(t).Resolve(exampleJSON(t, "jobset-training.yaml"), &Limits{MaxOutputs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Component("replicatedjob").Problems) == 0 {
		t.Error("an output cap of 1 left the two replicated jobs without a problem")
	}
}

// The object budget is shared by every resolver run on one object: with one step, the first run
// is cut short and the later ones find it spent (docs/limits.md's diagnostic).
func TestObjectLimits(t *testing.T) {
	b := openCatalog(t)
	object := exampleJSON(t, "jobset-training.yaml")
	out, err := b.ResolveJSON(object, &Limits{ObjectFuel: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "object evaluation step budget exhausted (fuel 1)") {
		t.Errorf("an object fuel of 1 did not stop the resolution: %s", out)
	}
	if _, err := b.SuspendJSON(object, "", &Limits{ObjectFuel: 1}); !IsCode(err, CodeLimit) {
		t.Errorf("suspend with an object fuel of 1: got %v, want a limit error", err)
	}
	out, err = b.ResolveJSON(object, &Limits{ObjectFuel: 100000000, ObjectTimeoutMillis: 60000})
	if err != nil || strings.Contains(string(out), "budget exhausted") {
		t.Errorf("generous object limits: %v %s", err, out)
	}
}

func TestConcurrentResolves(t *testing.T) {
	for _, name := range []string{"WM_BUNDLE", "WM_NATIVE_BUNDLE"} {
		b, err := Open(env(t, name), nil)
		if err != nil {
			t.Fatal(err)
		}
		object := exampleJSON(t, "jobset-training.yaml")
		want, err := b.ResolveJSON(object, nil)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan string, 8)
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < 25; j++ {
					got, err := b.ResolveJSON(object, nil)
					if err != nil || string(got) != string(want) {
						errs <- "different answer on a goroutine"
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(name, e)
		}
		b.Close()
	}
}

func TestClosedBundle(t *testing.T) {
	b, err := Open(env(t, "WM_BUNDLE"), nil)
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	b.Close() // twice is fine
	if _, err := b.Definitions(); !IsCode(err, CodeBadArgument) {
		t.Errorf("after Close: %v", err)
	}
}
