package graph

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/resolvers"
)

// prefetchRoots reads, before a query's root fields run, every id its root
// lookups by id ask for (node(id:), account(id:), event(id:)...), one batch
// per loader (resolvers.PrefetchRoots), and then looks ahead from all those
// lookups together (loaders.LookAheadRoots): the root fields run
// concurrently, each on its own, so N aliased lookups would otherwise read
// their edges in N batches. Mutations are left alone: they run one after
// the other and empty the loaders after each.
func prefetchRoots(schema *ast.Schema) graphql.OperationMiddleware {
	return func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		oc := graphql.GetOperationContext(ctx)
		if oc != nil && oc.Operation != nil && oc.Operation.Operation == ast.Query && ctx.Err() == nil {
			if lookups, byID := rootLookups(oc); len(lookups) > 0 {
				resolvers.PrefetchRoots(ctx, lookups)
				var roots []loaders.Root
				for _, l := range byID {
					if v, ok := resolvers.RootValue(ctx, l.field.Name, l.id); ok {
						roots = append(roots, loaders.Root{Field: l.field, Value: v})
					}
				}
				loaders.LookAheadRoots(ctx, schema, roots)
			}
		}
		return next(ctx)
	}
}

// lookup is a root field that finds one object by its id argument.
type lookup struct {
	field graphql.CollectedField
	id    string
}

// rootLookups maps each loader to the ids the operation's root fields ask
// for: a field whose only argument is id by the field's name (account(id:),
// node(id:)), and an argument named <loader>Id by that loader
// (capabilities(accountId:) reads accounts). byID lists the former.
func rootLookups(oc *graphql.OperationContext) (out map[string][]string, byID []lookup) {
	defer func() {
		if recover() != nil { // arguments gqlgen will report; prefetch is only a shortcut
			out, byID = nil, nil
		}
	}()
	out = map[string][]string{}
	for _, f := range graphql.CollectFields(oc, oc.Operation.SelectionSet, []string{"Query"}) {
		if f.Definition == nil {
			continue
		}
		args := f.ArgumentMap(oc.Variables)
		for _, a := range f.Definition.Arguments {
			id, ok := args[a.Name].(string)
			switch {
			case !ok:
			case a.Name == "id" && len(f.Definition.Arguments) == 1:
				out[f.Name] = append(out[f.Name], id)
				byID = append(byID, lookup{field: f, id: id})
			case strings.HasSuffix(a.Name, "Id") && len(a.Name) > 2:
				loader := strings.TrimSuffix(a.Name, "Id")
				out[loader] = append(out[loader], id)
			}
		}
	}
	return out, byID
}
