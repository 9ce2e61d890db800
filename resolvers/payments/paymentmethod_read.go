package payments

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

var secretOnly = []auth.Kind{auth.SecretKey}

// PaymentMethods is the payment method family: reads from the kit (List
// of its own: an owner's list needs its owner), Create, Draft and Store
// (paymentmethod_create.go), Attach, Detach and Update
// (paymentmethod_write.go).
type PaymentMethods struct {
	op.Reader[models.PaymentMethod, PaymentMethodFilter]
	// OfAccounts reads the usable payment methods (not detached, not
	// single-use) of a batch of accounts in one statement, newest first
	// (Account.paymentMethods).
	OfAccounts op.Batch[[]*models.PaymentMethod]
	svc        *Service
}

var paymentMethodTable = &op.Table[models.PaymentMethod]{Resource: "payment_method"}

func newPaymentMethods(s *Service) *PaymentMethods {
	return &PaymentMethods{Reader: op.Read[models.PaymentMethod, PaymentMethodFilter](s.Kit, paymentMethodTable),
		OfAccounts: (&op.Children[models.PaymentMethod]{Table: paymentMethodTable, Parent: "account", Column: "account_id",
			Where: usable}).Bind(s.Kit),
		svc: s}
}

// usable keeps the payment methods an owner lists: not detached, not
// single-use wallet credentials.
func usable(q *bun.SelectQuery) *bun.SelectQuery {
	return q.Where("pm.status <> 'detached'").Where("NOT pm.single_use")
}

// PaymentMethodFilter is what payment method listings filter by.
type PaymentMethodFilter struct {
	// CustomerID or AccountID restrict the list to one owner's usable
	// methods (detached ones left out); the owner must exist.
	CustomerID, AccountID *string
	// IncludeWallets keeps single-use wallet credentials, which lists leave
	// out by default (spec doc 2 §4.3).
	IncludeWallets bool
}

// Apply adds the owner's and the wallets' conditions.
func (f PaymentMethodFilter) Apply(q *bun.SelectQuery) *bun.SelectQuery {
	switch {
	case f.CustomerID != nil:
		q = q.Where("pm.customer_id = ?", *f.CustomerID).Where("pm.status <> 'detached'")
	case f.AccountID != nil:
		q = q.Where("pm.account_id = ?", *f.AccountID).Where("pm.status <> 'detached'")
	}
	if !f.IncludeWallets {
		q = q.Where("NOT pm.single_use")
	}
	return q
}

// List is the one list of payment methods, newest first: GET
// /v1/payment_methods, the customer's and the account's sub-lists and the
// GraphQL connection. An owner's list answers 404 for an unknown owner
// first.
func (pms *PaymentMethods) List(ctx context.Context, f PaymentMethodFilter, lp op.ListParams) (op.Page[*models.PaymentMethod], error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return op.Page[*models.PaymentMethod]{}, err
	}
	t := pms.svc.DB.Tenant(p.Scope)
	var owner error
	switch {
	case f.CustomerID != nil:
		_, owner = customerRows.Get(ctx, pms.svc.Kit, *f.CustomerID)
	case f.AccountID != nil:
		_, owner = accountRows.Get(ctx, pms.svc.Kit, *f.AccountID)
	}
	if owner != nil {
		return op.Page[*models.PaymentMethod]{}, owner
	}
	return paymentMethodTable.ListIn(ctx, pms.svc.Kit, t, p, f, lp)
}

// missingAs names param in a resource_missing error (the owner a request
// named).
func missingAs(err error, param string) error {
	if e := apierr.As(err); e != nil && e.Code == apierr.CodeResourceMissing {
		e.Param = param
	}
	return err
}
