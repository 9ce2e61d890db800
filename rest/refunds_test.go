package rest_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// testenvIndividualWithEmail is a complete individual with its own e-mail.
func testenvIndividualWithEmail(email string) testenv.AccountSpec {
	return testenv.Individual().WithIndividual(func(i *testenv.IndividualSpec) { i.Email = email })
}

var refundKeys = sorted("id", "object", "amount", "currency", "status", "reason", "failure_reason", "charge",
	"transfer", "charge_intent", "created", "updated", "livemode")

// refund posts a refund of transfer tr (a response or a model) and
// requires 201. The refund tests
// that assert on the created refund's wire members keep it as JSON; setup
// refunds come from Client.CreateRefund.
func refund(t *testing.T, f *fixture, tr any, extra map[string]any) map[string]any {
	t.Helper()
	r := f.sk.Post("/v1/refunds", merge(map[string]any{"transfer": id(tr)}, extra))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	return r.JSON()
}

func TestPartialRefundsUntilFullyRefunded(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))

	first := refund(t, f, tr, map[string]any{"amount": 300, "reason": "requested_by_customer"})
	require.Equal(t, refundKeys, keys(first))
	require.Equal(t, "refund", first["object"])
	require.Equal(t, "succeeded", first["status"])
	require.Equal(t, int64(300), num(first["amount"]))
	require.Equal(t, "USD", first["currency"])
	require.Equal(t, "requested_by_customer", first["reason"])
	require.Equal(t, id(tr), first["transfer"])
	require.Equal(t, tr.LatestCharge.String(), first["charge"])
	require.Nil(t, first["charge_intent"])
	require.Nil(t, first["failure_reason"])
	require.Equal(t, false, first["livemode"])
	requireInt(t, first["created"], "created")

	ch := chargeOf(t, f.sk, tr)
	require.Equal(t, int64(300), num(ch["amount_refunded"]))
	require.Equal(t, false, ch["refunded"])
	require.Equal(t, "requested_by_customer", ch["refund_reason"])
	require.Equal(t, "succeeded", f.sk.Get("/v1/transfers/" + id(tr)).JSON()["status"], "a partial refund leaves the transfer")

	// The rest, by default.
	rest := refund(t, f, tr, nil)
	require.Equal(t, int64(700), num(rest["amount"]))
	require.Nil(t, rest["reason"])
	ch = chargeOf(t, f.sk, tr)
	require.Equal(t, int64(1000), num(ch["amount_refunded"]))
	require.Equal(t, true, ch["refunded"])
	got := f.sk.Get("/v1/transfers/" + id(tr)).JSON()
	require.Equal(t, "refunded", got["status"], "a fully refunded transfer is refunded")

	// Nothing remains.
	e := requireError(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr)}), http.StatusUnprocessableEntity,
		"charge_already_refunded", "")
	require.Contains(t, e["message"], "refunded in full")
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr), "amount": 1}), http.StatusUnprocessableEntity,
		"charge_already_refunded", "")

	// Events: refund.created and charge.refunded for each, transfer.updated once.
	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"refund.created"}, eventTypes(evs, id(first)))
	require.Equal(t, []string{"charge.refunded", "charge.refunded"}, eventTypes(evs, id(ch)))
	require.Equal(t, []string{"transfer.created", "transfer.succeeded", "transfer.updated"}, eventTypes(evs, id(tr)))
	updated := listEvents(t, f.sk, "transfer.updated")
	require.Equal(t, map[string]any{"status": "succeeded"}, updated[len(updated)-1].previous())

	// The ledger: the merchant's balance paid both refunds; the fees stayed.
	books := requireBooksHold(t, f)
	require.Equal(t, int64(0), books["card_clearing"])
	require.Equal(t, int64(59), books["merchant"], "the merchant owes the 59 of fees it never received")
	require.Equal(t, int64(-59), books["platform_fees"])
	trace := f.sk.Get("/v1/charges/" + id(ch) + "/trace").JSON()
	var kinds []string
	for _, j := range trace["ledger"].(map[string]any)["journals"].([]any) {
		kinds = append(kinds, j.(map[string]any)["kind"].(string))
	}
	require.Equal(t, []string{"charge.capture", "charge.refund", "charge.refund"}, kinds)
	var types []string
	for _, e := range trace["events"].([]any) {
		types = append(types, e.(map[string]any)["type"].(string))
	}
	require.Equal(t, []string{"transfer.created", "transfer.succeeded", "refund.created", "charge.refunded",
		"refund.created", "charge.refunded", "transfer.updated"}, types)
}

func TestRefundAmountRules(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))

	e := requireError(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr), "amount": 1001}),
		http.StatusUnprocessableEntity, "amount_too_large", "amount")
	require.Equal(t, map[string]any{"remaining_amount": float64(1000)}, errorDetails(e)["data"])
	errs := requireValidation(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr), "amount": 0, "reason": "because"}),
		"amount", "reason")
	requireProblem(t, errs, "amount", "must be a positive integer")
	requireValidation(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr), "amount": -5}), "amount")
	requireValidation(t, f.sk.Post("/v1/refunds", map[string]any{}), "transfer")
	requireValidation(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr), "charge_intent": uuid.NewString()}), "charge_intent")
	requireValidation(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": "nope"}), "transfer")
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr), "amount": 1.5}), http.StatusBadRequest,
		"parameter_invalid", "amount")
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr), "amount": "5"}), http.StatusBadRequest,
		"parameter_invalid", "amount")
	requireError(t, f.sk.Post("/v1/refunds", `{"transfer":`), http.StatusBadRequest, "invalid_json", "")
	require.Empty(t, listOf(t, f.sk, "/v1/refunds"), "refused refunds leave nothing")
	require.Equal(t, int64(0), num(chargeOf(t, f.sk, tr)["amount_refunded"]))

	r := refund(t, f, tr, map[string]any{"amount": 1000})
	require.Equal(t, int64(1000), num(r["amount"]), "exactly the remaining amount")
}

func TestOnlyCapturedChargesAreRefundable(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")

	unconfirmed := f.sk.CreateTransfer(p.charging(1000).WithoutConfirm())
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(unconfirmed)}), http.StatusUnprocessableEntity, "invalid_state", "")
	authorized := f.sk.CreateTransfer(p.charging(1000).WithAuthorizationMode("manual"))
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(authorized)}), http.StatusUnprocessableEntity, "invalid_state", "")
	declined := f.sk.CreateTransfer(newPayer(t, f.sk, "4000000000000002").charging(1000))
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(declined)}), http.StatusUnprocessableEntity, "invalid_state", "")

	// A partial capture refunds at most what was captured.
	r := f.sk.Post("/v1/transfers/"+id(authorized)+"/capture", map[string]any{"amount_captured_cents": 600})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(authorized), "amount": 601}),
		http.StatusUnprocessableEntity, "amount_too_large", "amount")
	require.Equal(t, int64(600), num(refund(t, f, authorized, nil)["amount"]))

	// A payout is not a charge.
	f.exec(t, `UPDATE transfers SET source_payment_method_id = NULL, destination_payment_method_id = source_payment_method_id,
		billable_event_type = 'transfer.payout.push_to_card' WHERE id = ?`, id(unconfirmed))
	errs := requireValidation(t, f.sk.Post("/v1/refunds", map[string]any{"transfer": id(unconfirmed)}), "transfer")
	requireProblem(t, errs, "transfer", "is a payout: only a charge can be refunded")
	requireBooksHold(t, f)
}

func TestRefundsAreSecretKeyOnlyAndTenantScoped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	rf := refund(t, f, tr, map[string]any{"amount": 100})

	_, other := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	stranger := f.env.Client(other.Sandbox.Secret)
	requireError(t, stranger.Post("/v1/refunds", map[string]any{"transfer": id(tr)}), http.StatusNotFound, "resource_missing", "transfer")
	requireError(t, stranger.Get("/v1/refunds/"+id(rf)), http.StatusNotFound, "resource_missing", "id")
	require.Empty(t, listOf(t, stranger, "/v1/refunds"))
	require.Empty(t, listOf(t, stranger, "/v1/refunds?transfer="+id(tr)))
	// Production mode refunds through a card processor, which none ships:
	// refused before any look-up, so the answer says nothing of the id.
	requireError(t, f.live.Post("/v1/refunds", map[string]any{"transfer": id(tr)}), http.StatusServiceUnavailable, "provider_not_configured", "")
	requireError(t, f.live.Get("/v1/refunds/"+id(rf)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.pk.Post("/v1/refunds", map[string]any{"transfer": id(tr)}), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Get("/v1/refunds"), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Get("/v1/refunds/"+id(rf)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.sk.Get("/v1/refunds/not-an-id"), http.StatusNotFound, "resource_missing", "id")
	require.Equal(t, int64(100), num(chargeOf(t, f.sk, tr)["amount_refunded"]), "only the one refund happened")
}

func TestRefundListFiltersAndPages(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	a := f.sk.CreateTransfer(p.charging(1000))
	b := f.sk.CreateTransfer(p.charging(1000))
	var made []string
	for i := range 3 {
		made = append(made, id(f.sk.CreateRefund(testenv.RefundSpec{TransferID: id(a), Amount: int64(10 + i)})))
	}
	made = append(made, id(f.sk.CreateRefund(testenv.RefundSpec{TransferID: id(b), Amount: 5})))

	all := listOf(t, f.sk, "/v1/refunds")
	require.Equal(t, []string{made[3], made[2], made[1], made[0]}, ids(all), "newest first")
	require.Equal(t, []string{made[2], made[1], made[0]}, ids(listOf(t, f.sk, "/v1/refunds?transfer="+id(a))))
	require.Equal(t, []string{made[3]}, ids(listOf(t, f.sk, "/v1/refunds?charge="+b.LatestCharge.String())))
	r := f.sk.Get("/v1/refunds?per_page=2&page=2")
	require.Equal(t, http.StatusOK, r.Status)
	page := r.JSON()
	require.Len(t, page["data"], 2)
	require.Equal(t, false, page["meta"].(map[string]any)["has_more"])
	require.Equal(t, 2, r.Statements, "credential and one list statement")
	requireValidation(t, f.sk.Get("/v1/refunds?transfer="+id(a)+"&charge_intent="+uuid.NewString()), "charge_intent")
	requireValidation(t, f.sk.Get("/v1/refunds?transfer=nope"), "transfer")
	require.Empty(t, listOf(t, f.sk, "/v1/refunds?charge_intent="+uuid.NewString()))
	require.Equal(t, 2, f.sk.Get("/v1/refunds/"+made[0]).Statements, "credential and one read")
}

// A charge intent's refund acts on the intent's latest succeeded charge.
// Charge intents are not served by this server yet: the test writes the
// rows a charge intent's charges would (two declined attempts and one
// success) and refunds by the intent.
func TestRefundByChargeIntentActsOnItsCharge(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	ci := f.sk.CreateChargeIntent(newIntentPayer(t, f.sk, "4242424242424242").intent(2000, nil))
	require.Equal(t, models.ChargeIntentSucceeded, ci.Status)
	chID := id(ci.LatestCharge)

	r := f.sk.Post("/v1/refunds", map[string]any{"charge_intent": id(ci), "amount": 500})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	rf := r.JSON()
	require.Equal(t, chID, rf["charge"])
	require.Equal(t, id(ci), rf["charge_intent"])
	require.Nil(t, rf["transfer"])
	require.Equal(t, "USD", rf["currency"])
	ch := f.sk.Get("/v1/charges/" + chID).JSON()
	require.Equal(t, int64(500), num(ch["amount_refunded"]))
	require.Equal(t, []string{id(rf)}, ids(listOf(t, f.sk, "/v1/refunds?charge_intent="+id(ci))))
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"charge_intent": id(ci), "amount": 1501}),
		http.StatusUnprocessableEntity, "amount_too_large", "amount")
	requireBooksHold(t, f)

	// An intent whose charge was declined has nothing to refund; an
	// unknown one is 404.
	declined := f.sk.CreateChargeIntent(newIntentPayer(t, f.sk, "4000000000000002").intent(2000, nil))
	require.Equal(t, models.ChargeIntentFailed, declined.Status)
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"charge_intent": id(declined)}),
		http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Post("/v1/refunds", map[string]any{"charge_intent": uuid.NewString()}),
		http.StatusNotFound, "resource_missing", "charge_intent")
}

func TestRefundFailureTestCard(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4000000000005126")
	tr := f.sk.CreateTransfer(p.charging(1000))
	require.Equal(t, models.TransferSucceeded, tr.Status)
	rf := refund(t, f, tr, map[string]any{"amount": 400})
	require.Equal(t, "failed", rf["status"])
	require.Equal(t, "expired_or_canceled_card", rf["failure_reason"])
	require.Equal(t, []string{"refund.created", "refund.failed"}, eventTypes(listEvents(t, f.sk, ""), id(rf)))
	ch := chargeOf(t, f.sk, tr)
	require.Equal(t, int64(0), num(ch["amount_refunded"]), "a failed refund moves nothing")
	books := requireBooksHold(t, f)
	require.Equal(t, int64(1000), books["card_clearing"])
}

// N refunds racing on one charge never refund more than it captured:
// each sees the others' amounts under the charge's lock.
func TestConcurrentRefundsNeverExceedTheCharge(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	const n = 12
	statuses := make([]int, n)
	bodies := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr), "amount": 150})
			statuses[i], bodies[i] = r.Status, string(r.Body)
		}()
	}
	wg.Wait()
	created := 0
	for i, s := range statuses {
		require.Contains(t, []int{http.StatusCreated, http.StatusUnprocessableEntity}, s, bodies[i])
		if s == http.StatusCreated {
			created++
		} else {
			require.Contains(t, bodies[i], "amount_too_large")
		}
	}
	require.Equal(t, 6, created, "6 × 150 fit in 1000; a 7th would not")
	ch := chargeOf(t, f.sk, tr)
	require.Equal(t, int64(900), num(ch["amount_refunded"]))
	require.Len(t, listOf(t, f.sk, "/v1/refunds?per_page=100"), 6)
	books := requireBooksHold(t, f)
	require.Equal(t, int64(100), books["card_clearing"])
}

func TestFraudulentRefundBlocksTheCardAndTheBuyer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	buyer := f.sk.CreateAccount(testenvIndividualWithEmail("Mallory@Example.com"))
	p := payer{account: buyer, card: f.sk.CreateAccountCard(id(buyer), "4242424242424242")}
	tr := f.sk.CreateTransfer(p.charging(1000))
	f.sk.CreateRefund(testenv.RefundSpec{TransferID: id(tr), Reason: "fraudulent"})
	require.Equal(t, "fraudulent", chargeOf(t, f.sk, tr)["refund_reason"])

	// The same card, added again to another account: declined.
	other := f.sk.CreateAccount(testenvIndividualWithEmail("someone.else@example.com"))
	card := f.sk.CreateAccountCard(id(other), "4242424242424242")
	declined := createTransfer(t, f.sk, map[string]any{"amount": 500, "account_id": id(other),
		"source_payment_method_id": id(card), "confirm": true})
	require.Equal(t, "failed", declined["status"])
	require.Equal(t, "merchant_blacklist", declined["failure_code"])
	require.Equal(t, "Your payment was declined.", declined["failure_message"])
	require.Equal(t, "card_declined", declined["failure_reason"])
	require.Equal(t, "merchant_blacklist", chargeOf(t, f.sk, declined)["failure_code"], "recorded like any decline")

	// The buyer, with another card: declined too (e-mail compared lowercase).
	p2 := payer{account: p.account, card: f.sk.CreateAccountCard(id(p.account), "5555555555554444")}
	require.Equal(t, "merchant_blacklist", createTransfer(t, f.sk, p2.charge(500, nil))["failure_code"])

	// Someone else with another card: charged. Another merchant, or the
	// production mode, keeps its own lists.
	fresh := payer{account: other, card: f.sk.CreateAccountCard(id(other), "6011111111111117")}
	require.Equal(t, "succeeded", createTransfer(t, f.sk, fresh.charge(500, nil))["status"])
	_, keysB := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	b := f.env.Client(keysB.Sandbox.Secret)
	b.StandardPricing()
	pb := newPayer(t, b, "4242424242424242")
	require.Equal(t, "succeeded", createTransfer(t, b, pb.charge(500, nil))["status"])

	var entries int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM block_list_entries").Scan(context.Background(), &entries))
	require.Equal(t, 2, entries, "the fingerprint and the e-mail")
	var stored string
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT string_agg(value, ',') FROM block_list_entries").Scan(context.Background(), &stored))
	require.NotContains(t, stored, "4242424242424242", "a fingerprint, never the number")
	require.True(t, strings.Contains(stored, "@"))
	requireBooksHold(t, f)
}

func TestRefundIdempotency(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	body := map[string]any{"transfer": id(tr), "amount": 100}
	first := f.sk.Do(http.MethodPost, "/v1/refunds", body, withKey("rf-1"))
	require.Equal(t, http.StatusCreated, first.Status, string(first.Body))
	again := f.sk.Do(http.MethodPost, "/v1/refunds", body, withKey("rf-1"))
	require.JSONEq(t, string(first.Body), string(again.Body))
	requireError(t, f.sk.Do(http.MethodPost, "/v1/refunds", map[string]any{"transfer": id(tr), "amount": 200}, withKey("rf-1")),
		http.StatusBadRequest, "idempotency_error", "Idempotency-Key")
	require.Equal(t, int64(100), num(chargeOf(t, f.sk, tr)["amount_refunded"]))
}

func TestRefundWritesRunAFixedNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	r := f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr), "amount": 100})
	require.Equal(t, http.StatusCreated, r.Status)
	// credential, transfer lock, charge lock, insert, charge update,
	// ledger accounts, journal, entries, events.
	require.Equal(t, 9, r.Statements, "a partial refund")
	r = f.sk.Post("/v1/refunds", map[string]any{"transfer": id(tr)})
	require.Equal(t, http.StatusCreated, r.Status)
	require.Equal(t, 10, r.Statements, "a full refund also updates the transfer")
}

func TestTransferV2ShowsWhatWasRefunded(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	f.sk.CreateRefund(testenv.RefundSpec{TransferID: id(tr), Amount: 250})
	v2 := f.sk.Get("/v2/transfers/" + id(tr)).JSON()
	payment := v2["payment"].(map[string]any)
	require.Equal(t, map[string]any{"value": float64(250), "currency": "USD"}, payment["amount_refunded"])
	f.sk.CreateRefund(testenv.RefundOfTransfer(id(tr)))
	v2 = f.sk.Get("/v2/transfers/" + id(tr)).JSON()
	require.Equal(t, "refunded", v2["status"])
	payment = v2["payment"].(map[string]any)
	require.Equal(t, float64(1000), payment["amount_refunded"].(map[string]any)["value"])
	require.Equal(t, float64(1000), payment["amount_authorized"].(map[string]any)["value"])
	r := f.sk.Get("/v1/transfers/" + id(tr))
	require.Equal(t, 2, r.Statements, "still one read")
	require.NotContains(t, r.JSON(), "amount_refunded", "the v1 shape is the spec's")
}

// A blocked card in the browser flow is declined like any other: 402
// merchant_blacklist, recorded; a blocked 3-D Secure card is declined when
// its challenge completes.
func TestBlockedCardsAreDeclinedOnEveryChargePath(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4000000000003220")
	tr := f.sk.CreateTransfer(p.charging(1000))
	require.Equal(t, models.TransferRequires3DS, tr.Status)
	other := newPayer(t, f.sk, "5555555555554444")
	paid := f.sk.CreateTransfer(other.charging(1000))
	f.sk.CreateRefund(testenv.RefundSpec{TransferID: id(paid), Reason: "fraudulent"}) // blocks ada@example.com, every newPayer's e-mail

	done := f.sk.Post("/v1/test_helpers/transfers/"+id(tr)+"/complete_3d_secure", nil)
	require.Equal(t, http.StatusOK, done.Status, string(done.Body))
	require.Equal(t, "merchant_blacklist", done.JSON()["failure_code"])

	buyer := newPayer(t, f.sk, "4242424242424242")
	session := f.sk.CreateCheckoutSession(testenv.CheckoutSession(id(buyer.account), 1200))
	chk := f.env.Client(*session.ClientSecret)
	created := chk.Post("/v1/transfers", map[string]any{"source": map[string]any{"payment_method_id": id(buyer.card)}, "confirm": false})
	require.Equal(t, http.StatusCreated, created.Status, string(created.Body))
	e := requireError(t, chk.Post("/v1/transfers/"+id(created.JSON())+"/confirm", nil), http.StatusPaymentRequired,
		"merchant_blacklist", "")
	require.Equal(t, "Your payment was declined.", e["message"])
	require.Equal(t, "failed", f.sk.Get("/v1/transfers/" + id(created.JSON())).JSON()["status"])
}
