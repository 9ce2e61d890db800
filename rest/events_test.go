package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestEventShapeAndRetrieve(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	u := f.sk.Patch("/v1/accounts/"+id(a), map[string]any{"metadata": map[string]any{"k": "v"}}).JSON()

	r := f.sk.Get("/v1/events")
	require.Equal(t, http.StatusOK, r.Status)
	list := r.JSON()["data"].([]any)
	require.Len(t, list, 2)
	for _, raw := range list {
		e := raw.(map[string]any)
		require.Equal(t, sorted("id", "object", "type", "created", "livemode", "data"), keys(e))
		require.Equal(t, "event", e["object"])
		require.Regexp(t, `^[0-9a-f-]{36}$`, e["id"])
		require.Equal(t, false, e["livemode"])
		requireInt(t, e["created"], "event created")
		require.IsType(t, "", e["type"])

		got := f.sk.Get("/v1/events/" + id(e))
		require.Equal(t, http.StatusOK, got.Status)
		require.Equal(t, e, got.JSON(), "retrieve answers what the list answered")
	}
	updated := list[0].(map[string]any)
	require.Equal(t, "account.updated", updated["type"], "newest first")
	require.Equal(t, sorted("object", "previous_attributes"), keys(updated["data"].(map[string]any)))
	require.Equal(t, u, updated["data"].(map[string]any)["object"])
	require.Equal(t, map[string]any{"metadata": map[string]any{}}, updated["data"].(map[string]any)["previous_attributes"])
	created := list[1].(map[string]any)
	require.Equal(t, "account.created", created["type"])
	require.Equal(t, []string{"object"}, keys(created["data"].(map[string]any)), "no previous_attributes on a creation")
	requireAccountShape(t, created["data"].(map[string]any)["object"].(map[string]any))

	e := requireError(t, f.sk.Get("/v1/events/019bc186-de02-7888-a0ba-4ef4a7dc05db"), http.StatusNotFound, "resource_missing", "id")
	require.Equal(t, "No such event: '019bc186-de02-7888-a0ba-4ef4a7dc05db'", e["message"])
	requireError(t, f.sk.Get("/v1/events/nope"), http.StatusNotFound, "resource_missing", "id")
	// An account id is not an event id.
	requireError(t, f.sk.Get("/v1/events/"+id(a)), http.StatusNotFound, "resource_missing", "id")
}

func TestEventTypeFilter(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual())
	b := f.sk.CreateAccount(testenv.Individual())
	f.sk.Post("/v1/accounts/"+id(a)+"/restrict", nil)
	f.sk.Delete("/v1/accounts/" + id(b))

	created := listEvents(t, f.sk, "account.created")
	require.Len(t, created, 2)
	require.Equal(t, id(a), created[0].object()["id"])
	require.Equal(t, id(b), created[1].object()["id"])
	require.Len(t, listEvents(t, f.sk, "account.restricted"), 1)
	require.Len(t, listEvents(t, f.sk, "account.disabled"), 1)
	require.Empty(t, listEvents(t, f.sk, "account.updated"), "a declared type no event has yet")
	// The catalogue is closed: a type no event can have is refused, and
	// the type matches exactly (no prefix).
	requireValidation(t, f.sk.Get("/v1/events?type=account.nothing"), "type")
	requireValidation(t, f.sk.Get("/v1/events?type=account"), "type")
	p := getPage(t, f.sk, "/v1/events?type=account.created&per_page=1")
	require.Len(t, p.Data, 1)
	require.True(t, p.Meta.HasMore)
	require.Equal(t, id(b), p.Data[0]["data"].(map[string]any)["object"].(map[string]any)["id"])
}

// TestEveryChangeWritesItsEvent walks an account through every change of
// API-DECISIONS §4 and checks each wrote exactly its event.
func TestEveryChangeWritesItsEvent(t *testing.T) {
	t.Parallel()
	f := setup(t, phoneVerified())
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification", "card_send"))
	path := "/v1/accounts/" + id(a)
	count := func() int { return len(listEvents(t, f.sk, "")) }
	step := func(want []string, do func()) {
		t.Helper()
		n := len(listEvents(t, f.sk, ""))
		do()
		evs := listEvents(t, f.sk, "")
		var got []string
		for _, e := range evs[n:] {
			got = append(got, e.Type)
		}
		require.ElementsMatch(t, want, got)
	}
	require.Equal(t, 1, count())

	step([]string{"account.updated", "capability.activated", "account.activated"}, func() {
		require.Equal(t, http.StatusOK, f.sk.Patch(path, tos).Status)
	})
	step([]string{"account.restricted"}, func() { f.sk.Post(path+"/restrict", nil) })
	step([]string{"account.updated"}, func() { f.sk.Post(path+"/unrestrict", nil) })
	step([]string{"capability.disabled"}, func() { f.sk.Delete(path + "/capabilities/card_send") })
	step([]string{"account.updated"}, func() { f.sk.Post(path+"/capabilities/card_send/reactivate", nil) })
	step([]string{"account.updated"}, func() { f.sk.Post(path+"/capabilities", map[string]any{"capabilities": []string{"kyc"}}) })
	step([]string{"account.disabled"}, func() { f.sk.Delete(path) })

	// No-ops and refusals write nothing.
	step(nil, func() {
		f.sk.Delete(path)
		f.sk.Patch(path, map[string]any{"metadata": map[string]any{"k": "v"}})
		f.sk.Post(path+"/restrict", nil)
		f.sk.Delete(path + "/capabilities/card_verification")
		f.sk.Post("/v1/accounts", map[string]any{"type": "individual"})
		f.sk.Post("/v1/accounts", `{"type":`)
	})
	for _, e := range listEvents(t, f.sk, "") {
		if e.Type == "capability.activated" || e.Type == "capability.disabled" {
			requireCapabilityShape(t, e.object())
		} else {
			requireAccountShape(t, e.object())
		}
	}
}

// TestFailedRequestWritesNoEvent makes the database refuse a change late in
// the transaction, after the request already emitted events: the whole
// request rolls back with them.
func TestFailedRequestWritesNoEvent(t *testing.T) {
	t.Parallel()
	f := setup(t, phoneVerified())
	pending := f.sk.CreateAccount(testenv.Individual().WithCapabilities("phone_verification"))
	f.exec(t, `CREATE FUNCTION refuse_activation() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'activation refused by test'; END $$`)
	f.exec(t, `CREATE TRIGGER refuse_activation BEFORE INSERT OR UPDATE ON capabilities FOR EACH ROW
		WHEN (NEW.status = 'active') EXECUTE FUNCTION refuse_activation()`)

	// Create: account.created is emitted before activation fails.
	r := f.sk.Post("/v1/accounts", testenv.Individual().WithCapabilities("phone_verification").WithTermsOfService(acceptedTerms).RESTBody())
	e := requireError(t, r, http.StatusInternalServerError, "internal_error", "")
	require.Equal(t, "An internal error occurred; quote the request_id when reporting it", e["message"])
	require.NotContains(t, string(r.Body), "activation refused", "a 5xx never leaks internals")

	// Update: the profile change rolls back with its event.
	r = f.sk.Patch("/v1/accounts/"+id(pending), tos)
	requireError(t, r, http.StatusInternalServerError, "internal_error", "")

	require.Equal(t, []string{"account.created"}, eventTypes(listEvents(t, f.sk, ""), id(pending)))
	require.Len(t, listEvents(t, f.sk, ""), 1)
	require.Equal(t, []string{id(pending)}, listIDs(t, f.sk, "/v1/accounts?include_disabled=true"))
	require.Equal(t, pending, f.sk.Get("/v1/accounts/"+id(pending)).JSON())
}
