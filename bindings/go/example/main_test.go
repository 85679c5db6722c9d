// The example runs on the JobSet example of the catalog.
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
	if err := run(bundle, filepath.Join(src, "catalog", "examples", "jobset-training.yaml")); err != nil {
		t.Fatal(err)
	}
}
