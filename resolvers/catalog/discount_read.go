package catalog

import (
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Discounts is the family of discount records: reads from the kit,
// Validate (discount_ops.go: judge codes without redeeming them) and
// Redeem (discount_redeem.go: the one redemption every billing flow
// calls inside its write).
type Discounts struct {
	op.Reader[models.Discount, DiscountFilter]
	// OfCustomers reads the discount records of a batch of customers in
	// one statement, newest first (Customer.discounts).
	OfCustomers op.Batch[[]*models.Discount]
	svc         *Service
}

func newDiscounts(s *Service) *Discounts {
	return &Discounts{Reader: op.Read[models.Discount, DiscountFilter](s.Kit, discountTable),
		OfCustomers: (&op.Children[models.Discount]{Table: discountTable, Parent: "customer", Column: "customer_id"}).Bind(s.Kit),
		svc:         s}
}

// discountTable reads discount records with their derived members.
var discountTable = &op.Table[models.Discount]{Resource: "discount",
	Derive: func(d *models.Discount, _ time.Time) { d.Derive() }}

// DiscountFilter filters the discount list. A customer or an account id
// that does not parse matches no record (an empty page, not an error).
type DiscountFilter struct {
	CustomerID *string `query:"customer_id" filter:"-"`
	AccountID  *string `query:"account_id" filter:"-"`
}

// Apply adds the payer's conditions.
func (f DiscountFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	q = whereIDOrNone(q, "customer_id", f.CustomerID)
	return whereIDOrNone(q, "account_id", f.AccountID)
}

// whereIDOrNone keeps the rows whose column holds the id v (nil: asks
// nothing); an id that does not parse keeps none.
func whereIDOrNone(q *bun.SelectQuery, column string, v *string) *bun.SelectQuery {
	if v == nil {
		return q
	}
	uid, ok := ids.Parse(*v)
	if !ok {
		return q.Where("FALSE")
	}
	return q.Where("?TableAlias.? = ?", bun.Ident(column), uid)
}
