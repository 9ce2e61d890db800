package payments

import (
	"bytes"
	"context"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// DeviceAttestations is the SDK's device attestation (docs/sandbox.md,
// "Resources from the SDK"): an app asks for a challenge, then attests a
// key of its own against it, with the publishable key it holds. Judging an
// attestation takes the platform's attestation service (Apple App Attest,
// Play Integrity), so production mode answers 503
// provider_not_configured; the sandbox judges by a fixed rule.
type DeviceAttestations struct {
	op.Reader[models.DeviceAttestation, struct{}]
	svc *Service
}

// DeviceAttestationTTL is how long a challenge may be attested against.
const DeviceAttestationTTL = 5 * time.Minute

// SandboxRejectedAttestation is the attestation the sandbox rejects
// (attestation_object is its base64, "cmVqZWN0ZWQ="); every other one is
// verified.
const SandboxRejectedAttestation = "rejected"

// deviceAttestationProvider names what production mode lacks.
const deviceAttestationProvider = "device attestation"

// deviceAttestationCallers may ask for a challenge and attest: an app
// holds the publishable key.
var deviceAttestationCallers = []auth.Kind{auth.SecretKey, auth.PublishableKey}

// deviceAttestationTable reads attestations; reading one back (GraphQL,
// REST by id) takes the secret key.
var deviceAttestationTable = &op.Table[models.DeviceAttestation]{Resource: "device_attestation"}

func newDeviceAttestations(s *Service) *DeviceAttestations {
	return &DeviceAttestations{Reader: op.Read[models.DeviceAttestation, struct{}](s.Kit, deviceAttestationTable), svc: s}
}

// Challenge issues a challenge, a random nonce, pending until attested or
// expired.
func (da *DeviceAttestations) Challenge(ctx context.Context) (*models.DeviceAttestation, error) {
	spec := op.Spec{Name: "device_attestation.challenge", Allow: deviceAttestationCallers,
		Provider: deviceAttestationProvider, Params: struct{}{}}
	return op.Write(ctx, da.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.DeviceAttestation, error) {
		now := w.Now()
		a := &models.DeviceAttestation{ID: ids.New(now), Challenge: "dac_" + auth.RandomString(40),
			Status: models.DeviceAttestationPending, ExpiresAt: models.At(now.Add(DeviceAttestationTTL)),
			Created: models.At(now), Updated: models.At(now)}
		if _, err := w.Tx.Insert(a).Exec(ctx); err != nil {
			return nil, err
		}
		return a, nil
	})
}

// Attest judges an attestation of key_id against a challenge this server
// issued to the caller's merchant and mode: once per challenge, before it
// expires (422 on challenge otherwise). The sandbox verifies every
// attestation but SandboxRejectedAttestation, which it rejects; either
// way the challenge is used.
func (da *DeviceAttestations) Attest(ctx context.Context, in *models.AttestDeviceInput) (*models.DeviceAttestation, error) {
	spec := op.Spec{Name: "device_attestation.attest", Allow: deviceAttestationCallers,
		Provider: deviceAttestationProvider, Params: in, Check: in.Validate}
	return op.Write(ctx, da.svc.Kit, spec, func(ctx context.Context, w *op.W) (*models.DeviceAttestation, error) {
		a := new(models.DeviceAttestation)
		err := deviceAttestationTable.Select(w.Tx, nil, a).Where("da.challenge = ?", *in.Challenge).
			For("UPDATE").Scan(ctx)
		if store.IsNoRows(err) {
			return nil, apierr.FieldError("challenge", "is not a challenge this server issued: ask for one first")
		}
		if err != nil {
			return nil, err
		}
		now := w.Now()
		switch {
		case a.Status != models.DeviceAttestationPending:
			return nil, apierr.FieldError("challenge", "has already been attested: ask for a new one")
		case !now.Before(a.ExpiresAt.Time):
			return nil, apierr.FieldError("challenge", "has expired: ask for a new one")
		}
		a.Status = models.DeviceAttestationVerified
		if object, _ := in.Attestation(); bytes.Equal(object, []byte(SandboxRejectedAttestation)) {
			a.Status = models.DeviceAttestationRejected
		}
		a.KeyID, a.Updated = in.KeyID, models.At(now)
		if _, err := w.Tx.Update(a).Column("status", "key_id", "updated").WherePK().Exec(ctx); err != nil {
			return nil, err
		}
		return a, nil
	})
}
