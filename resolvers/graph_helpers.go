package resolvers

import (
	"context"
	"fmt"
	"strings"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/internal/apierr"
	"github.com/frame-oss/payments-server/internal/capability"
	"github.com/frame-oss/payments-server/models"
)

// Helpers of the GraphQL resolvers (*.resolvers.go). They hold no business
// rule: they reach the operation layer through the request's dataloaders.

// loadAccount reads one account through the request's account loader (one
// batched statement pair for every account a query level asks for), or
// through GetAccount outside a GraphQL request.
func (r *Resolver) loadAccount(ctx context.Context, id string) (*models.Account, error) {
	if l := loaders.From(ctx); l != nil {
		return l.Account.Load(ctx, id)()
	}
	return r.GetAccount(ctx, id)
}

// loadCapability reads one capability by its id through the request's
// capability loader.
func (r *Resolver) loadCapability(ctx context.Context, id string) (*models.Capability, error) {
	if l := loaders.From(ctx); l != nil {
		return l.Capability.Load(ctx, id)()
	}
	caps, errs := r.CapabilitiesByIDs(ctx, []string{id})
	return caps[0], errs[0]
}

// primeAccounts puts accounts a list already read (hydrated) into the
// request's account loader, so that edges back to them (Capability.account)
// cost no statement.
func primeAccounts(ctx context.Context, accts []*models.Account) {
	l := loaders.From(ctx)
	if l == nil {
		return
	}
	for _, a := range accts {
		l.Account.Prime(ctx, a.ID.String(), a)
	}
}

// isNotFound reports whether err is the resource_missing answer.
func isNotFound(err error) bool {
	e := apierr.As(err)
	return e != nil && e.Code == apierr.CodeResourceMissing
}

// graphEnum renders a lowercase wire value as the SCREAMING_CASE GraphQL
// enum value; valid reports membership. An unknown stored value is an
// internal error, never a leaked lowercase string.
func graphEnum[E interface {
	~string
	IsValid() bool
}](wire string) (E, error) {
	e := E(strings.ToUpper(wire))
	if !e.IsValid() {
		return e, fmt.Errorf("graph: no %T value for %q", e, wire)
	}
	return e, nil
}

// capabilityStrings turns GraphQL capability names into the wire names the
// operation layer takes.
func capabilityStrings(names []capability.Name) []string {
	if names == nil {
		return nil
	}
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = string(n)
	}
	return out
}

// forgetLoaded empties the request's loader caches after a write, so that a
// later field of the same operation (mutation fields run one after the
// other) never sees an object as it was before the write.
func forgetLoaded(ctx context.Context) {
	if l := loaders.From(ctx); l != nil {
		l.Account.ClearAll()
		l.Capability.ClearAll()
	}
}
