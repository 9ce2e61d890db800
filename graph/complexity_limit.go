package graph

import (
	"context"
	"errors"

	"github.com/99designs/gqlgen/complexity"
	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// complexityLimit is gqlgen's extension.FixedComplexityLimit (the same
// name, statistics, message and code) that remembers, per query text and
// operation name, the complexity of an operation that declares no
// variables: such an operation's complexity depends on its document
// alone, and gqlgen's walk of it (the connections' complexity functions
// are called by reflection) cost every request of a dashboard's page
// about 40 allocations. An operation with variables is walked every time,
// as its arguments may change its complexity.
type complexityLimit struct {
	limit int
	es    graphql.ExecutableSchema
	known *lru.Cache[complexityKey, int]
}

// complexityKey names an operation of a document: the query text (the
// document cache's key) and the operation's name.
type complexityKey struct{ query, operation string }

var _ operationCheck = &complexityLimit{}

// newComplexityLimit refuses operations over limit and remembers the
// complexity of up to size documents' operations.
func newComplexityLimit(limit, size int) *complexityLimit {
	known, err := lru.New[complexityKey, int](size)
	if err != nil {
		panic(err) // size is positive: Options.withDefaults
	}
	return &complexityLimit{limit: limit, known: known}
}

// complexityExtension is the extension's name, gqlgen's, so that
// extension.GetComplexityStats reads its statistics.
const complexityExtension = "ComplexityLimit"

// ExtensionName implements graphql.HandlerExtension.
func (c *complexityLimit) ExtensionName() string { return complexityExtension }

// Validate implements graphql.HandlerExtension.
func (c *complexityLimit) Validate(schema graphql.ExecutableSchema) error {
	if schema == nil {
		return errors.New("complexity limit: no schema")
	}
	c.es = schema
	return nil
}

// MutateOperationContext implements graphql.OperationContextMutator.
func (c *complexityLimit) MutateOperationContext(ctx context.Context, opCtx *graphql.OperationContext) *gqlerror.Error {
	n := c.complexity(ctx, opCtx)
	opCtx.Stats.SetExtension(complexityExtension, &extension.ComplexityStats{Complexity: n, ComplexityLimit: c.limit})
	if n > c.limit {
		err := gqlerror.Errorf("operation has complexity %d, which exceeds the limit of %d", n, c.limit)
		errcode.Set(err, "COMPLEXITY_LIMIT_EXCEEDED")
		return err
	}
	return nil
}

// complexity is the operation's complexity, remembered when it declares
// no variables.
func (c *complexityLimit) complexity(ctx context.Context, opCtx *graphql.OperationContext) int {
	op := opCtx.Doc.Operations.ForName(opCtx.OperationName)
	if op == nil || len(op.VariableDefinitions) > 0 {
		return complexity.Calculate(ctx, c.es, op, opCtx.Variables)
	}
	key := complexityKey{query: opCtx.RawQuery, operation: opCtx.OperationName}
	if n, ok := c.known.Get(key); ok {
		return n
	}
	n := complexity.Calculate(ctx, c.es, op, opCtx.Variables)
	c.known.Add(key, n)
	return n
}
