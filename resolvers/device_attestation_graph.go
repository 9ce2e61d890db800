package resolvers

import (
	"github.com/frame-oss/payments-server/models"
)

// Device attestations are nodes loaded in batches.
var deviceAttestationLoader = nodeLoader("deviceAttestation", func(r *Resolver) batch[*models.DeviceAttestation] {
	return r.Svc.Payments.DeviceAttestations.ByIDs
})
