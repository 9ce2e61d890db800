package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestQueryTextPostgresCannotHoldIsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.CreateAccount(testenv.Individual().WithExternalID("x"))
	for _, tc := range []struct{ path, param string }{
		{"/v1/accounts?external_id=x%00", "external_id"},
		{"/v1/accounts?status=%00", "status"},
		{"/v1/accounts/search?name=a%00", "name"},
		{"/v1/accounts/search?email=a%00@example.com", "email"},
		{"/v1/accounts/search?external_id=%FF", "external_id"},
		{"/v1/events?type=account.created%00", "type"},
	} {
		r := f.sk.Get(tc.path)
		e := requireError(t, r, http.StatusBadRequest, "parameter_invalid", tc.param)
		require.Equal(t, map[string]any{tc.param: []any{"must be valid UTF-8 text without NUL characters"}}, errorDetails(e)["errors"], tc.path)
	}
}

func TestOversizedBodyIsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	body := `{"type": "individual", "metadata": {"k": "` + strings.Repeat("v", 1<<20) + `"}}`
	e := requireError(t, f.sk.Post("/v1/accounts", body), http.StatusBadRequest, "invalid_json", "")
	require.Equal(t, "The request body is larger than 1 MiB", e["message"])
}

func TestRequestIDsAreUniqueAndEchoed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ok := f.sk.Get("/v1/accounts")
	require.True(t, strings.HasPrefix(ok.Header.Get("Request-Id"), "req_"), "successes carry a Request-Id too")
	a := requireError(t, f.sk.Get("/v1/accounts/nope"), http.StatusNotFound, "resource_missing", "id")
	b := requireError(t, f.sk.Get("/v1/accounts/nope"), http.StatusNotFound, "resource_missing", "id")
	require.NotEqual(t, a["request_id"], b["request_id"])
	require.NotEqual(t, ok.Header.Get("Request-Id"), a["request_id"])
}

func TestIdempotentAccountCreate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	key := http.Header{"Idempotency-Key": {"create-ada-1"}}
	body := testenv.Individual().WithCapabilities("kyc").RESTBody()

	first := f.sk.Do(http.MethodPost, "/v1/accounts", body, key)
	require.Equal(t, http.StatusCreated, first.Status, string(first.Body))
	require.Empty(t, first.Header.Get("Idempotent-Replayed"))

	replay := f.sk.Do(http.MethodPost, "/v1/accounts", body, key)
	require.Equal(t, http.StatusCreated, replay.Status)
	require.Equal(t, "true", replay.Header.Get("Idempotent-Replayed"))
	require.Equal(t, string(first.Body), string(replay.Body), "the replay is byte-identical")
	require.Len(t, f.sk.Get("/v1/accounts").JSON()["data"], 1, "the replay created nothing")
	require.Len(t, listEvents(t, f.sk, ""), 1)

	other := f.sk.Do(http.MethodPost, "/v1/accounts", testenv.Individual().WithExternalID("different").RESTBody(), key)
	e := requireError(t, other, http.StatusBadRequest, "idempotency_error", "Idempotency-Key")
	require.Equal(t, "Keys for idempotent requests can only be used with the same parameters they were first used with", e["message"])

	// Keys belong to a mode: the same key in production is a new request.
	live := f.live.Do(http.MethodPost, "/v1/accounts", body, key)
	require.Equal(t, http.StatusCreated, live.Status)
	require.Empty(t, live.Header.Get("Idempotent-Replayed"))
	require.NotEqual(t, id(first.JSON()), id(live.JSON()))
}

// Bodies the decoder cannot take as one JSON object are 400 invalid_json in
// the full envelope, and nothing is created.
func TestUnreadableBodiesAreRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for body, msg := range map[string]string{
		`{"type": "individual"} {"type": "business"}`: "The request body has data after the JSON object",
		`["individual"]`: "The request body must be a JSON object",
		`"individual"`:   "The request body must be a JSON object",
	} {
		e := requireError(t, f.sk.Post("/v1/accounts", body), http.StatusBadRequest, "invalid_json", "")
		require.Equal(t, msg, e["message"], body)
	}
	require.Empty(t, f.sk.Get("/v1/accounts").JSON()["data"])
}
