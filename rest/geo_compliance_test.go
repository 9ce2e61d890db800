package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func geoPath(accountID string) string { return "/v1/accounts/" + accountID + "/geo_compliance" }

func TestGeoComplianceDrivesTheCapability(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(persona("+12001001695", "geo_compliance"))
	require.Equal(t, []any{"geo_compliance"}, capByName(acct["capabilities"], "geo_compliance")["currently_due"])

	r := f.sk.Get(geoPath(id(acct)))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	g := r.JSON()
	require.Equal(t, sorted("sonar_session_id", "decision_id", "evaluated_at", "status"), keys(g),
		"a clear status has no reason: it is left out")
	require.Equal(t, "clear", g["status"])
	require.Nil(t, g["reason"])
	require.Nil(t, g["sonar_session_id"])
	requireISO(t, g["evaluated_at"], "evaluated_at")
	a := f.sk.Get("/v1/accounts/" + id(acct)).JSON()
	require.Equal(t, "active", capByName(a["capabilities"], "geo_compliance")["status"])

	// Moving to a restricted state blocks it; the capability reports the hold.
	blocked := f.sk.CreateAccount(persona("+12001001695", "geo_compliance").WithIndividual(func(i *testenv.IndividualSpec) {
		i.Address.State = "WA"
	}))
	g = f.sk.Get(geoPath(id(blocked))).JSON()
	require.Equal(t, "blocked", g["status"])
	require.Equal(t, "restricted_territory", g["reason"])
	require.Equal(t, map[string]any{"id": "0195a1c0-0000-7000-8000-000000000002", "name": "Restricted US states"}, g["geofence"])
	c := capByName(f.sk.Get("/v1/accounts/" + id(blocked)).JSON()["capabilities"], "geo_compliance")
	require.Equal(t, "pending", c["status"])
	require.Equal(t, "geo_compliance_blocked", c["errors"].([]any)[0].(map[string]any)["code"])

	// No address: no location data.
	nowhere := f.sk.CreateAccount(persona("+12001001695").WithIndividual(func(i *testenv.IndividualSpec) { i.Address = nil }))
	g = f.sk.Get(geoPath(id(nowhere))).JSON()
	require.Equal(t, "unknown", g["status"])
	require.Equal(t, "no_location_data", g["reason"])

	requireError(t, f.pk.Get(geoPath(id(acct))), http.StatusForbidden, "forbidden", "")
	// Production mode evaluates through a location provider, which none
	// ships: refused before any look-up, so the answer says nothing of the id.
	requireError(t, f.live.Get(geoPath(id(acct))), http.StatusServiceUnavailable, "provider_not_configured", "")
	requireError(t, f.sk.Get(geoPath("nope")), http.StatusNotFound, "resource_missing", "id")
}

func TestGeofences(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Get("/v1/geofences")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	body := r.JSON()
	data := body["data"].([]any)
	require.Len(t, data, 2)
	g := data[0].(map[string]any)
	require.Equal(t, sorted("id", "object", "name", "description", "geofence_type", "active", "status", "metadata",
		"locked", "geofence_rules", "livemode", "created", "updated"), keys(g))
	require.Equal(t, "active", g["status"])
	require.Equal(t, "geofence", g["object"])
	require.Equal(t, "Sanctioned countries", g["name"])
	require.Equal(t, true, g["locked"])
	require.Equal(t, false, body["meta"].(map[string]any)["has_more"])
	page := f.sk.Get("/v1/geofences?per_page=1&page=2").JSON()
	require.Equal(t, "Restricted US states", page["data"].([]any)[0].(map[string]any)["name"])
	require.Empty(t, f.sk.Get("/v1/geofences?page=3").JSON()["data"])

	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "No geo", Products: []string{"identity"}})
	requireValidation(t, f.env.Client(k.Sandbox.Secret).Get("/v1/geofences"), "geo_compliance")
	requireError(t, f.pk.Get("/v1/geofences"), http.StatusForbidden, "forbidden", "")
}
