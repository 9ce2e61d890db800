package invoices

import (
	"context"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// invoiceNumberSequence is the last invoice number issued in a merchant's
// mode (the invoice_number_sequences row).
type invoiceNumberSequence struct {
	bun.BaseModel `bun:"table:invoice_number_sequences,alias:seq"`
	models.Tenant

	LastNumber int64 `bun:"last_number"`
}

// nextNumber takes the next invoice number of the write's merchant and
// mode. The increment locks the sequence's row until the write commits, so
// concurrent issues are numbered in commit order, and a write that rolls
// back gives its number back: numbers have no gap and no duplicate (the
// unique index on invoices(number) stands behind it).
func nextNumber(ctx context.Context, w *op.W) (int64, error) {
	seq := &invoiceNumberSequence{LastNumber: 1}
	err := w.Tx.Insert(seq).On("CONFLICT (merchant_id, livemode) DO UPDATE").
		Set("last_number = ?TableAlias.last_number + 1").Returning("last_number").Scan(ctx, &seq.LastNumber)
	return seq.LastNumber, err
}
