package cable_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/internal/testenv/poll"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// receiver is a local webhook receiver: the X-Frame-Webhook-Id of every
// delivery it gets.
func receiver(t *testing.T) (string, chan string) {
	t.Helper()
	got := make(chan string, 64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		got <- r.Header.Get("X-Frame-Webhook-Id")
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, got
}

// waitDelivery waits for the receiver to get the delivery id.
func waitDelivery(t *testing.T, got chan string, id string) {
	t.Helper()
	for d := range got { // the test binary's timeout bounds a delivery that never comes
		if d == id {
			return
		}
	}
}

// waitReleased waits until the server has seen a session's connection
// close (no connection holds it).
func waitReleased(t *testing.T, env *testenv.Env, sessionID string) {
	t.Helper()
	poll.Until(t, "the server to release session "+sessionID, func() bool {
		var held bool
		require.NoError(t, env.DB.Bun.NewRaw("SELECT holder IS NOT NULL FROM listen_sessions WHERE id = ?", sessionID).
			Scan(context.Background(), &held))
		return !held
	})
}

// deliveryTo is the one delivery of the event to the endpoint.
func deliveryTo(t *testing.T, c *testenv.Client, endpointID, eventID string) map[string]any {
	t.Helper()
	r := c.Get("/v1/webhook_endpoints/" + endpointID + "/deliveries?event_id=" + eventID)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	data := r.JSON()["data"].([]any)
	require.Len(t, data, 1, string(r.Body))
	return data[0].(map[string]any)
}

// With skip_endpoints, the merchant's sandbox endpoints are held back
// while the session lives: their deliveries are recorded as skipped, never
// lost silently (and a resend then reaches the session only). When the
// CLI stops (unsubscribe), the endpoints receive again at once.
func TestListenSkipEndpointsHoldsEndpointsBack(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	env.StartDelivery(testenv.FastDelivery())
	sk := env.Client(env.Keys.Sandbox.Secret)
	url, got := receiver(t)
	ep := sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(url, "customer.created"))

	c, id, s := listening(t, env, nil, true)

	sk.CreateCustomer(testenv.Customer())
	held := nextEvent(t, c, id, s.Secret)
	c.Ack(id, held.ID, 200, "", 1)
	eventID := eventsSince(t, sk, "")[0]["id"].(string)
	d := deliveryTo(t, sk, ep.ID.String(), eventID)
	require.Equal(t, "skipped", d["status"], d)
	require.EqualValues(t, 0, d["attempt_count"])
	require.Equal(t, "held back: a listen session with skip_endpoints was live", d["last_error"])
	require.Equal(t, http.StatusOK, sk.Get("/v1/webhook_endpoints/"+ep.ID.String()+"/deliveries?status=skipped").Status)

	r := sk.Post("/v1/events/"+eventID+"/resend", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "queued", r.JSON()["status"], "the session gets it")
	again := nextEvent(t, c, id, s.Secret)
	c.Ack(id, again.ID, 200, "", 1)
	r = sk.Get("/v1/webhook_endpoints/" + ep.ID.String() + "/deliveries?event_id=" + eventID + "&status=skipped")
	require.Len(t, r.JSON()["data"], 2, "the resend to the endpoint is held back too")

	// The CLI stops: unsubscribe, then close.
	c.Unsubscribe(id)
	require.Empty(t, barrier(t, c, 1))
	c.Close()
	sk.CreateCustomer(testenv.Customer())
	next := eventsSince(t, sk, eventID)
	require.Len(t, next, 1)
	d = deliveryTo(t, sk, ep.ID.String(), next[0]["id"].(string))
	// Pending, or already succeeded: the worker may have been quick.
	require.NotEqual(t, "skipped", d["status"], "a session that ended holds nothing back")
	waitDelivery(t, got, d["id"].(string))

	r = sk.Post("/v1/events/"+eventID+"/resend", nil)
	require.Equal(t, "queued", r.JSON()["status"])
	resent := notSkipped(t, sk, ep.ID.String(), eventID)
	require.Len(t, resent, 1, "the resend after the session reaches the endpoint")
	waitDelivery(t, got, resent[0]["id"].(string))
}

// notSkipped are the event's deliveries to the endpoint that were not
// held back, whatever their progress.
func notSkipped(t *testing.T, c *testenv.Client, endpointID, eventID string) []map[string]any {
	t.Helper()
	r := c.Get("/v1/webhook_endpoints/" + endpointID + "/deliveries?event_id=" + eventID)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var out []map[string]any
	for _, d := range r.JSON()["data"].([]any) {
		if d := d.(map[string]any); d["status"] != "skipped" {
			out = append(out, d)
		}
	}
	return out
}

// A reconnect with the session token within the resume window resumes the
// session: the same secret and endpoint, replayed: true, and every event
// the CLI had not acknowledged (here: those committed while it was away),
// in order.
func TestListenResumeReplaysMissedEvents(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)
	c1, id, s := listening(t, env, []string{"customer.created"}, false)

	a := sk.CreateCustomer(testenv.Customer())
	ea := nextEvent(t, c1, id, s.Secret)
	require.Equal(t, a.ID.String(), ea.Object["id"])
	c1.Ack(id, ea.ID, 200, "", 1)
	require.Empty(t, barrier(t, c1, 1))
	lastReceivedAt := env.Clock.Now().UnixMilli()
	c1.Close() // the network drops: no unsubscribe

	b := sk.CreateCustomer(testenv.Customer())
	cc := sk.CreateCustomer(testenv.Customer())

	c2 := env.DialCable(env.Keys.Sandbox.Secret)
	resumeID := testenv.ListenIdentifier([]string{"customer.created"}, false, s.Token)
	r := listen(t, c2, resumeID, lastReceivedAt)
	require.True(t, r.Replayed)
	require.Equal(t, s.Secret, r.Secret, "the same secret: the developer's .env still verifies")
	require.Equal(t, s.EndpointID, r.EndpointID)
	require.Equal(t, s.Token, r.Token)
	// The missed events, in order; the acknowledged one is not sent again.
	receiveInOrder(t, c2, resumeID, s.Secret, b.ID.String(), cc.ID.String())
}

// A client that falls behind costs bounded memory: the server sends at
// most InFlight events it has not acknowledged, buffers at most Buffer
// more, and disconnects it past that (telling it to reconnect); it then
// resumes, and is sent every event from the database, in order.
func TestSlowListenClientIsDisconnectedAndResumesByReplay(t *testing.T) {
	t.Parallel()
	env := testenv.New(t, testenv.WithListen(webhooks.ListenConfig{InFlight: 2, Buffer: 2}))
	sk := env.Client(env.Keys.Sandbox.Secret)
	c, _, s := listening(t, env, []string{"customer.created"}, false)

	// The client reads but never acknowledges. The session stops sending at
	// two in flight; its notifications then pile up, and the third past the
	// buffer ends it. Until then the notes are read in batches of at most
	// 100, so 2 + 100 + 3 customers always suffice.
	var created []string
	sent := 0
	disconnected := false
	drain := func(block bool) {
		for !disconnected {
			var f testenv.CableFrame
			var ok bool
			if block {
				f, ok = c.NextOrClosed()
			} else {
				select {
				case f, ok = <-c.Frames:
				default:
					return
				}
			}
			switch {
			case !ok:
				t.Fatal("closed without a disconnect frame")
			case f.Type == "disconnect":
				require.True(t, f.Reconnect, string(f.Raw))
				disconnected = true
			default:
				sent++
			}
		}
	}
	for len(created) < 105 && !disconnected {
		created = append(created, sk.CreateCustomer(testenv.Customer()).ID.String())
		drain(false)
	}
	drain(true)
	require.LessOrEqual(t, sent, 2, "never more in flight than InFlight")
	_, open := c.NextOrClosed()
	require.False(t, open, "the server closed the connection")

	c2 := env.DialCable(env.Keys.Sandbox.Secret)
	resumeID := testenv.ListenIdentifier([]string{"customer.created"}, false, s.Token)
	r := listen(t, c2, resumeID, env.Clock.Now().UnixMilli())
	require.True(t, r.Replayed)
	receiveInOrder(t, c2, resumeID, s.Secret, created...)
}

// Closing the socket ends the session once the resume window has passed:
// its token then opens a new session (another secret), the endpoints are
// no longer held back, and what it had not acknowledged ends failed,
// still readable.
func TestListenSessionEndsAfterTheResumeWindow(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)
	url, _ := receiver(t)
	ep := sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(url, "customer.created"))
	c, id, s := listening(t, env, []string{"customer.created"}, true)
	sk.CreateCustomer(testenv.Customer())
	unacked := nextEvent(t, c, id, s.Secret)
	c.Close()
	waitReleased(t, env, s.EndpointID) // its window starts when the server sees the close

	env.Clock.Advance(webhooks.DefaultListenResumeWindow + time.Second)
	n, err := env.Services.Webhooks.Listen.Sweep(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, n)

	d := sk.Get("/v1/webhook_deliveries/" + unacked.ID).JSON()
	require.Equal(t, "failed", d["status"])
	require.Equal(t, "the listen session expired before the CLI acknowledged it", d["last_error"])
	require.Equal(t, http.StatusOK, sk.Get("/v1/webhook_endpoints/"+s.EndpointID+"/deliveries").Status,
		"an ended session's deliveries stay readable")

	sk.CreateCustomer(testenv.Customer())
	after := eventsSince(t, sk, "")
	last := after[len(after)-1]["id"].(string)
	require.Equal(t, "pending", deliveryTo(t, sk, ep.ID.String(), last)["status"], "no longer held back")

	c2 := env.DialCable(env.Keys.Sandbox.Secret)
	resumeID := testenv.ListenIdentifier([]string{"customer.created"}, false, s.Token)
	fresh := listen(t, c2, resumeID, 0)
	require.False(t, fresh.Replayed, "too late to resume: a new session")
	require.NotEqual(t, s.Secret, fresh.Secret)
	require.NotEqual(t, s.EndpointID, fresh.EndpointID)
	require.Empty(t, barrier(t, c2, 1), "the new session starts with nothing to replay")
}
