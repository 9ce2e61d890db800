package accounts

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// CustomerIdentityArgs is the job that has the identity provider judge a
// pending customer identity verification.
type CustomerIdentityArgs struct {
	jobs.Tenant
	ID uuid.UUID `json:"id"`
}

// Kind names the job.
func (CustomerIdentityArgs) Kind() string { return "customer_identity_verification.conclude" }

// Row is the verification to conclude (jobs.RowArgs); one no longer
// pending makes the job a no-op.
func (a CustomerIdentityArgs) Row() (store.Scope, uuid.UUID) {
	return a.Scope(), a.ID
}

// Conclude applies the sandbox identity provider's
// verdict to a pending verification (docs/sandbox.md): verified or failed,
// with the time reached and customer.identity_verification.updated, in one
// transaction at the clock's time. A verdict of manual review leaves it
// pending (the sandbox never resolves a review); a verification no longer
// pending, or gone, is left alone, so a job that runs twice changes
// nothing.
func (cs *CustomerIdentity) Conclude(ctx context.Context, scope store.Scope, id uuid.UUID) error {
	s := cs.svc
	return op.Background(ctx, s.Kit, scope, func(ctx context.Context, w *op.W) error {
		v, err := lockCustomerIdentity(ctx, w, id.String())
		if e := apierr.As(err); e != nil && e.Code == apierr.CodeResourceMissing {
			return nil // its transaction never committed it
		} else if err != nil {
			return err
		}
		if v.Status != models.CustomerVerificationPending {
			return nil
		}
		return s.changeCustomerIdentity(ctx, w, v, func(v *models.CustomerIdentityVerification) error {
			switch verification.CustomerOutcome(v.Subject) {
			case verification.CustomerVerified:
				v.Status, v.Verified = models.CustomerVerificationVerified, models.UnixOrZero{Timestamp: models.At(w.Now())}
			case verification.CustomerFailed:
				v.Status, v.Failed = models.CustomerVerificationFailed, models.UnixOrZero{Timestamp: models.At(w.Now())}
			}
			return nil
		})
	})
}
