package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// accountOperations lists every operation on one account.
func accountOperations(accountID string) []operation {
	p := "/v1/accounts/" + accountID
	return []operation{
		{http.MethodGet, p, nil},
		{http.MethodPatch, p, map[string]any{"metadata": map[string]any{"k": "v"}}},
		{http.MethodDelete, p, nil},
		{http.MethodPost, p + "/restrict", nil},
		{http.MethodPost, p + "/unrestrict", nil},
		{http.MethodGet, p + "/capabilities", nil},
		{http.MethodPost, p + "/capabilities", map[string]any{"capabilities": []string{"kyb"}}},
		{http.MethodGet, p + "/capabilities/kyc", nil},
		{http.MethodDelete, p + "/capabilities/kyc", nil},
		{http.MethodPost, p + "/capabilities/kyc/reactivate", nil},
	}
}

// requireInvisible asserts that c gets 404 resource_missing on every
// operation on the account, naming the id as sent.
func requireInvisible(t *testing.T, c *testenv.Client, accountID string) {
	t.Helper()
	for _, op := range accountOperations(accountID) {
		r := c.Do(op.method, op.path, op.body, nil)
		e := requireError(t, r, http.StatusNotFound, "resource_missing", "id")
		require.Equal(t, "No such account: '"+accountID+"'", e["message"], "%s %s", op.method, op.path)
	}
}

func TestUnknownAndMalformedAccountIDs(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc"))
	for _, bad := range []string{"019bc186-de02-7888-a0ba-4ef4a7dc05db", "nope", "019bc186de027888a0ba4ef4a7dc05db",
		"{019bc186-de02-7888-a0ba-4ef4a7dc0}", "0"} {
		requireInvisible(t, f.sk, bad)
	}
}

func TestAnotherMerchantsAccountIsMissing(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	other := f.env.Client(k.Sandbox.Secret)
	theirs := other.CreateAccount(testenv.Individual().WithCapabilities("kyc").WithExternalID("shared"))
	mine := f.sk.CreateAccount(testenv.Individual().WithExternalID("shared"))

	requireInvisible(t, f.sk, id(theirs))
	requireError(t, f.pk.Get("/v1/accounts/"+id(theirs)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.env.Client(k.Sandbox.Publishable).Get("/v1/accounts/"+id(mine)), http.StatusNotFound, "resource_missing", "id")

	// Their account and events are untouched and unlisted.
	require.Equal(t, theirs, other.Get("/v1/accounts/"+id(theirs)).JSON())
	require.Equal(t, []string{id(mine)}, listIDs(t, f.sk, "/v1/accounts?include_disabled=true"))
	require.Equal(t, []string{id(mine)}, listIDs(t, f.sk, "/v1/accounts?external_id=shared"))
	require.Equal(t, []string{id(mine)}, listIDs(t, f.sk, "/v1/accounts/search?name=lovelace"))
	require.Equal(t, []string{id(theirs)}, listIDs(t, other, "/v1/accounts/search?email=ada@example.com"))
	require.Equal(t, []string{"account.created"}, eventTypes(listEvents(t, other, ""), id(theirs)))
	require.Empty(t, eventTypes(listEvents(t, f.sk, ""), id(theirs)))
	theirEvent := listEvents(t, other, "")[0].ID
	e := requireError(t, f.sk.Get("/v1/events/"+theirEvent), http.StatusNotFound, "resource_missing", "id")
	require.Equal(t, "No such event: '"+theirEvent+"'", e["message"])
}

func TestTheOtherModesAccountIsMissing(t *testing.T) {
	t.Parallel()
	f := setup(t)
	live := f.live.CreateAccount(testenv.Individual().WithCapabilities("kyc"))
	test := f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc"))
	requireAccountShape(t, live)
	require.Equal(t, true, live["livemode"])
	require.Equal(t, true, capByName(live["capabilities"], "kyc")["livemode"])
	require.Equal(t, false, test["livemode"])

	requireInvisible(t, f.sk, id(live))
	requireInvisible(t, f.live, id(test))
	requireError(t, f.env.Client(f.env.Keys.Production.Publishable).Get("/v1/accounts/"+id(test)), http.StatusNotFound, "resource_missing", "id")

	require.Equal(t, []string{id(test)}, listIDs(t, f.sk, "/v1/accounts"))
	require.Equal(t, []string{id(live)}, listIDs(t, f.live, "/v1/accounts"))
	require.Equal(t, []string{id(live)}, listIDs(t, f.live, "/v1/accounts/search?name=ada"))

	liveEvents := listEvents(t, f.live, "")
	require.Len(t, liveEvents, 1)
	require.True(t, liveEvents[0].Livemode)
	require.Equal(t, id(live), liveEvents[0].object()["id"])
	requireError(t, f.sk.Get("/v1/events/"+liveEvents[0].ID), http.StatusNotFound, "resource_missing", "id")
	testEvents := listEvents(t, f.sk, "")
	require.Len(t, testEvents, 1)
	require.False(t, testEvents[0].Livemode)
	requireError(t, f.live.Get("/v1/events/"+testEvents[0].ID), http.StatusNotFound, "resource_missing", "id")

	// The account is intact after all those attempts.
	require.Equal(t, live, f.live.Get("/v1/accounts/"+id(live)).JSON())
}
