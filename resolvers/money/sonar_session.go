package money

import (
	"context"

	"github.com/google/uuid"

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

var sonarSessionKind = &sdkSessionKind[models.SonarSession, *models.SonarSession]{resource: "sonar_session", noun: "Sonar session",
	provider: "Sonar", table: sonarSessionTable,
	created: EventSonarSessionCreated, updated: EventSonarSessionUpdated,
	newRow: func(id uuid.UUID, s models.SDKSessionState) *models.SonarSession {
		return &models.SonarSession{ID: id, SDKSessionState: s}
	},
	state: func(row *models.SonarSession) *models.SDKSessionState { return &row.SDKSessionState }}

func newSonarSessions(s *Service) *SonarSessions {
	return &SonarSessions{Reader: op.Read[models.SonarSession, SonarSessionFilter](s.Kit, sonarSessionTable), svc: s}
}

// Create opens a Sonar session, for the charge intent named or none.
func (ss *SonarSessions) Create(ctx context.Context, in *models.CreateSonarSessionInput) (*models.SonarSession, error) {
	return sonarSessionKind.create(ctx, ss.svc.Kit, in, in.Validate, in.ChargeIntentID, in.VisitorID, in.Metadata)
}

// Update completes or cancels an open session and merges its metadata;
// an update that changes nothing writes nothing and announces nothing.
func (ss *SonarSessions) Update(ctx context.Context, id string, in *models.UpdateSonarSessionInput) (*models.SonarSession, error) {
	return sonarSessionKind.update(ctx, ss.svc.Kit, id, map[string]any{"id": id, "input": in}, in.Validate,
		in.Status, in.VisitorID, in.Metadata)
}
