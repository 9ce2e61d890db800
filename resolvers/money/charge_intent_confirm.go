package money

import (
	"context"

	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Confirm charges an intent waiting for confirmation, or one
// waiting for a payment method when the confirm names one (payment_method;
// the method must be the caller's, active, and the payer's or nobody's).
// The secret key, the intent's ci_ client secret, and a publishable key
// carrying the client_secret may confirm. Any other state is 422
// invalid_state: an intent is charged once, and a decline is final.
func (cis *ChargeIntents) Confirm(ctx context.Context, id string, in *models.ConfirmChargeIntentInput) (*models.ChargeIntent, error) {
	s := cis.svc
	spec := op.Spec{Name: "charge_intent.confirm", Allow: intentClients, Params: map[string]any{"id": id, "input": in}}
	return s.writeIntent(ctx, spec, func(ctx context.Context, w *op.W) (*models.ChargeIntent, error) {
		var f apierr.Fields
		pmID := in.Check(&f)
		if err := f.Err(); err != nil {
			return nil, err
		}
		uid, ok := ids.Parse(id)
		if !ok {
			return nil, apierr.NotFound("charge_intent", id)
		}
		if err := mayUseIntent(ctx, w.Tx, w.P, uid, in.ClientSecret, s.Clock.Now()); err != nil {
			return nil, err
		}
		ci, err := lockIntentIn(ctx, w, id, "confirmed", models.ChargeIntentRequiresConfirmation, models.ChargeIntentRequiresPaymentMethod)
		if err != nil {
			return nil, err
		}
		if pmID == nil && ci.PaymentMethodID == nil {
			return nil, apierr.FieldError("payment_method", "is required to confirm a charge intent without one")
		}
		if w.Tx.Scope().Livemode {
			return nil, errNoProvider
		}
		if pmID == nil {
			pmID = ci.PaymentMethodID
		}
		pm, err := intentMethod(ctx, w, ci, *pmID, "payment_method")
		if err != nil {
			return nil, err
		}
		if in.Shipping != nil {
			ci.Shipping = models.AddressFrom(in.Shipping, ci.Shipping, models.AddressShipping, ids.New(w.Now()), ci.Livemode)
		}
		return ci, s.chargeIntent(ctx, w, ci, pm)
	})
}

// CompleteThreeDSecure is the sandbox's stand-in for the
// cardholder finishing an intent's 3-D Secure challenge (POST
// /v1/test_helpers/charge_intents/{id}/complete_3d_secure), as for
// transfers: 4000000000003220 proceeds as an approved charge (captured, or
// requires_capture under manual authorization), 4000008400001629 fails
// with authentication_required. Only an intent in requires_3d_secure can
// complete (422 invalid_state).
func (cis *ChargeIntents) CompleteThreeDSecure(ctx context.Context, id string) (*models.ChargeIntent, error) {
	s := cis.svc
	spec := op.Spec{Name: "charge_intent.complete_3d_secure", Allow: secretOnly, Params: map[string]any{"id": id}}
	return s.writeIntent(ctx, spec, func(ctx context.Context, w *op.W) (*models.ChargeIntent, error) {
		ci, err := lockIntentIn(ctx, w, id, "completed with 3-D Secure", models.ChargeIntentRequires3DS)
		if err != nil {
			return nil, err
		}
		pm, err := intentMethod(ctx, w, ci, *ci.PaymentMethodID, "payment_method")
		if err != nil {
			return nil, err
		}
		ci.PaymentMethod = pm
		if !challengeSucceeds(pm) {
			return ci, s.declineIntent(ctx, w, ci, pm, processor.ChallengeDeclineCode)
		}
		return ci, s.approveIntent(ctx, w, ci, pm)
	})
}
