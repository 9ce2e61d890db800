package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/payments"
)

// paymentMethodLoader batches payment method reads; payment methods are
// nodes. accountPaymentMethodsLoader batches Account.paymentMethods into
// one statement, keyed by account id.
var (
	paymentMethodLoader = loader("paymentMethod", func(r *Resolver) loaders.Fetch[*models.PaymentMethod] {
		return r.Svc.Payments.PaymentMethodsByIDs
	})
	_                           = node(paymentMethodLoader)
	accountPaymentMethodsLoader = loader("accountPaymentMethods", func(r *Resolver) loaders.Fetch[[]*models.PaymentMethod] {
		return r.Svc.Payments.PaymentMethodsOfAccounts
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(accountPaymentMethodsLoader, "paymentMethods", func(a *models.Account) string { return a.ID.String() })
	_ = edge(customerLoader, "customer", func(p *models.PaymentMethod) string { return idKey(p.CustomerID) })
	_ = edge(accountLoader, "account", func(p *models.PaymentMethod) string { return idKey(p.AccountID) })
)

func paymentMethods(ctx context.Context, r *Resolver, first *int, after *string, f *model.PaymentMethodFilter) (*model.PaymentMethodConnection, error) {
	filter := payments.PaymentMethodFilter{}
	if f != nil {
		filter = payments.PaymentMethodFilter{CustomerID: f.CustomerID, AccountID: f.AccountID,
			IncludeWallets: f.IncludeWallets != nil && *f.IncludeWallets}
	}
	page, err := r.Svc.Payments.ListPaymentMethods(ctx, filter, keyset(first, after))
	if err != nil {
		return nil, err
	}
	for _, pm := range page.Items {
		paymentMethodLoader.Prime(ctx, pm.ID.String(), pm)
	}
	edges, info := connect(page, func(cursor string, pm *models.PaymentMethod) *model.PaymentMethodEdge {
		return &model.PaymentMethodEdge{Cursor: cursor, Node: pm}
	})
	return &model.PaymentMethodConnection{Edges: edges, PageInfo: info}, nil
}
