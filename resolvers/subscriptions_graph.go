package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/billing/subscriptions"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Subscriptions load by id (nodes, subscription, Invoice.subscription),
// their change logs and their invoices by subscription, each in one
// statement for a whole level of parents (by payer they are page edges,
// payer_subscriptions_graph.go).
var (
	subscriptionLoader = nodeLoader("subscription", func(r *Resolver) batch[*models.Subscription] {
		return r.Svc.Billing.Subscriptions.ByIDs
	})
	changeLogsOfSubscriptionLoader = loader("changeLogsOfSubscription", func(r *Resolver) batch[[]*models.SubscriptionChangeLog] {
		return r.Svc.Billing.ChangeLogs.OfSubscriptions
	})
	invoicesOfSubscriptionLoader = loader("invoicesOfSubscription", func(r *Resolver) batch[[]*models.Invoice] {
		return r.Svc.Billing.Invoices.OfSubscriptions
	})
)

// changeLogLoader finds a subscription's change log by its own id (nodes).
var changeLogLoader = nodeLoader("subscriptionChangeLog", func(r *Resolver) batch[*models.SubscriptionChangeLog] {
	return r.Svc.Billing.ChangeLogs.ByIDs
})

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(subscriptionLoader, "subscription", func(i *models.Invoice) string { return idKey(i.SubscriptionID) })
	_ = edge(accountLoader, "account", func(s *models.Subscription) string { return idKey(s.AccountID) })
	_ = edge(customerLoader, "customer", func(s *models.Subscription) string { return idKey(s.CustomerID) })
	_ = edge(productLoader, "product", func(s *models.Subscription) string { return s.ProductID.String() })
	_ = edge(paymentMethodLoader, "defaultPaymentMethod", func(s *models.Subscription) string {
		return idKey(s.DefaultPaymentMethodID)
	})
	_ = edge(invoiceLoader, "latestInvoice", func(s *models.Subscription) string { return idKey(s.LatestInvoiceID) })
	_ = edge(changeLogsOfSubscriptionLoader, "changeLogs", func(s *models.Subscription) string { return s.ID.String() })
	_ = edge(invoicesOfSubscriptionLoader, "invoices", func(s *models.Subscription) string { return s.ID.String() })
	_ = edge(productLoader, "product", func(c *models.SubscriptionScheduledChange) string { return c.Product.String() })
	_ = edge(subscriptionLoader, "subscription", func(l *models.SubscriptionChangeLog) string { return l.SubscriptionID.String() })
	_ = edge(productLoader, "previousProduct", func(l *models.SubscriptionChangeLog) string { return l.PreviousProductID.String() })
	_ = edge(productLoader, "newProduct", func(l *models.SubscriptionChangeLog) string { return l.NewProductID.String() })
)

func subscriptionEdge(cursor string, s *models.Subscription) *model.SubscriptionEdge {
	return &model.SubscriptionEdge{Cursor: cursor, Node: s}
}

func changeLogEdge(cursor string, l *models.SubscriptionChangeLog) *model.SubscriptionChangeLogEdge {
	return &model.SubscriptionChangeLogEdge{Cursor: cursor, Node: l}
}

func invoiceEdge(cursor string, inv *models.Invoice) *model.InvoiceEdge {
	return &model.InvoiceEdge{Cursor: cursor, Node: inv}
}

// listSubscriptions serves the subscriptions connection: REST's search
// (status, creation bounds) and the payer, from the one filter.
func listSubscriptions(ctx context.Context, r *Resolver, first *int, after *string, f *model.SubscriptionFilter) (*model.SubscriptionConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Billing.Subscriptions.List, filterOf(f, subscriptionFilter),
		first, after, subscriptionLoader, subscriptionEdge)
	return &model.SubscriptionConnection{Edges: edges, PageInfo: info}, err
}

// subscriptionFilter maps the GraphQL filter onto the subscription filter
// (its times are timestamps, the filter's Unix seconds).
func subscriptionFilter(f model.SubscriptionFilter) subscriptions.SubscriptionFilter {
	return subscriptions.SubscriptionFilter{Status: f.Status, Customer: f.Customer, Account: f.Account,
		CreatedBefore: unixSeconds(f.CreatedBefore), CreatedAfter: unixSeconds(f.CreatedAfter)}
}

// subscriptionChangeLogs serves a list of change logs, most recent first.
func subscriptionChangeLogs(ctx context.Context, r *Resolver, first *int, after *string, f *model.SubscriptionChangeLogFilter) (*model.SubscriptionChangeLogConnection, error) {
	page, err := r.Svc.Billing.ChangeLogs.List(ctx, filterOf(f, func(g model.SubscriptionChangeLogFilter) subscriptions.ChangeLogFilter {
		return subscriptions.ChangeLogFilter{Subscription: g.Subscription}
	}), keyset(first, after))
	if err != nil {
		return nil, err
	}
	edges, info := connect(page, changeLogEdge)
	return &model.SubscriptionChangeLogConnection{Edges: edges, PageInfo: info}, nil
}

// changeLogsOfSubscription is Subscription.changeLogs: the first page from
// the batch of a page of subscriptions, a later page from the list.
func changeLogsOfSubscription(ctx context.Context, r *Resolver, s *models.Subscription, first *int, after *string) (*model.SubscriptionChangeLogConnection, error) {
	id := s.ID.String()
	edges, info, err := batchedConnection(ctx, changeLogsOfSubscriptionLoader, id, first, after, subscriptions.RecentChangeLogs,
		subscriptions.ChangeLogPosition, nil, changeLogEdge, func() ([]*model.SubscriptionChangeLogEdge, *model.PageInfo, error) {
			c, err := subscriptionChangeLogs(ctx, r, first, after, &model.SubscriptionChangeLogFilter{Subscription: &id})
			if err != nil {
				return nil, nil, err
			}
			return c.Edges, c.PageInfo, nil
		})
	return &model.SubscriptionChangeLogConnection{Edges: edges, PageInfo: info}, err
}

// invoicesOfSubscription is Subscription.invoices: the first page from the
// batch of a page of subscriptions, a later page from the invoice list
// filtered by subscription.
func invoicesOfSubscription(ctx context.Context, r *Resolver, s *models.Subscription, first *int, after *string) (*model.InvoiceConnection, error) {
	id := s.ID.String()
	edges, info, err := batchedConnection(ctx, invoicesOfSubscriptionLoader, id, first, after, invoices.RecentInvoices,
		invoices.InvoicePosition, &invoiceLoader, invoiceEdge, func() ([]*model.InvoiceEdge, *model.PageInfo, error) {
			c, err := listInvoices(ctx, r, first, after, &invoices.InvoiceFilter{Subscription: &id})
			if err != nil {
				return nil, nil, err
			}
			return c.Edges, c.PageInfo, nil
		})
	return &model.InvoiceConnection{Edges: edges, PageInfo: info}, err
}

// batchedConnection serves a parent's connection from the rows a children
// batch read for the parents of a whole level (firstPageOf), each primed
// in node when there is one; a page the batch cannot tell comes from list.
func batchedConnection[M, E any](ctx context.Context, children loaders.Key[[]*M], parent string, first *int, after *string,
	limit int, pos func(*M) op.Position, node *loaders.Key[*M], edge func(cursor string, m *M) E,
	list func() ([]E, *model.PageInfo, error)) ([]E, *model.PageInfo, error) {
	rows, err := load(ctx, children, parent)
	if err != nil {
		return nil, nil, err
	}
	page, ok := firstPageOf(rows, first, after, limit, pos)
	if !ok {
		return list()
	}
	if node != nil {
		for i, m := range page.Items {
			node.Prime(ctx, page.IDs[i], m)
		}
	}
	edges, info := connect(page, edge)
	return edges, info, nil
}
