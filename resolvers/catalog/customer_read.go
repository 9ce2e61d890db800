package catalog

import (
	"context"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// secretOnly is who may call the area's operations but the validation of
// codes: the spec gives the other credentials none of them (doc 2 §5).
var secretOnly = []auth.Kind{auth.SecretKey}

// Customers is the customer family: reads from the kit (a deleted
// customer is still retrievable, rendered deleted), and Create, Insert,
// Update, Block, Unblock and Delete.
type Customers struct {
	op.Reader[models.Customer, CustomerFilter]
	// Hooks are the other areas' reactions to a customer's changes, run
	// inside the write making the change (PreDelete: the billing area
	// cancels the customer's subscriptions), so a deletion and its
	// reactions commit together without this area knowing of them.
	Hooks op.Hooks[models.Customer]
	svc   *Service
}

func newCustomers(s *Service) *Customers {
	return &Customers{Reader: op.Read[models.Customer, CustomerFilter](s.Kit, customerTable), svc: s}
}

// customerTable reads a customer with its payment methods, in one
// statement (paymentMethodsOfCustomer).
var customerTable = &op.Table[models.Customer]{Resource: "customer",
	Embedded: []op.Embedding[models.Customer]{paymentMethodsOfCustomer}}

// customerRows is the customer row alone, as writes lock it: a writer
// reads the payment methods in a statement of its own after the lock
// (customerPaymentMethods).
var customerRows = &op.Table[models.Customer]{Resource: "customer", Referenced: true}

// paymentMethodRows is the payment methods of customers, as a customer
// write reads them.
var paymentMethodRows = &op.Table[models.PaymentMethod]{Resource: "payment_method"}

// CustomersIn reads customers as Get renders them (with their payment
// methods), in the caller's tenant or transaction t, one statement: for
// objects of other areas that embed their customer (a charge intent's
// `customer`), rendered as a secret key sees them. Ids not found are left
// out.
func CustomersIn(ctx context.Context, t *store.Tenant, idList []uuid.UUID) (map[uuid.UUID]*models.Customer, error) {
	found := make(map[uuid.UUID]*models.Customer, len(idList))
	if len(idList) == 0 {
		return found, nil
	}
	var rows []*models.Customer
	if err := customerTable.Select(t, nil, &rows).Where("cu.id IN (?)", bun.In(idList)).Scan(ctx); err != nil {
		return nil, err
	}
	if err := customerTable.LoadEmbedded(rows...); err != nil {
		return nil, err
	}
	for _, c := range rows {
		found[c.ID] = c
	}
	return found, nil
}

// customerPaymentMethods loads the payment methods of a locked customer,
// in a statement of its own after the lock (READ COMMITTED: a statement
// that waited for the lock would not see what the previous writer
// committed).
func customerPaymentMethods(ctx context.Context, w *op.W, customerID uuid.UUID) ([]*models.PaymentMethod, error) {
	var pms []*models.PaymentMethod
	err := paymentMethodRows.Select(w.Tx, nil, &pms).Where("pm.customer_id = ?", customerID).
		OrderExpr("pm.created DESC, pm.id DESC").Scan(ctx)
	return pms, err
}
