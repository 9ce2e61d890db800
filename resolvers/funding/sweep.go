package funding

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

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

// sweepWorker runs a sweep. River retries it with backoff when the
// database fails; a schedule already run is skipped, so a sweep that runs
// twice funds nothing twice.
type sweepWorker struct {
	river.WorkerDefaults[SweepArgs]
	svc *Service
}

func (w *sweepWorker) Work(ctx context.Context, _ *river.Job[SweepArgs]) error {
	_, err := w.svc.Sweep(ctx)
	return err
}

// AddWorkers registers the area's background workers on the job engine's
// bundle (before the engine starts). app.New calls it through
// areas.Services.
func (s *Service) AddWorkers(workers *river.Workers) error {
	return river.AddWorkerSafely(workers, &sweepWorker{svc: s})
}

// PeriodicJobs are the area's recurring jobs, which app.New adds to the
// engine through areas.Services: the sweep, every SweepInterval (and once
// when a process becomes River's leader). Only the leader enqueues periodic
// jobs, so across many server processes one sweep runs per interval;
// should two run at once anyway (a leader change, a sweep enqueued by
// hand), each schedule's row lock and the unique run index still fund
// every run once.
func (s *Service) PeriodicJobs() []*river.PeriodicJob {
	every := s.SweepInterval
	if every <= 0 {
		every = DefaultSweepInterval
	}
	return []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(every),
		func() (river.JobArgs, *river.InsertOpts) { return SweepArgs{}, nil },
		&river.PeriodicJobOpts{RunOnStart: true})}
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
