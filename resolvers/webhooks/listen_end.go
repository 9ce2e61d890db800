package webhooks

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// renew moves the session's expiry one resume window ahead, while this
// connection holds it: a process that dies stops renewing, and its
// sessions end one window later. ErrListenEnded when the session is no
// longer this connection's (taken over, or ended).
func (ls *ListenSessions) renew(ctx context.Context, s *ListenSession) error {
	return op.Background(ctx, ls.svc.Kit, s.scope, func(ctx context.Context, w *op.W) error {
		now := w.Now()
		res, err := w.Tx.Update((*models.ListenSession)(nil)).
			Set("expires = ?", wire.At(now.Add(ls.cfg.ResumeWindow))).Set("updated = ?", wire.At(now)).
			Where("ls.id = ? AND ls.holder = ? AND ls.ended IS NULL", s.ID, s.holder).Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, ErrListenEnded)
		}
		return nil
	})
}

// Release lets go of the session when its connection ends. Unsubscribed
// (the CLI stops, Ctrl-C) ends it at once: the merchant's endpoints are
// no longer held back. Otherwise (the socket closed) it lives for its
// resume window, for the CLI to reconnect and resume it. A connection that
// no longer holds the session changes nothing.
func (s *ListenSession) Release(ctx context.Context, unsubscribed bool) error {
	s.cancel()
	ctx = context.WithoutCancel(ctx)
	ls := s.ls
	return op.Background(ctx, ls.svc.Kit, s.scope, func(ctx context.Context, w *op.W) error {
		row := new(models.ListenSession)
		err := w.Tx.Select(row).Where("ls.id = ? AND ls.holder = ? AND ls.ended IS NULL", s.ID, s.holder).
			For("UPDATE").Scan(ctx)
		if store.IsNoRows(err) {
			return nil
		}
		if err != nil {
			return err
		}
		now := w.Now()
		if unsubscribed {
			return ls.end(ctx, w.Tx, row, now, "the listen session ended before the CLI acknowledged it")
		}
		row.Holder, row.Expires, row.Updated = nil, wire.At(now.Add(ls.cfg.ResumeWindow)), wire.At(now)
		_, err = w.Tx.Update(row).Column("holder", "expires", "updated").WherePK().Exec(ctx)
		return err
	})
}

// end ends a session (its row locked): its endpoint receives nothing more
// and no longer holds the merchant's endpoints back, and its deliveries
// still waiting for an acknowledgement end failed, saying why.
func (ls *ListenSessions) end(ctx context.Context, tx *store.Tenant, row *models.ListenSession, now time.Time, why string) error {
	row.Ended, row.Holder, row.Updated = wire.At(now), nil, wire.At(now)
	if _, err := tx.Update(row).Column("ended", "holder", "updated").WherePK().Exec(ctx); err != nil {
		return err
	}
	_, err := tx.Update((*models.WebhookEndpoint)(nil)).
		Set("status = ?", models.WebhookEndpointDisabled).Set("updated = ?", wire.At(now)).
		Where("w.id = ?", row.ID).Exec(ctx)
	if err != nil {
		return err
	}
	_, err = tx.Update((*models.WebhookDelivery)(nil)).
		Set("status = ?", models.WebhookDeliveryFailed).Set("last_error = ?", why).Set("updated = ?", wire.At(now)).
		Where("d.endpoint_id = ? AND d.status = ?", row.ID, models.WebhookDeliveryPending).Exec(ctx)
	return err
}

// ListenSweepArgs is the recurring job that ends the sessions past their
// expiry: closed longer than the resume window ago, or held by a process
// that stopped renewing them.
type ListenSweepArgs struct{}

// Kind names the job in river_job.
func (ListenSweepArgs) Kind() string { return "listen_session_sweep" }

// RecurringJobs are the area's recurring jobs (areas.Recurring): the
// sweep, every ListenConfig.SweepInterval on the elected leader.
func (s *Service) RecurringJobs() []jobs.Recurring {
	return []jobs.Recurring{jobs.Periodic[ListenSweepArgs]{Every: s.Listen.cfg.SweepInterval, Default: defaultListenSweepInterval,
		Work: func(ctx context.Context) error { _, err := s.Listen.Sweep(ctx); return err }}}
}

// expiredSession names a session across tenants.
type expiredSession struct {
	MerchantID uuid.UUID `bun:"merchant_id"`
	ID         uuid.UUID `bun:"id"`
}

// sweepBatch bounds the sessions one sweep ends.
const sweepBatch = 500

// Sweep ends the sessions whose expiry has passed by the clock, each in its
// own transaction, and answers how many it ended. Finding them is the one
// read of the area across tenants (their keys only, through the partial
// index on live sessions' expiry); each is then ended within its merchant,
// after checking again under its lock.
func (ls *ListenSessions) Sweep(ctx context.Context) (int, error) {
	now := ls.svc.Clock.Now()
	var due []expiredSession
	err := ls.svc.DB.Bun.NewSelect().Table("listen_sessions").Column("merchant_id", "id").
		Where("ended IS NULL AND expires <= ?", wire.At(now)).OrderExpr("expires").Limit(sweepBatch).Scan(ctx, &due)
	if err != nil {
		return 0, err
	}
	ended := 0
	for _, d := range due {
		err := op.Background(ctx, ls.svc.Kit, store.Scope{MerchantID: d.MerchantID}, func(ctx context.Context, w *op.W) error {
			row := new(models.ListenSession)
			if err := w.Tx.Select(row).Where("ls.id = ? AND ls.ended IS NULL", d.ID).For("UPDATE").Scan(ctx); err != nil {
				return err
			}
			now := w.Now()
			if now.Before(row.Expires.Time) {
				return nil // renewed since
			}
			if err := ls.end(ctx, w.Tx, row, now, "the listen session expired before the CLI acknowledged it"); err != nil {
				return err
			}
			ended++
			return nil
		})
		if err != nil && !store.IsNoRows(err) {
			return ended, err
		}
	}
	return ended, nil
}
