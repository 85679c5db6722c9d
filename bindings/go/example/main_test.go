// The example runs on the JobSet example of the catalog and maps its first pod.
package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExampleRuns(t *testing.T) {
	bundle, src := os.Getenv("WM_BUNDLE"), os.Getenv("WM_SOURCE_DIR")
	if bundle == "" || src == "" {
		t.Skip("WM_BUNDLE / WM_SOURCE_DIR not set (run through CTest: ctest -R go)")
	}
	examples := filepath.Join(src, "catalog", "examples")
	pods := filepath.Join(examples, "pods", "jobset-x-k8s-io-jobset-v1alpha2-pods.yaml")
	if err := run(bundle, filepath.Join(examples, "jobset-training.yaml"), pods); err != nil {
		t.Fatal(err)
	}
}
