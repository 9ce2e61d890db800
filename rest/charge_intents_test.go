package rest_test

import (
	"context"
	"net/http"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestChargeIntentFromCreationToCapture(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")

	ci := createIntent(t, f.sk, map[string]any{"amount": 1000, "currency": "USD", "customer": id(p.customer),
		"description": "Order 7", "metadata": map[string]any{"order": "7"}})
	require.Equal(t, chargeIntentKeys, keys(ci))
	require.Equal(t, "charge_intent", ci["object"])
	require.Equal(t, "requires_payment_method", ci["status"])
	require.Equal(t, "usd", ci["currency"], "currencies are lowercase on the wire")
	require.Equal(t, int64(1000), num(ci["amount"]))
	require.Regexp(t, `^ci_`+regexp.QuoteMeta(id(ci))+`_secret_[A-Za-z0-9]{40}$`, ci["client_secret"])
	require.Equal(t, "automatic", ci["authorization_mode"])
	require.Equal(t, id(p.customer), ci["customer_id"])
	require.Equal(t, id(p.customer), ci["customer"].(map[string]any)["id"], "the secret key sees the customer object")
	require.Equal(t, "customer", ci["customer"].(map[string]any)["object"])
	for _, member := range []string{"account_id", "account", "payment_method", "latest_charge", "next_action", "shipping",
		"subscription", "invoice", "revenue_split", "order", "cart_data", "failure_description", "reference_id"} {
		require.Nil(t, ci[member], member)
	}
	require.Equal(t, map[string]any{"order": "7"}, ci["metadata"])
	require.Zero(t, num(ci["amount_captured"]))
	require.Zero(t, num(ci["amount_voided"]))

	r := f.sk.Patch("/v1/charge_intents/"+id(ci), map[string]any{"payment_method": id(p.card)})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "requires_confirmation", r.JSON()["status"])
	require.Equal(t, id(p.card), r.JSON()["payment_method"].(map[string]any)["id"])
	require.Nil(t, r.JSON()["client_secret"], "the client secret is shown on create only")

	done := postIntent(t, f.sk, id(ci), "confirm", nil)
	require.Equal(t, "succeeded", done["status"])
	require.Equal(t, int64(1000), num(done["amount_captured"]))
	ch := charged(done)
	require.Equal(t, "charge", ch["object"])
	require.Equal(t, "succeeded", ch["status"])
	require.Equal(t, "usd", ch["currency"])
	require.Equal(t, true, ch["captured"])
	require.Equal(t, int64(1000), num(ch["amount_captured"]))
	require.Equal(t, int64(941), num(ch["net_amount"]), "priced like a transfer: 2.9 % + 30")
	require.Equal(t, id(ci), ch["charge_intent"])
	require.Equal(t, id(ci), ch["charge_intent_id"])
	require.Equal(t, id(p.customer), ch["customer"])
	require.Nil(t, ch["transfer"])
	require.Equal(t, id(p.card), ch["payment_method_details"].(map[string]any)["id"])

	got := f.sk.Get("/v1/charge_intents/" + id(ci))
	require.Equal(t, http.StatusOK, got.Status)
	require.Equal(t, "succeeded", got.JSON()["status"])
	require.Equal(t, ch["id"], charged(got.JSON())["id"])
	require.Equal(t, []string{id(ci)}, ids(listOf(t, f.sk, "/v1/charge_intents")))

	// The charge is the charges endpoint's, and its trace holds the capture
	// journal, named by the charge, and the intent's events.
	c := f.sk.Get("/v1/charges/" + ch["id"].(string)).JSON()
	require.Equal(t, id(ci), c["charge_intent_id"])
	trace := f.sk.Get("/v1/charges/" + ch["id"].(string) + "/trace").JSON()
	journals := trace["ledger"].(map[string]any)["journals"].([]any)
	require.Len(t, journals, 1)
	var traced []string
	for _, e := range trace["events"].([]any) {
		traced = append(traced, e.(map[string]any)["type"].(string))
	}
	require.Equal(t, []string{"charge_intent.created", "charge_intent.updated", "charge_intent.succeeded"}, traced)

	require.Equal(t, []string{"charge_intent.created", "charge_intent.updated", "charge_intent.succeeded"},
		eventTypes(listEvents(t, f.sk, ""), id(ci)))
	updated := listEvents(t, f.sk, "charge_intent.updated")[0]
	require.Equal(t, "requires_payment_method", updated.previous()["status"])
	require.Nil(t, updated.previous()["payment_method"])
	require.Nil(t, updated.object()["client_secret"], "events never carry the client secret")
	require.Equal(t, map[string]int64{"card_clearing": 1000, "merchant": -941, "platform_fees": -59, "frame_fees": 0,
		"ach_clearing": 0}, requireBooksHold(t, f))
}

func TestChargeIntentInputIsCheckedAllAtOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	acct := f.sk.CreateAccount(testenv.Individual())

	requireValidation(t, f.sk.Post("/v1/charge_intents", map[string]any{}), "amount", "currency")
	errs := requireValidation(t, f.sk.Post("/v1/charge_intents", map[string]any{"amount": 0, "currency": "dollars"}),
		"amount", "currency")
	requireProblem(t, errs, "amount", "must be greater than 0")
	requireProblem(t, errs, "currency", "must be a supported ISO 4217 currency code, such as USD")
	requireError(t, f.sk.Post("/v1/charge_intents", map[string]any{"amount": "ten", "currency": "usd"}),
		http.StatusBadRequest, "parameter_invalid", "amount")

	// Every other problem, reported together: mutual exclusions, the
	// inline card's own checks (the payments area's), the rest.
	errs = requireValidation(t, f.sk.Post("/v1/charge_intents", map[string]any{
		"amount": 1000, "currency": "usd", "customer": id(p.customer), "account": id(acct),
		"customer_data":       map[string]any{"name": "Ada", "email": "ada@example.com"},
		"payment_method":      id(p.card),
		"payment_method_data": map[string]any{"type": "card", "card_number": "1234", "exp_month": 13, "cvc": "x"},
		"authorization_mode":  "later", "receipt_email": "not-an-email", "promotion_codes": []any{" "}}),
		"account", "customer_data", "payment_method_data", "payment_method_data.card_number",
		"payment_method_data.exp_month", "payment_method_data.exp_year", "payment_method_data.cvc",
		"authorization_mode", "receipt_email", "promotion_codes.0")
	requireProblem(t, errs, "account", "cannot be given with customer: a charge intent has one payer")
	requireProblem(t, errs, "customer_data", "is not accepted with customer or account")
	requireProblem(t, errs, "payment_method_data", "is not accepted with payment_method")
	requireProblem(t, errs, "payment_method_data.card_number", "is not a valid card number")

	errs = requireValidation(t, f.sk.Post("/v1/charge_intents", map[string]any{"amount": 1000, "currency": "usd",
		"confirm": true, "customer_data": map[string]any{"email": "nope"},
		"payment_method_data": merge(testenv.CardData("4242424242424242"), map[string]any{"type": "ach"})}),
		"customer_data.name", "customer_data.email", "payment_method_data.type")
	requireProblem(t, errs, "payment_method_data.type", "must be card")
	errs = requireValidation(t, f.sk.Post("/v1/charge_intents", map[string]any{"amount": 1000, "currency": "usd",
		"payment_method_data": merge(testenv.CardData("4012888888881881"), map[string]any{"attach": true})}),
		"payment_method_data.card_number", "payment_method_data.attach")
	requireProblem(t, errs, "payment_method_data.card_number", "Card submitted is not a test card")
	requireProblem(t, errs, "payment_method_data.attach", "needs a customer, an account or customer_data to attach the card to")
	errs = requireValidation(t, f.sk.Post("/v1/charge_intents", map[string]any{"amount": 1000, "currency": "usd",
		"confirm": true, "customer": "nope"}), "customer", "payment_method")
	requireProblem(t, errs, "customer", "is not a valid id")
	requireProblem(t, errs, "payment_method", "is required to confirm")

	require.Empty(t, listOf(t, f.sk, "/v1/charge_intents"), "a refused create leaves nothing")
	require.Len(t, listOf(t, f.sk, "/v1/customers"), 1, "nor a customer from customer_data")
	require.Len(t, listOf(t, f.sk, "/v1/payment_methods"), 1, "nor a card from payment_method_data")

	// Currencies are accepted in any case and kept lowercase.
	for _, in := range []string{"USD", "Usd", "usd"} {
		ci := createIntent(t, f.sk, map[string]any{"amount": 100, "currency": in})
		require.Equal(t, "usd", ci["currency"])
	}
}

// Ids of another merchant or mode, and unknown ones, are answered as the
// money area answers them: a field error naming the member (as for a
// transfer's account_id). The intents themselves are 404 to anyone else.
func TestChargeIntentPayersAndMethodsMustBeTheCallers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	_, k := f.env.NewMerchant(testAuthMerchant("B"))
	other := f.env.Client(k.Sandbox.Secret)
	other.StandardPricing()
	theirs := newIntentPayer(t, other, "4242424242424242")
	theirAccount := other.CreateAccount(testenv.Individual())
	mine := newIntentPayer(t, f.sk, "4242424242424242")
	another := newIntentPayer(t, f.sk, "5555555555554444")
	myAccount := f.sk.CreateAccount(testenv.Individual())
	accountCard := f.sk.CreateAccountCard(id(myAccount), "4242424242424242")

	for _, c := range []struct {
		body         map[string]any
		param, which string
	}{
		{map[string]any{"customer": id(theirs.customer)}, "customer", "is not a customer of this merchant and mode"},
		{map[string]any{"customer": "019bc186-de02-7888-a0ba-4ef4a7dc05db"}, "customer", "is not a customer of this merchant and mode"},
		{map[string]any{"account": id(theirAccount)}, "account", "is not an account of this merchant and mode"},
		{map[string]any{"payment_method": id(theirs.card)}, "payment_method", "is not a payment method of this merchant and mode"},
		{map[string]any{"customer": id(mine.customer), "payment_method": id(another.card)}, "payment_method",
			"does not belong to the charge intent's customer"},
		{map[string]any{"customer": id(mine.customer), "payment_method": id(accountCard)}, "payment_method",
			"does not belong to the charge intent's customer"},
		{map[string]any{"account": id(myAccount), "payment_method": id(mine.card)}, "payment_method",
			"does not belong to the charge intent's account"},
	} {
		errs := requireValidation(t, f.sk.Post("/v1/charge_intents", merge(map[string]any{"amount": 100, "currency": "usd"}, c.body)), c.param)
		requireProblem(t, errs, c.param, c.which)
	}
	require.Empty(t, listOf(t, f.sk, "/v1/charge_intents"))

	// A payment method alone names the payer.
	ci := createIntent(t, f.sk, map[string]any{"amount": 100, "currency": "usd", "payment_method": id(accountCard)})
	require.Equal(t, id(myAccount), ci["account_id"])
	require.Equal(t, id(myAccount), ci["account"].(map[string]any)["id"], "the secret key sees the account object")
	require.Equal(t, "account", ci["account"].(map[string]any)["object"])
	require.Nil(t, ci["customer"])

	// A blocked or deleted customer cannot pay.
	f.sk.BlockCustomer(id(another.customer))
	requireError(t, f.sk.Post("/v1/charge_intents", map[string]any{"amount": 100, "currency": "usd",
		"customer": id(another.customer)}), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/customers/"+id(another.customer)).Status)
	requireError(t, f.sk.Post("/v1/charge_intents", map[string]any{"amount": 100, "currency": "usd",
		"customer": id(another.customer)}), http.StatusUnprocessableEntity, "invalid_state", "")

	// Another merchant's intent, and the other mode's, is missing.
	theirIntent := createIntent(t, other, theirs.intent(100, map[string]any{"confirm": false}))
	for _, c := range []*testenv.Client{f.sk, f.live} {
		for _, op := range []operation{{http.MethodGet, "/v1/charge_intents/" + id(theirIntent), nil},
			{http.MethodPatch, "/v1/charge_intents/" + id(theirIntent), map[string]any{"description": "x"}},
			{http.MethodPost, "/v1/charge_intents/" + id(theirIntent) + "/confirm", nil},
			{http.MethodPost, "/v1/charge_intents/" + id(theirIntent) + "/capture", nil},
			{http.MethodPost, "/v1/charge_intents/" + id(theirIntent) + "/cancel", nil},
			{http.MethodPost, "/v1/charge_intents/" + id(theirIntent) + "/void_remaining", nil},
			{http.MethodPost, "/v1/test_helpers/charge_intents/" + id(theirIntent) + "/complete_3d_secure", nil},
			{http.MethodGet, "/v1/charge_intents/not-an-id", nil}} {
			requireError(t, c.Do(op.method, op.path, op.body, nil), http.StatusNotFound, "resource_missing", "id")
		}
	}
	require.Equal(t, []string{id(theirIntent)}, ids(listOf(t, other, "/v1/charge_intents")))
	require.Empty(t, listOf(t, f.live, "/v1/charge_intents"))

	// Production needs a card processor: none ships.
	requireError(t, f.live.Post("/v1/charge_intents", map[string]any{"amount": 100, "currency": "usd"}),
		http.StatusServiceUnavailable, "provider_not_configured", "")
}

// customer_data creates the payer when neither customer nor account is
// given; payment_method_data creates the card through the payments area,
// attached to that payer when attach is true.
func TestChargeIntentCreatesItsCustomerAndCard(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	ci := createIntent(t, f.sk, map[string]any{"amount": 2500, "currency": "usd", "confirm": true,
		"customer_data":       map[string]any{"name": "Ada Lovelace", "email": "ada@example.com"},
		"payment_method_data": merge(testenv.CardData("5555555555554444"), map[string]any{"attach": true}),
		"shipping":            map[string]any{"line_1": "1 Main St", "city": "Springfield", "state": "IL", "postal_code": "62701", "country": "US"}})
	require.Equal(t, "succeeded", ci["status"])
	cu := ci["customer"].(map[string]any)
	require.Equal(t, "Ada Lovelace", cu["name"])
	require.Equal(t, "ada@example.com", cu["email"])
	require.Equal(t, cu["id"], ci["customer_id"])
	pm := ci["payment_method"].(map[string]any)
	require.Equal(t, cu["id"], pm["customer_id"], "attach: the card is the new customer's")
	require.Equal(t, "4444", pm["card"].(map[string]any)["last_four"])
	require.Equal(t, []any{pm["id"]}, []any{cu["payment_methods"].([]any)[0].(map[string]any)["id"]})
	require.Equal(t, "1 Main St", ci["shipping"].(map[string]any)["line_1"])
	require.Equal(t, "shipping", ci["shipping"].(map[string]any)["type"])
	require.Equal(t, []string{id(ci)}, ids(listOf(t, f.sk, "/v1/charge_intents?customer="+cu["id"].(string))))
	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"customer.created"}, eventTypes(evs, cu["id"].(string)))
	require.Equal(t, []string{"payment_method.created"}, eventTypes(evs, pm["id"].(string)))

	// Without attach the card stays its own: usable by this intent, no
	// one's saved card.
	loose := createIntent(t, f.sk, map[string]any{"amount": 100, "currency": "usd", "customer": cu["id"],
		"payment_method_data": testenv.CardData("4242424242424242")})
	require.Equal(t, "requires_confirmation", loose["status"])
	require.Nil(t, loose["payment_method"].(map[string]any)["customer_id"])
	require.Equal(t, "succeeded", postIntent(t, f.sk, id(loose), "confirm", nil)["status"])
	require.Len(t, f.sk.Get("/v1/customers/" + cu["id"].(string)).JSON()["payment_methods"], 1)
}

func TestChargeIntentNeedsAnAgreementOrAPlan(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newIntentPayer(t, f.sk, "4242424242424242")
	e := requireError(t, f.sk.Post("/v1/charge_intents", p.intent(1000, nil)), http.StatusUnprocessableEntity,
		"billing_agreement_not_found", "")
	require.Equal(t, "No active charge billing agreement found for this account or merchant.", e["message"])
	require.Empty(t, listOf(t, f.sk, "/v1/charge_intents"), "a refused create-and-confirm leaves nothing")
	ci := createIntent(t, f.sk, p.intent(1000, map[string]any{"confirm": false}))
	requireError(t, f.sk.Post("/v1/charge_intents/"+id(ci)+"/confirm", nil), http.StatusUnprocessableEntity,
		"billing_agreement_not_found", "")
	require.Equal(t, "requires_confirmation", f.sk.Get("/v1/charge_intents/" + id(ci)).JSON()["status"])

	// An explicit plan prices it (here add_on: the buyer pays the fees).
	plan := f.sk.CreateFeePlan("add_on", testenv.CardFeeItem())
	errs := requireValidation(t, f.sk.Post("/v1/charge_intents", p.intent(1000, map[string]any{
		"transfer_fee_plan_id": "019bc186-de02-7888-a0ba-4ef4a7dc05db"})), "transfer_fee_plan_id")
	requireProblem(t, errs, "transfer_fee_plan_id", "is not a transfer fee plan of this merchant and mode")
	done := createIntent(t, f.sk, p.intent(1000, map[string]any{"transfer_fee_plan_id": id(plan)}))
	require.Equal(t, "succeeded", done["status"])
	require.Equal(t, int64(1000), num(charged(done)["net_amount"]))
	books := requireBooksHold(t, f)
	require.Equal(t, int64(1059), books["card_clearing"])
	require.Equal(t, int64(-1000), books["merchant"])
	require.Equal(t, int64(-59), books["platform_fees"])
}

func TestChargeIntentPromotionCodesAndReferenceID(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	coupon := f.sk.CreateCoupon(testenv.AmountOffCoupon("2.00"))
	code := f.sk.CreatePromotionCode(testenv.PromotionCode(id(coupon)).WithCode("TWOOFF"))
	ref := "  Order #42 — ünïcödé / MiXeD  "
	ci := createIntent(t, f.sk, p.intent(1000, map[string]any{"promotion_codes": []any{"twooff"}, "reference_id": ref}))
	require.Equal(t, int64(800), num(ci["amount"]), "the amount charged is after the discount")
	require.Equal(t, int64(747), num(charged(ci)["net_amount"])) // 23.2 → 23, + 30
	require.Equal(t, ref, ci["reference_id"])
	discounts := listOf(t, f.sk, "/v1/discounts?customer_id="+id(p.customer))
	require.Len(t, discounts, 1)
	require.Equal(t, "ChargeIntent", discounts[0]["discountable_type"])
	require.Equal(t, float64(1), f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()["times_redeemed"])
	requireError(t, f.sk.Post("/v1/charge_intents", p.intent(1000, map[string]any{"promotion_codes": []any{"TWOOFF", "NOPE"}})),
		http.StatusUnprocessableEntity, "promotion_code_invalid", "promotion_codes")
	require.Equal(t, float64(1), f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()["times_redeemed"])
	requireError(t, f.sk.Post("/v1/charge_intents", p.intent(150, map[string]any{"promotion_codes": []any{"TWOOFF"}})),
		http.StatusUnprocessableEntity, "amount_too_small", "promotion_codes")

	// The reference_id travels verbatim in every event of the intent.
	var n int
	for _, e := range listEvents(t, f.sk, "") {
		if e.object()["id"] == id(ci) {
			require.Equal(t, ref, e.object()["reference_id"], e.Type)
			n++
		}
	}
	require.Equal(t, 2, n)

	// An amount a promotion code reduced cannot change any more.
	open := createIntent(t, f.sk, p.intent(1000, map[string]any{"promotion_codes": []any{"TWOOFF"}, "confirm": false}))
	requireValidation(t, f.sk.Patch("/v1/charge_intents/"+id(open), map[string]any{"amount": 2000}), "amount")
}

func TestChargeIntentUpdate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	q := newIntentPayer(t, f.sk, "4242424242424242")
	acct := f.sk.CreateAccount(testenv.Individual())
	ci := createIntent(t, f.sk, p.intent(1000, map[string]any{"confirm": false, "metadata": map[string]any{"a": "1"}}))

	r := f.sk.Patch("/v1/charge_intents/"+id(ci), map[string]any{"amount": 1500, "currency": "EUR",
		"description": "Renamed", "receipt_email": "buyer@example.com", "metadata": map[string]any{"b": "2", "a": ""},
		"shipping": map[string]any{"city": "Paris", "country": "FR"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	got := r.JSON()
	require.Equal(t, int64(1500), num(got["amount"]))
	require.Equal(t, "eur", got["currency"])
	require.Equal(t, "Renamed", got["description"])
	require.Equal(t, "buyer@example.com", got["receipt_email"])
	require.Equal(t, map[string]any{"b": "2"}, got["metadata"])
	require.Equal(t, "Paris", got["shipping"].(map[string]any)["city"])
	prev := listEvents(t, f.sk, "charge_intent.updated")[0].previous()
	require.Equal(t, sorted("amount", "currency", "description", "receipt_email", "metadata", "shipping"), keys(prev))
	require.Equal(t, float64(1000), prev["amount"])

	// Nothing changed: no event.
	f.sk.Patch("/v1/charge_intents/"+id(ci), map[string]any{"description": "Renamed"})
	require.Len(t, listEvents(t, f.sk, "charge_intent.updated"), 1)

	// A new payer must own the payment method, or bring one.
	errs := requireValidation(t, f.sk.Patch("/v1/charge_intents/"+id(ci), map[string]any{"customer": id(q.customer)}), "payment_method")
	requireProblem(t, errs, "payment_method", "belongs to another payer than the new one: give a payment_method too")
	got = f.sk.Patch("/v1/charge_intents/"+id(ci), map[string]any{"customer": id(q.customer), "payment_method": id(q.card)}).JSON()
	require.Equal(t, id(q.customer), got["customer_id"])
	requireValidation(t, f.sk.Patch("/v1/charge_intents/"+id(ci), map[string]any{"customer": id(p.customer), "account": id(acct)}), "account")

	// Once confirmed, only description, receipt e-mail, shipping and
	// metadata change. (The card plan's fixed fee is in USD: a EUR charge
	// could not be priced.)
	requireError(t, f.sk.Post("/v1/charge_intents/"+id(ci)+"/confirm", nil), http.StatusUnprocessableEntity,
		"fee_currency_mismatch", "currency")
	f.sk.Patch("/v1/charge_intents/"+id(ci), map[string]any{"currency": "usd"})
	done := postIntent(t, f.sk, id(ci), "confirm", nil)
	require.Equal(t, "succeeded", done["status"])
	for _, body := range []map[string]any{{"amount": 5}, {"currency": "usd"}, {"customer": id(p.customer)},
		{"account": id(acct)}, {"payment_method": id(q.card)}} {
		requireError(t, f.sk.Patch("/v1/charge_intents/"+id(ci), body), http.StatusUnprocessableEntity, "invalid_state", "")
	}
	r = f.sk.Patch("/v1/charge_intents/"+id(ci), map[string]any{"description": "Paid"})
	require.Equal(t, "Paid", r.JSON()["description"])
	requireBooksHold(t, f)
}

func TestChargeIntentListIsNewestFirstAndSearchable(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	acct := f.sk.CreateAccount(testenv.Individual())
	a := createIntent(t, f.sk, map[string]any{"amount": 100, "currency": "usd", "customer": id(p.customer),
		"description": "Blue Widget x2", "reference_id": "ord_1"})
	b := createIntent(t, f.sk, p.intent(200, map[string]any{"receipt_email": "Buyer@Example.com"}))
	c := createIntent(t, f.sk, map[string]any{"amount": 300, "currency": "usd", "account": id(acct),
		"description": "100% off_sale"})
	require.Equal(t, []string{id(c), id(b), id(a)}, ids(listOf(t, f.sk, "/v1/charge_intents")))
	r := f.sk.Get("/v1/charge_intents?per_page=2&page=1")
	require.Equal(t, true, r.JSON()["meta"].(map[string]any)["has_more"])
	require.Equal(t, []string{id(a)}, ids(listOf(t, f.sk, "/v1/charge_intents?per_page=2&page=2")))

	for q, want := range map[string][]string{
		"widget":            {id(a)},
		"ord_1":             {id(a)},
		"buyer@example.com": {id(b)},
		id(c):               {id(c)},
		"100%25":            {id(c)}, // % is a character, not a wildcard
		"_":                 {id(c)},
		"nothing":           {},
	} {
		require.Equal(t, want, ids(listOf(t, f.sk, "/v1/charge_intents?q="+q)), q)
	}
	require.Equal(t, []string{id(b)}, ids(listOf(t, f.sk, "/v1/charge_intents?status=succeeded")))
	require.Equal(t, []string{id(b), id(a)}, ids(listOf(t, f.sk, "/v1/charge_intents?customer="+id(p.customer))))
	require.Equal(t, []string{id(c)}, ids(listOf(t, f.sk, "/v1/charge_intents?account="+id(acct))))
	requireValidation(t, f.sk.Get("/v1/charge_intents?account=nope"), "account")
	requireError(t, f.sk.Get("/v1/charge_intents?per_page=x"), http.StatusBadRequest, "parameter_invalid", "per_page")
	list := listOf(t, f.sk, "/v1/charge_intents")
	require.Equal(t, id(p.customer), list[1]["customer"].(map[string]any)["id"], "list members are full intents")
	require.Equal(t, id(acct), list[0]["account"].(map[string]any)["id"])

	// Reading a page is a constant number of statements: the credential,
	// the page (with payment methods and charges), customers, accounts and
	// the intents' client secrets.
	small := f.sk.Get("/v1/charge_intents?per_page=2")
	big := f.sk.Get("/v1/charge_intents?per_page=100")
	require.Equal(t, 5, small.Statements)
	require.Equal(t, 5, big.Statements)
	var rows int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM charge_intents").Scan(context.Background(), &rows))
	require.Equal(t, 3, rows)
}
