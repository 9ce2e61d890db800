package money

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// A card's 3-D Secure challenge is one thing however it was started: a
// charge that waits in requires_3d_secure, a 3-D Secure intent the SDK
// created for the card, or both. When the cardholder answers it (in the
// sandbox: either test helper), the card's issued intent concludes and
// every transfer waiting for the card resolves with it: verified, the
// charge proceeds (captured, or requires_capture under manual
// authorization); failed, the charge is recorded failed with
// authentication_required. GET /v2/transfers/{id} then shows the final
// status. Locks are taken card first, then the intent, then the
// transfers, in every path.

// CompleteThreeDSecure is the sandbox's stand-in for the cardholder
// finishing the challenge a transfer waits for (POST
// /v1/test_helpers/transfers/{id}/complete_3d_secure): the challenge
// resolves as the test card says — 4000000000003220 succeeds,
// 4000008400001629 declines. Only a transfer in requires_3d_secure can
// complete (422 invalid_state).
func (ts *Transfers) CompleteThreeDSecure(ctx context.Context, id string) (*models.Transfer, error) {
	s := ts.svc
	spec := op.Spec{Name: "transfer.complete_3d_secure", Allow: secretOnly, Params: map[string]any{"id": id}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.Transfer, error) {
		t, err := transferTable.Find(ctx, w, id)
		if err != nil {
			return nil, err
		}
		if t.Status != models.TransferRequires3DS {
			return nil, stateError(t, "completed with 3-D Secure")
		}
		pm, err := chargeableMethod(ctx, w, *t.SourcePaymentMethodID, t.AccountID)
		if err != nil {
			return nil, err
		}
		succeeds := challengeSucceeds(pm)
		if _, err := s.concludeIssuedIntent(ctx, w, pm.ID, succeeds); err != nil {
			return nil, err
		}
		resolved, err := s.resolveWaiting(ctx, w, pm, succeeds)
		if err != nil {
			return nil, err
		}
		if done := resolved[t.ID]; done != nil {
			return done, nil
		}
		// Another request resolved it between the read and the card's lock.
		t, err = transferTable.Find(ctx, w, id)
		if err != nil {
			return nil, err
		}
		return nil, stateError(t, "completed with 3-D Secure")
	})
}

// Complete is the sandbox's stand-in for the cardholder
// answering an issued intent's challenge (POST
// /v1/test_helpers/3ds/intents/{id}/complete): verified for
// 4000000000003220, failed for 4000008400001629, and the card's waiting
// transfers resolve with it. An intent no longer issued (or whose
// challenge lapsed) is 422 invalid_state.
func (ts *ThreeDSIntents) Complete(ctx context.Context, id string) (*models.ThreeDSIntent, error) {
	s := ts.svc
	spec := op.Spec{Name: "three_ds_intent.complete", Allow: secretOnly, Params: map[string]any{"id": id}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.ThreeDSIntent, error) {
		intent, err := threeDSTable.Find(ctx, w, id)
		if err != nil {
			return nil, err
		}
		pm := new(models.PaymentMethod)
		if err := w.Tx.Select(pm).Where("pm.id = ?", intent.PaymentMethodID).For("UPDATE").Scan(ctx); err != nil {
			return nil, err
		}
		if intent, err = threeDSTable.Lock(ctx, w, id, op.LockUpdate); err != nil {
			return nil, err
		}
		now := w.Now()
		if intent.Derive(now); intent.Status != models.ThreeDSIssued {
			return nil, apierr.InvalidState("A 3-D Secure intent in status " + string(intent.Status) + " cannot be completed")
		}
		succeeds := challengeSucceeds(pm)
		if err := concludeIntent(ctx, w, intent, succeeds); err != nil {
			return nil, err
		}
		if _, err := s.resolveWaiting(ctx, w, pm, succeeds); err != nil {
			return nil, err
		}
		intent.Derive(now)
		return intent, nil
	})
}

// concludeIssuedIntent concludes the card's issued intent, if one waits,
// under the card's lock (held by the caller).
func (s *Service) concludeIssuedIntent(ctx context.Context, w *op.W, pmID uuid.UUID, succeeds bool) (*models.ThreeDSIntent, error) {
	intent := new(models.ThreeDSIntent)
	err := w.Tx.Select(intent).Where("tds.payment_method_id = ?", pmID).Where("tds.status = ?", models.ThreeDSIssued).
		For("UPDATE").Scan(ctx)
	if err != nil || intent.Lapsed(w.Now()) {
		if store.IsNoRows(err) {
			err = nil
		}
		return nil, err
	}
	return intent, concludeIntent(ctx, w, intent, succeeds)
}

// concludeIntent records the answer to an issued intent's challenge.
func concludeIntent(ctx context.Context, w *op.W, intent *models.ThreeDSIntent, succeeds bool) error {
	now := models.At(w.Now())
	intent.Status = models.ThreeDSFailed
	if succeeds {
		intent.Status = models.ThreeDSVerified
	}
	intent.Completed, intent.Updated, intent.ChallengeToken, intent.ChallengeExpires = now, now, nil, models.At(time.Time{})
	_, err := w.Tx.Update(intent).Column("status", "completed", "challenge_token", "challenge_expires", "updated").
		WherePK().Exec(ctx)
	return err
}

// resolveWaiting carries on every transfer waiting for pm's challenge, in
// id order, and returns them by id. pm is locked by the caller.
func (s *Service) resolveWaiting(ctx context.Context, w *op.W, pm *models.PaymentMethod, succeeds bool) (map[uuid.UUID]*models.Transfer, error) {
	var waiting []*models.Transfer
	if err := transferTable.Select(w.Tx, nil, &waiting).Where("tr.source_payment_method_id = ?", pm.ID).
		Where("tr.status = ?", models.TransferRequires3DS).OrderExpr("tr.id").For("UPDATE OF tr").Scan(ctx); err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]*models.Transfer, len(waiting))
	for _, t := range waiting {
		t.SourcePaymentMethod = pm
		if err := s.conclude3DS(ctx, w, t, pm, succeeds); err != nil {
			return nil, err
		}
		out[t.ID] = t
	}
	return out, nil
}

// conclude3DS carries a transfer on after its challenge: a failed
// challenge declines it; a passed one still answers to the merchant's
// block lists (a card or e-mail blocked while the challenge waited), then
// proceeds as an approved charge.
func (s *Service) conclude3DS(ctx context.Context, w *op.W, t *models.Transfer, pm *models.PaymentMethod, succeeds bool) error {
	if !succeeds {
		return s.fail(ctx, w, t, pm, processor.ChallengeDeclineCode)
	}
	code, err := Screen(ctx, w, pm, &t.AccountID, nil)
	if err != nil {
		return err
	}
	if code != "" {
		return s.fail(ctx, w, t, pm, code)
	}
	return s.approve(ctx, w, t, pm)
}
