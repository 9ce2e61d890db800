package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/loaders"
	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// Refunds load by id (nodes, refund) and by parent (Transfer.refunds,
// Charge.refunds), each in one statement for a whole page of parents.
var (
	refundLoader = loader("refund", func(r *Resolver) loaders.Fetch[*models.Refund] {
		return r.Svc.Money.RefundsByIDs
	})
	_                     = node(refundLoader)
	refundsOfChargeLoader = loader("refundsOfCharge", func(r *Resolver) loaders.Fetch[[]*models.Refund] {
		return r.Svc.Money.RefundsOfCharges
	})
	refundsOfTransferLoader = loader("refundsOfTransfer", func(r *Resolver) loaders.Fetch[[]*models.Refund] {
		return r.Svc.Money.RefundsOfTransfers
	})
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(refundsOfChargeLoader, "refunds", func(c *models.Charge) string { return c.ID.String() })
	_ = edge(chargeLoader, "charge", func(r *models.Refund) string { return r.ChargeID.String() })
	_ = edge(transferLoader, "transfer", func(r *models.Refund) string { return idKey(r.TransferID) })
	_ = edge(refundsOfTransferLoader, "refunds", func(t *models.Transfer) string { return t.ID.String() })
)

func refunds(ctx context.Context, r *Resolver, first *int, after *string, f *model.RefundFilter) (*model.RefundConnection, error) {
	filter := money.RefundFilter{}
	if f != nil {
		filter = money.RefundFilter{Transfer: f.Transfer, ChargeIntent: f.ChargeIntent, Charge: f.Charge}
	}
	page, err := r.Svc.Money.ListRefunds(ctx, filter, keyset(first, after))
	if err != nil {
		return nil, err
	}
	for _, rf := range page.Items {
		refundLoader.Prime(ctx, rf.ID.String(), rf)
	}
	edges, info := connect(page, func(cursor string, rf *models.Refund) *model.RefundEdge {
		return &model.RefundEdge{Cursor: cursor, Node: rf}
	})
	return &model.RefundConnection{Edges: edges, PageInfo: info}, nil
}
