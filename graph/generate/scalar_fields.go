package main

import (
	"errors"
	"regexp"
)

// scalarFieldContextFunc matches a field's context function as the
// rewrites leave it for a field of a scalar or enum type: it only calls
// scalarFieldContext with constants.
var scalarFieldContextFunc = regexp.MustCompile(`func \(ec \*executionContext\) (fieldContext_\w+)\(_ context\.Context, ` +
	`field graphql\.CollectedField\) \(fc \*graphql\.FieldContext, err error\) \{\n` +
	`\treturn scalarFieldContext\(("\w+"), field, (true|false), (true|false), ("\w+")\)\n\}\n`)

// plainFieldCall matches the start of a plain field's resolution
// (resolvePlainField) up to the function making its field context.
var plainFieldCall = regexp.MustCompile(`return resolvePlainField\(\n(\t+)ctx,\n\t+ec\.OperationContext,\n\t+field,\n` +
	`\t+func\(ctx context\.Context, field graphql\.CollectedField\) \(\*graphql\.FieldContext, error\) \{\n` +
	`\t+return ec\.(fieldContext_\w+)\(ctx, field\)\n\t+\},\n`)

// rewriteScalarFields resolves every plain field whose context is made by
// scalarFieldContext through resolveScalarField
// (graph/generated/scalar_field_scope.go), which puts the field's context
// and the context value carrying it in one allocation; the description
// scalarFieldContext was given is written in its place. The field's
// context function stays: its object's context names it for its children
// (Child). outputs are the executor's files, rewritten in place.
func rewriteScalarFields(outputs map[string][]byte) error {
	descriptions := map[string][]byte{}
	for _, out := range outputs {
		for _, m := range scalarFieldContextFunc.FindAllSubmatch(out, -1) {
			descriptions[string(m[1])] = []byte("scalarField{object: " + string(m[2]) + ", typeName: " + string(m[5]) +
				", isMethod: " + string(m[3]) + ", isResolver: " + string(m[4]) + "}")
		}
	}
	rewritten := 0
	for name, out := range outputs {
		outputs[name] = plainFieldCall.ReplaceAllFunc(out, func(call []byte) []byte {
			m := plainFieldCall.FindSubmatch(call)
			desc, ok := descriptions[string(m[2])]
			if !ok {
				return call
			}
			rewritten++
			indent := string(m[1])
			return []byte("return resolveScalarField(\n" + indent + "ctx,\n" + indent + "ec.OperationContext,\n" +
				indent + "field,\n" + indent + string(desc) + ",\n")
		})
	}
	if rewritten == 0 {
		return errors.New("no plain field of a scalar type in the generated executor: gqlgen changed what it writes")
	}
	return nil
}
