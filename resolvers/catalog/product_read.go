package catalog

import (
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Products is the product family: reads from the kit, and Create, Update
// and Delete (product_write.go).
type Products struct {
	op.Reader[models.Product, ProductFilter]
	svc *Service
}

func newProducts(s *Service) *Products {
	return &Products{Reader: op.Read[models.Product, ProductFilter](s.Kit, productTable), svc: s}
}

// productTable reads products. A product's row lock serializes the changes
// to its phases.
var productTable = &op.Table[models.Product]{Resource: "product"}
