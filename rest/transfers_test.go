package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/card"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestCardChargeSucceedsPricedAndJournaled(t *testing.T) {
	t.Parallel()
	f := setup(t)
	plan := f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := createTransfer(t, f.sk, p.charge(1000, map[string]any{"description": "Order 7", "reference": "ord_7",
		"metadata": map[string]any{"order": "7"}}))
	require.Equal(t, sorted("id", "object", "status", "amount", "amount_captured", "currency", "platform_fee", "frame_fee",
		"total_fees", "gross_amount", "net_amount", "description", "failure_reason", "failure_code", "failure_message",
		"charge_intent", "latest_charge", "payout", "billing_agreement", "fee_source", "transfer_fee_plan", "authorization_mode",
		"client_secret", "account", "account_id", "seller_id", "source_payment_method", "destination_payment_method",
		"reference", "next_action", "metadata", "livemode", "created", "updated"), keys(tr))
	require.Equal(t, "transfer", tr["object"])
	require.Equal(t, "succeeded", tr["status"])
	require.Equal(t, "USD", tr["currency"])
	for member, want := range map[string]int64{"amount": 1000, "amount_captured": 1000, "platform_fee": 59, "frame_fee": 0,
		"total_fees": 59, "gross_amount": 1000, "net_amount": 941} {
		require.Equal(t, want, num(tr[member]), member)
	}
	require.Equal(t, "billing_agreement", tr["fee_source"])
	require.NotNil(t, tr["billing_agreement"])
	require.Equal(t, id(plan), tr["transfer_fee_plan"])
	require.Equal(t, id(p.account), tr["account_id"])
	require.Equal(t, id(p.account), tr["account"])
	require.Equal(t, id(p.card), tr["source_payment_method"].(map[string]any)["id"])
	require.Nil(t, tr["destination_payment_method"])
	require.Nil(t, tr["failure_code"])
	require.Nil(t, tr["next_action"])

	got := f.sk.Get("/v1/transfers/" + id(tr))
	require.Equal(t, http.StatusOK, got.Status)
	require.JSONEq(t, string(f.sk.Get("/v1/transfers/"+id(tr)).Body), string(got.Body))
	require.Equal(t, "succeeded", got.JSON()["status"])
	require.Equal(t, []string{id(tr)}, ids(listOf(t, f.sk, "/v1/transfers")))

	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"transfer.created", "transfer.succeeded"}, eventTypes(evs, id(tr)))
	books := requireBooksHold(t, f)
	require.Equal(t, map[string]int64{"card_clearing": 1000, "merchant": -941, "platform_fees": -59, "frame_fees": 0,
		"ach_clearing": 0}, books)
}

func TestChargeModesMoveTheRightAmounts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode                               string
		gross, net, clearing, merchantBook int64
	}{
		{"deduct", 1000, 941, 1000, -941},
		{"add_on", 1059, 1000, 1059, -1000},
		{"absorb", 1000, 1000, 1000, -941}, // credited 1000, debited the 59 of fees
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			f := setup(t)
			plan := f.sk.CreateFeePlan(c.mode, testenv.CardFeeItem())
			p := newPayer(t, f.sk, "5555555555554444")
			tr := createTransfer(t, f.sk, p.charge(1000, map[string]any{"transfer_fee_plan_id": id(plan)}))
			require.Equal(t, "fee_plan_override", tr["fee_source"])
			require.Nil(t, tr["billing_agreement"])
			require.Equal(t, c.gross, num(tr["gross_amount"]))
			require.Equal(t, c.net, num(tr["net_amount"]))
			require.Equal(t, int64(59), num(tr["total_fees"]))
			books := requireBooksHold(t, f)
			require.Equal(t, c.clearing, books["card_clearing"])
			require.Equal(t, c.merchantBook, books["merchant"])
			require.Equal(t, int64(-59), books["platform_fees"])
		})
	}
}

// Every test card of API-DECISIONS §6 goes through a charge: successes
// succeed, declines are recorded failed with their code (never an error),
// challenges wait for 3-D Secure.
func TestEveryTestCardThroughACharge(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	successes := int64(0)
	for _, c := range card.TestCards {
		p := newPayer(t, f.sk, c.Number)
		tr := createTransfer(t, f.sk, p.charge(2500, nil))
		switch c.Outcome {
		case "", card.OutcomeDispute, card.OutcomeThreeDSFrictionless, card.OutcomeRefundFails:
			require.Equal(t, "succeeded", tr["status"], c.Number)
			successes++
		case card.OutcomeThreeDSChallenge, card.OutcomeThreeDSChallengeFail:
			require.Equal(t, "requires_3d_secure", tr["status"], c.Number)
			require.Equal(t, map[string]any{"type": "use_platform_sdk",
				"use_platform_sdk": map[string]any{"source": id(p.card)}}, tr["next_action"], c.Number)
		default:
			require.Equal(t, "failed", tr["status"], c.Number)
			require.Equal(t, c.Outcome, tr["failure_code"], c.Number)
			require.NotEmpty(t, tr["failure_message"], c.Number)
			require.Equal(t, "card_declined", tr["failure_reason"], c.Number)
			require.Equal(t, int64(0), num(tr["amount_captured"]), c.Number)
			require.Equal(t, []string{"transfer.created", "transfer.failed"}, eventTypes(listEvents(t, f.sk, ""), id(tr)))
		}
	}
	books := requireBooksHold(t, f)
	// Nine successes of 25.00 (72.5 rounds up to 73, + 30 = 103 each): only they moved money,
	// and the dispute card's chargeback took its 25.00 back from clearing at once.
	require.Equal(t, int64(9), successes)
	require.Equal(t, (successes-1)*2500, books["card_clearing"])
	require.Equal(t, -successes*103, books["platform_fees"])
}

func TestChargeNeedsAnAgreementOrAPlan(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newPayer(t, f.sk, "4242424242424242")
	e := requireError(t, f.sk.Post("/v1/transfers", p.charge(1000, nil)), http.StatusUnprocessableEntity,
		"billing_agreement_not_found", "")
	require.Equal(t, "No active charge billing agreement found for this account or merchant.", e["message"])

	// A pending agreement, one not yet effective, or one whose plan prices
	// only ACH, does not apply.
	cardPlan := f.sk.CreateFeePlan("deduct", testenv.CardFeeItem())
	achPlan := f.sk.CreateFeePlan("deduct", testenv.ACHFeeItem())
	f.sk.Post("/v1/transfer_billing_agreements", map[string]any{"transfer_fee_plan_id": id(cardPlan), "category": "charge",
		"effective_date": "2020-01-01"})
	f.sk.Post("/v1/transfer_billing_agreements", map[string]any{"transfer_fee_plan_id": id(cardPlan), "category": "charge",
		"effective_date": "2999-01-01", "status": "active"})
	f.sk.CreateAgreement(id(achPlan), "")
	requireError(t, f.sk.Post("/v1/transfers", p.charge(1000, nil)), http.StatusUnprocessableEntity, "billing_agreement_not_found", "")
	requireError(t, f.sk.Post("/v1/transfers", p.charge(1000, map[string]any{"transfer_fee_plan_id": id(achPlan)})),
		http.StatusUnprocessableEntity, "billing_agreement_not_found", "")
	require.Empty(t, listOf(t, f.sk, "/v1/transfers"), "a refused charge leaves nothing")

	// The account's own agreement wins over the merchant's.
	merchantWide := f.sk.CreateAgreement(id(cardPlan), "")
	accountPlan := f.sk.CreateFeePlan("deduct", map[string]any{"fee_type": "flat", "amount_fixed_cents": 10,
		"billable_event_type": "transfer.charge.card"})
	own := f.sk.CreateAgreement(id(accountPlan), id(p.account))
	tr := createTransfer(t, f.sk, p.charge(1000, nil))
	require.Equal(t, id(own), tr["billing_agreement"])
	require.Equal(t, int64(10), num(tr["total_fees"]))
	other := newPayer(t, f.sk, "4242424242424242")
	tr = createTransfer(t, f.sk, other.charge(1000, nil))
	require.Equal(t, id(merchantWide), tr["billing_agreement"])
	// Deactivated, it no longer applies.
	f.sk.Patch("/v1/transfer_billing_agreements/"+id(own), map[string]any{"status": "inactive"})
	tr = createTransfer(t, f.sk, p.charge(1000, nil))
	require.Equal(t, id(merchantWide), tr["billing_agreement"])
	// A deduct plan cannot take more than the amount.
	requireError(t, f.sk.Post("/v1/transfers", p.charge(20, nil)), http.StatusUnprocessableEntity, "amount_too_small", "amount")
}

func TestManualAuthorizationPartialCapture(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := createTransfer(t, f.sk, p.charge(1000, map[string]any{"authorization_mode": "manual"}))
	require.Equal(t, "requires_capture", tr["status"])
	require.Equal(t, int64(0), num(tr["amount_captured"]))
	require.Equal(t, int64(0), requireBooksHold(t, f)["card_clearing"], "an authorization moves nothing")

	path := "/v1/transfers/" + id(tr)
	requireValidation(t, f.sk.Post(path+"/capture", map[string]any{"amount_captured_cents": 1001}), "amount_captured_cents")
	requireValidation(t, f.sk.Post(path+"/capture", map[string]any{"amount_captured_cents": 0}), "amount_captured_cents")
	r := f.sk.Post(path+"/capture", map[string]any{"amount_captured_cents": 600})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	c := r.JSON()
	require.Equal(t, "succeeded", c["status"])
	require.Equal(t, int64(1000), num(c["amount"]))
	require.Equal(t, int64(600), num(c["amount_captured"]))
	require.Equal(t, int64(47), num(c["total_fees"])) // 17.4 → 17, + 30
	require.Equal(t, int64(553), num(c["net_amount"]))
	require.Equal(t, int64(600), num(c["gross_amount"]))
	requireError(t, f.sk.Post(path+"/capture", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Post(path+"/cancel", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	books := requireBooksHold(t, f)
	require.Equal(t, int64(600), books["card_clearing"])
	require.Equal(t, int64(-553), books["merchant"])
}

func TestConfirmLaterCancelAndUpdate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := createTransfer(t, f.sk, p.charge(1000, map[string]any{"confirm": false}))
	require.Equal(t, "requires_confirmation", tr["status"])
	path := "/v1/transfers/" + id(tr)
	requireError(t, f.sk.Post(path+"/capture", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	r := f.sk.Post(path+"/confirm", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "succeeded", r.JSON()["status"])
	requireError(t, f.sk.Post(path+"/confirm", nil), http.StatusUnprocessableEntity, "invalid_state", "")

	second := f.sk.CreateTransfer(p.charging(500).WithoutConfirm())
	r = f.sk.Post("/v1/transfers/"+id(second)+"/cancel", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "canceled", r.JSON()["status"])
	requireError(t, f.sk.Post("/v1/transfers/"+id(second)+"/confirm", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, []string{"transfer.created", "transfer.canceled"}, eventTypes(listEvents(t, f.sk, ""), id(second)))

	u := f.sk.Patch(path, map[string]any{"description": "Renamed", "metadata": map[string]any{"k": "v"}, "amount": 1})
	require.Equal(t, http.StatusOK, u.Status, string(u.Body))
	require.Equal(t, "Renamed", u.JSON()["description"])
	require.Equal(t, map[string]any{"k": "v"}, u.JSON()["metadata"])
	require.Equal(t, int64(1000), num(u.JSON()["amount"]), "only description and metadata change")
	updated := listEvents(t, f.sk, "transfer.updated")
	require.Len(t, updated, 1)
	require.Equal(t, map[string]any{"description": nil, "metadata": map[string]any{}}, updated[0].previous())
	// An update that changes nothing emits nothing.
	f.sk.Patch(path, map[string]any{"description": "Renamed"})
	require.Len(t, listEvents(t, f.sk, "transfer.updated"), 1)

	filtered := listOf(t, f.sk, "/v1/transfers?status=canceled")
	require.Equal(t, []string{id(second)}, ids(filtered))
	requireBooksHold(t, f)
}

func TestTransferV2Shape(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4242424242424242")
	tr := f.sk.CreateTransfer(p.charging(1000))
	r := f.sk.Get("/v2/transfers/" + id(tr))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	v := r.JSON()
	require.Equal(t, "transfer", v["object"])
	require.Equal(t, "charge.card", v["type"])
	require.Equal(t, "succeeded", v["status"])
	require.Equal(t, map[string]any{"value": float64(1000), "currency": "USD"}, v["amount"])
	require.Equal(t, map[string]any{"value": float64(59), "currency": "USD"}, v["fee"])
	require.Equal(t, map[string]any{"value": float64(941), "currency": "USD"}, v["net_amount"])
	pay := v["payment"].(map[string]any)
	require.Equal(t, "succeeded", pay["status"])
	require.Equal(t, "automatic", pay["authorization_mode"])
	require.Equal(t, map[string]any{"value": float64(1000), "currency": "USD"}, pay["amount_captured"])
	src := v["source"].(map[string]any)
	require.Equal(t, id(p.card), src["payment_method_id"])
	require.Equal(t, "card", src["rail"])
	requireError(t, f.sk.Get("/v2/transfers/"+"0190a000-0000-7000-8000-000000000000"), http.StatusNotFound, "resource_missing", "id")
}
