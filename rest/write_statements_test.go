package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The SQL statements a write runs are a constant of what it changes: the
// requirements are derived once, the account row is written once, every
// changed capability in one statement, every event in one. (Counts exclude
// BEGIN and COMMIT and include the credential's look-up.)
func TestAccountWritesRunAFixedNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t, phoneVerified())
	key := func(k string) http.Header { return http.Header{"Idempotency-Key": {k}} }

	// credential, account insert, capabilities insert, events insert
	r := f.sk.Post("/v1/accounts", testenv.Individual().WithCapabilities("phone_verification", "card_send").RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, 4, r.Statements, "create")
	path := "/v1/accounts/" + id(r.JSON())

	// A create without capabilities, with a key: credential, claim, look-up,
	// account insert, events insert, record. (The server secret that keys
	// the fingerprint is loaded when the server starts, by no request.)
	r = f.sk.Do("POST", "/v1/accounts", testenv.Individual().RESTBody(), key("create"))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, 6, r.Statements, "create with an Idempotency-Key")
	r = f.sk.Do("POST", "/v1/accounts", testenv.Individual().RESTBody(), key("create"))
	require.Equal(t, "true", r.Header.Get("Idempotent-Replayed"))
	require.Equal(t, 3, r.Statements, "replay: credential, claim, look-up")

	// credential, lock, capabilities, account update, events insert
	r = f.sk.Patch(path, map[string]any{"metadata": map[string]any{"k": "v"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, 5, r.Statements, "update")

	// An update that activates capabilities: + one statement for them all.
	r = f.sk.Patch(path, tos)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "active", r.JSON()["status"])
	require.Equal(t, 6, r.Statements, "update activating capabilities")

	// An update that changes nothing writes nothing.
	r = f.sk.Patch(path, map[string]any{"metadata": map[string]any{"k": "v"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, 3, r.Statements, "no-op update: credential, lock, capabilities")
}
