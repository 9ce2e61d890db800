package money

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// recordCapture writes a capture of charge ch, captured in all with net
// for the payee (stored says whether ch is already written), and posts
// journal, the capture's. When chargeback is set (the sandbox card that
// disputes once captured), the charge is written disputed and the dispute
// opened, its journal posted with the capture's in one statement. The
// dispute, if one opened, is returned: the caller announces it after the
// event of the object it captured. Transfers, charge intents and invoices
// all capture through here.
func recordCapture(ctx context.Context, w *op.W, ch *models.Charge, captured, net int64, stored bool,
	journal *ledger.Journal, chargeback bool) (*models.Dispute, error) {
	if chargeback {
		ch.Disputed = true
	}
	if err := captureCharge(ctx, w, ch, captured, net, stored); err != nil {
		return nil, err
	}
	journals := []*ledger.Journal{journal}
	var d *models.Dispute
	if chargeback {
		opened, dj, err := openDispute(ctx, w, ch, defaultDisputeReason())
		if err != nil {
			return nil, err
		}
		d, journals = opened, append(journals, dj)
	}
	return d, ledger.PostAll(ctx, w.Tx, w.Now(), journals...)
}
