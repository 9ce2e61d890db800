package resolvers

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// customerLoader batches customer reads (each with its payment methods);
// customers are nodes.
var (
	customerLoader = nodeLoader("customer", func(r *Resolver) batch[*models.Customer] { return r.Svc.Catalog.Customers.ByIDs })
)

// customers serves the customers connection and primes the loader with
// the page, so edges back to these customers cost no statement.
func customers(ctx context.Context, r *Resolver, first *int, after *string, f *model.CustomerFilter) (*model.CustomerConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Catalog.Customers.List, filterOf(f, customerFilter),
		first, after, customerLoader, func(cursor string, c *models.Customer) *model.CustomerEdge {
			return &model.CustomerEdge{Cursor: cursor, Node: c}
		})
	return &model.CustomerConnection{Edges: edges, PageInfo: info}, err
}

// customerFilter maps the GraphQL filter onto the one customer filter
// (its times are timestamps, the filter's Unix seconds).
func customerFilter(f model.CustomerFilter) catalog.CustomerFilter {
	return catalog.CustomerFilter{Q: f.Q, Name: f.Name, Email: f.Email, Phone: f.Phone,
		CreatedBefore: unixSeconds(f.CreatedBefore), CreatedAfter: unixSeconds(f.CreatedAfter)}
}

// optional loads the object an optional edge points at (nil for none).
func optional[V any](ctx context.Context, k loaders.Key[V], id *uuid.UUID) (V, error) {
	if id == nil {
		var zero V
		return zero, nil
	}
	return load(ctx, k, id.String())
}
