package subscriptions

import (
	"context"
	"encoding/json"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/billing/invoices"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Renewals that bill nothing, applied together (due.Runner). A paused
// subscription's renewal only rolls its period: no invoice, no charge,
// the row's period columns and two events. A test clock with thousands of
// paused subscriptions renewed them one by one, seven statements each
// with the advance's own two (the sources asked, the clock moved); a run
// of them is renewed here in five statements whatever its length (the
// lock, the read, their products, the update, the read back),
// with the same rows and the same events, each at its own instant, as
// renew writes one after the other. Whatever a run cannot take (a
// subscription not paused, a scheduled change, a phase to start) ends it;
// renew applies that one.

// ApplyRun renews the paused subscriptions at the head of run together.
func (r renewals) ApplyRun(ctx context.Context, w *op.W, run []due.Due, at func(due.Due) (*op.W, error)) (int, error) {
	return r.s.Subscriptions.renewPausedRun(ctx, w, run, at)
}

// pausedRenewal is one renewal of a run: the subscription rolled to its
// next period and how it rendered before.
type pausedRenewal struct {
	due    due.Due
	sub    *models.Subscription
	before json.RawMessage
}

// renewPausedRun renews the longest head of run that renews paused
// subscriptions only, in time order, and answers how many it renewed.
func (ss *Subscriptions) renewPausedRun(ctx context.Context, w *op.W, run []due.Due, at func(due.Due) (*op.W, error)) (int, error) {
	head, err := lockPausedHead(ctx, w, run)
	if err != nil || len(head) == 0 {
		return 0, err
	}
	renewals, err := ss.rollPaused(ctx, w, head)
	if err != nil || len(renewals) == 0 {
		return 0, err
	}
	if err := savePeriods(ctx, w, renewals); err != nil {
		return 0, err
	}
	renewed := make([]due.Due, len(renewals))
	for i, rn := range renewals {
		renewed[i] = rn.due
	}
	fresh, err := readSubscriptions(ctx, w, objectsOf(renewed))
	if err != nil {
		return 0, err
	}
	for _, rn := range renewals {
		ew, err := at(rn.due)
		if err != nil {
			return 0, err
		}
		sub := fresh[rn.sub.ID]
		if err := announceUpdate(ew, sub, rn.before); err != nil {
			return 0, err
		}
		if err := emitSubscription(ew, EventRenewalCompleted, sub); err != nil {
			return 0, err
		}
	}
	return len(renewals), nil
}

// lockPausedHead locks, in one statement, the subscriptions of run that
// are paused with no scheduled change (in id order, as every lock of
// several is taken), and answers the head of run they make up: it ends at
// the first effect on any other subscription.
func lockPausedHead(ctx context.Context, w *op.W, run []due.Due) ([]due.Due, error) {
	var locked []uuid.UUID
	if err := w.Tx.Select((*models.Subscription)(nil)).Column("sub.id").Where("sub.id IN (?)", bun.In(objectsOf(run))).
		Where("sub.status = ?", models.SubscriptionPaused).Where("sub.scheduled_product_id IS NULL").
		OrderExpr("sub.id").For("UPDATE OF sub").Scan(ctx, &locked); err != nil {
		return nil, err
	}
	paused := make(map[uuid.UUID]bool, len(locked))
	for _, id := range locked {
		paused[id] = true
	}
	n := 0
	for n < len(run) && paused[run[n].ID] {
		n++
	}
	return run[:n], nil
}

// rollPaused reads the locked subscriptions of head whole, with their
// products, and rolls each into its next period as renew would, in time
// order: it stops at the first it cannot renew here, and at the first
// effect that a renewal of the run made due before it (a period rolled
// that ends again by then: one by one, that renewal would come first).
func (ss *Subscriptions) rollPaused(ctx context.Context, w *op.W, head []due.Due) ([]pausedRenewal, error) {
	subs, err := readSubscriptions(ctx, w, objectsOf(head))
	if err != nil {
		return nil, err
	}
	productIDs := make([]uuid.UUID, 0, len(subs))
	for _, sub := range subs {
		productIDs = append(productIDs, sub.ProductID)
	}
	products, err := invoices.ProductRows(ctx, w.Tx, productIDs)
	if err != nil {
		return nil, err
	}
	var out []pausedRenewal
	var madeDue *due.Due
	for _, d := range head {
		if madeDue != nil && !d.Before(*madeDue) {
			break
		}
		sub := subs[d.ID]
		if sub == nil || !rollsAlone(sub, products[sub.ProductID], d.At) {
			break
		}
		before, err := events.Render(sub)
		if err != nil {
			return nil, err
		}
		if _, err := rollPeriod(sub, products[sub.ProductID], d.At); err != nil {
			break // renew answers the error, for this effect alone
		}
		if phase := inForce(sub.Phases, sub.PeriodNumber); phase >= 0 && !sub.Phases[phase].Started() {
			break // the phase starts with renew
		}
		sub.Updated = models.At(d.At)
		next := due.Due{At: sub.CurrentPeriodEnd.Time, Kind: d.Kind, ID: sub.ID}
		if madeDue == nil || next.Before(*madeDue) {
			madeDue = &next
		}
		out = append(out, pausedRenewal{due: d, sub: sub, before: before})
	}
	return out, nil
}

// rollsAlone reports whether renew would only roll sub's period at at: it
// is paused, its period ends there, it has no scheduled change and its
// product is a recurring one of the tenant's.
func rollsAlone(sub *models.Subscription, pr *models.Product, at time.Time) bool {
	return sub.Status == models.SubscriptionPaused && sub.CurrentPeriodEnd != nil && sub.CurrentPeriodEnd.Equal(at) &&
		sub.ScheduledProductID == nil && pr != nil && pr.Recurring != nil
}

// savePeriods writes the rolled periods of renewals in one statement: the
// columns a paused renewal changes, each row stamped at its own instant.
func savePeriods(ctx context.Context, w *op.W, renewals []pausedRenewal) error {
	n := len(renewals)
	ids, numbers := make([]uuid.UUID, n), make([]int, n)
	starts, ends, updated := make([]time.Time, n), make([]time.Time, n), make([]time.Time, n)
	for i, rn := range renewals {
		ids[i], numbers[i] = rn.sub.ID, rn.sub.PeriodNumber
		starts[i], ends[i], updated[i] = rn.sub.CurrentPeriodStart.Time, rn.sub.CurrentPeriodEnd.Time, rn.sub.Updated.Time
	}
	_, err := w.Tx.Update((*models.Subscription)(nil)).
		TableExpr("unnest(?::uuid[], ?::int[], ?::timestamptz[], ?::timestamptz[], ?::timestamptz[]) AS r(id, period_number, period_start, period_end, updated)",
			pgdialect.Array(ids), pgdialect.Array(numbers), pgdialect.Array(starts), pgdialect.Array(ends), pgdialect.Array(updated)).
		Set("period_number = r.period_number").Set("current_period_start = r.period_start").
		Set("current_period_end = r.period_end").Set("period_amount_charged = 0").Set("updated = r.updated").
		Where("sub.id = r.id").Exec(ctx)
	return err
}

// readSubscriptions reads the subscriptions ids name whole, in one
// statement, as subscriptionTable.Find reads one: with its phases, its
// plan and its derived members.
func readSubscriptions(ctx context.Context, w *op.W, ids []uuid.UUID) (map[uuid.UUID]*models.Subscription, error) {
	var rows []*models.Subscription
	if err := subscriptionTable.Select(w.Tx, w.P, &rows).Where("sub.id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	if err := subscriptionTable.LoadEmbedded(rows...); err != nil {
		return nil, err
	}
	byID := make(map[uuid.UUID]*models.Subscription, len(rows))
	for _, sub := range rows {
		deriveSubscription(sub)
		byID[sub.ID] = sub
	}
	return byID, nil
}

// objectsOf are the objects the effects act on.
func objectsOf(dues []due.Due) []uuid.UUID {
	ids := make([]uuid.UUID, len(dues))
	for i, d := range dues {
		ids[i] = d.ID
	}
	return ids
}
