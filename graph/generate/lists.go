package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/99designs/gqlgen/codegen/config"
)

// concurrentListCall is how gqlgen's executor marshals every list of
// objects: one goroutine per element (a worker limit only bounds how many
// run at once). gqlgen has no option to write it otherwise.
const concurrentListCall = "graphql.MarshalSliceConcurrently("

// sequentialListCall is the executor's own marshaller with the same
// parameters and answers, which marshals the elements in sequence
// (graph/generated/sequential_lists.go).
const sequentialListCall = "marshalSliceInSequence("

// generatedMarker starts every file gqlgen writes; files without it in the
// executor's directory are the project's own and are left alone.
var generatedMarker = []byte("// Code generated ")

// sequentialLists replaces the concurrent list marshaller in every file
// gqlgen generated for the executor by the sequential one. It is a plain
// text substitution of one call with identical arguments, so the files
// stay gofmt'd and regeneration stays idempotent. It fails when gqlgen no
// longer writes the call, so that a gqlgen upgrade that changes it is
// noticed at generation rather than by a slower executor.
func sequentialLists(exec *config.ExecConfig) error {
	files, err := filepath.Glob(filepath.Join(exec.Dir(), "*.go"))
	if err != nil {
		return err
	}
	replaced := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(src, generatedMarker) {
			continue
		}
		n := bytes.Count(src, []byte(concurrentListCall))
		if n == 0 {
			continue
		}
		src = bytes.ReplaceAll(src, []byte(concurrentListCall), []byte(sequentialListCall))
		if err := os.WriteFile(name, src, 0o644); err != nil {
			return err
		}
		replaced += n
	}
	if replaced == 0 {
		return fmt.Errorf("no %s call in the generated executor: gqlgen changed how it marshals lists", concurrentListCall)
	}
	return nil
}
