package graph

import "github.com/99designs/gqlgen/graphql"

// operationCheck is a handler extension that checks each operation once
// it is parsed, before anything runs (gqlgen calls it with the operation's
// context): the depth, complexity, enum and credential checks.
type operationCheck interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
}

// schemaFree is the graphql.HandlerExtension.Validate of the extensions
// that check operations without reading the schema (the depth, document
// and credential checks): embedded, it accepts every schema, so each
// extension states only its name and its check.
type schemaFree struct{}

// Validate implements graphql.HandlerExtension.
func (schemaFree) Validate(graphql.ExecutableSchema) error { return nil }
