// Package bench compares resolving a workload through libwm with what the upstream Go library
// does for the same definition: gojq evaluating every workload-side expression of the definition,
// parsed and compiled on every call (upstream's runner), and, as gojq's best case, compiled once.
// All variants decode the object from JSON bytes once per resolution (libwm parses it, upstream
// round-trips it through encoding/json). The JobSet example and the JobSet definition's resolvers
// are the workload.
//
//	bindings/go/gotest.sh . build test -run XXX -bench . -benchtime 2s ./bench
package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/itchyny/gojq"
	"gopkg.in/yaml.v3"

	"github.com/wmc/wm"
)

const definition = "jobset-x-k8s-io-jobset-v1alpha2"

type fixture struct {
	object   []byte   // the JobSet example as JSON
	exprs    []string // the definition's workload-side jq expressions
	podExprs []string // its pod-side expressions (selectors, gang filters and keys)
	pods     [][]byte // the example's pods as JSON
	podList  []byte   // the same pods as one JSON array
}

func load(b testing.TB) fixture {
	bundlePath, src := os.Getenv("WM_NATIVE_BUNDLE"), os.Getenv("WM_SOURCE_DIR")
	if bundlePath == "" || src == "" {
		b.Skip("WM_NATIVE_BUNDLE / WM_SOURCE_DIR not set (run through bindings/go/gotest.sh)")
	}
	data, err := os.ReadFile(filepath.Join(src, "catalog", "examples", "jobset-training.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	var object map[string]any
	if err := yaml.Unmarshal(data, &object); err != nil {
		b.Fatal(err)
	}
	var f fixture
	if f.object, err = json.Marshal(object); err != nil {
		b.Fatal(err)
	}
	bundle, err := wm.Open(bundlePath, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer bundle.Close()
	resolvers, err := bundle.Resolvers()
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range resolvers {
		if r.Definition != definition {
			continue
		}
		if r.PodSide() {
			f.podExprs = append(f.podExprs, r.Source)
		} else {
			f.exprs = append(f.exprs, r.Source)
		}
	}
	if len(f.exprs) == 0 || len(f.podExprs) == 0 {
		b.Fatal("no expressions for " + definition)
	}
	f.pods, f.podList = loadPods(b, filepath.Join(src, "catalog", "examples", "pods", definition+"-pods.yaml"))
	return f
}

// loadPods reads every Pod of a multi-document YAML file as JSON, one by one and as one array.
func loadPods(b testing.TB, path string) ([][]byte, []byte) {
	file, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer file.Close()
	var pods [][]byte
	var all []json.RawMessage
	for decoder := yaml.NewDecoder(file); ; {
		var pod map[string]any
		if decoder.Decode(&pod) != nil {
			break
		}
		data, err := json.Marshal(pod)
		if err != nil {
			b.Fatal(err)
		}
		pods = append(pods, data)
		all = append(all, data)
	}
	list, err := json.Marshal(all)
	if err != nil || len(pods) == 0 {
		b.Fatalf("no pods in %s (%v)", path, err)
	}
	return pods, list
}

func compile(b testing.TB, expr string) *gojq.Code {
	q, err := gojq.Parse(expr)
	if err != nil {
		b.Fatal(err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		b.Fatal(err)
	}
	return code
}

// evaluate runs every expression once on a freshly decoded object and counts the outputs.
func evaluate(b testing.TB, f fixture, code func(i int) *gojq.Code) int {
	return evaluateOn(b, f.object, f.exprs, code)
}

// evaluateOn runs every expression of exprs once on a freshly decoded document, failing on an
// error, and counts the outputs.
func evaluateOn(b testing.TB, document []byte, exprs []string, code func(i int) *gojq.Code) int {
	var object any
	if err := json.Unmarshal(document, &object); err != nil {
		b.Fatal(err)
	}
	n := 0
	for i := range exprs {
		iter := code(i).Run(object)
		for {
			v, ok := iter.Next()
			if !ok {
				break
			}
			if err, isErr := v.(error); isErr {
				b.Fatalf("%s: %v", exprs[i], err)
			}
			n++
		}
	}
	return n
}

// The gojq and libwm runs see the same expressions: every one yields at least one output in gojq.
func TestAgree(t *testing.T) {
	f := load(t)
	if n := evaluate(t, f, func(i int) *gojq.Code { return compile(t, f.exprs[i]) }); n < len(f.exprs) {
		t.Errorf("%d outputs for %d expressions", n, len(f.exprs))
	}
}

func benchmarkWM(b *testing.B, options *wm.Options) {
	f := load(b)
	bundle, err := wm.Open(os.Getenv("WM_NATIVE_BUNDLE"), options)
	if err != nil {
		b.Fatal(err)
	}
	defer bundle.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := bundle.ResolveJSON(f.object, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// libwm, native code (the bundle's AOT object) and the interpreter.
func BenchmarkResolveWMNative(b *testing.B) { benchmarkWM(b, nil) }
func BenchmarkResolveWMInterp(b *testing.B) { benchmarkWM(b, &wm.Options{InterpreterOnly: true}) }

// Upstream's pattern: parse and compile each expression at every evaluation.
func BenchmarkGojqPerCall(b *testing.B) {
	f := load(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		evaluate(b, f, func(i int) *gojq.Code { return compile(b, f.exprs[i]) })
	}
}

// gojq's best case: every expression compiled once.
func BenchmarkGojqCached(b *testing.B) {
	f := load(b)
	codes := make([]*gojq.Code, len(f.exprs))
	for i, e := range f.exprs {
		codes[i] = compile(b, e)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		evaluate(b, f, func(i int) *gojq.Code { return codes[i] })
	}
}

// Pod mapping: every pod of the JobSet example mapped to its component, instance, replica key and
// PodGroup. libwm in one batch call (the workload read once) and one call per pod; upstream's
// pattern for the same pods decodes the workload and the pod and runs the definition's workload
// expressions (instance ids, scales for the PodGroup) and every pod-side expression, parsed and
// compiled at every evaluation.
func BenchmarkMapPodsWMBatch(b *testing.B) {
	f := load(b)
	bundle := open(b)
	defer bundle.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := bundle.PodMapBatchJSON(f.object, f.podList, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMapPodsWMEach(b *testing.B) {
	f := load(b)
	bundle := open(b)
	defer bundle.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, pod := range f.pods {
			if _, err := bundle.PodMapJSON(f.object, pod, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkMapPodsGojqPerCall(b *testing.B) {
	f := load(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, pod := range f.pods {
			evaluate(b, f, func(i int) *gojq.Code { return compile(b, f.exprs[i]) })
			evaluatePodSide(b, f, pod)
		}
	}
}

// evaluatePodSide runs the pod-side expressions on one pod, compiled per call. Selectors may
// legitimately fail on a pod they do not select (upstream treats that as "no match"), so errors
// count as outputs here rather than failing the benchmark.
func evaluatePodSide(b testing.TB, f fixture, pod []byte) {
	var object any
	if err := json.Unmarshal(pod, &object); err != nil {
		b.Fatal(err)
	}
	for _, expr := range f.podExprs {
		iter := compile(b, expr).Run(object)
		for {
			if _, ok := iter.Next(); !ok {
				break
			}
		}
	}
}

// Gangs and status through libwm, for the per-call costs of the other operations.
func BenchmarkGangsWM(b *testing.B) {
	f := load(b)
	bundle := open(b)
	defer bundle.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := bundle.GangsJSON(f.object, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStatusWM(b *testing.B) {
	f := load(b)
	bundle := open(b)
	defer bundle.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := bundle.StatusJSON(f.object, "", nil); err != nil {
			b.Fatal(err)
		}
	}
}

func open(b *testing.B) *wm.Bundle {
	bundle, err := wm.Open(os.Getenv("WM_NATIVE_BUNDLE"), nil)
	if err != nil {
		b.Fatal(err)
	}
	return bundle
}
