package money

import (
	"context"

	"github.com/google/uuid"

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

var chargeSessionKind = &sdkSessionKind[models.ChargeSession, *models.ChargeSession]{resource: "charge_session", noun: "charge session",
	provider: "card processor", table: chargeSessionTable,
	created: EventChargeSessionCreated, updated: EventChargeSessionUpdated,
	newRow: func(id uuid.UUID, s models.SDKSessionState) *models.ChargeSession {
		return &models.ChargeSession{ID: id, SDKSessionState: s}
	},
	state: func(row *models.ChargeSession) *models.SDKSessionState { return &row.SDKSessionState }}

func newChargeSessions(s *Service) *ChargeSessions {
	return &ChargeSessions{Reader: op.Read[models.ChargeSession, ChargeSessionFilter](s.Kit, chargeSessionTable), svc: s}
}

// Create opens a charge session, for the charge intent named or none.
func (cs *ChargeSessions) Create(ctx context.Context, in *models.CreateChargeSessionInput) (*models.ChargeSession, error) {
	return chargeSessionKind.create(ctx, cs.svc.Kit, in, in.Validate, in.ChargeIntentID, in.VisitorID, in.Metadata)
}

// Update completes or cancels an open session and merges its metadata;
// an update that changes nothing writes nothing and announces nothing.
func (cs *ChargeSessions) Update(ctx context.Context, id string, in *models.UpdateChargeSessionInput) (*models.ChargeSession, error) {
	return chargeSessionKind.update(ctx, cs.svc.Kit, id, map[string]any{"id": id, "input": in}, in.Validate,
		in.Status, in.VisitorID, in.Metadata)
}
