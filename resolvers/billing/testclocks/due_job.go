package testclocks

import (
	"context"
	"errors"
	"time"

	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// DefaultDueInterval is how often the wall clock's due effects are run.
const DefaultDueInterval = 10 * time.Second

// DueScopes is what a DueSource may add so the wall-clock run finds the
// merchants and modes it has something due in with one statement across
// tenants (through its partial index), rather than asking every merchant.
type DueScopes interface {
	// DueScopes answers the merchants and modes with an effect of the
	// source due by upTo on an object on no test clock.
	DueScopes(ctx context.Context, db *store.DB, upTo time.Time) ([]store.Scope, error)
}

// RunDueArgs is the job that applies the effects due on the server's
// clock.
type RunDueArgs struct{}

// Kind names the job.
func (RunDueArgs) Kind() string { return "billing.run_due" }

// AddWorkers registers the area's other background workers (app.New
// calls it through areas.Services): a test clock's continuation.
func (s *Service) AddWorkers(workers *river.Workers) error {
	return river.AddWorkerSafely(workers, &advanceClocksWorker{svc: s})
}

// RecurringJobs are the area's recurring jobs (areas.Recurring): the wall
// clock's due effects, every DueInterval (and when a process becomes
// River's leader). River retries a run the database failed; an effect
// applied is not due any more, so a run repeated or racing applies each
// once.
func (s *Service) RecurringJobs() []jobs.Recurring {
	return []jobs.Recurring{jobs.Periodic[RunDueArgs]{Every: s.DueInterval, Default: DefaultDueInterval,
		Work: func(ctx context.Context) error { _, err := s.RunAllDue(ctx); return err }}}
}

// RunAllDue applies every effect due by the server clock's now on objects
// on no test clock, merchant by merchant and mode by mode (RunDue), and
// answers how many it applied. The merchants and modes come from each
// source's DueScopes (one statement across tenants per source), or, for
// a source without one, every merchant in both modes. A scope that fails
// is left for the next run; the error is reported once the others ran.
// It also resumes the test clock advances nothing has stepped for a while
// (TestClocks.resumeStalled).
func (s *Service) RunAllDue(ctx context.Context) (int, error) {
	now := s.Clock.Now()
	scopes, err := s.dueScopes(ctx, now)
	if err != nil {
		return 0, err
	}
	applied := 0
	var errs []error
	if err := s.TestClocks.resumeStalled(ctx, now); err != nil {
		errs = append(errs, err)
	}
	for _, scope := range scopes {
		done, err := s.RunDue(ctx, scope, now)
		applied += len(done)
		if err != nil {
			errs = append(errs, err)
		}
	}
	return applied, errors.Join(errs...)
}

// dueScopes is the union of the scopes the sources name, in a stable
// order (merchant, then mode).
func (s *Service) dueScopes(ctx context.Context, upTo time.Time) ([]store.Scope, error) {
	seen := map[store.Scope]bool{}
	var scopes []store.Scope
	add := func(list []store.Scope) {
		for _, sc := range list {
			if !seen[sc] {
				seen[sc] = true
				scopes = append(scopes, sc)
			}
		}
	}
	for _, src := range s.dueSources {
		if ds, ok := src.(DueScopes); ok {
			list, err := ds.DueScopes(ctx, s.DB, upTo)
			if err != nil {
				return nil, err
			}
			add(list)
			continue
		}
		var all []store.Scope
		if err := s.DB.Bun.NewSelect().TableExpr("merchants AS m").ColumnExpr("m.id AS merchant_id").
			ColumnExpr("mode AS livemode").Join("CROSS JOIN (VALUES (false), (true)) AS modes (mode)").
			OrderExpr("m.id, mode").Scan(ctx, &all); err != nil {
			return nil, err
		}
		add(all)
	}
	return scopes, nil
}
