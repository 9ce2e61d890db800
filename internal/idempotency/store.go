package idempotency

import (
	"context"

	"github.com/frame-oss/payments-server/internal/apierr"
	"github.com/frame-oss/payments-server/internal/clock"
	"github.com/frame-oss/payments-server/internal/store"
)

type keyStore struct {
	db  *store.DB
	clk clock.Clock
}

// claim inserts the key as in flight. It returns nil when this request won
// the key, or the record stored by the request that did. An expired record
// is replaced as if it never existed.
func (s *keyStore) claim(ctx context.Context, rec *record) (*record, error) {
	now := s.clk.Now()
	rec.Status, rec.Created, rec.Expires = "in_flight", now, now.Add(TTL)
	for range 3 {
		res, err := s.db.Bun.NewInsert().Model(rec).On("CONFLICT (merchant_id, livemode, key) DO UPDATE").
			Set("request_hash = EXCLUDED.request_hash, status = EXCLUDED.status, response_status = NULL, response_body = NULL, created = EXCLUDED.created, expires = EXCLUDED.expires").
			Where("ik.expires <= ?", now).Exec(ctx)
		if err != nil {
			return nil, apierr.Internal(err)
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil, nil
		}
		stored := &record{}
		err = s.db.Bun.NewSelect().Model(stored).
			Where("merchant_id = ? AND livemode = ? AND key = ?", rec.MerchantID, rec.Livemode, rec.Key).Scan(ctx)
		if store.IsNoRows(err) {
			continue // released between our insert and select: try again
		}
		if err != nil {
			return nil, apierr.Internal(err)
		}
		return stored, nil
	}
	return nil, apierr.Conflict(apierr.CodeIdempotencyKeyInUse, "The Idempotency-Key is contended; retry later", nil)
}

// complete stores the response to replay.
func (s *keyStore) complete(ctx context.Context, rec *record, status int, body []byte) error {
	_, err := s.db.Bun.NewUpdate().Model((*record)(nil)).
		Set("status = 'done', response_status = ?, response_body = ?", status, body).
		Where("merchant_id = ? AND livemode = ? AND key = ?", rec.MerchantID, rec.Livemode, rec.Key).Exec(ctx)
	return err
}

// release forgets a claim whose response could not be stored.
func (s *keyStore) release(ctx context.Context, rec *record) {
	_, _ = s.db.Bun.NewDelete().Model((*record)(nil)).
		Where("merchant_id = ? AND livemode = ? AND key = ? AND status = 'in_flight'", rec.MerchantID, rec.Livemode, rec.Key).Exec(ctx)
}
