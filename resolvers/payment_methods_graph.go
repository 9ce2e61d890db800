package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/payments"
)

// paymentMethodLoader batches payment method reads; payment methods are
// nodes. accountPaymentMethodsLoader batches Account.paymentMethods into
// one statement, keyed by account id.
var (
	paymentMethodLoader         = nodeLoader("paymentMethod", func(r *Resolver) batch[*models.PaymentMethod] { return r.Svc.Payments.PaymentMethods.ByIDs })
	accountPaymentMethodsLoader = loader("accountPaymentMethods", func(r *Resolver) batch[[]*models.PaymentMethod] { return r.Svc.Payments.PaymentMethods.OfAccounts })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(accountPaymentMethodsLoader, "paymentMethods", func(a *models.Account) string { return a.ID.String() })
	_ = edge(customerLoader, "customer", func(p *models.PaymentMethod) string { return idKey(p.CustomerID) })
	_ = edge(accountLoader, "account", func(p *models.PaymentMethod) string { return idKey(p.AccountID) })
)

func paymentMethods(ctx context.Context, r *Resolver, first *int, after *string, f *model.PaymentMethodFilter) (*model.PaymentMethodConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Payments.PaymentMethods.List, filterOf(f, paymentMethodFilter),
		first, after, paymentMethodLoader, func(cursor string, pm *models.PaymentMethod) *model.PaymentMethodEdge {
			return &model.PaymentMethodEdge{Cursor: cursor, Node: pm}
		})
	return &model.PaymentMethodConnection{Edges: edges, PageInfo: info}, err
}

// paymentMethodFilter maps the GraphQL filter onto the one payment method
// filter (includeWallets unset: false).
func paymentMethodFilter(g model.PaymentMethodFilter) payments.PaymentMethodFilter {
	return payments.PaymentMethodFilter{CustomerID: g.CustomerID, AccountID: g.AccountID,
		IncludeWallets: g.IncludeWallets != nil && *g.IncludeWallets}
}
