package rest

import (
	"context"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/payments"
)

// deviceAttestationRoutes mounts the real service's SDK's device
// attestation (docs/sandbox.md, "Resources from the SDK"): a challenge
// (201: it issues one), the attestation against it (200: it judges), and
// reading one back by id.
func deviceAttestationRoutes(r routes, svc *payments.DeviceAttestations) {
	r.Post("/v1/client/device_attestation/challenge", create(func(ctx context.Context, _ *struct{}) (*models.DeviceAttestation, error) {
		return svc.Challenge(ctx)
	}))
	r.Post("/v1/client/device_attestation/attest", call(svc.Attest))
	r.Get("/v1/client/device_attestation/{id}", get(svc.Get))
}
