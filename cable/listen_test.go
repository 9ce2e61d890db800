package cable_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// barrier makes sure the server has handled every frame c sent before it:
// a connection's frames are handled one after the other, so the answer to
// a subscribe of an unknown channel comes after them. It returns the
// frames that came before that answer.
func barrier(t *testing.T, c *testenv.Cable, n int) []testenv.CableFrame {
	t.Helper()
	id := `{"channel":"Barrier","n":` + strconv.Itoa(n) + `}`
	c.Subscribe(id, 0)
	var before []testenv.CableFrame
	for {
		f := c.Next()
		if f.Type == "reject_subscription" && string(f.Identifier) == strconv.Quote(id) {
			return before
		}
		before = append(before, f)
	}
}

// eventsSince are the merchant's events after the one with id after (all
// of them when after is ""), oldest first, as GET /v1/events lists them.
func eventsSince(t *testing.T, c *testenv.Client, after string) []map[string]any {
	t.Helper()
	r := c.Get("/v1/events?per_page=100")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var page struct {
		Data []map[string]any `json:"data"`
	}
	r.Decode(&page)
	var out []map[string]any
	for _, e := range page.Data {
		if e["id"] == after {
			break
		}
		out = append([]map[string]any{e}, out...)
	}
	return out
}

// A listen session receives every event of the merchant's sandbox in
// commit order, exactly as the CLI accepts them, signed under the
// session's secret; each ack is recorded as its delivery's attempt,
// readable through the deliveries API.
func TestListenSessionReceivesATransfersEventsSigned(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)

	// login and whoami: GET /v1/me.
	me := sk.Get("/v1/me")
	require.Equal(t, http.StatusOK, me.Status, string(me.Body))
	require.Equal(t, map[string]any{"merchant_id": env.Merchant.ID.String(), "merchant_name": "Test Platform",
		"dev_mode": true, "api_version": "v1"}, me.JSON())

	c := env.DialCable(env.Keys.Sandbox.Secret)
	require.Equal(t, "actioncable-v1-json", c.Subprotocol, "the subprotocol is echoed")
	id := testenv.ListenIdentifier(nil, false, "")
	s := listen(t, c, id, 0)
	require.False(t, s.Replayed)

	sk.StandardPricing()
	acct := sk.CreateAccount(testenv.Individual())
	card := sk.CreateAccountCard(acct["id"].(string), "4242424242424242")
	tr := sk.CreateTransfer(testenv.Charge(acct["id"].(string), card.ID.String(), 1000))
	require.Equal(t, "succeeded", string(tr.Status))

	committed := eventsSince(t, sk, "")
	require.NotEmpty(t, committed)
	var transferEvents []string
	for i, want := range committed {
		e := nextEvent(t, c, id, s.Secret)
		require.Equal(t, want["type"], e.Type, "event %d, in commit order", i)
		got := sk.Get("/v1/events/" + want["id"].(string))
		require.JSONEq(t, string(got.Body), string(e.Payload), "the payload is the event as an endpoint receives it")
		if e.Object["object"] == "transfer" {
			require.Equal(t, tr.ID.String(), e.Object["id"])
			transferEvents = append(transferEvents, e.Type)
		}
		c.Ack(id, e.ID, 204, "", 12)
	}
	require.Contains(t, transferEvents, "transfer.created")
	require.Contains(t, transferEvents, "transfer.succeeded")
	require.Empty(t, barrier(t, c, 1), "nothing more than the merchant's events")

	// Every ack is its delivery's attempt.
	page := sk.Get("/v1/webhook_endpoints/" + s.EndpointID + "/deliveries?per_page=100")
	require.Equal(t, http.StatusOK, page.Status, string(page.Body))
	deliveries := page.JSON()["data"].([]any)
	require.Len(t, deliveries, len(committed))
	for _, d := range deliveries {
		d := d.(map[string]any)
		require.Equal(t, "succeeded", d["status"], d)
		require.EqualValues(t, 1, d["attempt_count"])
		at := d["attempts"].([]any)[0].(map[string]any)
		require.EqualValues(t, 204, at["status_code"])
		require.EqualValues(t, 12, at["latency_ms"])
		require.Equal(t, "cli://listen", at["url"])
		byID := sk.Get("/v1/webhook_deliveries/" + d["id"].(string))
		require.Equal(t, http.StatusOK, byID.Status)
		require.Equal(t, s.EndpointID, byID.JSON()["webhook_endpoint_id"])
	}
}

// What the CLI's ack says is what the attempt records: a status other
// than 2xx fails the delivery, 0 means nothing was forwarded (the CLI's
// reason is the error), and a second ack of one event changes nothing.
func TestListenAcksRecordWhatTheForwardGot(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)
	c, id, s := listening(t, env, []string{"customer.created"}, false)

	sk.CreateCustomer(testenv.Customer())
	failed := nextEvent(t, c, id, s.Secret)
	c.Ack(id, failed.ID, 500, "boom", 7)
	sk.CreateCustomer(testenv.Customer())
	unreached := nextEvent(t, c, id, s.Secret)
	c.Ack(id, unreached.ID, 0, "fetch failed: connect ECONNREFUSED 127.0.0.1:3000", 3)
	c.Ack(id, unreached.ID, 200, "again", 1) // a second ack
	c.Ack(id, "not-a-delivery", 200, "", 1)
	require.Empty(t, barrier(t, c, 1))

	d := sk.Get("/v1/webhook_deliveries/" + failed.ID).JSON()
	require.Equal(t, "failed", d["status"])
	require.EqualValues(t, 500, d["last_status_code"])
	at := d["attempts"].([]any)[0].(map[string]any)
	require.Equal(t, "boom", at["response_excerpt"])
	require.Nil(t, at["error"])

	d = sk.Get("/v1/webhook_deliveries/" + unreached.ID).JSON()
	require.Equal(t, "failed", d["status"])
	require.EqualValues(t, 1, d["attempt_count"], "the second ack is not recorded")
	at = d["attempts"].([]any)[0].(map[string]any)
	require.Nil(t, at["status_code"])
	require.Equal(t, "not forwarded by the CLI: fetch failed: connect ECONNREFUSED 127.0.0.1:3000", at["error"])
}

// event_codes filters server-side; an unknown code, or a parameter of the
// wrong type, is refused with reject_subscription (identifier echoed).
func TestListenFilterAndRefusedCodes(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)
	c := env.DialCable(env.Keys.Sandbox.Secret)
	require.Equal(t, "welcome", c.Next().Type)

	for _, refused := range []string{
		testenv.ListenIdentifier([]string{"customer.created", "no.such_event"}, false, ""),
		`{"channel":"Cli::WebhookListenChannel","event_codes":"customer.created"}`,
		`{"channel":"Cli::WebhookListenChannel","event_codes":[],"skip_endpoints":"yes"}`,
		`{"channel":"Cli::NoSuchChannel"}`,
	} {
		c.Subscribe(refused, 0)
		f := c.Next()
		require.Equal(t, "reject_subscription", f.Type, refused)
		requireIdentifier(t, f, refused)
	}

	id := testenv.ListenIdentifier([]string{"customer.created"}, false, "")
	s := listen(t, c, id, 0)
	for range 2 {
		sk.CreateAccount(testenv.Individual()) // account.created: filtered out
		cust := sk.CreateCustomer(testenv.Customer())
		e := nextEvent(t, c, id, s.Secret)
		require.Equal(t, "customer.created", e.Type)
		require.Equal(t, cust.ID.String(), e.Object["id"])
		c.Ack(id, e.ID, 200, "", 1)
	}
	require.Empty(t, barrier(t, c, 1))
}

// Sessions of one merchant never see another's events, nor can another
// merchant read their deliveries.
func TestListenSessionsOfTwoMerchantsAreIsolated(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	_, otherKeys := env.NewMerchant(authMerchant("Other"))
	a, b := env.Client(env.Keys.Sandbox.Secret), env.Client(otherKeys.Sandbox.Secret)
	ca, cb := env.DialCable(env.Keys.Sandbox.Secret), env.DialCable(otherKeys.Sandbox.Secret)
	id := testenv.ListenIdentifier(nil, false, "")
	sa, sb := listen(t, ca, id, 0), listen(t, cb, id, 0)

	custA := a.CreateCustomer(testenv.Customer())
	ea := nextEvent(t, ca, id, sa.Secret)
	require.Equal(t, custA.ID.String(), ea.Object["id"])
	custB := b.CreateCustomer(testenv.Customer())
	eb := nextEvent(t, cb, id, sb.Secret)
	require.Equal(t, custB.ID.String(), eb.Object["id"], "B's first event is its own: A's never reached it")
	ca.Ack(id, ea.ID, 200, "", 1)
	require.Empty(t, barrier(t, ca, 1), "A's session got nothing of B's")

	require.Equal(t, http.StatusNotFound, b.Get("/v1/webhook_deliveries/"+ea.ID).Status)
	require.Equal(t, http.StatusNotFound, b.Get("/v1/webhook_endpoints/"+sa.EndpointID+"/deliveries").Status)
	require.Equal(t, http.StatusNotFound, env.Client(env.Keys.Production.Secret).Get("/v1/webhook_deliveries/"+ea.ID).Status)
	// B cannot resume A's session: its token names nothing of B's.
	stolen := testenv.ListenIdentifier(nil, false, sa.Token)
	other := listen(t, cb, stolen, 0)
	require.False(t, other.Replayed)
	require.NotEqual(t, sa.Secret, other.Secret)
	require.NotEqual(t, sa.EndpointID, other.EndpointID)

	// A session is no endpoint the API manages.
	require.Equal(t, http.StatusNotFound, a.Get("/v1/webhook_endpoints/"+sa.EndpointID).Status)
	require.Empty(t, a.Get("/v1/webhook_endpoints").JSON()["data"])
}

// events resend reaches a live session too (a new delivery of the same
// event) and answers a status member, as the CLI prints it.
func TestResendReachesListenSessions(t *testing.T) {
	t.Parallel()
	env := testenv.New(t)
	sk := env.Client(env.Keys.Sandbox.Secret)
	c, id, s := listening(t, env, []string{"customer.created"}, false)

	sk.CreateCustomer(testenv.Customer())
	first := nextEvent(t, c, id, s.Secret)
	c.Ack(id, first.ID, 200, "", 1)
	eventID := first.Headers["X-Frame-Webhook-Id"]
	require.NotEmpty(t, eventID)
	var payload struct {
		ID string `json:"id"`
	}
	require.NoError(t, json.Unmarshal(first.Payload, &payload))

	r := sk.Post("/v1/events/"+payload.ID+"/resend", nil) // the CLI sends no body
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "queued", r.JSON()["status"])
	require.Equal(t, payload.ID, r.JSON()["id"])
	again := nextEvent(t, c, id, s.Secret)
	require.NotEqual(t, first.ID, again.ID, "a resend is a new delivery")
	require.JSONEq(t, string(first.Payload), string(again.Payload))
	c.Ack(id, again.ID, 200, "", 1)

	// Nothing subscribed: another merchant's event.
	_, otherKeys := env.NewMerchant(authMerchant("Other"))
	other := env.Client(otherKeys.Sandbox.Secret)
	other.CreateCustomer(testenv.Customer())
	ev := eventsSince(t, other, "")[0]
	r = other.Post("/v1/events/"+ev["id"].(string)+"/resend", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "no_destinations", r.JSON()["status"])
	require.Empty(t, barrier(t, c, 1))
}
