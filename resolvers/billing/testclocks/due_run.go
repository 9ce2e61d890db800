package testclocks

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// nextDue asks every source for its earliest effect due by upTo on clock
// and answers the earliest of all (Due.Before), with its source; nil when
// nothing is due.
func (s *Service) nextDue(ctx context.Context, tx *store.Tenant, clock uuid.UUID, upTo time.Time) (*due.Due, due.DueSource, error) {
	dues, srcs, err := s.nextDues(ctx, tx, clock, upTo, 1)
	if err != nil || len(dues) == 0 {
		return nil, nil, err
	}
	return &dues[0], srcs[0], nil
}

// nextDues answers the earliest effects due by upTo on clock, at most
// limit of them, in time order (Due.Before), each with its source: the
// effects that come next as things stand, before any of them is applied.
// The sources that are due.Queriers are asked in one statement (each
// still reads its own index, for its first limit effects); the others
// answer their earliest one by one, and the list ends at that one (what
// such a source has due after it is not known).
func (s *Service) nextDues(ctx context.Context, tx *store.Tenant, clock uuid.UUID, upTo time.Time, limit int) (
	[]due.Due, []due.DueSource, error) {
	byKind := map[string]due.DueSource{}
	var union *bun.SelectQuery
	for _, src := range s.dueSources {
		dq, ok := src.(due.Querier)
		if !ok {
			continue
		}
		byKind[src.Kind()] = src
		q := tx.SelectFrom(dq.DueQuery(tx, clock, upTo).Limit(int64(limit)), "d").ColumnExpr("d.at, d.kind, d.id")
		if union == nil {
			union = q
		} else {
			union = union.UnionAll(q)
		}
	}
	var dues []due.Due
	if union != nil {
		var err error
		dues, err = due.ScanAll(ctx, tx.SelectFrom(union, "due").ColumnExpr("due.*").
			OrderExpr(`due.at, due.kind COLLATE "C", due.id`).Limit(int64(limit)))
		if err != nil {
			return nil, nil, err
		}
	}
	for _, src := range s.dueSources {
		if _, ok := src.(due.Querier); ok {
			continue
		}
		d, err := src.Next(ctx, tx, clock, upTo)
		if err != nil {
			return nil, nil, err
		}
		if d != nil {
			byKind[src.Kind()] = src
			dues = endAt(dues, *d)
		}
	}
	srcs := make([]due.DueSource, len(dues))
	for i, d := range dues {
		srcs[i] = byKind[d.Kind]
	}
	return dues, srcs, nil
}

// endAt puts d in its place among dues (in time order) and drops what
// comes after it.
func endAt(dues []due.Due, d due.Due) []due.Due {
	i := 0
	for i < len(dues) && dues[i].Before(d) {
		i++
	}
	return append(dues[:i], d)
}

// applyRun applies a run of dues, all of runner's, together, in w: each
// effect in a write of its own at its instant, as applyDue gives it. It
// answers the effects applied, none when runner leaves the first one to
// Apply.
func applyRun(ctx context.Context, w *op.W, runner due.Runner, run []due.Due) ([]*models.TestClockEffect, error) {
	if len(run) < 2 {
		return nil, nil // one effect: Apply is as cheap
	}
	var effects []*models.TestClockEffect
	var starts []int
	n, err := runner.ApplyRun(ctx, w, run, func(d due.Due) (*op.W, error) {
		at := w.At(d.At)
		if err := at.AtDueInstant(d.At); err != nil {
			return nil, err
		}
		starts = append(starts, len(w.Emitted()))
		effects = append(effects, newEffect(d))
		return at, nil
	})
	if err != nil {
		return nil, err
	}
	if n != len(effects) {
		return nil, fmt.Errorf("billing: the %s source applied %d effects of a run and announced %d", run[0].Kind, n, len(effects))
	}
	emitted := w.Emitted()
	for i, e := range effects {
		end := len(emitted)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		e.Events = eventsOf(emitted[starts[i]:end])
	}
	return effects, nil
}

// newEffect is the receipt's entry for d, its events still to add.
func newEffect(d due.Due) *models.TestClockEffect {
	return &models.TestClockEffect{At: models.At(d.At), Kind: models.TestClockEffectKind(d.Kind), ObjectID: d.ID,
		Events: []*models.TestClockEvent{}}
}

// eventsOf are the events an effect emitted, as its receipt lists them.
func eventsOf(emitted []*events.Event) []*models.TestClockEvent {
	out := []*models.TestClockEvent{}
	for _, e := range emitted {
		out = append(out, &models.TestClockEvent{ID: e.ID, Type: e.Type})
	}
	return out
}

// applyDue runs due from src in w at the instant it fell due, and answers
// what it did for a receipt.
func applyDue(ctx context.Context, w *op.W, src due.DueSource, due due.Due) (*models.TestClockEffect, error) {
	if err := w.AtDueInstant(due.At); err != nil {
		return nil, err
	}
	emittedBefore := len(w.Emitted())
	if err := src.Apply(ctx, w, due); err != nil {
		return nil, err
	}
	effect := newEffect(due)
	effect.Events = eventsOf(w.Emitted()[emittedBefore:])
	return effect, nil
}

// RunDue applies, for the objects of scope on no test clock, every effect
// due by upTo, earliest first, each in its own write at the time it fell
// due (so each commits with its events, and a run that stops half way
// leaves every applied effect whole for the next run to continue from).
// Sources apply an effect once however often it is asked for, so two runs
// racing, or a run repeated, apply each effect once.
func (s *Service) RunDue(ctx context.Context, scope store.Scope, upTo time.Time) ([]*models.TestClockEffect, error) {
	var applied []*models.TestClockEffect
	var last *due.Due
	for {
		var effect *models.TestClockEffect
		err := op.Background(ctx, s.Kit, scope, func(ctx context.Context, w *op.W) error {
			due, src, err := s.nextDue(ctx, w.Tx, uuid.Nil, upTo)
			if err != nil || due == nil {
				return err
			}
			if err := stillDue(last, due); err != nil {
				return err
			}
			last = due
			effect, err = applyDue(ctx, w, src, *due)
			return err
		})
		if err != nil || effect == nil {
			return applied, err
		}
		applied = append(applied, effect)
	}
}

// stillDue refuses an effect a source answers again right after applying
// it: its Apply and its Next disagree, and the run would never end.
func stillDue(last, next *due.Due) error {
	if last != nil && last.At.Equal(next.At) && last.Kind == next.Kind && last.ID == next.ID {
		return fmt.Errorf("billing: the %s source answers %s due at %s again after applying it", next.Kind, next.ID, next.At)
	}
	return nil
}
