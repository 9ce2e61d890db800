package generated

import (
	"bytes"
	"context"
	"syscall"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// BenchmarkScalarField resolves and writes one plain field of an enum
// type the way the executor did before `make generate` rewrote it
// (gqlgen_way: a field context, a context value, a marshaler for the
// value) and the way it does now (one scope, the name's marshaler made
// once): the per-field part of a page's cost, without the rest of a
// request around it. Run the two alternately (-count) and compare;
// cpu-ns/op, the process's CPU time (the collector's included), moves less
// than ns/op on a busy machine.
func BenchmarkScalarField(b *testing.B) {
	oc := &graphql.OperationContext{RecoverFunc: graphql.DefaultRecover}
	ctx := graphql.WithFieldContext(context.Background(), &graphql.FieldContext{Object: "Refund"})
	field := graphql.CollectedField{Field: &ast.Field{Alias: "status", Name: "status"}}
	status := "SUCCEEDED"
	var out bytes.Buffer
	run := func(b *testing.B, resolve func() graphql.Marshaler) {
		b.ReportAllocs()
		cpu := processCPU()
		for range b.N {
			out.Reset()
			resolve().MarshalGQL(&out)
		}
		b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
	}
	b.Run("gqlgen_way", func(b *testing.B) {
		run(b, func() graphql.Marshaler {
			return resolvePlainField(ctx, oc, field,
				func(_ context.Context, field graphql.CollectedField) (*graphql.FieldContext, error) {
					return scalarFieldContext("Refund", field, false, false, "RefundStatus")
				},
				func(context.Context) (string, error) { return status, nil },
				func(_ context.Context, _ ast.SelectionSet, v string) graphql.Marshaler {
					return graphql.MarshalString(v)
				},
				true, true)
		})
	})
	b.Run("generated_now", func(b *testing.B) {
		run(b, func() graphql.Marshaler {
			return resolveScalarField(ctx, oc, field,
				scalarField{object: "Refund", typeName: "RefundStatus"},
				func(context.Context) (string, error) { return status, nil },
				func(_ context.Context, _ ast.SelectionSet, v string) graphql.Marshaler { return marshalEnumName(v) },
				true, true)
		})
	})
}

// processCPU is the CPU time this process has used, user and system, in
// nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
