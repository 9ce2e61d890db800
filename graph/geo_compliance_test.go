package graph_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestGeoComplianceThroughGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("geo_compliance").
		WithTermsOfService(testenv.TermsSpec{Token: "tos"}).
		WithIndividual(func(i *testenv.IndividualSpec) { i.Address.State = "ID" }), "id")
	aid := str(acct["id"])
	g := gql(t, f.sk, `query($a: ID!) { account(id: $a) { geoCompliance { status reason evaluatedAt } } }`, map[string]any{"a": aid})
	require.Equal(t, map[string]any{"status": "UNKNOWN", "reason": "NO_LOCATION_DATA", "evaluatedAt": nil}, obj(g.Data["account"])["geoCompliance"])

	g = gql(t, f.sk, `mutation($a: ID!) { evaluateGeoCompliance(accountId: $a) { status reason evaluatedAt geofence { name } } }`, map[string]any{"a": aid})
	e := obj(g.Data["evaluateGeoCompliance"])
	require.Equal(t, "BLOCKED", e["status"])
	require.Equal(t, map[string]any{"name": "Restricted US states"}, e["geofence"])
	require.NotNil(t, e["evaluatedAt"])
	g = gql(t, f.sk, `query($a: ID!) { account(id: $a) { geoCompliance { status } capabilities { status errors { code } } }
		geofences { name locked geofenceRules { country state } } }`, map[string]any{"a": aid})
	a := obj(g.Data["account"])
	require.Equal(t, map[string]any{"status": "BLOCKED"}, a["geoCompliance"])
	require.Equal(t, []any{map[string]any{"status": "PENDING", "errors": []any{map[string]any{"code": "geo_compliance_blocked"}}}}, a["capabilities"])
	fences := list(g.Data["geofences"])
	require.Len(t, fences, 2)
	require.Equal(t, []any{map[string]any{"country": "US", "state": "WA"}, map[string]any{"country": "US", "state": "ID"}},
		obj(fences[1])["geofenceRules"])
}
