package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExecutorIsSequential checks the committed executor as `make
// generate` writes it: no list marshals its elements in goroutines, no
// call that rewriteExecutor replaces is left, and only the query root
// resolves its fields concurrently (sequentialFields).
// It fails when the executor was regenerated with gqlgen alone.
func TestExecutorIsSequential(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "generated", "*.generated.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no generated files: %v", err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rewrites {
			if r.pattern.Match(src) {
				t.Errorf("%s: still calls %s; regenerate with `make generate`", name, r.what)
			}
		}
		for _, fn := range strings.Split(string(src), "\nfunc ")[1:] {
			head, _, _ := strings.Cut(fn, "\n")
			if strings.Contains(fn, ".Concurrently(") && !strings.HasPrefix(head, "(ec *executionContext) _Query(") {
				t.Errorf("%s: %s resolves fields concurrently; regenerate with `make generate`", name, head)
			}
		}
	}
}
