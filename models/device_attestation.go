package models

import (
	"encoding/base64"
	"strings"
	"unicode"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type deviceAttestationKind struct{}

func (deviceAttestationKind) objectName() string { return "device_attestation" }

// DeviceAttestation is the real service's SDK's device attestation
// (frame-node's DeviceAttestationAPI, docs/sandbox.md): a challenge the
// server issued to an app and, once attested, the key it attested. The
// SDK reads challenge from the challenge's answer and status and key_id
// from the attestation's; the other members are the house's.
type DeviceAttestation struct {
	bun.BaseModel `bun:"table:device_attestations,alias:da"`
	Tenant

	ID        uuid.UUID                     `bun:"id,pk,type:uuid" json:"id"`
	Object    Object[deviceAttestationKind] `bun:"-" json:"object"`
	Challenge string                        `bun:"challenge" json:"challenge"`
	Status    DeviceAttestationStatus       `bun:"status" json:"status"`
	KeyID     *string                       `bun:"key_id" json:"key_id"`
	ExpiresAt wire.Timestamp                `bun:"expires_at" json:"expires_at"`
	Created   wire.Timestamp                `bun:"created" json:"created"`
	Updated   wire.Timestamp                `bun:"updated" json:"updated"`
}

// Bounds of an attestation's members.
const (
	maxKeyIDLength = 256
	// maxAttestationObjectLength bounds the encoded attestation (an App
	// Attest object is a few kilobytes).
	maxAttestationObjectLength = 64 << 10
)

// AttestDeviceInput is the body of POST
// /v1/client/device_attestation/attest (the SDK's AttestRequest).
type AttestDeviceInput struct {
	KeyID             *string `json:"key_id"`
	AttestationObject *string `json:"attestation_object"`
	Challenge         *string `json:"challenge"`
}

// Validate checks the input, every problem at once: key_id printable text,
// attestation_object base64 (standard or URL-safe, padded or not),
// challenge present (whether it is one the server issued is the
// operation's to tell).
func (in *AttestDeviceInput) Validate() error {
	var f apierr.Fields
	if checkText(&f, "key_id", in.KeyID, maxKeyIDLength, true) && in.KeyID != nil &&
		strings.IndexFunc(*in.KeyID, func(r rune) bool { return !unicode.IsPrint(r) || unicode.IsSpace(r) }) >= 0 {
		f.Add("key_id", "must not contain spaces or unprintable characters")
	}
	if checkText(&f, "attestation_object", in.AttestationObject, maxAttestationObjectLength, true) &&
		in.AttestationObject != nil {
		if _, ok := in.Attestation(); !ok {
			f.Add("attestation_object", "must be base64")
		}
	}
	checkText(&f, "challenge", in.Challenge, 128, true)
	return f.Err()
}

// Attestation is the decoded attestation object (false when it is not
// base64).
func (in *AttestDeviceInput) Attestation() ([]byte, bool) {
	s := strings.TrimSpace(*in.AttestationObject)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding,
		base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) > 0 {
			return b, true
		}
	}
	return nil, false
}
