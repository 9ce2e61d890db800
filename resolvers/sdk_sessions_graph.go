package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// The SDK's sessions are nodes loaded in batches; a session's charge
// intent or customer loads through its own loader.
var (
	chargeSessionLoader = nodeLoader("chargeSession", func(r *Resolver) batch[*models.ChargeSession] { return r.Svc.Money.ChargeSessions.ByIDs })
	sonarSessionLoader  = nodeLoader("sonarSession", func(r *Resolver) batch[*models.SonarSession] { return r.Svc.Money.SonarSessions.ByIDs })

	paymentLinkSessionLoader = nodeLoader("paymentLinkSession", func(r *Resolver) batch[*models.PaymentLinkSession] {
		return r.Svc.Money.PaymentLinkSessions.ByIDs
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(chargeIntentLoader, "chargeIntent", func(s *models.ChargeSession) string { return idKey(s.ChargeIntentID) })
	_ = edge(chargeIntentLoader, "chargeIntent", func(s *models.SonarSession) string { return idKey(s.ChargeIntentID) })
	_ = edge(customerLoader, "customer", func(s *models.PaymentLinkSession) string { return idKey(s.CustomerID) })
)

// The sessions' connections page through each family's one list, priming
// the session loaders with the page.

func chargeSessions(ctx context.Context, r *Resolver, first *int, after *string, f *model.ChargeSessionFilter) (*model.ChargeSessionConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Money.ChargeSessions.List,
		filterOf(f, func(g model.ChargeSessionFilter) money.SDKSessionFilter { return money.SDKSessionFilter(g) }),
		first, after, chargeSessionLoader, func(cursor string, s *models.ChargeSession) *model.ChargeSessionEdge {
			return &model.ChargeSessionEdge{Cursor: cursor, Node: s}
		})
	return &model.ChargeSessionConnection{Edges: edges, PageInfo: info}, err
}

func sonarSessions(ctx context.Context, r *Resolver, first *int, after *string, f *model.SonarSessionFilter) (*model.SonarSessionConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Money.SonarSessions.List,
		filterOf(f, func(g model.SonarSessionFilter) money.SDKSessionFilter { return money.SDKSessionFilter(g) }),
		first, after, sonarSessionLoader, func(cursor string, s *models.SonarSession) *model.SonarSessionEdge {
			return &model.SonarSessionEdge{Cursor: cursor, Node: s}
		})
	return &model.SonarSessionConnection{Edges: edges, PageInfo: info}, err
}

func paymentLinkSessions(ctx context.Context, r *Resolver, first *int, after *string, f *model.PaymentLinkSessionFilter) (*model.PaymentLinkSessionConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Money.PaymentLinkSessions.List,
		filterOf(f, func(g model.PaymentLinkSessionFilter) money.PaymentLinkSessionFilter {
			return money.PaymentLinkSessionFilter(g)
		}),
		first, after, paymentLinkSessionLoader, func(cursor string, s *models.PaymentLinkSession) *model.PaymentLinkSessionEdge {
			return &model.PaymentLinkSessionEdge{Cursor: cursor, Node: s}
		})
	return &model.PaymentLinkSessionConnection{Edges: edges, PageInfo: info}, err
}
