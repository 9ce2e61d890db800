package rest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// A create retried with its Idempotency-Key, concurrently, runs once: one
// intent, one redemption, one charge, one journal.
func TestRetriedChargeIntentCreateNeverChargesTwice(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	coupon := f.sk.CreateCoupon(testenv.AmountOffCoupon("1.00"))
	code := f.sk.CreatePromotionCode(testenv.PromotionCode(id(coupon)))
	body := p.intent(1000, map[string]any{"promotion_codes": []any{code.Code}})

	const n = 8
	statuses := make([]int, n)
	created := make([]map[string]any, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.sk.Do(http.MethodPost, "/v1/charge_intents", body, withKey("ci-retry"))
			statuses[i] = r.Status
			if r.Status == http.StatusCreated {
				created[i] = r.JSON()
			}
		}()
	}
	wg.Wait()
	intent := ""
	for i, s := range statuses {
		require.Contains(t, []int{http.StatusCreated, http.StatusConflict}, s)
		if s == http.StatusCreated {
			if intent == "" {
				intent = id(created[i])
			}
			require.Equal(t, intent, id(created[i]), "every success is the one intent")
			require.Equal(t, "succeeded", created[i]["status"])
		}
	}
	require.NotEmpty(t, intent)
	require.Len(t, listOf(t, f.sk, "/v1/charge_intents"), 1)
	require.Equal(t, float64(1), f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()["times_redeemed"])
	require.Equal(t, int64(900), requireBooksHold(t, f)["card_clearing"])
}

// Confirms racing on one intent, from the secret key, the client secret
// and a publishable key with it, charge it once: one succeeds, the others
// find it no longer waiting (422 invalid_state).
func TestConcurrentConfirmsChargeOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	ci := createIntent(t, f.sk, p.intent(1000, map[string]any{"confirm": false}))
	secret := ci["client_secret"].(string)
	browser := f.env.Client(secret)

	const n = 9
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := "/v1/charge_intents/" + id(ci) + "/confirm"
			switch i % 3 {
			case 0:
				statuses[i] = f.sk.Post(path, nil).Status
			case 1:
				statuses[i] = browser.Post(path, nil).Status
			default:
				statuses[i] = f.pk.Post(path, map[string]any{"client_secret": secret}).Status
			}
		}()
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		require.Contains(t, []int{http.StatusOK, http.StatusUnprocessableEntity}, s)
		if s == http.StatusOK {
			ok++
		}
	}
	require.Equal(t, 1, ok)
	require.Len(t, listEvents(t, f.sk, "charge_intent.succeeded"), 1)
	require.Equal(t, int64(1000), requireBooksHold(t, f)["card_clearing"])
}

// Captures racing on one authorization never capture more than it holds.
func TestConcurrentCapturesStayWithinTheAuthorization(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	ci := createIntent(t, f.sk, p.intent(1000, map[string]any{"authorization_mode": "manual"}))
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = f.sk.Post("/v1/charge_intents/"+id(ci)+"/capture", map[string]any{"amount_captured_cents": 300}).Status
		}()
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		require.Contains(t, []int{http.StatusOK, http.StatusUnprocessableEntity}, s)
		if s == http.StatusOK {
			ok++
		}
	}
	require.Equal(t, 3, ok, "three captures of 300 fit in 1000")
	got := f.sk.Get("/v1/charge_intents/" + id(ci)).JSON()
	require.Equal(t, int64(900), num(got["amount_captured"]))
	require.Equal(t, "requires_capture", got["status"])
	require.Equal(t, int64(900), requireBooksHold(t, f)["card_clearing"])
}
