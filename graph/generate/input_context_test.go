package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The executor no longer puts gqlgen's map of input unmarshalers into the
// context (rewrites: it was built on every request), so
// graphql.UnmarshalInputFromContext would answer "the input context is
// empty": nothing in the module may call it.
func TestNothingUnmarshalsInputFromContext(t *testing.T) {
	const call = "UnmarshalInputFromContext("
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == ".data") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "input_context_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(src), call) {
			t.Errorf("%s calls graphql.%s, which the executor no longer supports (graph/generate/rewrite.go)", path, call)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
