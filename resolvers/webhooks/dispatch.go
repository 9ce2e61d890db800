package webhooks

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// dispatchBatch bounds the deliveries one dispatch transaction enqueues.
const dispatchBatch = 500

// Dispatcher hands the deliveries the events trigger queued (the outbox,
// migrations/00006_webhooks.up.sql) to their endpoints' cursors
// (CursorArgs). Every server process runs one: each pass locks the rows it
// takes (SKIP LOCKED), makes sure each of their endpoints has a cursor
// and marks them enqueued in one transaction, so a crash hands them over
// later, not never. It wakes on the trigger's notification and polls as a
// fallback.
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
			_ = clock.Sleep(ctx, p.d.cfg.PollInterval) // an ended ctx ends the loop
		}
	}
}

// listen holds one connection listening on webhook_outbox and dispatches
// at every notification and every poll interval. The connection is taken
// out of the pool for good (it does not count against its size) and
// closed when listening ends.
func (p *Dispatcher) listen(ctx context.Context) error {
	conn, err := p.d.db.ListenOn(ctx, "webhook_outbox")
	if err != nil {
		return err
	}
	defer store.CloseListener(conn)
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

// DispatchAll hands over every delivery waiting in the outbox and returns
// how many it handed over.
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
// endpoint's cursor then acts within its merchant and mode.
const dispatchOnceSQL = `
SELECT merchant_id, livemode, id, endpoint_id FROM webhook_deliveries
WHERE NOT enqueued ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`

const markEnqueuedSQL = `
UPDATE webhook_deliveries SET enqueued = true
WHERE (merchant_id, id) IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))`

// dispatchOnce hands a batch of the outbox to the cursors of its
// endpoints (one job per endpoint, whatever its number of deliveries): a
// new cursor, or the one the endpoint has, woken when it waits for a later
// retry. It holds each
// endpoint's cursor lock (lockCursorSQL), taken in one order, so a cursor
// ending at the same moment either sees these deliveries or lets the new
// cursor in.
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
	cursors := map[CursorArgs]bool{}
	var merchants, deliveries []string
	for rows.Next() {
		var c CursorArgs
		var delivery uuid.UUID
		if err := rows.Scan(&c.MerchantID, &c.Livemode, &delivery, &c.EndpointID); err != nil {
			rows.Close()
			return 0, err
		}
		cursors[c] = true
		merchants, deliveries = append(merchants, c.MerchantID.String()), append(deliveries, delivery.String())
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(deliveries) == 0 {
		return 0, nil
	}
	ordered := slices.SortedFunc(maps.Keys(cursors), func(a, b CursorArgs) int {
		return strings.Compare(a.EndpointID.String(), b.EndpointID.String())
	})
	params := make([]river.InsertManyParams, 0, len(ordered))
	for _, c := range ordered {
		if _, err := tx.Exec(ctx, lockCursorSQL, c.EndpointID.String()); err != nil {
			return 0, fmt.Errorf("webhooks: lock cursor: %w", err)
		}
		params = append(params, river.InsertManyParams{Args: c})
	}
	if err := p.engine.InsertOrWakeManyTx(ctx, tx, params); err != nil {
		return 0, err
	}
	if _, err := tx.Exec(ctx, markEnqueuedSQL, merchants, deliveries); err != nil {
		return 0, fmt.Errorf("webhooks: mark enqueued: %w", err)
	}
	return len(deliveries), tx.Commit(ctx)
}
