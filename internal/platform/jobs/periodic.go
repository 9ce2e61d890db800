package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"
)

// Recurring is a job that runs on a schedule, as a service declares it:
// its worker and its schedule, registered together (areas.Services).
type Recurring interface {
	// AddWorker registers the job's worker (before the engine starts).
	AddWorker(*river.Workers) error
	// PeriodicJob is the job's schedule, for the engine's leader.
	PeriodicJob() *river.PeriodicJob
}

// Periodic is a recurring job stated by what is its own: its args type A
// (which names it in river_job), its period and its work. River retries
// Work with backoff when it fails, and a leader change may run it twice
// at once: Work leaves alone what a previous run did.
type Periodic[A river.JobArgs] struct {
	// Every is the period; zero or less means Default.
	Every, Default time.Duration
	// Work does one run.
	Work func(ctx context.Context) error
}

// AddWorker registers Work as the worker of A's jobs.
func (p Periodic[A]) AddWorker(workers *river.Workers) error {
	return river.AddWorkerSafely(workers, river.WorkFunc(func(ctx context.Context, _ *river.Job[A]) error {
		return p.Work(ctx)
	}))
}

// PeriodicJob schedules A every period, and once when this process
// becomes River's leader (Every).
func (p Periodic[A]) PeriodicJob() *river.PeriodicJob {
	every := p.Every
	if every <= 0 {
		every = p.Default
	}
	var args A
	return Every(every, args)
}

// Every schedules the job of args every interval, and once when this
// process becomes River's leader (RunOnStart), so a server that restarts
// more often than the interval still runs it. The job's kind identifies
// the schedule.
func Every(interval time.Duration, args river.JobArgs) *river.PeriodicJob {
	return river.NewPeriodicJob(
		river.PeriodicInterval(interval),
		func() (river.JobArgs, *river.InsertOpts) { return args, nil },
		&river.PeriodicJobOpts{ID: args.Kind(), RunOnStart: true},
	)
}
