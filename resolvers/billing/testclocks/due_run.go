package testclocks

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/billing/due"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// nextDue asks every source for its earliest effect due by upTo on clock
// and answers the earliest of all (Due.Before), with its source; nil when
// nothing is due. The sources that are dueQueriers are asked in one
// statement (each still reads its own index), the others one by one.
func (s *Service) nextDue(ctx context.Context, tx *store.Tenant, clock uuid.UUID, upTo time.Time) (*due.Due, due.DueSource, error) {
	var best *due.Due
	var from due.DueSource
	byKind := map[string]due.DueSource{}
	var union *bun.SelectQuery
	for _, src := range s.dueSources {
		dq, ok := src.(due.Querier)
		if !ok {
			continue
		}
		byKind[src.Kind()] = src
		q := tx.SelectFrom(dq.DueQuery(tx, clock, upTo), "d").ColumnExpr("d.at, d.kind, d.id")
		if union == nil {
			union = q
		} else {
			union = union.UnionAll(q)
		}
	}
	if union != nil {
		first, err := due.Scan(ctx, tx.SelectFrom(union, "due").ColumnExpr("due.*").
			OrderExpr(`due.at, due.kind COLLATE "C", due.id`).Limit(1))
		if err != nil {
			return nil, nil, err
		}
		if first != nil {
			best, from = first, byKind[first.Kind]
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
		if d != nil && (best == nil || d.Before(*best)) {
			best, from = d, src
		}
	}
	return best, from, nil
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
	effect := &models.TestClockEffect{At: models.At(due.At), Kind: models.TestClockEffectKind(due.Kind), ObjectID: due.ID,
		Events: []*models.TestClockEvent{}}
	for _, e := range w.Emitted()[emittedBefore:] {
		effect.Events = append(effect.Events, &models.TestClockEvent{ID: e.ID, Type: e.Type})
	}
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
