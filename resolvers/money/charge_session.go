package money

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// ChargeSessions is the SDK's charge session family (docs/sandbox.md,
// "Resources from the SDK"): reads from the kit, Create and Update. A
// session needs the card processor, so production mode answers 503
// provider_not_configured.
type ChargeSessions struct {
	op.Reader[models.ChargeSession, ChargeSessionFilter]
	svc *Service
}

// ChargeSessionFilter narrows a list of charge sessions to a charge
// intent's.
type ChargeSessionFilter struct {
	ChargeIntent *string `query:"charge_intent_id" filter:"charge_intent_id,id"`
}

var chargeSessionTable = &op.Table[models.ChargeSession]{Resource: "charge_session"}

func newChargeSessions(s *Service) *ChargeSessions {
	return &ChargeSessions{Reader: op.Read[models.ChargeSession, ChargeSessionFilter](s.Kit, chargeSessionTable), svc: s}
}

// Create opens a charge session, for the charge intent named or none.
func (cs *ChargeSessions) Create(ctx context.Context, in *models.CreateChargeSessionInput) (*models.ChargeSession, error) {
	spec := op.Spec{Name: "charge_session.create", Allow: secretOnly, Params: in, Provider: "card processor",
		Check: in.Validate}
	return op.Write(ctx, cs.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.ChargeSession, error) {
		intent, err := sessionChargeIntent(ctx, w, in.ChargeIntentID)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		sess := &models.ChargeSession{ID: ids.New(now), Status: models.SessionOpen, ChargeIntentID: intent,
			Metadata: models.MergeMetadata(nil, in.Metadata), Created: models.At(now), Updated: models.At(now)}
		if _, err := w.Tx.Insert(sess).Exec(ctx); err != nil {
			return nil, err
		}
		raw, err := events.Render(sess)
		if err != nil {
			return nil, err
		}
		w.Emit(EventChargeSessionCreated, sess.ID, raw, nil)
		return sess, nil
	})
}

// Update completes or cancels an open session and merges its metadata;
// an update that changes nothing writes nothing and announces nothing.
func (cs *ChargeSessions) Update(ctx context.Context, id string, in *models.UpdateChargeSessionInput) (*models.ChargeSession, error) {
	spec := op.Spec{Name: "charge_session.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in},
		Provider: "card processor", Check: in.Validate}
	return op.Write(ctx, cs.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.ChargeSession, error) {
		sess, err := chargeSessionTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		before, err := events.Render(sess)
		if err != nil {
			return nil, err
		}
		if err := sessionChange("charge session", &sess.Status, &sess.Metadata, in.Status, in.Metadata); err != nil {
			return nil, err
		}
		prev, err := sessionPrevious(before, sess)
		if err != nil || prev == nil {
			return sess, err
		}
		sess.Updated = models.At(w.Now())
		if _, err := w.Tx.Update(sess).Column("status", "metadata", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		raw, err := events.Render(sess)
		if err != nil {
			return nil, err
		}
		w.Emit(EventChargeSessionUpdated, sess.ID, raw, prev)
		return sess, nil
	})
}
