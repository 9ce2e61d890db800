package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Device attestation through GraphQL: the REST rules (the publishable key
// asks and attests, the secret key reads back), node refetch.
func TestDeviceAttestationGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := gql(t, f.pk, `mutation { createDeviceAttestationChallenge { id challenge status keyId livemode } }`, nil)
	c := obj(g.Data["createDeviceAttestationChallenge"])
	require.Equal(t, "PENDING", c["status"])
	require.Nil(t, c["keyId"])

	g = gql(t, f.pk, `mutation($c: String) { attestDevice(input: {keyId: "key-1", attestationObject: "bzE=", challenge: $c}) {
		id status keyId } }`, map[string]any{"c": c["challenge"]})
	require.Equal(t, map[string]any{"id": c["id"], "status": "VERIFIED", "keyId": "key-1"}, g.Data["attestDevice"])
	_, e := gqlError(t, f.pk, `mutation($c: String) { attestDevice(input: {keyId: "key-1", attestationObject: "bzE=", challenge: $c}) {
		id } }`, map[string]any{"c": c["challenge"]})
	require.Equal(t, "validation_errors", code(e))
	_, e = gqlError(t, f.live, `mutation { createDeviceAttestationChallenge { id } }`, nil)
	require.Equal(t, "provider_not_configured", code(e))

	g = gql(t, f.sk, `query($id: ID!) { node(id: $id) { ... on DeviceAttestation { id status } }
		deviceAttestation(id: $id) { challenge } }`, map[string]any{"id": c["id"]})
	require.Equal(t, map[string]any{"id": c["id"], "status": "VERIFIED"}, g.Data["node"])
	require.Equal(t, map[string]any{"challenge": c["challenge"]}, g.Data["deviceAttestation"])
}
