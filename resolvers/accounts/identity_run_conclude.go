package accounts

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// IdentityRunArgs is the job that concludes one identity verification run.
type IdentityRunArgs struct {
	jobs.Tenant
	RunID uuid.UUID `json:"run_id"`
}

// Kind names the job.
func (IdentityRunArgs) Kind() string { return "identity_verification.conclude" }

// Row is the run to conclude (jobs.RowArgs); a run already concluded
// makes the job a no-op.
func (a IdentityRunArgs) Row() (store.Scope, uuid.UUID) {
	return a.Scope(), a.RunID
}

// AddWorkers registers the area's background workers on the job engine's
// bundle (before the engine starts). app.New calls it through
// areas.Services.
func (s *Service) AddWorkers(workers *river.Workers) error {
	if err := river.AddWorkerSafely(workers, &jobs.RowWorker[IdentityRunArgs]{Do: s.IdentityRuns.Conclude}); err != nil {
		return err
	}
	return river.AddWorkerSafely(workers, &jobs.RowWorker[CustomerIdentityArgs]{Do: s.CustomerIdentity.Conclude})
}

// Conclude applies the sandbox provider's verdict to a pending
// run: the run concludes (approved, failed or errored) or opens a manual
// review and stays pending; the verdict becomes the account's latest run
// outcome, its capabilities re-evaluate (activations are announced), and
// the run's event is emitted, all in one transaction at the clock's time.
// A run that is no longer pending, or whose review is open, is left alone.
func (rs *IdentityRuns) Conclude(ctx context.Context, scope store.Scope, runID uuid.UUID) error {
	s := rs.svc
	return op.Background(ctx, s.Kit, scope, func(ctx context.Context, w *op.W) error {
		run := new(models.IdentityVerification)
		if err := w.Tx.Select(run).Column("account_id").Where("iv.id = ?", runID).Scan(ctx); err != nil {
			if store.IsNoRows(err) {
				return nil // its account's transaction never committed it
			}
			return err
		}
		_, err := s.changeAccount(ctx, w, run.AccountID.String(), func(ctx context.Context, aw *accountWrite) error {
			// Under the account's lock: the run as the last writer left it.
			if err := aw.Tx.Select(run).Where("iv.id = ?", runID).For("UPDATE").Scan(ctx); err != nil {
				return err
			}
			if run.Status != models.RunStatusPending || !run.ReviewOpened.IsZero() {
				return nil
			}
			return s.applyVerdict(ctx, aw, run, verification.PersonaFor(run.Subject).Run)
		})
		return err
	})
}

// applyVerdict records verdict on run and on the account, and emits the
// run's event.
func (s *Service) applyVerdict(ctx context.Context, aw *accountWrite, run *models.IdentityVerification, v verification.Verdict) error {
	now := models.At(aw.Now())
	run.Updated = now
	run.CreatorShieldFindings = v.CreatorShieldFindings
	// A review keeps failure_type, category and retriable null while the
	// run is pending (spec doc 1 §2.5): review_opened shows it, and the
	// account's outcome below carries its reason to the capabilities'
	// errors (review_pending).
	if v.FailureType != "" && !v.Review {
		ft, cat, retriable := models.IdentityFailureType(v.FailureType), models.VerificationCategory(v.Category), v.Retriable
		run.FailureType, run.Category, run.Retriable = &ft, &cat, &retriable
	}
	if v.Review {
		run.ReviewOpened = now
	} else {
		run.Status, run.Completed = models.RunStatus(v.Status), now
	}
	if _, err := aw.Tx.Update(run).Column("status", "failure_type", "retriable", "category", "completed",
		"review_opened", "creator_shield_findings", "updated").WherePK().Exec(ctx); err != nil {
		return fmt.Errorf("conclude run %s: %w", run.ID, err)
	}
	aw.Account.Verification.IdentityRun = &capability.RunOutcome{Status: string(run.Status), FailureType: v.FailureType,
		Category: v.Category, CreatorShieldFindings: v.CreatorShieldFindings}
	if v.Review {
		return nil
	}
	raw, err := events.Render(run)
	if err != nil {
		return err
	}
	typ := EventIdentityVerificationFailed
	if run.Status == models.RunStatusApproved {
		typ = EventIdentityVerificationApproved
	}
	aw.Emit(typ, run.ID, raw, nil)
	return nil
}
