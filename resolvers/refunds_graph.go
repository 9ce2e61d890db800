package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// Refunds load by id (nodes, refund) and by parent (Transfer.refunds,
// Charge.refunds), each in one statement for a whole page of parents.
var (
	refundLoader            = nodeLoader("refund", func(r *Resolver) batch[*models.Refund] { return r.Svc.Money.Refunds.ByIDs })
	refundsOfChargeLoader   = loader("refundsOfCharge", func(r *Resolver) batch[[]*models.Refund] { return r.Svc.Money.Refunds.OfCharges })
	refundsOfTransferLoader = loader("refundsOfTransfer", func(r *Resolver) batch[[]*models.Refund] { return r.Svc.Money.Refunds.OfTransfers })
)

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(refundsOfChargeLoader, "refunds", func(c *models.Charge) string { return c.ID.String() })
	_ = edge(chargeLoader, "charge", func(r *models.Refund) string { return r.ChargeID.String() })
	_ = edge(transferLoader, "transfer", func(r *models.Refund) string { return idKey(r.TransferID) })
	_ = edge(refundsOfTransferLoader, "refunds", func(t *models.Transfer) string { return t.ID.String() })
)

func refunds(ctx context.Context, r *Resolver, first *int, after *string, f *model.RefundFilter) (*model.RefundConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Money.Refunds.List, filterOf(f, func(g model.RefundFilter) money.RefundFilter { return money.RefundFilter(g) }),
		first, after, refundLoader, func(cursor string, rf *models.Refund) *model.RefundEdge {
			return &model.RefundEdge{Cursor: cursor, Node: rf}
		})
	return &model.RefundConnection{Edges: edges, PageInfo: info}, err
}
