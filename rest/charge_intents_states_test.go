package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/card"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// A manual intent is authorized, then captured in parts: each capture is
// priced on the running total (the fixed fee once), journaled naming the
// charge, and void_remaining releases what is left.
func TestChargeIntentPartialCapturesAndVoidRemaining(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	ci := createIntent(t, f.sk, p.intent(1000, map[string]any{"authorization_mode": "manual"}))
	require.Equal(t, "requires_capture", ci["status"])
	require.Equal(t, "manual", ci["authorization_mode"])
	ch := charged(ci)
	require.Equal(t, "succeeded", ch["status"], "an authorization is a succeeded charge, not captured")
	require.Equal(t, false, ch["captured"])
	require.Zero(t, num(ch["amount_captured"]))
	require.Zero(t, requireBooksHold(t, f)["card_clearing"], "nothing moved yet")

	for _, bad := range []int64{0, -5, 1001} {
		errs := requireValidation(t, f.sk.Post("/v1/charge_intents/"+id(ci)+"/capture",
			map[string]any{"amount_captured_cents": bad}), "amount_captured_cents")
		requireProblem(t, errs, "amount_captured_cents", "must be from 1 to the amount still authorized (1000)")
	}
	part := postIntent(t, f.sk, id(ci), "capture", map[string]any{"amount_captured_cents": 600})
	require.Equal(t, "requires_capture", part["status"], "the rest stays authorized")
	require.Equal(t, int64(600), num(part["amount_captured"]))
	require.Equal(t, int64(600), num(charged(part)["amount_captured"]))
	require.Equal(t, int64(553), num(charged(part)["net_amount"])) // 17.4 → 17, + 30
	requireValidation(t, f.sk.Post("/v1/charge_intents/"+id(ci)+"/capture", map[string]any{"amount_captured_cents": 401}),
		"amount_captured_cents")
	part = postIntent(t, f.sk, id(ci), "capture", map[string]any{"amount_captured_cents": 300})
	require.Equal(t, int64(900), num(part["amount_captured"]))
	require.Equal(t, int64(844), num(charged(part)["net_amount"]), "fees of the total: 26.1 → 26, + 30 once")
	books := requireBooksHold(t, f)
	require.Equal(t, map[string]int64{"card_clearing": 900, "merchant": -844, "platform_fees": -56, "frame_fees": 0,
		"ach_clearing": 0}, books)

	requireError(t, f.sk.Post("/v1/charge_intents/"+id(ci)+"/cancel", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	done := postIntent(t, f.sk, id(ci), "void_remaining", nil)
	require.Equal(t, "succeeded", done["status"])
	require.Equal(t, int64(900), num(done["amount_captured"]))
	require.Equal(t, int64(100), num(done["amount_voided"]))
	require.Equal(t, books, requireBooksHold(t, f), "a void moves no money")
	require.Equal(t, []string{"charge_intent.created", "charge_intent.updated", "charge_intent.updated",
		"charge_intent.updated", "charge_intent.succeeded"}, eventTypes(listEvents(t, f.sk, ""), id(ci)))
	trace := f.sk.Get("/v1/charges/" + ch["id"].(string) + "/trace").JSON()
	require.Len(t, trace["ledger"].(map[string]any)["journals"], 2, "one journal per capture, each naming the charge")

	// Nothing captured: void_remaining points to cancel, and cancel
	// releases the whole authorization.
	other := createIntent(t, f.sk, p.intent(700, map[string]any{"authorization_mode": "manual"}))
	requireError(t, f.sk.Post("/v1/charge_intents/"+id(other)+"/void_remaining", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	canceled := postIntent(t, f.sk, id(other), "cancel", nil)
	require.Equal(t, "canceled", canceled["status"])
	require.Equal(t, int64(700), num(canceled["amount_voided"]))
	require.Equal(t, false, charged(canceled)["captured"])

	// A capture without an amount takes all that is authorized.
	whole := createIntent(t, f.sk, p.intent(500, map[string]any{"authorization_mode": "manual"}))
	whole = postIntent(t, f.sk, id(whole), "capture", nil)
	require.Equal(t, "succeeded", whole["status"])
	require.Equal(t, int64(500), num(whole["amount_captured"]))
	require.Zero(t, num(whole["amount_voided"]))
	require.Equal(t, int64(1400), requireBooksHold(t, f)["card_clearing"])
}

// An action the intent's state forbids is 422 invalid_state and changes
// nothing.
func TestChargeIntentWrongStates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newIntentPayer(t, f.sk, "4242424242424242")
	declined := newIntentPayer(t, f.sk, "4000000000000002")
	open := createIntent(t, f.sk, map[string]any{"amount": 100, "currency": "usd", "customer": id(p.customer)})
	waiting := createIntent(t, f.sk, p.intent(100, map[string]any{"confirm": false}))
	succeeded := createIntent(t, f.sk, p.intent(100, nil))
	failed := createIntent(t, f.sk, declined.intent(100, nil))
	canceled := createIntent(t, f.sk, p.intent(100, map[string]any{"confirm": false}))
	canceled = postIntent(t, f.sk, id(canceled), "cancel", nil)

	errs := requireValidation(t, f.sk.Post("/v1/charge_intents/"+id(open)+"/confirm", nil), "payment_method")
	requireProblem(t, errs, "payment_method", "is required to confirm a charge intent without one")
	for _, c := range []struct {
		intent  map[string]any
		actions []string
	}{
		{open, []string{"capture", "void_remaining"}},
		{waiting, []string{"capture", "void_remaining"}},
		{succeeded, []string{"confirm", "capture", "cancel", "void_remaining"}},
		{failed, []string{"confirm", "capture", "cancel", "void_remaining"}},
		{canceled, []string{"confirm", "capture", "cancel", "void_remaining"}},
	} {
		for _, action := range c.actions {
			e := requireError(t, f.sk.Post("/v1/charge_intents/"+id(c.intent)+"/"+action, nil),
				http.StatusUnprocessableEntity, "invalid_state", "")
			require.Contains(t, e["message"], "A charge intent in status "+c.intent["status"].(string)+" cannot be", action)
		}
		requireError(t, f.sk.Post("/v1/test_helpers/charge_intents/"+id(c.intent)+"/complete_3d_secure", nil),
			http.StatusUnprocessableEntity, "invalid_state", "")
	}
	// The confirm of an intent waiting for a payment method takes one.
	require.Equal(t, "succeeded", postIntent(t, f.sk, id(open), "confirm", map[string]any{"payment_method": id(p.card)})["status"])
	require.Len(t, listOf(t, f.sk, "/v1/charge_intents"), 5)
}

// Every test card of API-DECISIONS §6 goes through a charge intent:
// successes succeed, declines are recorded failed with the decline (never
// an error), challenges wait for 3-D Secure and resolve through the
// sandbox helper.
func TestEveryTestCardThroughAChargeIntent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cu := f.sk.CreateCustomer(testenv.Customer())
	successes := int64(0)
	for _, c := range card.TestCards {
		ci := createIntent(t, f.sk, map[string]any{"amount": 2500, "currency": "usd", "customer": id(cu), "confirm": true,
			"payment_method_data": testenv.CardData(c.Number)})
		pm := ci["payment_method"].(map[string]any)
		ch := charged(ci)
		switch c.Outcome {
		case "", card.OutcomeDispute, card.OutcomeThreeDSFrictionless, card.OutcomeRefundFails:
			require.Equal(t, "succeeded", ci["status"], c.Number)
			require.Equal(t, int64(2500), num(ci["amount_captured"]), c.Number)
			require.Equal(t, "succeeded", ch["status"], c.Number)
			successes++
		case card.OutcomeThreeDSChallenge, card.OutcomeThreeDSChallengeFail:
			require.Equal(t, "requires_3d_secure", ci["status"], c.Number)
			require.Nil(t, ch, "the charge is made when the challenge ends")
			require.Equal(t, map[string]any{"type": "use_frame_sdk", "use_frame_sdk": map[string]any{"source": pm["id"]}},
				ci["next_action"], c.Number)
			require.Equal(t, []string{"charge_intent.created", "charge_intent.requires_action",
				"charge_intent.payment_action_required"}, eventTypes(listEvents(t, f.sk, ""), id(ci)))
			r := f.sk.Post("/v1/test_helpers/charge_intents/"+id(ci)+"/complete_3d_secure", nil)
			require.Equal(t, http.StatusOK, r.Status, string(r.Body))
			done := r.JSON()
			require.Nil(t, done["next_action"])
			if c.Outcome == card.OutcomeThreeDSChallenge {
				require.Equal(t, "succeeded", done["status"], c.Number)
				successes++
			} else {
				require.Equal(t, "failed", done["status"], c.Number)
				require.Equal(t, "authentication_required", charged(done)["failure_code"])
				require.Equal(t, "authentication_failed", charged(done)["failure_category"])
				require.NotEmpty(t, done["failure_description"])
			}
		default:
			require.Equal(t, "failed", ci["status"], c.Number)
			require.Equal(t, ch["failure_message"], ci["failure_description"], c.Number)
			require.NotEmpty(t, ci["failure_description"], c.Number)
			require.Equal(t, "failed", ch["status"], c.Number)
			require.Equal(t, c.Outcome, ch["failure_code"], c.Number)
			require.Equal(t, "card_declined", ch["failure_category"], c.Number)
			require.Nil(t, ch["authorization_code"], c.Number)
			require.Zero(t, num(ci["amount_captured"]), c.Number)
			require.Equal(t, []string{"charge_intent.created", "charge_intent.payment_failed"},
				eventTypes(listEvents(t, f.sk, ""), id(ci)))
		}
	}
	books := requireBooksHold(t, f)
	// Ten successes of 25.00 (72.5 rounds up to 73, + 30 = 103 each); the
	// dispute card's chargeback took its 25.00 back out of clearing.
	require.Equal(t, int64(10), successes)
	require.Equal(t, (successes-1)*2500, books["card_clearing"])
	require.Equal(t, -successes*103, books["platform_fees"])
}

// The sandbox bank's accounts through a charge intent: an ACH charge,
// priced by the plan's ACH item, cleared on ach_clearing.
func TestEverySandboxBankAccountThroughAChargeIntent(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cu := f.sk.CreateCustomer(testenv.Customer())
	for account, outcome := range map[string]string{"000123456789": "", "000111111113": "account_closed",
		"000111111116": "no_account", "000222222227": "insufficient_funds", "000333333335": "debit_not_authorized"} {
		r := f.sk.Post("/v1/payment_methods", map[string]any{"type": "ach", "customer": id(cu),
			"routing_number": "110000000", "account_number": account, "account_type": "checking"})
		require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
		ci := createIntent(t, f.sk, map[string]any{"amount": 10000, "currency": "usd", "customer": id(cu),
			"payment_method": id(r.JSON()), "confirm": true})
		if outcome == "" {
			require.Equal(t, "succeeded", ci["status"], account)
			require.Equal(t, int64(9920), num(charged(ci)["net_amount"]), "0.8 %")
			continue
		}
		require.Equal(t, "failed", ci["status"], account)
		require.Equal(t, outcome, charged(ci)["failure_code"], account)
		require.Equal(t, "bank_declined", charged(ci)["failure_category"], account)
	}
	books := requireBooksHold(t, f)
	require.Equal(t, int64(10000), books["ach_clearing"])
	require.Zero(t, books["card_clearing"])
}
