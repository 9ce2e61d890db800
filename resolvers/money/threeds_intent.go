package money

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"

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

// ThreeDSIntents is the 3-D Secure intent family of the area: reads from
// the kit (a publishable key reads too: the SDK polls an intent), Create,
// Resend and Complete (transfer_3ds.go).
type ThreeDSIntents struct {
	op.Reader[models.ThreeDSIntent, op.NoFilter]
	svc *Service
}

var threeDSTable = &op.Table[models.ThreeDSIntent]{Resource: "three_ds_intent", Allow: threeDSCallers,
	Derive: func(i *models.ThreeDSIntent, now time.Time) { i.Derive(now) }}

func newThreeDSIntents(s *Service) *ThreeDSIntents {
	return &ThreeDSIntents{Reader: op.Read[models.ThreeDSIntent, op.NoFilter](s.Kit, threeDSTable), svc: s}
}

// Create starts a 3-D Secure verification of a card. The
// sandbox issuer answers by test card (processor.Authenticate): the
// challenge cards get an issued intent with its challenge_url, every other
// card is verified at once (frictionless). The card's row is locked and a
// unique index allows one issued intent per card, so of two concurrent
// creates one gets the intent and the other the same 404 as an unknown
// card.
func (ts *ThreeDSIntents) Create(ctx context.Context, in *models.CreateThreeDSIntentInput) (*models.ThreeDSIntent, error) {
	spec := op.Spec{Name: "three_ds_intent.create", Allow: threeDSCallers, Params: in,
		Provider: "card processor", Check: in.Validate}
	return op.Write(ctx, ts.Kit, spec, func(ctx context.Context, w *op.W) (*models.ThreeDSIntent, error) {
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
			if _, err := ts.svc.resolveWaiting(ctx, w, pm, true); err != nil {
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

// Resend issues an issued intent's challenge again: a new
// challenge_url, and the challenge waits ThreeDSChallengeTTL from now. An
// intent no longer waiting (verified, failed, lapsed) is 422 invalid_state.
func (ts *ThreeDSIntents) Resend(ctx context.Context, id string) (*models.ThreeDSIntent, error) {
	spec := op.Spec{Name: "three_ds_intent.resend", Allow: threeDSCallers, Params: map[string]any{"id": id}}
	return op.Write(ctx, ts.Kit, spec, func(ctx context.Context, w *op.W) (*models.ThreeDSIntent, error) {
		intent, err := threeDSTable.Lock(ctx, w, id, op.LockUpdate)
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

// outcomeOf is the sandbox outcome of a payment method ("" for an
// ordinary card).
func outcomeOf(pm *models.PaymentMethod) string {
	if pm.SandboxOutcome == nil {
		return ""
	}
	return *pm.SandboxOutcome
}
