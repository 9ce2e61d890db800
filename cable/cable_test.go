package cable_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// requireRefused checks a refused upgrade answers the API's error
// envelope, never a websocket.
func requireRefused(t *testing.T, env *testenv.Env, key string, protocols []string, status int, code string) {
	t.Helper()
	c, resp, err := env.TryDialCable(key, protocols)
	require.Error(t, err)
	require.Nil(t, c)
	require.NotNil(t, resp)
	require.Equal(t, status, resp.StatusCode)
	body, _ := io.ReadAll(resp.Body)
	var e map[string]any
	require.NoError(t, json.Unmarshal(body, &e), string(body))
	require.Equal(t, code, e["code"], string(body))
	require.Equal(t, e["message"], e["error"])
}

// Only sandbox secret keys listen; each refusal is the envelope, before
// any websocket.
func TestCableRefusesWhoMayNotListen(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	cli := []string{"actioncable-v1-json"}
	requireRefused(t, env, env.Keys.Production.Secret, cli, http.StatusForbidden, "forbidden")
	requireRefused(t, env, env.Keys.Sandbox.Publishable, cli, http.StatusForbidden, "forbidden")
	requireRefused(t, env, "", cli, http.StatusUnauthorized, "authentication_required")
	requireRefused(t, env, "sk_sandbox_"+strings.Repeat("x", 40), cli, http.StatusUnauthorized, "invalid_api_key")
	requireRefused(t, env, env.Keys.Sandbox.Secret, []string{"graphql-transport-ws"}, http.StatusBadRequest, "subprotocol_required")
	requireRefused(t, env, env.Keys.Sandbox.Secret, nil, http.StatusBadRequest, "subprotocol_required")

	r := env.Client(env.Keys.Sandbox.Secret).Post("/cable", map[string]any{})
	require.Equal(t, http.StatusMethodNotAllowed, r.Status)
}

// What a hostile client sends is ignored or bounded: frames that are not
// commands, messages to subscriptions it does not have, more
// subscriptions than a connection may hold, and a frame over the read
// limit (which closes the connection).
func TestCableBoundsAHostileClient(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	c := env.DialCable(env.Keys.Sandbox.Secret)
	require.Equal(t, "welcome", c.Next().Type)
	for _, junk := range []string{`not json`, `[]`, `{"command":"subscribe"}`, `{"command":"subscribe","identifier":42}`,
		`{"command":"message","identifier":"{\"channel\":\"Cli::WebhookListenChannel\"}","data":"{\"action\":\"ack\"}"}`,
		`{"command":"dance","identifier":"x"}`} {
		c.SendRaw([]byte(junk))
	}
	require.Empty(t, barrier(t, c, 1), "nothing answers junk")

	// At most eight subscriptions on one connection.
	for i := range 8 {
		codes := []string{"customer.created"}
		if i%2 == 1 {
			codes = []string{"customer.updated"}
		}
		listen(t, c, testenv.ListenIdentifier(codes, false, strings.Repeat(" ", i)), 0)
	}
	ninth := testenv.ListenIdentifier([]string{"account.created"}, false, "")
	c.Subscribe(ninth, 0)
	f := c.Next()
	require.Equal(t, "reject_subscription", f.Type, string(f.Raw))

	// A frame over the read limit ends the connection.
	c.SendRaw([]byte(`{"command":"message","identifier":"x","data":"` + strings.Repeat("a", 70<<10) + `"}`))
	for {
		if _, ok := c.NextOrClosed(); !ok {
			break
		}
	}
	require.Equal(t, websocket.StatusMessageTooBig, websocket.CloseStatus(c.ReadErr), "%v", c.ReadErr)
}
