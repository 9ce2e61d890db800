package rest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// operation is one endpoint of this area, with a valid body.
type operation struct {
	method, path string
	body         any
}

// secretOnly lists every operation that needs the secret key, against
// account a (which has kyc) and event ev.
func secretOnly(a map[string]any, ev string) []operation {
	p := "/v1/accounts/" + id(a)
	return []operation{
		{http.MethodPost, "/v1/accounts", testenv.Individual().RESTBody()},
		{http.MethodGet, "/v1/accounts", nil},
		{http.MethodGet, "/v1/accounts/search?name=ada", nil},
		{http.MethodPatch, p, map[string]any{"metadata": map[string]any{"k": "v"}}},
		{http.MethodDelete, p, nil},
		{http.MethodPost, p + "/restrict", nil},
		{http.MethodPost, p + "/unrestrict", nil},
		{http.MethodGet, p + "/capabilities", nil},
		{http.MethodPost, p + "/capabilities", map[string]any{"capabilities": []string{"kyb"}}},
		{http.MethodGet, p + "/capabilities/kyc", nil},
		{http.MethodDelete, p + "/capabilities/kyc", nil},
		{http.MethodPost, p + "/capabilities/kyc/reactivate", nil},
		{http.MethodGet, "/v1/events", nil},
		{http.MethodGet, "/v1/events/" + ev, nil},
	}
}

func TestPublishableKeySeesAccountWithoutMerchantInternals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithMetadata(map[string]string{"crm": "7"}).WithCapabilities("kyc"))

	r := f.pk.Get("/v1/accounts/" + id(a))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	pub := r.JSON()
	var want []string
	for _, k := range accountKeys {
		if k != "metadata" && k != "payout_payment_method_id" && k != "profile" {
			want = append(want, k)
		}
	}
	require.Equal(t, want, keys(pub), "metadata, payout_payment_method_id and profile are absent, not null")
	for _, k := range want {
		require.Equal(t, a[k], pub[k], k)
	}
	require.NotContains(t, string(r.Body), "Lovelace")
	require.NotContains(t, string(r.Body), "crm")

	// Production keys likewise, for production accounts only.
	live := f.live.CreateAccount(testenv.Individual())
	lr := f.env.Client(f.env.Keys.Production.Publishable).Get("/v1/accounts/" + id(live))
	require.Equal(t, http.StatusOK, lr.Status)
	require.NotContains(t, lr.JSON(), "profile")
	requireError(t, f.pk.Get("/v1/accounts/"+id(live)), http.StatusNotFound, "resource_missing", "id")
}

func TestPublishableKeyIsForbiddenOnSecretOperations(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc"))
	ev := listEvents(t, f.sk, "")[0].ID
	for _, op := range secretOnly(a, ev) {
		r := f.pk.Do(op.method, op.path, op.body, nil)
		e := requireError(t, r, http.StatusForbidden, "forbidden", "")
		require.Equal(t, "A publishable credential may not perform this operation", e["message"], "%s %s", op.method, op.path)
	}
	// Nothing changed.
	require.Equal(t, a, f.sk.Get("/v1/accounts/"+id(a)).JSON())
	require.Len(t, listEvents(t, f.sk, ""), 1)
	require.Len(t, f.sk.Get("/v1/accounts").JSON()["data"], 1)
}

func TestMissingCredentialIsUnauthenticated(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc"))
	ev := listEvents(t, f.sk, "")[0].ID
	anon := f.env.Client("")
	ops := append(secretOnly(a, ev), operation{http.MethodGet, "/v1/accounts/" + id(a), nil},
		// Authentication comes before reading the body.
		operation{http.MethodPost, "/v1/accounts", "{not json"},
		operation{http.MethodPost, "/v1/accounts", `{"type": 1}`},
	)
	for _, op := range ops {
		r := anon.Do(op.method, op.path, op.body, nil)
		e := requireError(t, r, http.StatusUnauthorized, "authentication_required", "")
		require.Equal(t, "No credential provided: send 'Authorization: Bearer <key>'", e["message"], "%s %s", op.method, op.path)
	}
	require.Len(t, listEvents(t, f.sk, ""), 1)
}

func TestBadCredentials(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	path := "/v1/accounts/" + id(a)

	for _, key := range []string{
		"sk_sandbox_" + "0123456789012345678901234567890123456789",
		"pk_production_0123456789012345678901234567890123456789",
		"sk_staging_0123456789",
		"garbage",
		f.env.Keys.Sandbox.Secret + "x",
	} {
		e := requireError(t, f.env.Client(key).Get(path), http.StatusUnauthorized, "invalid_api_key", "")
		require.Equal(t, "Invalid API key provided", e["message"])
		requireError(t, f.env.Client(key).Post("/v1/accounts", "{not json"), http.StatusUnauthorized, "invalid_api_key", "")
	}

	anon := f.env.Client("")
	for _, h := range []string{"Basic dXNlcjpwYXNz", "Bearer", "Bearer    ", f.env.Keys.Sandbox.Secret, "Token " + f.env.Keys.Sandbox.Secret} {
		r := anon.Do(http.MethodGet, path, nil, http.Header{"Authorization": {h}})
		e := requireError(t, r, http.StatusUnauthorized, "authentication_required", "")
		require.Equal(t, "Malformed Authorization header: use 'Bearer <credential>'", e["message"], h)
	}

	// The scheme is case-insensitive.
	r := anon.Do(http.MethodGet, path, nil, http.Header{"Authorization": {"bearer " + f.env.Keys.Sandbox.Secret}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))

	// A revoked key stops working at once.
	n, err := auth.RevokeKey(context.Background(), f.env.DB, f.env.Clock, f.env.Keys.Sandbox.Secret)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	requireError(t, f.sk.Get(path), http.StatusUnauthorized, "invalid_api_key", "")
	require.Equal(t, http.StatusOK, f.pk.Get(path).Status, "other keys are unaffected")
}

func TestUnknownRoutesAnswerInTheEnvelope(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := requireError(t, f.sk.Get("/v1/acounts"), http.StatusNotFound, "route_not_found", "")
	require.Equal(t, "Unrecognized request URL (GET /v1/acounts)", e["message"])
	a := f.sk.CreateAccount(testenv.Individual())
	requireError(t, f.sk.Do(http.MethodPut, "/v1/accounts/"+id(a), map[string]any{}, nil), http.StatusMethodNotAllowed, "method_not_allowed", "")
	requireError(t, f.sk.Do(http.MethodGet, "/v1/accounts/"+id(a)+"/restrict", nil, nil), http.StatusMethodNotAllowed, "method_not_allowed", "")
}
