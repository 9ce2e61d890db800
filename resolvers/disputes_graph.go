package resolvers

import (
	"context"

	"github.com/frame-oss/payments-server/graph/model"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/money"
)

// Disputes load by id (nodes, dispute) and by parent (Transfer.disputes,
// Charge.disputes), each in one statement for a whole page of parents.
var (
	disputeLoader            = nodeLoader("dispute", func(r *Resolver) batch[*models.Dispute] { return r.Svc.Money.Disputes.ByIDs })
	disputesOfChargeLoader   = loader("disputesOfCharge", func(r *Resolver) batch[[]*models.Dispute] { return r.Svc.Money.Disputes.OfCharges })
	disputesOfTransferLoader = loader("disputesOfTransfer", func(r *Resolver) batch[[]*models.Dispute] { return r.Svc.Money.Disputes.OfTransfers })
)

// disputeDocumentLoader finds a document of a dispute's evidence by its
// own id (nodes), through the dispute's read.
var disputeDocumentLoader = nodeLoader("disputeDocument", func(r *Resolver) batch[*models.DisputeDocument] {
	return r.Svc.Money.Disputes.DocumentsByIDs
})

// Loader edges (loaders.LookAhead reads them a level at a time).
var (
	_ = edge(disputesOfChargeLoader, "disputes", func(c *models.Charge) string { return c.ID.String() })
	_ = edge(chargeLoader, "charge", func(d *models.Dispute) string { return d.ChargeID.String() })
	_ = edge(transferLoader, "transfer", func(d *models.Dispute) string { return idKey(d.TransferID) })
	_ = edge(disputesOfTransferLoader, "disputes", func(t *models.Transfer) string { return t.ID.String() })
)

// openDisputeInput makes an omitted input the default reason.
func openDisputeInput(in *models.OpenDisputeInput) *models.OpenDisputeInput {
	if in == nil {
		return &models.OpenDisputeInput{}
	}
	return in
}

func disputes(ctx context.Context, r *Resolver, first *int, after *string, f *model.DisputeFilter) (*model.DisputeConnection, error) {
	edges, info, err := connection(ctx, r.Svc.Money.Disputes.List, filterOf(f, func(g model.DisputeFilter) money.DisputeFilter { return money.DisputeFilter(g) }),
		first, after, disputeLoader, func(cursor string, d *models.Dispute) *model.DisputeEdge {
			return &model.DisputeEdge{Cursor: cursor, Node: d}
		})
	return &model.DisputeConnection{Edges: edges, PageInfo: info}, err
}
