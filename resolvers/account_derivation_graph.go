package resolvers

import (
	"context"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// derivedFields are the schema fields whose values an account read derives
// (accounts.Derived): a capability's currentlyDue and errors (its
// requirements) and an account's steps.
var derivedFields = map[string]accounts.Derived{
	"currentlyDue": accounts.DeriveRequirements,
	"errors":       accounts.DeriveRequirements,
	"steps":        accounts.DeriveSteps,
}

// accountReads is ctx for the account reads of a GraphQL request: they
// derive only the members the operation selects. The whole operation
// decides, not the field being resolved, because an account read once is
// kept in the request's loader and may be rendered again under another
// field of it (a capability's account). A field is matched by its name
// whatever its type, so a field of another type named alike (a payload's
// errors) only costs a derivation nobody reads, never a member missing.
// Outside an operation (nothing to walk) every member is derived, and so
// it is over a websocket, whose operations share the loaders of the
// connection's one HTTP request: an account one operation read without a
// member would be what the next one, selecting it, finds in them.
func accountReads(ctx context.Context) context.Context {
	if !graphql.HasOperationContext(ctx) {
		return ctx
	}
	oc := graphql.GetOperationContext(ctx)
	if oc.Operation == nil || strings.EqualFold(oc.Headers.Get("Upgrade"), "websocket") {
		return ctx
	}
	var w derivedWalk
	w.selections(oc.Operation.SelectionSet)
	return accounts.WithDerived(ctx, w.need)
}

// derivedWalk gathers the derived members a document's selections name,
// each fragment walked once.
type derivedWalk struct {
	need accounts.Derived
	seen map[string]bool
}

func (w *derivedWalk) selections(set ast.SelectionSet) {
	for _, sel := range set {
		if w.need == accounts.DeriveAll {
			return
		}
		switch s := sel.(type) {
		case *ast.Field:
			w.need |= derivedFields[s.Name]
			w.selections(s.SelectionSet)
		case *ast.InlineFragment:
			w.selections(s.SelectionSet)
		case *ast.FragmentSpread:
			if w.seen[s.Name] {
				continue
			}
			if w.seen == nil {
				w.seen = map[string]bool{}
			}
			w.seen[s.Name] = true
			if s.Definition == nil {
				// A spread the validator did not resolve: derive everything
				// rather than guess.
				w.need = accounts.DeriveAll
				return
			}
			w.selections(s.Definition.SelectionSet)
		}
	}
}
