package main

import "github.com/99designs/gqlgen/codegen"

// sequentialFields is a gqlgen plugin that has every object below the
// roots resolve its fields in sequence. gqlgen runs plugins before it
// writes the executor, and an object with DisableConcurrency set is
// written without goroutines (the fields are resolved in place of
// FieldSet.Concurrently and Dispatch). A panic in a resolver still becomes
// the field's error: graphql.ResolveField recovers it either way.
//
// The roots keep gqlgen's choice: the root fields of a query are
// independent reads, each its own statements, which may run side by side
// on the connection pool; mutations are already sequential (the
// specification requires it) and subscriptions resolve their one field
// apart.
type sequentialFields struct{}

func (sequentialFields) Name() string { return "sequentialfields" }

func (sequentialFields) GenerateCode(data *codegen.Data) error {
	for _, obj := range data.Objects {
		if !obj.Root {
			obj.DisableConcurrency = true
		}
	}
	return nil
}
