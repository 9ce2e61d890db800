package webhooks

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
)

// dispatchBatch bounds the deliveries one dispatch transaction enqueues.
const dispatchBatch = 500

// Dispatcher moves the deliveries the events trigger queued (the outbox,
// migrations/00006_webhooks.up.sql) into River jobs. Every server process
// runs one: each pass locks the rows it takes (SKIP LOCKED), inserts their
// jobs and marks them enqueued in one transaction, so two processes never
// enqueue one delivery twice and a crash enqueues it later, not never. It
// wakes on the trigger's notification and polls as a fallback.
type Dispatcher struct {
	d      *Delivery
	engine *jobs.Engine

	cancel context.CancelFunc
	done   sync.WaitGroup
}

// Dispatcher returns the dispatcher that enqueues through engine.
func (d *Delivery) Dispatcher(engine *jobs.Engine) *Dispatcher {
	return &Dispatcher{d: d, engine: engine}
}

// Start runs the dispatcher in the background until Stop.
func (p *Dispatcher) Start(ctx context.Context) {
	ctx, p.cancel = context.WithCancel(context.WithoutCancel(ctx))
	p.done.Go(func() { p.run(ctx) })
}

// Stop ends the dispatcher and waits for it. Deliveries it did not enqueue
// stay in the outbox for the next process.
func (p *Dispatcher) Stop() {
	if p.cancel != nil {
		p.cancel()
		p.done.Wait()
	}
}

func (p *Dispatcher) run(ctx context.Context) {
	for ctx.Err() == nil {
		if err := p.listen(ctx); err != nil && ctx.Err() == nil {
			p.d.logger.Warn("webhook dispatcher: retrying", "error", err)
			select {
			case <-ctx.Done():
			case <-time.After(p.d.cfg.PollInterval):
			}
		}
	}
}

// listen holds one connection listening on webhook_outbox and dispatches
// at every notification and every poll interval. The connection is taken
// out of the pool for good (it does not count against its size) and
// closed when listening ends.
func (p *Dispatcher) listen(ctx context.Context) error {
	pc, err := p.d.db.Pool.Acquire(ctx)
	if err != nil {
		return err
	}
	conn := pc.Hijack()
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = conn.Close(cctx)
		cancel()
	}()
	if _, err := conn.Exec(ctx, "LISTEN webhook_outbox"); err != nil {
		return err
	}
	for {
		if _, err := p.DispatchAll(ctx); err != nil {
			return err
		}
		wctx, cancel := context.WithTimeout(ctx, p.d.cfg.PollInterval)
		_, err := conn.WaitForNotification(wctx)
		cancel()
		if ctx.Err() != nil {
			return nil
		}
		if err != nil && wctx.Err() == nil {
			return err
		}
	}
}

// DispatchAll enqueues every delivery waiting in the outbox and returns how
// many it enqueued.
func (p *Dispatcher) DispatchAll(ctx context.Context) (int, error) {
	total := 0
	for {
		n, err := p.dispatchOnce(ctx)
		total += n
		if err != nil || n < dispatchBatch {
			return total, err
		}
	}
}

// dispatchOnceSQL takes a batch of the outbox, oldest first. It spans every
// merchant: the outbox is housekeeping the server does for all alike; each
// job then acts within its delivery's merchant and mode.
const dispatchOnceSQL = `
SELECT merchant_id, livemode, id, endpoint_id FROM webhook_deliveries
WHERE NOT enqueued ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`

const markEnqueuedSQL = `
UPDATE webhook_deliveries SET enqueued = true
WHERE (merchant_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`

func (p *Dispatcher) dispatchOnce(ctx context.Context) (int, error) {
	tx, err := p.d.db.Pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck
	rows, err := tx.Query(ctx, dispatchOnceSQL, dispatchBatch)
	if err != nil {
		return 0, fmt.Errorf("webhooks: read outbox: %w", err)
	}
	var params []river.InsertManyParams
	var merchants, deliveries []string
	for rows.Next() {
		var a DeliverArgs
		if err := rows.Scan(&a.MerchantID, &a.Livemode, &a.DeliveryID, &a.EndpointID); err != nil {
			rows.Close()
			return 0, err
		}
		params = append(params, river.InsertManyParams{Args: a})
		merchants, deliveries = append(merchants, a.MerchantID.String()), append(deliveries, a.DeliveryID.String())
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(params) == 0 {
		return 0, nil
	}
	if err := p.engine.InsertManyTx(ctx, tx, params); err != nil {
		return 0, err
	}
	if _, err := tx.Exec(ctx, markEnqueuedSQL, merchants, deliveries); err != nil {
		return 0, fmt.Errorf("webhooks: mark enqueued: %w", err)
	}
	return len(params), tx.Commit(ctx)
}
