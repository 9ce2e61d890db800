package cable_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// session is what a listen subscription's `session` message told.
type session struct {
	Secret     string
	EndpointID string
	Token      string
	Replayed   bool
}

// listen subscribes c to a listen session and reads what the CLI waits
// for, in order: welcome (sent on open, before the subscribe), then
// confirm_subscription echoing the identifier byte for byte, then exactly
// one `session` message with the members the CLI accepts.
func listen(t *testing.T, c *testenv.Cable, identifier string, lastReceivedAt int64) session {
	t.Helper()
	c.Subscribe(identifier, lastReceivedAt)
	return readSession(t, c, identifier)
}

// readSession reads the frames of a subscription up to its session
// message; a welcome may come first (on a new connection).
func readSession(t *testing.T, c *testenv.Cable, identifier string) session {
	t.Helper()
	f := c.Next()
	if f.Type == "welcome" {
		require.Equal(t, `{"type":"welcome"}`, string(f.Raw))
		f = c.Next()
	}
	require.Equal(t, "confirm_subscription", f.Type, string(f.Raw))
	requireIdentifier(t, f, identifier)
	f = c.Next()
	requireIdentifier(t, f, identifier)
	var m map[string]any
	require.NoError(t, json.Unmarshal(f.Message, &m), string(f.Raw))
	want := []string{"endpoint_id", "session_token", "type", "whsec"}
	if _, ok := m["replayed"]; ok {
		require.Equal(t, true, m["replayed"], "replayed is exactly true when present")
		want = append(want, "replayed")
	}
	require.Equal(t, sorted(want...), keys(m), "any other member makes the CLI refuse the session: %s", f.Raw)
	require.Equal(t, "session", m["type"])
	s := session{Secret: m["whsec"].(string), EndpointID: m["endpoint_id"].(string),
		Token: m["session_token"].(string), Replayed: m["replayed"] == true}
	require.True(t, strings.HasPrefix(s.Secret, "whsec_cli_"), s.Secret)
	require.Len(t, strings.TrimPrefix(s.Secret, "whsec_cli_"), 32)
	require.NotEmpty(t, s.Token)
	return s
}

// requireIdentifier checks a frame echoes the subscription's identifier:
// the same JSON string, byte for byte.
func requireIdentifier(t *testing.T, f testenv.CableFrame, identifier string) {
	t.Helper()
	want, err := json.Marshal(identifier)
	require.NoError(t, err)
	require.Equal(t, string(want), string(f.Identifier), "the identifier, byte for byte: %s", f.Raw)
}

// event is one event frame of a listen session.
type event struct {
	ID      string
	Type    string
	Headers map[string]string
	Payload json.RawMessage
	Object  map[string]any // payload.data.object
}

// nextEvent reads the next event frame and checks it is exactly what the
// CLI accepts: four members, five string headers, event_type equal to
// payload.type, and a valid signature under secret over the payload's
// bytes.
func nextEvent(t *testing.T, c *testenv.Cable, identifier, secret string) event {
	t.Helper()
	f := c.Next()
	require.Empty(t, f.Type, "an event frame has no type: %s", f.Raw)
	requireIdentifier(t, f, identifier)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(f.Message, &m), string(f.Raw))
	require.Equal(t, []string{"event_type", "headers", "payload", "webhook_message_id"}, sorted(mapKeys(m)...),
		"exactly the four members the CLI accepts: %s", f.Raw)
	var e event
	require.NoError(t, json.Unmarshal(m["webhook_message_id"], &e.ID), string(f.Raw))
	require.NoError(t, json.Unmarshal(m["event_type"], &e.Type), string(f.Raw))
	require.NoError(t, json.Unmarshal(m["headers"], &e.Headers), "every header is a string: %s", f.Raw)
	require.Equal(t, sorted("X-Frame-Event", "X-Frame-Signature", "X-Frame-Webhook-Id", "User-Agent", "Content-Type"),
		sorted(mapKeys(e.Headers)...))
	e.Payload = m["payload"]
	var p struct {
		Type string `json:"type"`
		Data struct {
			Object map[string]any `json:"object"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(e.Payload, &p), string(f.Raw))
	require.Equal(t, p.Type, e.Type, "event_type is payload.type")
	e.Object = p.Data.Object
	require.Equal(t, e.Type, e.Headers["X-Frame-Event"])
	require.Equal(t, e.ID, e.Headers["X-Frame-Webhook-Id"])
	require.Equal(t, "application/json", e.Headers["Content-Type"])
	require.NotEmpty(t, e.Headers["User-Agent"])
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(e.Payload)
	require.Equal(t, "sha256="+hex.EncodeToString(mac.Sum(nil)), e.Headers["X-Frame-Signature"],
		"signed under the session's secret over the payload's bytes")
	return e
}

func mapKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func keys(m map[string]any) []string { return sorted(mapKeys(m)...) }

func sorted(s ...string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

func authMerchant(name string) auth.NewMerchant { return auth.NewMerchant{Name: name} }

// listening dials /cable with the merchant's sandbox secret key and
// opens a listen session of codes on it: the connection, its identifier
// and its session.
func listening(t *testing.T, env *testenv.Env, codes []string, skip bool) (*testenv.Cable, string, session) {
	t.Helper()
	c := env.DialCable(env.Keys.Sandbox.Secret)
	id := testenv.ListenIdentifier(codes, skip, "")
	return c, id, listen(t, c, id, 0)
}

// receiveInOrder reads one event per object id, in that order, acks each
// as forwarded, and checks nothing else came.
func receiveInOrder(t *testing.T, c *testenv.Cable, id, secret string, objectIDs ...string) {
	t.Helper()
	for _, want := range objectIDs {
		e := nextEvent(t, c, id, secret)
		require.Equal(t, want, e.Object["id"], "every event, in order")
		c.Ack(id, e.ID, 200, "", 1)
	}
	require.Empty(t, barrier(t, c, 1))
}
