package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// productLoader batches product reads; products are nodes.
// productPhasesLoader batches the phases of many products (Product.phases)
// into one statement, keyed by product id.
var (
	productLoader = loader("product", func(r *Resolver) loaders.Fetch[*models.Product] {
		return r.Svc.Catalog.ProductsByIDs
	})
	_                   = node(productLoader)
	productPhasesLoader = loader("productPhases", func(r *Resolver) loaders.Fetch[[]*models.ProductPhase] {
		return r.Svc.Catalog.PhasesOfProducts
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(productPhasesLoader, "phases", func(p *models.Product) string { return p.ID.String() })
	_ = edge(productLoader, "product", func(p *models.ProductPhase) string { return p.ProductID.String() })
)

func products(ctx context.Context, r *Resolver, first *int, after *string, f *model.ProductFilter) (*model.ProductConnection, error) {
	filter := catalog.ProductFilter{}
	if f != nil {
		filter = catalog.ProductFilter{Name: f.Name, Active: f.Active, Shippable: f.Shippable}
	}
	page, err := r.Svc.Catalog.ListProducts(ctx, filter, keyset(first, after))
	if err != nil {
		return nil, err
	}
	for _, p := range page.Items {
		productLoader.Prime(ctx, p.ID.String(), p)
	}
	edges, info := connect(page, func(cursor string, p *models.Product) *model.ProductEdge {
		return &model.ProductEdge{Cursor: cursor, Node: p}
	})
	return &model.ProductConnection{Edges: edges, PageInfo: info}, nil
}
