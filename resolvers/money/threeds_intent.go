package money

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/processor"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// ThreeDSChallengeTTL is how long an issued challenge waits for the
// cardholder; a resend starts it again. A lapsed challenge reads as
// failed and frees its card for a new verification.
const ThreeDSChallengeTTL = 15 * time.Minute

// threeDSCallers may create, read and resend 3-D Secure intents (spec doc
// 2 §4.10, §5.2): a browser or app holds only the publishable key.
var threeDSCallers = []auth.Kind{auth.SecretKey, auth.PublishableKey}

// errNoEligibleCard is the one answer for a payment method that does not
// exist (here: another merchant's, another mode's, a malformed id) and for
// one that cannot start a verification (not a card, not active, a
// consumed single-use credential, a verification already in progress).
// Its body names nothing of the request, so the two cannot be told apart
// and payment methods cannot be enumerated (spec doc 2 §4.10).
func errNoEligibleCard() error {
	return &apierr.Error{Status: http.StatusNotFound, Code: apierr.CodeResourceMissing,
		Message: "No payment method eligible for 3-D Secure verification was found", Param: "payment_method_id"}
}

// errNoAuthenticationProvider refuses production verifications: no card
// issuer's 3-D Secure server is reachable without a processor, and none
// ships (API-DECISIONS §1).
var errNoAuthenticationProvider = apierr.Unavailable(apierr.CodeProviderNotConfigured,
	"Production 3-D Secure verifications need a card processor, and none is configured", 0, nil)

// CreateThreeDSIntent starts a 3-D Secure verification of a card. The
// sandbox issuer answers by test card (processor.Authenticate): the
// challenge cards get an issued intent with its challenge_url, every other
// card is verified at once (frictionless). The card's row is locked and a
// unique index allows one issued intent per card, so of two concurrent
// creates one gets the intent and the other the same 404 as an unknown
// card.
func (s *Service) CreateThreeDSIntent(ctx context.Context, in *models.CreateThreeDSIntentInput) (*models.ThreeDSIntent, error) {
	spec := op.Spec{Name: "three_ds_intent.create", Allow: threeDSCallers, Params: in}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.ThreeDSIntent, error) {
		if err := in.Validate(); err != nil {
			return nil, err
		}
		if w.Tx.Scope().Livemode {
			return nil, errNoAuthenticationProvider
		}
		pmID, ok := ids.Parse(*in.PaymentMethodID)
		if !ok {
			return nil, errNoEligibleCard()
		}
		pm, err := lockVerifiableCard(ctx, w.Tx, pmID)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		if busy, err := challengeInProgress(ctx, w.Tx, pm.ID, now); err != nil || busy {
			if err == nil {
				err = errNoEligibleCard()
			}
			return nil, err
		}
		intent := &models.ThreeDSIntent{ID: ids.New(now), CustomerID: pm.CustomerID, PaymentMethodID: pm.ID,
			Created: models.At(now), Updated: models.At(now)}
		answer := processor.Authenticate(outcomeOf(pm))
		if answer.Challenge {
			token := auth.RandomString(32)
			intent.Status, intent.ChallengeToken = models.ThreeDSIssued, &token
			intent.ChallengeExpires = models.At(now.Add(ThreeDSChallengeTTL))
		} else {
			intent.Status, intent.Completed = models.ThreeDSVerified, models.At(now)
		}
		res, err := w.Tx.Insert(intent).
			On("CONFLICT (merchant_id, livemode, payment_method_id) WHERE status = 'issued' DO NOTHING").Exec(ctx)
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = errNoEligibleCard()
			}
			return nil, err
		}
		if intent.Status == models.ThreeDSVerified {
			if _, err := s.resolveWaiting(ctx, w, pm, true); err != nil {
				return nil, err
			}
		}
		intent.Derive(now)
		return intent, nil
	})
}

// lockVerifiableCard locks the payment method for a new verification, or
// answers the 404 that does not tell why.
func lockVerifiableCard(ctx context.Context, t *store.Tenant, id uuid.UUID) (*models.PaymentMethod, error) {
	pm := new(models.PaymentMethod)
	if err := t.Select(pm).Where("pm.id = ?", id).For("UPDATE").Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, errNoEligibleCard()
		}
		return nil, err
	}
	consumed := pm.SingleUse && pm.Card != nil && pm.Card.Wallet != nil && pm.Card.Wallet.Consumed
	if pm.Type != models.PaymentMethodCard || pm.Status != models.PaymentMethodActive || consumed {
		return nil, errNoEligibleCard()
	}
	return pm, nil
}

// challengeInProgress says whether the card has an issued intent still
// waiting; one whose challenge lapsed is recorded failed first (under the
// card's lock), which frees the card.
func challengeInProgress(ctx context.Context, t *store.Tenant, pmID uuid.UUID, now time.Time) (bool, error) {
	cur := new(models.ThreeDSIntent)
	err := t.Select(cur).Where("tds.payment_method_id = ?", pmID).Where("tds.status = ?", models.ThreeDSIssued).
		For("UPDATE").Scan(ctx)
	switch {
	case store.IsNoRows(err):
		return false, nil
	case err != nil:
		return false, err
	case !cur.Lapsed(now):
		return true, nil
	}
	// Recorded as it read since it lapsed (ThreeDSIntent.Derive).
	cur.Derive(now)
	cur.ChallengeExpires = models.At(time.Time{})
	_, err = t.Update(cur).Column("status", "completed", "challenge_token", "challenge_expires", "updated").
		WherePK().Exec(ctx)
	return false, err
}

// ResendThreeDSIntent issues an issued intent's challenge again: a new
// challenge_url, and the challenge waits ThreeDSChallengeTTL from now. An
// intent no longer waiting (verified, failed, lapsed) is 422 invalid_state.
func (s *Service) ResendThreeDSIntent(ctx context.Context, id string) (*models.ThreeDSIntent, error) {
	spec := op.Spec{Name: "three_ds_intent.resend", Allow: threeDSCallers, Params: map[string]any{"id": id}}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.ThreeDSIntent, error) {
		intent, err := selectThreeDSIntent(ctx, w.Tx, id, true)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		if intent.Derive(now); intent.Status != models.ThreeDSIssued {
			return nil, apierr.InvalidState("A 3-D Secure intent in status " + string(intent.Status) + " cannot be resent")
		}
		token := auth.RandomString(32)
		intent.ChallengeToken, intent.ChallengeExpires, intent.Updated = &token, models.At(now.Add(ThreeDSChallengeTTL)), models.At(now)
		if _, err := w.Tx.Update(intent).Column("challenge_token", "challenge_expires", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		intent.Derive(now)
		return intent, nil
	})
}

// GetThreeDSIntent reads one intent (polled for completion).
func (s *Service) GetThreeDSIntent(ctx context.Context, id string) (*models.ThreeDSIntent, error) {
	p, err := auth.Require(ctx, threeDSCallers...)
	if err != nil {
		return nil, err
	}
	intent, err := selectThreeDSIntent(ctx, s.DB.Tenant(p.Scope), id, false)
	if err != nil {
		return nil, err
	}
	intent.Derive(s.Clock.Now())
	return intent, nil
}

// ThreeDSIntentsByIDs reads many intents in one statement.
func (s *Service) ThreeDSIntentsByIDs(ctx context.Context, idList []string) ([]*models.ThreeDSIntent, []error) {
	p, err := auth.Require(ctx, threeDSCallers...)
	return op.ByIDs(idList, "three_ds_intent", err, nil, func(want []uuid.UUID) (map[uuid.UUID]*models.ThreeDSIntent, error) {
		var rows []*models.ThreeDSIntent
		if err := s.DB.Tenant(p.Scope).Select(&rows).Where("tds.id IN (?)", bun.In(want)).Scan(ctx); err != nil {
			return nil, err
		}
		now := s.Clock.Now()
		found := make(map[uuid.UUID]*models.ThreeDSIntent, len(rows))
		for _, r := range rows {
			r.Derive(now)
			found[r.ID] = r
		}
		return found, nil
	})
}

func selectThreeDSIntent(ctx context.Context, t *store.Tenant, id string, lock bool) (*models.ThreeDSIntent, error) {
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, apierr.NotFound("three_ds_intent", id)
	}
	intent := new(models.ThreeDSIntent)
	q := t.Select(intent).Where("tds.id = ?", uid)
	if lock {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, apierr.NotFound("three_ds_intent", id)
		}
		return nil, err
	}
	return intent, nil
}

// outcomeOf is the sandbox outcome of a payment method ("" for an
// ordinary card).
func outcomeOf(pm *models.PaymentMethod) string {
	if pm.SandboxOutcome == nil {
		return ""
	}
	return *pm.SandboxOutcome
}
