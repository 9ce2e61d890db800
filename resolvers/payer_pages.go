package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// page is the page the arguments ask; the arguments of a page edge with a
// filter embed pageArgs for it.
func (a pageArgs) page() (first *int, after *string) { return a.First, a.After }

// filteredPageArgs are the arguments of a page edge whose list has a
// filter: the page asked and the list's filter F.
type filteredPageArgs[F any] interface {
	page() (first *int, after *string)
	filter() F
}

// pagesOfParents is a service's read of one page of M for each of many
// parents, filtered by F, as a method expression: S is the service.
type pagesOfParents[S, F, M any] func(svc S, ctx context.Context, parentIDs []string, f F,
	first *int, after *string) ([]op.Page[*M], []error)

// payerPageEdges declares Account.<field> and Customer.<field> for a
// resource every payer has pages of: the loaders <resource>PagesOfAccount
// and <resource>PagesOfCustomer, reading through the service's
// ofAccounts and ofCustomers, and their page edges. A is the fields'
// arguments; the two fields take the same ones.
func payerPageEdges[A filteredPageArgs[F], S, F, M any](resource, field string, svc func(r *Resolver) S,
	ofAccounts, ofCustomers pagesOfParents[S, F, M]) (ofAccount, ofCustomer loaders.Key[*op.Page[*M]]) {
	ofCustomer = loader(resource+"PagesOfCustomer", filteredPages[A](svc, ofCustomers))
	pageEdge(ofCustomer, field, func(c *models.Customer) string { return c.ID.String() })
	return accountPageEdge[A](resource, field, svc, ofAccounts), ofCustomer
}

// accountPageEdge declares Account.<field> for a resource an account has
// pages of (its payouts, its transfers): the loader
// <resource>PagesOfAccount, reading through the service's ofAccounts, and
// its page edge.
func accountPageEdge[A filteredPageArgs[F], S, F, M any](resource, field string, svc func(r *Resolver) S,
	ofAccounts pagesOfParents[S, F, M]) loaders.Key[*op.Page[*M]] {
	ofAccount := loader(resource+"PagesOfAccount", filteredPages[A](svc, ofAccounts))
	pageEdge(ofAccount, field, func(a *models.Account) string { return a.ID.String() })
	return ofAccount
}

// filteredPages is the batch of a page edge's loader (pagesOf) that hands
// each distinct set of arguments A to the service's read as its filter and
// page.
func filteredPages[A filteredPageArgs[F], S, F, M any](svc func(r *Resolver) S,
	read pagesOfParents[S, F, M]) func(r *Resolver) batch[*op.Page[*M]] {
	return func(r *Resolver) batch[*op.Page[*M]] {
		s := svc(r)
		return pagesOf(func(ctx context.Context, parents []string, a A) ([]op.Page[*M], []error) {
			first, after := a.page()
			return read(s, ctx, parents, a.filter(), first, after)
		})
	}
}
