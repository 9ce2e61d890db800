package funding

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// DefaultSweepInterval is how often the sweep looks for due schedules.
const DefaultSweepInterval = 10 * time.Second

// sweepBatch is how many due schedules one look-up takes.
const sweepBatch = 100

// SweepArgs is the job that runs the due funding schedules.
type SweepArgs struct{}

// Kind names the job.
func (SweepArgs) Kind() string { return "payout_funding.sweep" }

// RecurringJobs are the area's recurring jobs (areas.Recurring): the
// sweep, every SweepInterval (and once when a process becomes River's
// leader). Only the leader enqueues them, so across many server processes
// one sweep runs per interval; should two run at once anyway (a leader
// change, a sweep enqueued by hand), each schedule's row lock and the
// unique run index still fund every run once, and River retries a sweep
// the database failed.
func (s *Service) RecurringJobs() []jobs.Recurring {
	return []jobs.Recurring{jobs.Periodic[SweepArgs]{Every: s.SweepInterval, Default: DefaultSweepInterval,
		Work: func(ctx context.Context) error { _, err := s.Sweep(ctx); return err }}}
}

// dueSchedule names a schedule across tenants.
type dueSchedule struct {
	MerchantID uuid.UUID `bun:"merchant_id"`
	Livemode   bool      `bun:"livemode"`
	ID         uuid.UUID `bun:"id"`
}

// Sweep runs every enabled schedule whose next_run has come, at the
// clock's time, each in its own transaction (Schedules.Run), and answers how
// many it funded. The look-up of due schedules is the one query of the
// area that spans tenants: it reads only their keys (through the partial
// index on enabled schedules by next_run); each schedule is then run
// within its own merchant and mode. A schedule that fails is left due for
// the next sweep, and the sweep reports the error once it has tried the
// rest of its batch.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	funded := 0
	for {
		now := s.Clock.Now()
		var due []dueSchedule
		if err := s.DB.Bun.NewSelect().TableExpr("payout_funding_schedules").
			Column("merchant_id", "livemode", "id").
			Where("enabled").Where("next_run <= ?", now).
			OrderExpr("next_run, id").Limit(sweepBatch).Scan(ctx, &due); err != nil {
			return funded, err
		}
		var errs []error
		for _, d := range due {
			ran, err := s.Schedules.Run(ctx, store.Scope{MerchantID: d.MerchantID, Livemode: d.Livemode}, d.ID)
			if err != nil {
				errs = append(errs, err)
			} else if ran {
				funded++
			}
		}
		if len(errs) > 0 || len(due) < sweepBatch {
			return funded, errors.Join(errs...)
		}
	}
}
