package areas

import (
	"reflect"

	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
)

// Workers is a service with background jobs: it registers their workers
// on the job engine's bundle.
type Workers interface {
	AddWorkers(*river.Workers) error
}

// Recurring is a service with jobs that run on a schedule, each stated
// by its args, its period and its work (jobs.Periodic): their workers and
// schedules are registered together.
type Recurring interface {
	RecurringJobs() []jobs.Recurring
}

// Closer is a service that runs something in the background until closed.
type Closer interface {
	Close()
}

// AddWorkers registers the workers of every service that has some, before
// the engine starts. A worker registered twice is an error.
func (s Services) AddWorkers(workers *river.Workers) error {
	for _, svc := range s.all() {
		if w, ok := svc.(Workers); ok {
			if err := w.AddWorkers(workers); err != nil {
				return err
			}
		}
		if r, ok := svc.(Recurring); ok {
			for _, job := range r.RecurringJobs() {
				if err := job.AddWorker(workers); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// PeriodicJobs are the schedules of every service's recurring jobs.
func (s Services) PeriodicJobs() []*river.PeriodicJob {
	var periodic []*river.PeriodicJob
	for _, svc := range s.all() {
		if r, ok := svc.(Recurring); ok {
			for _, job := range r.RecurringJobs() {
				periodic = append(periodic, job.PeriodicJob())
			}
		}
	}
	return periodic
}

// Close stops what the services run in the background (the event
// stream's listener). Call it before closing the database.
func (s Services) Close() {
	for _, svc := range s.all() {
		if c, ok := svc.(Closer); ok {
			c.Close()
		}
	}
}

// all are the services, the fields of Services in their order: an area's
// field is all it takes for its workers, recurring jobs and Close to be
// found, with no list of areas to keep beside it.
func (s Services) all() []any {
	v := reflect.ValueOf(s)
	svcs := make([]any, v.NumField())
	for i := range svcs {
		svcs[i] = v.Field(i).Interface()
	}
	return svcs
}
