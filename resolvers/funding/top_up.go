package funding

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/ledger"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// TopUp is a top-up's answer: the entry, and whether this request created
// it (false: an earlier top-up with the same body idempotency_key did, and
// nothing was funded again).
type TopUp struct {
	Entry   *models.FundingEntry `json:"entry"`
	Created bool                 `json:"created"`
}

// TopUp credits the instant-payout balance with amount, pulled from
// the merchant's funding bank account (spec doc 2 §4.7): a funding entry
// of source manual_push and its journal. A repeated body idempotency_key
// (per merchant and mode) answers the entry it created first without
// funding again, whatever the amount sent: its own rule, beside the
// Idempotency-Key header's (API-DECISIONS §3). A unique index decides:
// of two top-ups racing with one key, the second waits for the first to
// commit and then finds its entry.
func (es *Entries) TopUp(ctx context.Context, in *models.CreateTopUpInput) (*TopUp, error) {
	s := es.svc
	spec := op.Spec{Name: "payout_funding.top_up", Allow: secretOnly, Params: in, Provider: payoutProvider, Check: in.Validate}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*TopUp, error) {
		now := w.Now()
		e := &models.FundingEntry{ID: ids.New(now), Amount: *in.Amount, Currency: "USD",
			Source: models.FundingSourceManualPush, IdempotencyKey: in.IdempotencyKey, Created: models.At(now)}
		q := w.Tx.Insert(e)
		if in.IdempotencyKey != nil {
			q = q.On("CONFLICT (merchant_id, livemode, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING")
		}
		res, err := q.Exec(ctx)
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err != nil {
				return nil, err
			}
			first := new(models.FundingEntry)
			err := w.Tx.Select(first).Where("fe.idempotency_key = ?", *in.IdempotencyKey).Scan(ctx)
			return &TopUp{Entry: first}, err
		}
		if err := s.fund(ctx, w, e); err != nil {
			return nil, err
		}
		return &TopUp{Entry: e, Created: true}, nil
	})
}

// fund journals a new entry and announces it.
func (s *Service) fund(ctx context.Context, w *op.W, e *models.FundingEntry) error {
	if err := ledger.Post(ctx, w.Tx, w.Now(), fundingJournal(e)); err != nil {
		return err
	}
	if err := w.EmitObject(EventEntryCreated, e.ID, e); err != nil {
		return err
	}
	return nil
}
