package rest_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// threeDSIntentKeys are the members of a 3-D Secure intent (spec doc 2 §2.9).
var threeDSIntentKeys = sorted("id", "object", "customer", "payment_method", "status", "challenge_url", "completed",
	"created", "updated", "livemode", "payment_method_id")

func createThreeDSIntent(t *testing.T, c *testenv.Client, pmID string) map[string]any {
	t.Helper()
	r := c.Post("/v1/3ds/intents", map[string]any{"payment_method_id": pmID})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

// A challenge card's intent is issued with a challenge_url, polled,
// resent and answered; frictionless cards are verified at once.
func TestThreeDSIntentsByTestCard(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cust := f.sk.CreateCustomer(testenv.Customer())
	cases := []struct{ number, final string }{
		{"4000000000003220", "verified"},
		{"4000008400001629", "failed"},
	}
	for _, c := range cases {
		card := f.sk.CreateCard(id(cust), c.number)
		in := createThreeDSIntent(t, f.pk, id(card))
		require.Equal(t, threeDSIntentKeys, keys(in), c.number)
		require.Equal(t, "three_ds_verification_intent", in["object"])
		require.Equal(t, "issued", in["status"])
		require.Equal(t, id(cust), in["customer"])
		require.Equal(t, id(card), in["payment_method"])
		require.Equal(t, false, in["livemode"])
		require.Nil(t, in["completed"])
		url, _ := in["challenge_url"].(string)
		require.True(t, strings.HasPrefix(url, "https://3ds.frame.test/challenge/"), url)

		polled := f.pk.Get("/v1/3ds/intents/" + id(in))
		require.Equal(t, http.StatusOK, polled.Status, string(polled.Body))
		require.Equal(t, in, polled.JSON(), "a poll shows the intent as created")

		resent := f.pk.Post("/v1/3ds/intents/"+id(in)+"/resend", nil)
		require.Equal(t, http.StatusOK, resent.Status, string(resent.Body))
		require.Equal(t, "issued", resent.JSON()["status"])
		require.NotEqual(t, url, resent.JSON()["challenge_url"], "a resend issues a new challenge")

		done := f.sk.Post("/v1/test_helpers/3ds/intents/"+id(in)+"/complete", nil)
		require.Equal(t, http.StatusOK, done.Status, string(done.Body))
		got := f.pk.Get("/v1/3ds/intents/" + id(in)).JSON()
		require.Equal(t, done.JSON(), got)
		require.Equal(t, c.final, got["status"], c.number)
		require.Nil(t, got["challenge_url"])
		require.NotNil(t, got["completed"])

		requireError(t, f.sk.Post("/v1/test_helpers/3ds/intents/"+id(in)+"/complete", nil),
			http.StatusUnprocessableEntity, "invalid_state", "")
		requireError(t, f.pk.Post("/v1/3ds/intents/"+id(in)+"/resend", nil), http.StatusUnprocessableEntity, "invalid_state", "")
		// Concluded, the card may be verified again.
		require.Equal(t, "issued", createThreeDSIntent(t, f.pk, id(card))["status"])
	}
	for _, number := range []string{"4111110116638870", "4242424242424242", "4000000000009995"} {
		card := f.sk.CreateCard(id(cust), number)
		in := createThreeDSIntent(t, f.sk, id(card))
		require.Equal(t, "verified", in["status"], number)
		require.Nil(t, in["challenge_url"])
		require.Equal(t, in["created"], in["completed"])
		requireError(t, f.sk.Post("/v1/test_helpers/3ds/intents/"+id(in)+"/complete", nil),
			http.StatusUnprocessableEntity, "invalid_state", "")
	}
	// The service names no 3-D Secure events: none is written, and the
	// catalogue has no such type to filter by.
	for _, e := range listEvents(t, f.sk, "") {
		require.False(t, strings.HasPrefix(e.Type, "three_ds"), e.Type)
	}
	requireValidation(t, f.sk.Get("/v1/events?type=three_ds_intent.created"), "type")
}

// An unknown payment method and one that cannot start a verification get
// the same 404, byte for byte but for the request id.
func TestThreeDSIntentNotFoundIsIdentical(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cust := f.sk.CreateCustomer(testenv.Customer())
	busy := f.sk.CreateCard(id(cust), "4000000000003220")
	f.pk.CreateThreeDSIntent(id(busy))
	detached := f.sk.CreateCard(id(cust), "4242424242424242")
	require.Equal(t, http.StatusOK, f.sk.Post("/v1/payment_methods/"+id(detached)+"/detach", nil).Status)
	a := f.sk.CreateAccount(testenv.Individual())
	ach := f.sk.Post("/v1/payment_methods", map[string]any{"type": "ach", "account": id(a),
		"routing_number": "110000000", "account_number": "000123456789", "account_type": "checking"}).JSON()
	_, other := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	foreign := f.env.Client(other.Sandbox.Secret).CreateCard("", "4000000000003220")

	bodyOf := func(pmID string) []byte {
		t.Helper()
		r := f.pk.Post("/v1/3ds/intents", map[string]any{"payment_method_id": pmID})
		e := requireError(t, r, http.StatusNotFound, "resource_missing", "payment_method_id")
		return bytes.Replace(r.Body, []byte(e["request_id"].(string)), nil, 1)
	}
	want := bodyOf("0190a000-0000-7000-8000-000000000000")
	for name, pmID := range map[string]string{"in progress": id(busy), "detached": id(detached), "ach": id(ach),
		"another merchant's": id(foreign), "malformed": "pm_../../x"} {
		require.Equal(t, string(want), string(bodyOf(pmID)), name)
	}
	require.NotContains(t, string(want), id(busy))
}

// Two creates for one card at once: one intent, and the other the same 404.
func TestThreeDSIntentConcurrentCreates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	card := f.pk.CreateCard("", "4000000000003220")
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.pk.Post("/v1/3ds/intents", map[string]any{"payment_method_id": id(card)}).Status
		}()
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		if s == http.StatusCreated {
			created++
		} else {
			require.Equal(t, http.StatusNotFound, s)
		}
	}
	require.Equal(t, 1, created)
	var count int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM three_ds_intents").Scan(context.Background(), &count))
	require.Equal(t, 1, count)
}

// The SDK's flow for a charge waiting in requires_3d_secure: an intent for
// the source card, the challenge answered, the transfer final.
func TestThreeDSIntentResolvesWaitingTransfers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cases := []struct{ number, intent, transfer, code string }{
		{"4000000000003220", "verified", "succeeded", ""},
		{"4000008400001629", "failed", "failed", "authentication_required"},
	}
	for _, c := range cases {
		p := newPayer(t, f.sk, c.number)
		tr := f.sk.CreateTransfer(p.charging(1000))
		require.Equal(t, "requires_3d_secure", string(tr.Status))
		in := f.pk.CreateThreeDSIntent(id(p.card))
		require.Equal(t, models.ThreeDSIssued, in.Status)
		require.Equal(t, "requires_3d_secure", f.sk.Get("/v2/transfers/" + id(tr)).JSON()["status"])

		r := f.sk.Post("/v1/test_helpers/3ds/intents/"+id(in)+"/complete", nil)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		require.Equal(t, c.intent, r.JSON()["status"])
		v2 := f.sk.Get("/v2/transfers/" + id(tr)).JSON()
		require.Equal(t, c.transfer, v2["status"], c.number)
		require.Nil(t, v2["next_action"])
		if c.code != "" {
			require.Equal(t, c.code, v2["payment"].(map[string]any)["failure_code"])
		}
	}
	// The transfer's helper answers the same challenge: the card's issued
	// intent concludes with it.
	p := newPayer(t, f.sk, "4000000000003220")
	tr := f.sk.CreateTransfer(p.charging(700))
	in := f.pk.CreateThreeDSIntent(id(p.card))
	r := f.sk.Post("/v1/test_helpers/transfers/"+id(tr)+"/complete_3d_secure", nil)
	require.Equal(t, "succeeded", r.JSON()["status"])
	require.Equal(t, "verified", f.pk.Get("/v1/3ds/intents/" + id(in)).JSON()["status"])
	books := requireBooksHold(t, f)
	require.Equal(t, int64(1700), books["card_clearing"])
	require.Len(t, listEvents(t, f.sk, "transfer.succeeded"), 2)
	require.Len(t, listEvents(t, f.sk, "transfer.failed"), 1)
}

// An issued challenge lapses after 15 minutes: it reads failed, cannot be
// resent or completed, and the card may start a new verification.
func TestThreeDSIntentChallengeLapses(t *testing.T) {
	t.Parallel()
	f := setup(t)
	card := f.pk.CreateCard("", "4000000000003220")
	in := f.pk.CreateThreeDSIntent(id(card))
	f.env.Clock.Advance(10 * time.Minute)
	require.Equal(t, http.StatusOK, f.pk.Post("/v1/3ds/intents/"+id(in)+"/resend", nil).Status)
	resentAt := num(f.pk.Get("/v1/3ds/intents/" + id(in)).JSON()["updated"])
	f.env.Clock.Advance(16 * time.Minute)
	got := f.pk.Get("/v1/3ds/intents/" + id(in)).JSON()
	require.Equal(t, "failed", got["status"])
	require.Nil(t, got["challenge_url"])
	require.Equal(t, resentAt+15*60, num(got["completed"]))
	requireError(t, f.pk.Post("/v1/3ds/intents/"+id(in)+"/resend", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Post("/v1/test_helpers/3ds/intents/"+id(in)+"/complete", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	again := f.pk.CreateThreeDSIntent(id(card))
	require.Equal(t, models.ThreeDSIssued, again.Status)
	require.Equal(t, got, f.pk.Get("/v1/3ds/intents/"+id(in)).JSON(), "the lapsed intent stays as it read")
}

// Who may call what, tenancy, production, and malformed input.
func TestThreeDSIntentCredentialsAndInput(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4000000000003220")
	in := f.sk.CreateThreeDSIntent(id(p.card))
	session := f.sk.CreateCheckoutSession(testenv.CheckoutSession(id(p.account), 1000))
	chk := f.env.Client(*session.ClientSecret)
	requireError(t, chk.Post("/v1/3ds/intents", map[string]any{"payment_method_id": id(p.card)}), http.StatusForbidden, "forbidden", "")
	requireError(t, chk.Get("/v1/3ds/intents/"+id(in)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post("/v1/test_helpers/3ds/intents/"+id(in)+"/complete", nil), http.StatusForbidden, "forbidden", "")
	requireError(t, f.env.Client("").Get("/v1/3ds/intents/"+id(in)), http.StatusUnauthorized, "authentication_required", "")

	_, other := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	b := f.env.Client(other.Sandbox.Publishable)
	requireError(t, b.Get("/v1/3ds/intents/"+id(in)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, b.Post("/v1/3ds/intents/"+id(in)+"/resend", nil), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.env.Client(f.env.Keys.Production.Publishable).Get("/v1/3ds/intents/"+id(in)),
		http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.env.Client(f.env.Keys.Production.Publishable).Post("/v1/3ds/intents",
		map[string]any{"payment_method_id": id(p.card)}), http.StatusServiceUnavailable, "provider_not_configured", "")
	requireError(t, f.pk.Get("/v1/3ds/intents/not-an-id"), http.StatusNotFound, "resource_missing", "id")

	requireValidation(t, f.pk.Post("/v1/3ds/intents", map[string]any{}), "payment_method_id")
	requireValidation(t, f.pk.Post("/v1/3ds/intents", map[string]any{"payment_method_id": strings.Repeat("x", 300)}), "payment_method_id")
	requireError(t, f.pk.Post("/v1/3ds/intents", map[string]any{"payment_method_id": 12}), http.StatusBadRequest, "parameter_invalid", "payment_method_id")
	huge := f.pk.Do(http.MethodPost, "/v1/3ds/intents", map[string]any{"payment_method_id": strings.Repeat("a", 4<<20)}, nil)
	require.Contains(t, []int{http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity}, huge.Status)

	// An Idempotency-Key replays the create.
	q := newPayer(t, f.sk, "4000000000003220")
	first := f.pk.Do(http.MethodPost, "/v1/3ds/intents", map[string]any{"payment_method_id": id(q.card)}, withKey("3ds-1"))
	again := f.pk.Do(http.MethodPost, "/v1/3ds/intents", map[string]any{"payment_method_id": id(q.card)}, withKey("3ds-1"))
	require.Equal(t, http.StatusCreated, again.Status, string(again.Body))
	require.JSONEq(t, string(first.Body), string(again.Body))
}
