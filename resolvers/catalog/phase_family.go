package catalog

import (
	"context"
	"fmt"
	"sort"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/internal/platform/wire"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// phaseRow is a row of a phase table, a product's or a subscription's:
// what the phase family reads and changes on either.
type phaseRow interface {
	store.TenantRow
	Terms() *models.PhaseTerms
	PhaseID() uuid.UUID
	UpdatedAt() *wire.Timestamp
	// Started tells whether the phase has priced a period: its ordinal and
	// pricing are then fixed, and it cannot be deleted.
	Started() bool
}

// phaseRowOf is a phase model M used through its pointer.
type phaseRowOf[M any] interface {
	*M
	phaseRow
}

// phaseEvents are the event types a family announces its changes with;
// a family without them announces nothing.
type phaseEvents struct{ created, updated, deleted events.Type }

// phaseFamily is the one implementation of a parent's phases, whichever
// table the parent and its phases live in: M is the phase model (R its
// pointer), P the parent's row, E an update of one phase. Every change
// runs under the parent's row lock, which serializes them, and the
// ordering rules (internal/domain/phase) are checked on the result; the
// unique constraint on (parent, ordinal) backs them.
type phaseFamily[M any, R phaseRowOf[M], P any, E any] struct {
	kit *op.Kit
	// phases is the phase table, parents the parent's; column is the
	// phase column naming the parent.
	phases  *op.Table[M]
	parents *op.Table[P]
	column  string
	// parentParam is the parameter an unknown parent is reported on.
	parentParam string
	// name prefixes the operations' names ("product.phase").
	name string
	// ordinalKey is the unique constraint on (parent, ordinal).
	ordinalKey string
	// columns are the columns an update writes.
	columns []string
	// events, when set, announce each change.
	events *phaseEvents
	// clock, when set, gives a write the time of the parent's test clock
	// (before its time is first read).
	clock func(ctx context.Context, w *op.W, parent *P) error
	// params is the idempotency fingerprint of an operation.
	params func(parentID, id string, in any) any
	// check reports the problems of e, the update of ph under parent, into
	// f, each path under prefix; apply makes the change; id is the phase an
	// entry of a bulk update names (nil for none, or a null entry).
	check func(parent *P, ph R, e E, f *apierr.Fields, prefix string)
	// independent, when set, tells whether check reads nothing of the
	// parent for e, so that e can be checked before the transaction
	// (checkBefore); unset, check never reads the parent.
	independent func(e E) bool
	apply       func(ph R, e E)
	id          func(e E) *string

	// Of reads the phases of a batch of parents in one statement, in
	// ordinal order (a parent's phases edge).
	Of op.Batch[[]*M]
}

// bind completes the family: its batch of phases by parent.
func (f *phaseFamily[M, R, P, E]) bind() *phaseFamily[M, R, P, E] {
	f.Of = (&op.Children[M]{Table: f.phases, Parent: f.parents.Resource, Column: f.column,
		Order: "?TableAlias.ordinal ASC"}).Bind(f.kit)
	return f
}

// parent reads the caller's parent by id, answering an unknown one on
// parentParam.
func (f *phaseFamily[M, R, P, E]) parent(ctx context.Context, read func() (*P, error)) (*P, error) {
	p, err := read()
	if e := apierr.As(err); e != nil && e.Code == apierr.CodeResourceMissing {
		e.Param = f.parentParam
	}
	return p, err
}

// list returns a parent's phases in ordinal order (404 for an unknown
// parent).
func (f *phaseFamily[M, R, P, E]) list(ctx context.Context, parentID string) ([]R, error) {
	p, err := auth.Require(ctx, secretOnly...)
	if err != nil {
		return nil, err
	}
	parent, err := f.parent(ctx, func() (*P, error) { return f.parents.Get(ctx, f.kit, parentID) })
	if err != nil {
		return nil, err
	}
	return f.of(ctx, f.kit.DB.Tenant(p.Scope), f.parents.ID(parent))
}

// get returns one phase of a parent.
func (f *phaseFamily[M, R, P, E]) get(ctx context.Context, parentID, id string) (R, error) {
	phases, err := f.list(ctx, parentID)
	if err != nil {
		return nil, err
	}
	return f.find(phases, id)
}

// of reads the phases of one parent in t, in ordinal order: after the
// parent's lock in a write, so that they are the ones the lock protects.
func (f *phaseFamily[M, R, P, E]) of(ctx context.Context, t *store.Tenant, parentID uuid.UUID) ([]R, error) {
	phases := []R{}
	err := f.phases.Select(t, nil, &phases).Where("?TableAlias.? = ?", bun.Ident(f.column), parentID).
		OrderExpr("?TableAlias.ordinal").Scan(ctx)
	return phases, err
}

func (f *phaseFamily[M, R, P, E]) find(phases []R, id string) (R, error) {
	for _, ph := range phases {
		if ph.PhaseID().String() == id {
			return ph, nil
		}
	}
	return nil, apierr.NotFound(f.phases.Resource, id)
}

// write runs rule on a parent's phases under the parent's lock, which
// serializes every change to them.
func (f *phaseFamily[M, R, P, E]) write(ctx context.Context, spec op.Spec, parentID string,
	rule func(ctx context.Context, w *op.W, parent *P, phases []R) ([]R, error)) ([]R, error) {
	return op.Write(ctx, f.kit, spec, func(ctx context.Context, w *op.W) ([]R, error) {
		parent, err := f.parent(ctx, func() (*P, error) { return f.parents.Lock(ctx, w, parentID, op.LockUpdate) })
		if err != nil {
			return nil, err
		}
		if f.clock != nil {
			if err := f.clock(ctx, w, parent); err != nil {
				return nil, err
			}
		}
		phases, err := f.of(ctx, w.Tx, f.parents.ID(parent))
		if err != nil {
			return nil, err
		}
		return rule(ctx, w, parent, phases)
	})
}

// spec is the operation op of the family.
func (f *phaseFamily[M, R, P, E]) spec(op_, parentID, id string, in any, check func() error) op.Spec {
	return op.Spec{Name: f.name + "." + op_, Allow: secretOnly, Params: f.params(parentID, id, in), Check: check}
}

// create adds the phase build makes (at the write's time) to a parent.
// Its ordinal must be free, and no phase can be added after an indefinite
// one (nor an indefinite one before others).
func (f *phaseFamily[M, R, P, E]) create(ctx context.Context, spec op.Spec, parentID string,
	build func(w *op.W, parent *P) (R, error)) (R, error) {
	out, err := f.write(ctx, spec, parentID, func(ctx context.Context, w *op.W, parent *P, phases []R) ([]R, error) {
		ph, err := build(w, parent)
		if err != nil {
			return nil, err
		}
		if err := checkOrder(append(phases, ph), "ordinal"); err != nil {
			return nil, err
		}
		if _, err := w.Tx.Insert(ph).Exec(ctx); err != nil {
			return nil, f.ordinalTaken(err, ph)
		}
		if f.events != nil {
			if err := w.EmitObject(f.events.created, ph.PhaseID(), ph); err != nil {
				return nil, err
			}
		}
		return []R{ph}, nil
	})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// ordinalTaken answers the unique constraint's refusal of ph's ordinal as
// the validation error the ordering rules give; other errors pass.
func (f *phaseFamily[M, R, P, E]) ordinalTaken(err error, ph R) error {
	if c, ok := store.UniqueViolation(err); ok && c == f.ordinalKey {
		return apierr.FieldError("ordinal", fmt.Sprintf("ordinal %d is already taken", ph.Terms().Ordinal))
	}
	return err
}

// update changes one phase; orderPath is where a broken ordering rule is
// reported.
func (f *phaseFamily[M, R, P, E]) update(ctx context.Context, spec op.Spec, parentID, id string, e E, orderPath string) (R, error) {
	out, err := f.write(ctx, spec, parentID, func(ctx context.Context, w *op.W, parent *P, phases []R) ([]R, error) {
		ph, err := f.find(phases, id)
		if err != nil {
			return nil, err
		}
		var fs apierr.Fields
		f.check(parent, ph, e, &fs, "")
		if err := fs.Err(); err != nil {
			return nil, err
		}
		if _, err := f.applyUpdates(ctx, w, phases, map[R]E{ph: e}, orderPath); err != nil {
			return nil, err
		}
		return []R{ph}, nil
	})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// bulkUpdate changes several phases of a parent at once, all or nothing,
// and answers all of them and how many changed; every entry's problems
// are reported at once, and the ordering rules apply to the result.
func (f *phaseFamily[M, R, P, E]) bulkUpdate(ctx context.Context, spec op.Spec, parentID string, entries []E) ([]R, int, error) {
	var updated int
	out, err := f.write(ctx, spec, parentID, func(ctx context.Context, w *op.W, parent *P, phases []R) ([]R, error) {
		var fs apierr.Fields
		edits := map[R]E{}
		f.eachEntry(entries, &fs, func(path, id string, e E) bool {
			ph, err := f.find(phases, id)
			if err != nil {
				fs.Add(path+"id", "is not a phase of this "+f.parents.Resource)
				return true
			}
			if _, dup := edits[ph]; dup {
				fs.Add(path+"id", "is listed twice")
				return true
			}
			f.check(parent, ph, e, &fs, path)
			edits[ph] = e
			return true
		})
		if err := fs.Err(); err != nil {
			return nil, err
		}
		n, err := f.applyUpdates(ctx, w, phases, edits, "phases")
		updated = n
		// In ordinal order as they now are.
		sort.SliceStable(phases, func(i, j int) bool { return phases[i].Terms().Ordinal < phases[j].Terms().Ordinal })
		return phases, err
	})
	return out, updated, err
}

// applyUpdates applies edits, keeps started phases' ordinal and pricing,
// checks the ordering rules on the result, saves the phases that changed
// and announces each. It answers how many changed.
func (f *phaseFamily[M, R, P, E]) applyUpdates(ctx context.Context, w *op.W, phases []R, edits map[R]E, orderPath string) (int, error) {
	type change struct {
		ph     R
		before []byte
		was    models.PhaseTerms
	}
	var changes []change
	for _, ph := range phases {
		e, ok := edits[ph]
		if !ok {
			continue
		}
		before, err := events.Render(ph)
		if err != nil {
			return 0, err
		}
		was := *ph.Terms()
		f.apply(ph, e)
		if ph.Started() && repriced(&was, ph.Terms()) {
			return 0, apierr.InvalidState(fmt.Sprintf("Phase %s has started: its ordinal and pricing can no longer change", ph.PhaseID()))
		}
		changes = append(changes, change{ph, before, was})
	}
	if err := checkOrder(phases, orderPath); err != nil {
		return 0, err
	}
	var dirty, moved []R
	for _, c := range changes {
		previous := *c.ph.UpdatedAt()
		*c.ph.UpdatedAt() = models.At(w.Now())
		after, err := events.Render(c.ph)
		if err != nil {
			return 0, err
		}
		prev, err := events.PreviousAttributes(c.before, after)
		if err != nil {
			return 0, err
		}
		if prev == nil {
			*c.ph.UpdatedAt() = previous
			continue
		}
		dirty = append(dirty, c.ph)
		if c.was.Ordinal != c.ph.Terms().Ordinal {
			moved = append(moved, c.ph)
		}
		if f.events != nil {
			w.Emit(f.events.updated, c.ph.PhaseID(), after, prev)
		}
	}
	if len(moved) > 1 {
		if err := f.park(ctx, w, moved); err != nil {
			return 0, err
		}
	}
	if len(dirty) > 0 {
		if _, err := w.Tx.Update(&dirty).Column(f.columns...).Bulk().Exec(ctx); err != nil {
			return 0, err
		}
	}
	return len(dirty), nil
}

// park moves phases whose ordinals change to negative ordinals no phase
// has, so that one statement can then give them their new ordinals even
// when they trade places (PostgreSQL checks a unique constraint row by
// row).
func (f *phaseFamily[M, R, P, E]) park(ctx context.Context, w *op.W, moved []R) error {
	ids := make([]uuid.UUID, len(moved))
	for i, ph := range moved {
		ids[i] = ph.PhaseID()
	}
	_, err := w.Tx.Update((*M)(nil)).Set("ordinal = -1 - ordinal").
		Where("?TableAlias.id IN (?)", bun.In(ids)).Exec(ctx)
	return err
}

// repriced tells whether a change of a phase from was to now touches its
// ordinal or pricing.
func repriced(was, now *models.PhaseTerms) bool {
	return was.Ordinal != now.Ordinal || was.PricingType != now.PricingType ||
		!equalPtr(was.Amount, now.Amount) || !equalPtr(was.DiscountPercentage, now.DiscountPercentage)
}

func equalPtr[T comparable](a, b *T) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// delete removes one phase of a parent and answers it; a started phase
// stays (422 invalid_state).
func (f *phaseFamily[M, R, P, E]) delete(ctx context.Context, spec op.Spec, parentID, id string) (R, error) {
	var removed R
	_, err := f.write(ctx, spec, parentID, func(ctx context.Context, w *op.W, parent *P, phases []R) ([]R, error) {
		ph, err := f.find(phases, id)
		if err != nil {
			return nil, err
		}
		if ph.Started() {
			return nil, apierr.InvalidState(fmt.Sprintf("Phase %s has started and cannot be deleted", id))
		}
		if _, err := w.Tx.Delete(ph).WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		if f.events != nil {
			if err := w.EmitObject(f.events.deleted, ph.PhaseID(), ph); err != nil {
				return nil, err
			}
		}
		removed = ph
		return nil, nil
	})
	return removed, err
}
