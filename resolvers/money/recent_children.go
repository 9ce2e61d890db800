package money

import "github.com/frame-oss/payments-server/resolvers/op"

// RecentChildren bounds the refunds and disputes an object lists in the
// graph (Transfer.refunds, Charge.refunds...): the newest ones.
const RecentChildren = 100

// recentOfChargesAndTransfers reads the newest RecentChildren rows of
// table for a batch of charges and for a batch of transfers, each in one
// statement. Refunds and disputes both hang off a charge and its transfer
// alike, and an object of the graph lists either the same way
// (Charge.refunds, Transfer.disputes...).
func recentOfChargesAndTransfers[M any](kit *op.Kit, table *op.Table[M]) (ofCharges, ofTransfers op.Batch[[]*M]) {
	child := func(parent, column string) op.Batch[[]*M] {
		return (&op.Children[M]{Table: table, Parent: parent, Column: column, Limit: RecentChildren}).Bind(kit)
	}
	return child("charge", "charge_id"), child("transfer", "transfer_id")
}
