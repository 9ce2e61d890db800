package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestCardPayoutDrawsOnTheInstantPayoutBalance(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payoutAccount(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(a), "4000056655665556")
	f.sk.TopUp(10000)

	p := createPayout(t, f.sk, merge(cardPayout(card, 2500), map[string]any{"metadata": map[string]any{"order": "42"}}))
	require.Equal(t, payoutKeys, keys(p))
	require.Equal(t, "payout", p["object"])
	require.Equal(t, "succeeded", p["status"])
	require.Nil(t, p["speed"], "push to card has no speed")
	require.Equal(t, int64(2500), num(p["amount"]))
	require.Equal(t, "USD", p["currency"])
	require.Equal(t, id(card), p["payment_method"])
	require.Equal(t, id(card), p["payment_method_id"])
	require.Equal(t, id(a), p["account_id"])
	require.Equal(t, int64(0), num(p["processor_fee"]))
	require.Nil(t, p["merchant_fee"], "no payout agreement: no plan fee")
	require.Nil(t, p["customer_fee"])
	require.Nil(t, p["billing_agreement"])
	require.Nil(t, p["failure_code"])
	require.Equal(t, map[string]any{"order": "42"}, p["metadata"])
	requireInt(t, p["succeeded"], "succeeded")
	require.Nil(t, p["failed"])
	require.Equal(t, false, p["livemode"])

	books := fundingBooks(t, f)
	require.Equal(t, int64(-7500), books["instant_payout"], "10000 funded, 2500 sent")
	require.Equal(t, int64(-2500), books["payout_clearing"])
	require.Equal(t, int64(10000), books["funding_clearing"])
	require.Zero(t, books["merchant"], "transfer payouts' merchant balance is another balance")

	require.Equal(t, p, f.sk.Get("/v1/payouts/"+id(p)).JSON())
	require.Equal(t, []string{"payout.created", "payout.succeeded"}, eventTypes(listEvents(t, f.sk, ""), id(p)))
	b := f.sk.Get("/v1/merchant_balance").JSON()
	require.Equal(t, 75.0, b["available_for_payout"])
}

func TestBankPayoutNeedsSpeedAndBankReceive(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payoutAccount(t, f, "bank_account_receive")
	bank := f.sk.CreateACH(testenv.ACH(id(a), "000123456789"))
	f.sk.TopUp(5000)
	body := map[string]any{"payment_method": id(bank), "amount": 1000, "currency": "usd"}
	requireValidation(t, f.sk.Post("/v1/payouts", body), "speed")
	for _, speed := range []string{"asap", "same_day", "standard"} {
		p := createPayout(t, f.sk, merge(body, map[string]any{"speed": speed}))
		require.Equal(t, "succeeded", p["status"])
		require.Equal(t, speed, p["speed"])
		require.Equal(t, "USD", p["currency"])
	}
	requireValidation(t, f.sk.Post("/v1/payouts", merge(body, map[string]any{"speed": "instant"})), "speed")
	// A card of the same account: card_receive is not active.
	card := f.sk.CreateAccountCard(id(a), "4242424242424242")
	e := requireError(t, f.sk.Post("/v1/payouts", cardPayout(card, 100)), http.StatusUnprocessableEntity,
		"capability_not_active", "payment_method")
	require.Equal(t, "card_receive", errorDetails(e)["data"].(map[string]any)["capability"])
	require.Equal(t, int64(-2000), fundingBooks(t, f)["instant_payout"])
}

func TestPayoutRulesOfTheSpec(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payoutAccount(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(a), "4242424242424242")
	f.sk.TopUp(100000)

	// Every field problem at once.
	errs := requireValidation(t, f.sk.Post("/v1/payouts", map[string]any{"amount": 0, "currency": "EUR", "speed": "later"}),
		"payment_method", "amount", "currency", "speed")
	requireProblem(t, errs, "amount", "must be greater than 0")
	requireProblem(t, errs, "currency", "must be USD: payouts are sent in US dollars only")
	requireValidation(t, f.sk.Post("/v1/payouts", map[string]any{"payment_method": id(card), "amount": -5}), "amount", "currency")
	requireValidation(t, f.sk.Post("/v1/payouts", map[string]any{"payment_method": "nope", "amount": 5, "currency": "USD"}), "payment_method")
	// The SDK's name of the destination works too, and must agree.
	p := createPayout(t, f.sk, map[string]any{"payment_method_id": id(card), "amount": 100, "currency": "USD"})
	require.Equal(t, id(card), p["payment_method"])
	requireValidation(t, f.sk.Post("/v1/payouts", map[string]any{"payment_method_id": id(card), "payment_method": id(a),
		"amount": 100, "currency": "USD"}), "payment_method_id")
	// speed is refused for push to card.
	requireValidation(t, f.sk.Post("/v1/payouts", merge(cardPayout(card, 100), map[string]any{"speed": "asap"})), "speed")

	// The destination must belong to an account.
	cus := f.sk.Post("/v1/customers", map[string]any{"name": "Grace", "email": "grace@example.com"}).JSON()
	cc := f.sk.Post("/v1/payment_methods", merge(testenv.CardBody("", "4242424242424242"), map[string]any{"customer": id(cus)}))
	require.Equal(t, http.StatusCreated, cc.Status, string(cc.Body))
	errs = requireValidation(t, f.sk.Post("/v1/payouts", cardPayout(cc.JSON(), 100)), "payment_method")
	requireProblem(t, errs, "payment_method", "must belong to an account: payouts go to an account's own card or bank account")

	// KYC must be approved.
	f.exec(t, "UPDATE capabilities SET status = 'pending' WHERE account_id = ? AND name = 'kyc'", id(a))
	e := requireError(t, f.sk.Post("/v1/payouts", cardPayout(card, 100)), http.StatusUnprocessableEntity, "capability_not_active", "payment_method")
	require.Equal(t, "kyc", errorDetails(e)["data"].(map[string]any)["capability"])
	f.exec(t, "UPDATE capabilities SET status = 'active' WHERE account_id = ? AND name = 'kyc'", id(a))

	// A detached method cannot receive.
	require.Equal(t, http.StatusOK, f.sk.Post("/v1/payment_methods/"+id(card)+"/detach", nil).Status)
	requireValidation(t, f.sk.Post("/v1/payouts", cardPayout(card, 100)), "payment_method")
	require.Equal(t, int64(-99900), fundingBooks(t, f)["instant_payout"], "only the one payout moved money")
}

func TestPayoutBeyondTheBalanceIsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payoutAccount(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(a), "4242424242424242")
	e := requireError(t, f.sk.Post("/v1/payouts", cardPayout(card, 1)), http.StatusUnprocessableEntity, "balance_insufficient", "amount")
	require.Equal(t, map[string]any{"available": 0.0, "required": 1.0, "currency": "USD"}, errorDetails(e)["data"])
	f.sk.TopUp(1000)
	requireError(t, f.sk.Post("/v1/payouts", cardPayout(card, 1001)), http.StatusUnprocessableEntity, "balance_insufficient", "amount")
	f.sk.CreatePayout(testenv.Payout(id(card), 1000))
	requireError(t, f.sk.Post("/v1/payouts", cardPayout(card, 1)), http.StatusUnprocessableEntity, "balance_insufficient", "amount")
	require.Len(t, listOf(t, f.sk, "/v1/payouts"), 1, "a refused payout records nothing")
	require.Zero(t, fundingBooks(t, f)["instant_payout"])
}

func TestDecliningDestinationsFailPayouts(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payoutAccount(t, f, "card_receive")
	f.exec(t, "UPDATE capabilities SET status = 'active' WHERE account_id = ? AND name = 'bank_account_receive'", id(a))
	r := f.sk.Post("/v1/accounts/"+id(a)+"/capabilities", map[string]any{"capabilities": []string{"bank_account_receive"}})
	require.Less(t, r.Status, 300, string(r.Body))
	f.exec(t, "UPDATE capabilities SET status = 'active' WHERE account_id = ? AND name = 'bank_account_receive'", id(a))
	f.sk.TopUp(100000)
	for number, code := range map[string]string{"4000000000000002": "generic_decline", "4000000000009995": "insufficient_funds",
		"4726840306461785": "expired_card", "4726843338079575": "stolen_card"} {
		card := f.sk.CreateAccountCard(id(a), number)
		p := createPayout(t, f.sk, cardPayout(card, 500))
		require.Equal(t, "failed", p["status"], number)
		require.Equal(t, code, p["failure_code"], number)
		require.NotEmpty(t, p["failure_message"])
		requireInt(t, p["failed"], "failed")
		require.Nil(t, p["succeeded"])
		require.Equal(t, []string{"payout.created", "payout.failed"}, eventTypes(listEvents(t, f.sk, ""), id(p)))
	}
	for number, code := range map[string]string{"000111111113": "account_closed", "000111111116": "no_account",
		"000222222227": "insufficient_funds", "000333333335": "debit_not_authorized"} {
		bank := f.sk.CreateACH(testenv.ACH(id(a), number))
		p := createPayout(t, f.sk, map[string]any{"payment_method": id(bank), "amount": 500, "currency": "USD", "speed": "standard"})
		require.Equal(t, "failed", p["status"], number)
		require.Equal(t, code, p["failure_code"], number)
	}
	require.Equal(t, int64(-100000), fundingBooks(t, f)["instant_payout"], "failed payouts move nothing")
	require.Len(t, listOf(t, f.sk, "/v1/payouts?status=failed&per_page=100"), 8)
}

func TestPayoutFeesFromPayoutAgreements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payoutAccount(t, f, "card_receive")
	card := f.sk.CreateAccountCard(id(a), "4000056655665556")
	f.sk.TopUp(100000)

	// deduct: the recipient bears the fee (1 % of 10000).
	ag := f.sk.PayoutPricing("deduct")
	p := f.sk.CreatePayout(testenv.Payout(id(card), 10000))
	require.Equal(t, int64(100), *p.CustomerFee)
	require.Equal(t, int64(0), *p.MerchantFee)
	require.Equal(t, int64(0), p.ProcessorFee)
	require.Equal(t, ag.ID, *p.BillingAgreementID)
	books := fundingBooks(t, f)
	require.Equal(t, int64(-90000), books["instant_payout"], "the balance pays the amount")
	require.Equal(t, int64(-9900), books["payout_clearing"], "the recipient receives amount − fee")
	require.Equal(t, int64(-100), books["platform_fees"])

	// absorb: the merchant bears it, on top of the amount.
	require.Equal(t, http.StatusOK, f.sk.Patch("/v1/transfer_billing_agreements/"+id(ag), map[string]any{"status": "inactive"}).Status)
	f.sk.PayoutPricing("absorb")
	p = f.sk.CreatePayout(testenv.Payout(id(card), 10000))
	require.Equal(t, int64(100), *p.MerchantFee)
	require.Equal(t, int64(0), *p.CustomerFee)
	books = fundingBooks(t, f)
	require.Equal(t, int64(-79900), books["instant_payout"], "amount + fee")
	require.Equal(t, int64(-19900), books["payout_clearing"])
	require.Equal(t, int64(-200), books["platform_fees"])
	// The merchant's fee counts against the balance.
	requireError(t, f.sk.Post("/v1/payouts", cardPayout(card, 79900)), http.StatusUnprocessableEntity, "balance_insufficient", "amount")
	f.sk.CreatePayout(testenv.Payout(id(card), 79108)) // + 791 fee = 79899
	require.Equal(t, int64(-1), fundingBooks(t, f)["instant_payout"])
}

func TestPayoutReads(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := payoutAccount(t, f, "card_receive")
	b := payoutAccount(t, f, "card_receive")
	ca, cb := f.sk.CreateAccountCard(id(a), "4242424242424242"), f.sk.CreateAccountCard(id(b), "4242424242424242")
	f.sk.TopUp(10000)
	p1 := f.sk.CreatePayout(testenv.Payout(id(ca), 100))
	p2 := f.sk.CreatePayout(testenv.Payout(id(cb), 200))
	p3 := f.sk.CreatePayout(testenv.Payout(id(ca), 300))
	require.Equal(t, []string{id(p3), id(p2), id(p1)}, ids(listOf(t, f.sk, "/v1/payouts")))
	require.Equal(t, []string{id(p3), id(p1)}, ids(listOf(t, f.sk, "/v1/payouts?account_id="+id(a))))
	r := f.sk.Get("/v1/payouts?per_page=2&page=2")
	require.Equal(t, http.StatusOK, r.Status)
	page := r.JSON()
	require.Equal(t, false, page["meta"].(map[string]any)["has_more"])
	require.Len(t, page["data"], 1)
	requireValidation(t, f.sk.Get("/v1/payouts?status=sent"), "status")
	requireValidation(t, f.sk.Get("/v1/payouts?account_id=x"), "account_id")
	requireError(t, f.sk.Get("/v1/payouts?page=0"), http.StatusBadRequest, "parameter_invalid", "page")
	requireError(t, f.sk.Get("/v1/payouts/"+id(a)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Get("/v1/payouts/not-an-id"), http.StatusNotFound, "resource_missing", "id")
}
