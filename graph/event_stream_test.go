package graph_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// wsMessage is a graphql-transport-ws message.
type wsMessage struct {
	ID      string          `json:"id,omitempty"`
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// stream is a subscription's websocket; one goroutine reads it (a read
// whose context ends closes a coder/websocket connection, so reads are
// never given a short deadline) and next waits on what it read.
type stream struct{ msgs chan wsMessage }

// subscribe opens a websocket to /graphql, authenticates (header, or the
// connection_init payload when header is false) and subscribes to query.
func subscribe(t *testing.T, f *fixture, key string, header bool, query string) *stream {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	opts := &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: http.Header{}}
	init := map[string]any{}
	if header {
		opts.HTTPHeader.Set("Authorization", "Bearer "+key)
	} else {
		init["Authorization"] = "Bearer " + key
	}
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.env.Server.URL, "http")+"/graphql", opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.CloseNow() })
	require.NoError(t, wsjson.Write(ctx, conn, map[string]any{"type": "connection_init", "payload": init}))
	var ack wsMessage
	require.NoError(t, wsjson.Read(ctx, conn, &ack))
	require.Equal(t, "connection_ack", ack.Type)
	require.NoError(t, wsjson.Write(ctx, conn, map[string]any{"id": "1", "type": "subscribe",
		"payload": map[string]any{"query": query}}))
	s := &stream{msgs: make(chan wsMessage, 64)}
	go func() {
		defer close(s.msgs)
		for {
			var m wsMessage
			if err := wsjson.Read(context.Background(), conn, &m); err != nil {
				return // closed at cleanup
			}
			s.msgs <- m
		}
	}()
	return s
}

// receive waits for the stream's next message. It has no deadline of its
// own: a message that never comes is the test binary's timeout, never a
// window a loaded machine could miss.
func receive(t *testing.T, s *stream) wsMessage {
	t.Helper()
	m, ok := <-s.msgs
	require.True(t, ok, "the websocket closed")
	return m
}

// received returns a message the stream has already read, if any, without
// waiting.
func received(t *testing.T, s *stream) (wsMessage, bool) {
	t.Helper()
	select {
	case m, ok := <-s.msgs:
		require.True(t, ok, "the websocket closed")
		return m, true
	default:
		return wsMessage{}, false
	}
}

// untilStreaming writes through write until s delivers something: the
// subscription is registered asynchronously after "subscribe" and no
// message acknowledges it, so the writes go on (each a round trip, never a
// pause) until the first of their events arrives. It returns the ids write
// answered and that first message.
func untilStreaming(t *testing.T, s *stream, write func() string) (map[string]bool, wsMessage) {
	t.Helper()
	written := map[string]bool{}
	for {
		written[write()] = true
		if m, ok := received(t, s); ok {
			return written, m
		}
	}
}

// streamedEvent is the event a "next" message carries.
type streamedEvent struct {
	ID       string
	Type     string
	Livemode bool
	Data     struct{ Object map[string]any }
}

// eventOf decodes the event of a "next" message.
func eventOf(t *testing.T, m wsMessage) streamedEvent {
	t.Helper()
	require.Equal(t, "next", m.Type, string(m.Payload))
	var payload struct {
		Data struct{ Events streamedEvent }
	}
	require.NoError(t, json.Unmarshal(m.Payload, &payload), string(m.Payload))
	return payload.Data.Events
}

// The subscription is registered asynchronously after "subscribe"; the
// test writes through REST until the stream answers, then checks that what
// arrived is one of the REST writes' events.
func TestEventSubscriptionStreamsARESTWrite(t *testing.T) {
	t.Parallel()
	f := setup(t)
	conn := subscribe(t, f, f.env.Keys.Sandbox.Secret, true,
		`subscription { events(types: ["account.created"]) { id type livemode data } }`)

	created, m := untilStreaming(t, conn, func() string {
		a := f.sk.CreateAccount(testenv.Individual())
		f.sk.Patch("/v1/accounts/"+a["id"].(string), map[string]any{"metadata": map[string]any{"k": "v"}}) // filtered out
		return a["id"].(string)
	})
	require.Equal(t, "1", m.ID)
	ev := eventOf(t, m)
	require.Equal(t, "account.created", ev.Type)
	require.False(t, ev.Livemode)
	require.True(t, created[ev.Data.Object["id"].(string)], "the event of a REST call")
	require.Equal(t, http.StatusOK, f.sk.Get("/v1/events/"+ev.ID).Status, "the same event REST serves")

	// Every later write arrives, in order.
	a := f.sk.CreateAccount(testenv.Individual())
	for {
		ev := eventOf(t, receive(t, conn))
		if ev.Data.Object["id"] == a["id"] {
			break
		}
		require.True(t, created[ev.Data.Object["id"].(string)])
	}
}

// Each stream is seen registered (one of its own scope's events arrives),
// then this merchant's sandbox writes, then a last write in each stream's
// own scope: the stream delivers its scope's events in commit order, so
// anything of the sandbox writes that leaked would arrive before that last
// event.
func TestEventSubscriptionIsScopedAndAuthenticated(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, other := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	otherSk := f.env.Client(other.Sandbox.Secret)
	createIn := func(c *testenv.Client) func() string {
		return func() string { return c.CreateAccount(testenv.Individual())["id"].(string) }
	}
	// Authenticated by the connection_init payload, as browsers must.
	conn := subscribe(t, f, other.Sandbox.Secret, false, `subscription { events(types: ["account.created"]) { id type data } }`)
	live := subscribe(t, f, f.env.Keys.Production.Secret, true, `subscription { events(types: ["account.created"]) { id type data } }`)
	for _, c := range []struct {
		stream *stream
		own    *testenv.Client
		what   string
	}{{conn, otherSk, "another merchant's events never arrive"}, {live, f.live, "nor the other mode's"}} {
		own, _ := untilStreaming(t, c.stream, createIn(c.own))
		for range 3 {
			f.sk.CreateAccount(testenv.Individual())
		}
		last := createIn(c.own)()
		own[last] = true
		for {
			got := eventOf(t, receive(t, c.stream)).Data.Object["id"].(string)
			require.True(t, own[got], c.what)
			if got == last {
				break
			}
		}
	}

	// Only secret keys stream.
	pk := subscribe(t, f, f.env.Keys.Sandbox.Publishable, true, `subscription { events { id } }`)
	m := receive(t, pk)
	require.Contains(t, string(m.Payload), `"code":"forbidden"`)
	require.Contains(t, string(m.Payload), `"data":null`)
}

// A connection_init whose credential is refused closes the socket 4403
// Forbidden, as graphql-transport-ws asks, and the server stays up.
func TestEventStreamRefusesABadInitCredential(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, authorization := range []string{"Bearer sk_sandbox_not_a_real_key", "Basic abc", "Bearer"} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		opts := &websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}}
		conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.env.Server.URL, "http")+"/graphql", opts)
		require.NoError(t, err)
		require.NoError(t, wsjson.Write(ctx, conn, map[string]any{"type": "connection_init",
			"payload": map[string]any{"Authorization": authorization}}))
		var m wsMessage
		err = wsjson.Read(ctx, conn, &m)
		for err == nil { // a connection_error message may come before the close
			err = wsjson.Read(ctx, conn, &m)
		}
		require.Equal(t, websocket.StatusCode(4403), websocket.CloseStatus(err), "%s: %v", authorization, err)
		_ = conn.CloseNow()
		cancel()
	}
	subscribe(t, f, f.env.Keys.Sandbox.Secret, false, `subscription { events { id } }`)
}
