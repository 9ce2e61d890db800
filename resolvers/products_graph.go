package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// productLoader batches product reads; products are nodes.
// productPhasesLoader batches the phases of many products (Product.phases)
// into one statement, keyed by product id.
var (
	productLoader       = nodeLoader("product", func(r *Resolver) batch[*models.Product] { return r.Svc.Catalog.Products.ByIDs })
	productPhasesLoader = loader("productPhases", func(r *Resolver) batch[[]*models.ProductPhase] { return r.Svc.Catalog.Phases.OfProducts })
)

// productPhaseLoader finds a product's phase by its own id (nodes).
var productPhaseLoader = nodeLoader("productPhase", func(r *Resolver) batch[*models.ProductPhase] { return r.Svc.Catalog.Phases.ByIDs })

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(productPhasesLoader, "phases", func(p *models.Product) string { return p.ID.String() })
	_ = edge(productLoader, "product", func(p *models.ProductPhase) string { return p.ProductID.String() })
)

func products(ctx context.Context, r *Resolver, first *int, after *string, f *model.ProductFilter) (*model.ProductConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Catalog.Products.List, filterOf(f, func(g model.ProductFilter) catalog.ProductFilter { return catalog.ProductFilter(g) }),
		first, after, productLoader, func(cursor string, p *models.Product) *model.ProductEdge {
			return &model.ProductEdge{Cursor: cursor, Node: p}
		})
	return &model.ProductConnection{Edges: edges, PageInfo: info}, err
}
