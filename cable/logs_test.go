package cable_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

const logsIdentifier = `{"channel":"Cli::LogsChannel"}`

// tailLogs subscribes c to the request log and reads its confirmation.
func tailLogs(t *testing.T, c *testenv.Cable) {
	t.Helper()
	c.Subscribe(logsIdentifier, 0)
	f := c.Next()
	if f.Type == "welcome" {
		f = c.Next()
	}
	require.Equal(t, "confirm_subscription", f.Type, string(f.Raw))
	requireIdentifier(t, f, logsIdentifier)
}

// nextLog reads the next request of the log: exactly method, path,
// status, duration_ms and request_id.
func nextLog(t *testing.T, c *testenv.Cable) map[string]any {
	t.Helper()
	f := c.Next()
	requireIdentifier(t, f, logsIdentifier)
	var m map[string]any
	require.NoError(t, json.Unmarshal(f.Message, &m), string(f.Raw))
	require.Equal(t, sorted("method", "path", "status", "duration_ms", "request_id"), keys(m),
		"never a body, a query or a header: %s", f.Raw)
	return m
}

// The live request log: each request of the caller's sandbox as it
// finishes, whichever process served it, never its query, body or
// credential; other merchants' requests and production ones never appear.
func TestRequestLogTailsTheSandbox(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	two := testenv.Open(t, env.URL)
	key := env.Keys.Sandbox.Secret
	_, other := env.NewMerchant(authMerchant("Other"))

	c := env.DialCable(key)
	tailLogs(t, c)

	r := env.Client(key).Get("/v1/accounts?external_id=sk_sandbox_" + "secretlookingvalue1234567890")
	require.Equal(t, http.StatusOK, r.Status)
	m := nextLog(t, c)
	require.Equal(t, "GET", m["method"])
	require.Equal(t, "/v1/accounts", m["path"], "the path alone: no query")
	require.EqualValues(t, 200, m["status"])
	require.Equal(t, r.Header.Get("Request-Id"), m["request_id"])
	require.GreaterOrEqual(t, m["duration_ms"].(float64), 0.0)

	// Not shown: another merchant's, production's, anonymous ones.
	env.Client(other.Sandbox.Secret).Get("/v1/accounts")
	env.Client(env.Keys.Production.Secret).Get("/v1/accounts")
	env.Client("").Get("/v1/accounts")
	// Shown: a refused one of the sandbox, and one served by another process.
	refused := env.Client(key).Post("/v1/accounts", map[string]any{"type": "nope"})
	require.Equal(t, http.StatusUnprocessableEntity, refused.Status)
	m = nextLog(t, c)
	require.Equal(t, refused.Header.Get("Request-Id"), m["request_id"], "the next one is the sandbox's own")
	require.Equal(t, "POST", m["method"])
	require.EqualValues(t, 422, m["status"])

	// The other process publishes once it has heard of the tail (an
	// announcement on the shared channel): ask it until it has.
	sent := map[string]bool{}
	for i := 0; ; i++ {
		require.Less(t, i, int(testenv.CableGuard/(300*time.Millisecond)), "the other process never published")
		r := two.Client(key).Get("/v1/customers/cus_sk_sandbox_abcdefghijklmnopqrstuvwxyz")
		sent[r.Header.Get("Request-Id")] = true
		f, ok := c.NextWithin(300 * time.Millisecond)
		if !ok {
			continue
		}
		var m map[string]any
		require.NoError(t, json.Unmarshal(f.Message, &m), string(f.Raw))
		require.True(t, sent[m["request_id"].(string)], "one of the other process's requests: %s", f.Raw)
		require.NotContains(t, m["path"], "abcdefghijklmnopqrstuvwxyz", "a credential in the path is redacted")
		break
	}

	// Only sandbox secret keys tail the log (the upgrade refuses others).
	requireRefused(t, env, env.Keys.Production.Secret, []string{"actioncable-v1-json"}, http.StatusForbidden, "forbidden")
}
