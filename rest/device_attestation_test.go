package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers/payments"
)

var deviceAttestationKeys = sorted("id", "object", "challenge", "status", "key_id", "expires_at", "created", "updated",
	"livemode")

const attestPath = "/v1/client/device_attestation/attest"

func challenge(t *testing.T, c *testenv.Client) map[string]any {
	t.Helper()
	r := c.Post("/v1/client/device_attestation/challenge", nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

// An app (the publishable key) asks for a challenge and attests a key
// against it, once; the sandbox verifies every attestation but its
// rejected one.
func TestDeviceAttestation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := challenge(t, f.pk)
	require.Equal(t, deviceAttestationKeys, keys(c))
	require.Equal(t, "device_attestation", c["object"])
	require.Equal(t, "pending", c["status"])
	require.Regexp(t, `^dac_[0-9A-Za-z]{40}$`, c["challenge"])
	require.Equal(t, float64(testenv.Start.Add(payments.DeviceAttestationTTL).Unix()), c["expires_at"])

	r := f.pk.Post(attestPath, map[string]any{"key_id": "key-1", "attestation_object": "bzFhdHRlc3Q=", "challenge": c["challenge"]})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	a := r.JSON()
	require.Equal(t, "verified", a["status"])
	require.Equal(t, "key-1", a["key_id"])
	require.Equal(t, id(c), id(a))
	require.Equal(t, a, f.sk.Get("/v1/client/device_attestation/"+id(c)).JSON())

	// A challenge is attested once.
	errs := requireValidation(t, f.pk.Post(attestPath, map[string]any{"key_id": "key-1", "attestation_object": "bzFhdHRlc3Q=",
		"challenge": c["challenge"]}), "challenge")
	requireProblem(t, errs, "challenge", "has already been attested: ask for a new one")

	// The sandbox's rejected attestation (base64 of "rejected").
	c = challenge(t, f.pk)
	r = f.pk.Post(attestPath, map[string]any{"key_id": "key-2", "attestation_object": "cmVqZWN0ZWQ", "challenge": c["challenge"]})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "rejected", r.JSON()["status"])

	// Expired, unknown or another mode's challenge; malformed input.
	c = challenge(t, f.pk)
	f.env.Clock.Advance(payments.DeviceAttestationTTL + time.Second)
	requireValidation(t, f.pk.Post(attestPath, map[string]any{"key_id": "k", "attestation_object": "bzE=",
		"challenge": c["challenge"]}), "challenge")
	requireValidation(t, f.pk.Post(attestPath, map[string]any{"key_id": "k", "attestation_object": "bzE=",
		"challenge": "dac_unknown"}), "challenge")
	errs = requireValidation(t, f.pk.Post(attestPath, map[string]any{"key_id": "a key", "attestation_object": "not base64!"}),
		"key_id", "attestation_object", "challenge")
	requireProblem(t, errs, "attestation_object", "must be base64")

	// Production has no attestation service; reading back takes the secret key.
	requireError(t, f.live.Post("/v1/client/device_attestation/challenge", nil), http.StatusServiceUnavailable,
		"provider_not_configured", "")
	requireError(t, f.live.Post(attestPath, map[string]any{"key_id": "k", "attestation_object": "bzE=", "challenge": "x"}),
		http.StatusServiceUnavailable, "provider_not_configured", "")
	requireError(t, f.pk.Get("/v1/client/device_attestation/"+id(c)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.live.Get("/v1/client/device_attestation/"+id(c)), http.StatusNotFound, "resource_missing", "id")
}
