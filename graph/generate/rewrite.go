package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/99designs/gqlgen/codegen/config"
)

// rewrite is one substitution in the executor gqlgen writes: every match
// of pattern becomes replacement (regexp.ReplaceAll's $1 expansion). Each
// replaces a call of gqlgen's runtime by one of graph/generated's own
// with the same answers (their doc comments say why), so the files stay
// gofmt'd and regeneration stays idempotent.
type rewrite struct {
	what        string // for the error when gqlgen no longer writes it
	pattern     *regexp.Regexp
	replacement string
}

// rewrites are applied in order to every file gqlgen generated for the
// executor.
var rewrites = []rewrite{
	{
		// One goroutine per element of a list of objects (a worker limit
		// only bounds how many run at once); gqlgen has no option to
		// write it otherwise. marshalSliceInSequence takes the same
		// parameters and marshals them in sequence.
		what:        "the list marshaller graphql.MarshalSliceConcurrently",
		pattern:     regexp.MustCompile(regexp.QuoteMeta(concurrentListCall)),
		replacement: sequentialListCall,
	},
	{
		// A field read from the model without a resolver (a struct field,
		// or a method without a context or an error): resolvePlainField
		// is resolveField for a value of the field's own type, so the
		// value is not boxed in an interface and the function reading
		// it does not escape to the heap.
		what: "the resolution of a plain field by graphql.ResolveField",
		pattern: regexp.MustCompile(`return graphql\.ResolveField\(\n(\t+)ctx,\n\t+ec\.OperationContext,\n\t+field,\n` +
			`(\t+func\(ctx context\.Context, field graphql\.CollectedField\) \(\*graphql\.FieldContext, error\) \{\n` +
			`\t+return ec\.fieldContext_\w+\(ctx, field\)\n\t+\},\n)` +
			`(\t+)func\(ctx context\.Context\) \(any, error\) \{\n(\t+return obj\.[\w.]+(?:\(\))?, nil\n\t+\},\n)` +
			`\t+nil,\n(\t+func\(ctx context\.Context, selections ast\.SelectionSet, v ([^)]+)\) graphql\.Marshaler \{\n)`),
		replacement: "return resolvePlainField(\n${1}ctx,\n${1}ec.OperationContext,\n${1}field,\n${2}" +
			"${3}func(ctx context.Context) (${6}, error) {\n${4}${5}",
	},
	{
		// Every other field of every object: resolveField takes the same
		// parameters and skips the field middleware chain for fields
		// that are not resolvers.
		what:        "the field resolution graphql.ResolveField",
		pattern:     regexp.MustCompile(regexp.QuoteMeta(resolveFieldCall)),
		replacement: plainResolveFieldCall,
	},
	{
		// A scalar field's context, with an error value built for it on
		// every resolution (only read if something asks a scalar for
		// its children).
		what: "the scalar field context graphql.NewScalarFieldContext",
		pattern: regexp.MustCompile(`graphql\.NewScalarFieldContext\(([^()]*), ` +
			`errors\.New\("field of type (\w+) does not have child fields"\)\)`),
		replacement: `scalarFieldContext($1, "$2")`,
	},
	{
		// Every object's path, built for a @defer group even when the
		// object has none.
		what:        "the deferred group's path graphql.GetPath",
		pattern:     regexp.MustCompile(`Path:( +)graphql\.GetPath\(ctx\),`),
		replacement: `Path:${1}deferredPath(ctx, deferLabelToView),`,
	},
	{
		// Every object's field set, written through an iterator that
		// allocates a copy of each field and a map of the aliases
		// written: objectFieldSet writes the same JSON without them, and
		// holds the object's @defer set (the next rewrite) and a few
		// values in the same allocation.
		what:        "an object's field set graphql.NewFieldSet(fields)",
		pattern:     regexp.MustCompile(`out := graphql\.NewFieldSet\(fields\)`),
		replacement: `out := newObjectFieldSet(fields)`,
	},
	{
		// The query root's fields take the set they count their invalid
		// values in as gqlgen's own type.
		what:        "the root field set handed to a root field's resolution",
		pattern:     regexp.MustCompile(`innerFunc\(ctx, out\)`),
		replacement: `innerFunc(ctx, &out.FieldSet)`,
	},
	{
		what:        "an object's empty @defer field set graphql.NewFieldSet(nil)",
		pattern:     regexp.MustCompile(`deferredFieldSet := graphql\.NewFieldSet\(nil\)`),
		replacement: `deferredFieldSet := out.objectDeferredSet()`,
	},
	{
		// An enum value, written through a marshaler allocated for it:
		// marshalEnumName keeps one per name.
		what:        "an enum value's marshaler graphql.MarshalString(marshal...[v])",
		pattern:     regexp.MustCompile(`graphql\.MarshalString\((marshal[NO][^\s\[\]()]+\[\*?v\])\)`),
		replacement: `marshalEnumName($1)`,
	},
	{
		// A list of strings, written as an array of a marshaler
		// allocated for every string: marshalStringList writes the same
		// bytes from the slice.
		what:        "a list of strings' marshaler ec.marshalNString2ᚕstringᚄ",
		pattern:     regexp.MustCompile(`ec\.marshalNString2ᚕstringᚄ\(ctx, selections, v\)`),
		replacement: `marshalStringList(v)`,
	},
	{
		// A query's response, written into a buffer that grows from
		// nothing by doubling (some ten allocations and copies for an
		// answer of tens of kilobytes): marshalResponse writes it into a
		// reused buffer and answers one copy of the size it came to.
		what: "the query response's buffer",
		pattern: regexp.MustCompile(`var buf bytes\.Buffer\n\t+data\.MarshalGQL\(&buf\)\n` +
			`\t+response\.Data = buf\.Bytes\(\)`),
		replacement: `response.Data = marshalResponse(data)`,
	},
	{
		// A map of every input type's unmarshaler, built by reflection on
		// every request (some 110 method values and their map entries,
		// a third of what a small query allocates outside its resolvers)
		// for graphql.UnmarshalInputFromContext, which nothing here calls
		// (TestNothingUnmarshalsInputFromContext): the executor unmarshals
		// arguments through its own generated functions.
		what: "the per-request input unmarshaler map graphql.BuildUnmarshalerMap",
		pattern: regexp.MustCompile(`\tinputUnmarshalMap := graphql\.BuildUnmarshalerMap\(\n(?:\t\tec\.\w+,\n)*\t\)\n` +
			`|\n\t+ctx = graphql\.WithUnmarshalerMap\(ctx, inputUnmarshalMap\)`),
		replacement: ``,
	},
}

// concurrentListCall is how gqlgen's executor marshals every list of
// objects, and sequentialListCall its replacement
// (graph/generated/sequential_lists.go).
const (
	concurrentListCall = "graphql.MarshalSliceConcurrently("
	sequentialListCall = "marshalSliceInSequence("
)

// resolveFieldCall is how gqlgen's executor resolves every field below
// the roots, and plainResolveFieldCall its replacement
// (graph/generated/resolve_field.go).
const (
	resolveFieldCall      = "graphql.ResolveField("
	plainResolveFieldCall = "resolveField("
)

// errorsImport is the executor files' import of package errors, which
// the scalar field contexts were the only users of in some files.
var errorsImport = []byte("\t\"errors\"\n")

// generatedMarker starts every file gqlgen writes; files without it in the
// executor's directory are the project's own and are left alone.
var generatedMarker = []byte("// Code generated ")

// rewriteExecutor applies rewrites to every file gqlgen generated for the
// executor, then rewriteScalarFields. It fails when one of them matches
// nowhere, so that a gqlgen upgrade that changes what it writes is noticed
// at generation rather than by a slower executor.
func rewriteExecutor(exec *config.ExecConfig) error {
	files, err := filepath.Glob(filepath.Join(exec.Dir(), "*.go"))
	if err != nil {
		return err
	}
	matched := make([]int, len(rewrites))
	sources := map[string][]byte{}
	outputs := map[string][]byte{}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(src, generatedMarker) {
			continue
		}
		out := src
		for i, r := range rewrites {
			matched[i] += len(r.pattern.FindAllIndex(out, -1))
			out = r.pattern.ReplaceAll(out, []byte(r.replacement))
		}
		if !bytes.Contains(bytes.Replace(out, errorsImport, nil, 1), []byte("errors.")) {
			out = bytes.Replace(out, errorsImport, nil, 1)
		}
		sources[name], outputs[name] = src, out
	}
	for i, r := range rewrites {
		if matched[i] == 0 {
			return fmt.Errorf("%s is nowhere in the generated executor: gqlgen changed what it writes", r.what)
		}
	}
	if err := rewriteScalarFields(outputs); err != nil {
		return err
	}
	for name, out := range outputs {
		if bytes.Equal(out, sources[name]) {
			continue
		}
		if err := os.WriteFile(name, out, 0o644); err != nil {
			return err
		}
	}
	return nil
}
