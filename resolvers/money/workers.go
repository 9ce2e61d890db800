package money

import (
	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
)

// AddWorkers registers the area's background workers on the job engine's
// bundle (before the engine starts): settlement and the sandbox issuer's
// dispute decisions. app.New calls it through areas.Services.
func (s *Service) AddWorkers(workers *river.Workers) error {
	if err := river.AddWorkerSafely(workers, &settleWorker{svc: s}); err != nil {
		return err
	}
	return river.AddWorkerSafely(workers, &jobs.RowWorker[DisputeDecisionArgs]{Do: s.DecideDispute})
}
