package money

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// SDKSessions is one of the SDK's two sessions around a charge intent, the
// charge session and the Sonar session (docs/sandbox.md, "Resources from
// the SDK"): reads from the kit, Create and Update. The two differ only in
// their kind (table, names, provider, events), so the family is written
// once and each session is an instance of it (ChargeSessions,
// SonarSessions, below). A session needs its provider, so production mode answers
// 503 provider_not_configured. C and U are the session's own create and
// update inputs, which embed the shared models.SDKSessionCreate and
// models.SDKSessionUpdate.
type SDKSessions[M any, P sdkSessionRow[M], C sdkSessionInput[models.SDKSessionCreate],
	U sdkSessionInput[models.SDKSessionUpdate]] struct {
	op.Reader[M, SDKSessionFilter]
	kind *sdkSessionKind[M, P]
	svc  *Service
}

// sdkSessionInput is a session's own input, reaching the shared part it
// embeds.
type sdkSessionInput[F any] interface {
	Session() *F
}

// SDKSessionFilter narrows a list of either SDK session to a charge
// intent's.
type SDKSessionFilter struct {
	ChargeIntent *string `query:"charge_intent_id" filter:"charge_intent_id,id"`
}

func newSDKSessions[M any, P sdkSessionRow[M], C sdkSessionInput[models.SDKSessionCreate],
	U sdkSessionInput[models.SDKSessionUpdate]](s *Service, kind *sdkSessionKind[M, P]) *SDKSessions[M, P, C, U] {
	return &SDKSessions[M, P, C, U]{Reader: op.Read[M, SDKSessionFilter](s.Kit, kind.table), kind: kind, svc: s}
}

// Create opens a session, for the charge intent named or none.
func (ss *SDKSessions[M, P, C, U]) Create(ctx context.Context, in C) (*M, error) {
	return ss.kind.create(ctx, ss.svc.Kit, in, in.Session())
}

// Update completes or cancels an open session and merges its metadata;
// an update that changes nothing writes nothing and announces nothing.
func (ss *SDKSessions[M, P, C, U]) Update(ctx context.Context, id string, in U) (*M, error) {
	return ss.kind.update(ctx, ss.svc.Kit, id, map[string]any{"id": id, "input": in}, in.Session())
}

// ChargeSessions is the SDK's session around collecting a payment; it
// needs the card processor.
type ChargeSessions = SDKSessions[models.ChargeSession, *models.ChargeSession,
	*models.CreateChargeSessionInput, *models.UpdateChargeSessionInput]

// SonarSessions is the SDK's device and location session; it needs the
// Sonar provider.
type SonarSessions = SDKSessions[models.SonarSession, *models.SonarSession,
	*models.CreateSonarSessionInput, *models.UpdateSonarSessionInput]

var (
	chargeSessionKind = &sdkSessionKind[models.ChargeSession, *models.ChargeSession]{resource: "charge_session",
		noun: "charge session", provider: "card processor", table: &op.Table[models.ChargeSession]{Resource: "charge_session"},
		created: EventChargeSessionCreated, updated: EventChargeSessionUpdated}
	sonarSessionKind = &sdkSessionKind[models.SonarSession, *models.SonarSession]{resource: "sonar_session",
		noun: "Sonar session", provider: "Sonar", table: &op.Table[models.SonarSession]{Resource: "sonar_session"},
		created: EventSonarSessionCreated, updated: EventSonarSessionUpdated}
)

func newChargeSessions(s *Service) *ChargeSessions {
	return newSDKSessions[models.ChargeSession, *models.ChargeSession, *models.CreateChargeSessionInput,
		*models.UpdateChargeSessionInput](s, chargeSessionKind)
}

func newSonarSessions(s *Service) *SonarSessions {
	return newSDKSessions[models.SonarSession, *models.SonarSession, *models.CreateSonarSessionInput,
		*models.UpdateSonarSessionInput](s, sonarSessionKind)
}
