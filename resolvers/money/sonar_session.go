package money

import (
	"context"

	"github.com/frame-oss/payments-server/internal/platform/events"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// SonarSessions is the SDK's Sonar (device and location) session family
// (docs/sandbox.md, "Resources from the SDK"): reads from the kit, Create
// and Update. A session needs the Sonar provider, so production mode
// answers 503 provider_not_configured.
type SonarSessions struct {
	op.Reader[models.SonarSession, SonarSessionFilter]
	svc *Service
}

// SonarSessionFilter narrows a list of Sonar sessions to a charge
// intent's.
type SonarSessionFilter struct {
	ChargeIntent *string `query:"charge_intent_id" filter:"charge_intent_id,id"`
}

var sonarSessionTable = &op.Table[models.SonarSession]{Resource: "sonar_session"}

func newSonarSessions(s *Service) *SonarSessions {
	return &SonarSessions{Reader: op.Read[models.SonarSession, SonarSessionFilter](s.Kit, sonarSessionTable), svc: s}
}

// Create opens a Sonar session, for the charge intent named or none.
func (ss *SonarSessions) Create(ctx context.Context, in *models.CreateSonarSessionInput) (*models.SonarSession, error) {
	spec := op.Spec{Name: "sonar_session.create", Allow: secretOnly, Params: in, Provider: "Sonar",
		Check: in.Validate}
	return op.Write(ctx, ss.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.SonarSession, error) {
		intent, err := sessionChargeIntent(ctx, w, in.ChargeIntentID)
		if err != nil {
			return nil, err
		}
		now := w.Now()
		sess := &models.SonarSession{ID: ids.New(now), Status: models.SessionOpen, ChargeIntentID: intent,
			Metadata: models.MergeMetadata(nil, in.Metadata), Created: models.At(now), Updated: models.At(now)}
		if _, err := w.Tx.Insert(sess).Exec(ctx); err != nil {
			return nil, err
		}
		raw, err := events.Render(sess)
		if err != nil {
			return nil, err
		}
		w.Emit(EventSonarSessionCreated, sess.ID, raw, nil)
		return sess, nil
	})
}

// Update completes or cancels an open session and merges its metadata;
// an update that changes nothing writes nothing and announces nothing.
func (ss *SonarSessions) Update(ctx context.Context, id string, in *models.UpdateSonarSessionInput) (*models.SonarSession, error) {
	spec := op.Spec{Name: "sonar_session.update", Allow: secretOnly, Params: map[string]any{"id": id, "input": in},
		Provider: "Sonar", Check: in.Validate}
	return op.Write(ctx, ss.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.SonarSession, error) {
		sess, err := sonarSessionTable.Lock(ctx, w, id, op.LockUpdate)
		if err != nil {
			return nil, err
		}
		before, err := events.Render(sess)
		if err != nil {
			return nil, err
		}
		if err := sessionChange("Sonar session", &sess.Status, &sess.Metadata, in.Status, in.Metadata); err != nil {
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
		w.Emit(EventSonarSessionUpdated, sess.ID, raw, prev)
		return sess, nil
	})
}
