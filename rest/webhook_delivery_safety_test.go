package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// A production endpoint whose host later points inside (here: a url the
// API would refuse, written straight to the database, as a DNS change
// would make it) is refused at delivery time, on the address dialled.
func TestWebhookDeliveryRefusesPrivateAddressesInProduction(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ep := f.live.Post("/v1/webhook_endpoints", map[string]any{"url": "https://93.184.216.34/h", "event_codes": []string{"*"}}).JSON()
	// An https receiver on 127.0.0.1 (production delivers over https only).
	tls := newTLSReceiver(t)
	f.exec(t, `UPDATE webhook_endpoints SET url = ? WHERE id = ?`, tls.URL, id(ep))
	cfg := testenv.FastDelivery()
	cfg.Schedule = webhook.Schedule{MaxAttempts: 1}
	f.env.StartDelivery(cfg)
	f.live.CreateAccount(testenv.Individual())

	var d map[string]any
	f.env.AwaitWrites(func() bool { // the refused delivery
		r := f.live.Get("/v1/webhook_endpoints/" + id(ep) + "/deliveries").JSON()["data"].([]any)
		if len(r) == 1 {
			d = r[0].(map[string]any)
		}
		return d != nil && d["status"] != "pending"
	}, "webhook_deliveries")
	require.Equal(t, "failed", d["status"])
	at := d["attempts"].([]any)[0].(map[string]any)
	require.Nil(t, at["status_code"])
	require.Contains(t, at["error"], "not public")
	require.Empty(t, tls.requests(), "nothing reached the private address")
}

// newTLSReceiver is a receiver over https on a loopback address.
func newTLSReceiver(t *testing.T) *receiver {
	t.Helper()
	rc := &receiver{}
	rc.Server = newTLSServer(t, rc)
	return rc
}

// A sandbox endpoint whose host later points inside (a url written
// straight to the database, as a DNS change would make it) is refused at
// delivery when the operator does not allow local destinations: nothing
// reaches the receiver and no answer is recorded.
func TestWebhookDeliveryRefusesLocalAddressesInTheSandboxUnlessAllowed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rc := newReceiver(t, nil)
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("http://93.184.216.34/h"))
	f.exec(t, `UPDATE webhook_endpoints SET url = ? WHERE id = ?`, rc.URL, id(ep))
	cfg := testenv.FastDelivery()
	cfg.Destinations = webhook.Destinations{}
	cfg.Schedule = webhook.Schedule{MaxAttempts: 1}
	f.env.StartDelivery(cfg)
	f.sk.CreateAccount(testenv.Individual())
	d := waitDelivered(t, f, id(ep), 1)[0]
	require.Equal(t, "failed", d["status"])
	require.Contains(t, d["last_error"], "not public")
	at := d["attempts"].([]any)[0].(map[string]any)
	require.Nil(t, at["status_code"])
	require.Nil(t, at["response_excerpt"], "nothing read from a local address")
	require.Empty(t, rc.requests())
}

func TestWebhookDeliverySignsWithBothSecretsDuringTheGrace(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rc := newReceiver(t, nil)
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(rc.URL, "account.created"))
	old := *ep.Secret
	rot := f.sk.Post("/v1/webhook_endpoints/"+id(ep)+"/rotate_secret", map[string]any{"grace_period_seconds": 3600})
	require.Equal(t, http.StatusOK, rot.Status, string(rot.Body))
	fresh := rot.JSON()["secret"].(string)
	f.env.StartDelivery(testenv.FastDelivery())

	f.sk.CreateAccount(testenv.Individual())
	waitDelivered(t, f, id(ep), 1)
	req := rc.requests()[0]
	require.True(t, webhook.Verify(old, req.Body, req.Header.Get("X-Frame-Signature")),
		"during the grace the legacy header keeps the secret receivers hold")
	now := f.env.Clock.Now().Unix()
	v2 := req.Header.Get("X-Frame-Signature-V2")
	require.True(t, webhook.VerifyV2(fresh, req.Body, v2, now, 300))
	require.True(t, webhook.VerifyV2(old, req.Body, v2, now, 300))

	f.env.Clock.Advance(2 * time.Hour)
	f.sk.CreateAccount(testenv.Individual())
	waitDelivered(t, f, id(ep), 2)
	req = rc.requests()[1]
	require.True(t, webhook.Verify(fresh, req.Body, req.Header.Get("X-Frame-Signature")), "after the grace only the new secret signs")
	require.False(t, webhook.VerifyV2(old, req.Body, req.Header.Get("X-Frame-Signature-V2"), f.env.Clock.Now().Unix(), 300))

	// A rotation without grace ends the old secret at once.
	rot = f.sk.Post("/v1/webhook_endpoints/"+id(ep)+"/rotate_secret", map[string]any{"grace_period_seconds": 0})
	newest := rot.JSON()["secret"].(string)
	f.sk.CreateAccount(testenv.Individual())
	waitDelivered(t, f, id(ep), 3)
	req = rc.requests()[2]
	require.True(t, webhook.Verify(newest, req.Body, req.Header.Get("X-Frame-Signature")))
	require.False(t, webhook.VerifyV2(fresh, req.Body, req.Header.Get("X-Frame-Signature-V2"), f.env.Clock.Now().Unix(), 300))
}

func TestWebhookDeliveryStopsAtDisabledAndDeletedEndpoints(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a, b := newReceiver(t, nil), newReceiver(t, nil)
	epA := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(a.URL))
	epB := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(b.URL))
	f.sk.CreateAccount(testenv.Individual()) // queued for both, before either changes
	f.sk.Patch("/v1/webhook_endpoints/"+id(epA), map[string]any{"status": "disabled"})
	f.sk.Delete("/v1/webhook_endpoints/" + id(epB))
	f.sk.CreateAccount(testenv.Individual()) // queued for neither
	f.env.StartDelivery(testenv.FastDelivery())
	d := waitDelivered(t, f, id(epA), 1)[0]
	require.Equal(t, "failed", d["status"])
	require.Equal(t, "endpoint disabled before delivery", d["last_error"])
	require.Empty(t, d["attempts"])
	var n int
	require.NoError(t, f.env.DB.Bun.QueryRow(`SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = ?`, id(epB)).Scan(&n))
	require.Equal(t, 1, n)
	f.env.AwaitWrites(func() bool { // the deleted endpoint's delivery ends
		var status string
		require.NoError(t, f.env.DB.Bun.QueryRow(`SELECT status FROM webhook_deliveries WHERE endpoint_id = ?`, id(epB)).Scan(&status))
		return status == "failed"
	}, "webhook_deliveries")
	require.Empty(t, a.requests())
	require.Empty(t, b.requests())
}

// A signing secret sealed under another server secret (SERVER_SECRET
// changed) cannot sign: the delivery fails saying so, and nothing is sent
// unsigned.
func TestWebhookDeliveryRefusesToSignWithAnUnreadableSecret(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rc := newReceiver(t, nil)
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(rc.URL))
	f.exec(t, `UPDATE webhook_endpoints SET secret = 'sealed1.AAAA' WHERE id = ?`, id(ep))
	f.env.StartDelivery(testenv.FastDelivery())
	f.sk.CreateAccount(testenv.Individual())
	d := waitDelivered(t, f, id(ep), 1)[0]
	require.Equal(t, "failed", d["status"])
	require.Contains(t, d["last_error"], "rotate it")
	require.Empty(t, rc.requests())

	// Rotating gives it a readable secret again.
	rot := f.sk.Post("/v1/webhook_endpoints/"+id(ep)+"/rotate_secret", map[string]any{"grace_period_seconds": 0})
	require.Equal(t, http.StatusOK, rot.Status)
	f.sk.CreateAccount(testenv.Individual())
	waitDelivered(t, f, id(ep), 2)
	req := rc.requests()[0]
	require.True(t, webhook.Verify(rot.JSON()["secret"].(string), req.Body, req.Header.Get("X-Frame-Signature")))
}
