package accounts

import (
	"context"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// A customer's onboarding session (the SDK's OnboardingAPI create with
// customer_id; the spec describes account sessions only) takes a payer
// through verifying who they are and adding a payment method
// (models.CustomerOnboardingSteps). It follows the account's rules: the
// secret key opens it, a customer has one active session at a time (a new
// one expires the previous at once, serialized by the customer's row lock
// and kept by a unique index), it lives 30 minutes, and its client secret
// (onb_sess_…, derived as an account session's) is a credential of its
// own kind that reads its own session and nothing else. Like an account's
// session, opening one announces no event.

// createForCustomer opens the customer's session.
func (ob *Onboarding) createForCustomer(ctx context.Context, in *models.CreateOnboardingSessionInput) (*models.OnboardingSession, error) {
	spec := op.Spec{Name: "onboarding_session.create", Allow: []auth.Kind{auth.SecretKey}, Params: in,
		Check: in.ValidateSDK}
	return op.Write(ctx, ob.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.OnboardingSession, error) {
		customerID, ok := ids.Parse(*in.CustomerID)
		if !ok {
			return nil, customerMissing(*in.CustomerID)
		}
		if err := lockCustomer(ctx, w, customerID); err != nil {
			return nil, err
		}
		now := w.Now()
		var previous []uuid.UUID
		if err := w.Tx.Select((*models.OnboardingSession)(nil)).Column("os.id").Where("os.customer_id = ?", customerID).
			Where("os.status = 'active'").Scan(ctx, &previous); err != nil {
			return nil, err
		}
		for _, id := range previous {
			if err := expireSession(ctx, w, &models.OnboardingSession{Tenant: models.Tenant{MerchantID: w.P.Scope.MerchantID,
				Livemode: w.P.Scope.Livemode}, ID: id, CustomerID: &customerID}); err != nil {
				return nil, err
			}
		}
		steps := in.Steps
		if steps == nil {
			steps = models.CustomerOnboardingSteps
		}
		sess := newSession(in, steps, now)
		sess.CustomerID = &customerID
		if _, err := w.Tx.Insert(sess).Exec(ctx); err != nil {
			return nil, err
		}
		secret, err := auth.IssueDerivedSessionSecret(ctx, w.Tx, auth.CustomerOnboardingSession, sess.ID, uuid.Nil, now,
			OnboardingSessionTTL, ob.deriveOnboardingSecret)
		if err != nil {
			return nil, err
		}
		sess.ClientSecret = &secret
		return sess, nil
	})
}

// lockCustomer locks the caller's customer id (not deleted) against other
// session writes of that customer: 404 on customer_id when there is no
// such customer.
func lockCustomer(ctx context.Context, w *op.W, id uuid.UUID) error {
	var found uuid.UUID
	err := w.Tx.Select((*models.Customer)(nil)).Column("cu.id").Where("cu.id = ?", id).Where("cu.deleted IS NULL").
		For("NO KEY UPDATE OF cu").Scan(ctx, &found)
	if store.IsNoRows(err) {
		return customerMissing(id.String())
	}
	return err
}

func customerMissing(id string) error {
	e := apierr.NotFound("customer", id)
	e.Param = "customer_id"
	return e
}
