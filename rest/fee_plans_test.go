package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestFeePlanCreateRendersEveryFieldAndReads(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Post("/v1/transfer_fee_plans", map[string]any{"name": "Standard Platform Fee", "fee_application_mode": "add_on",
		"items": []any{testenv.CardFeeItem(), map[string]any{"fee_type": "percentage", "amount_percentage": 0.8,
			"billable_event_type": "transfer.charge.ach"}}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	p := r.JSON()
	require.Equal(t, sorted("id", "object", "name", "fee_application_mode", "items", "created", "updated", "livemode"), keys(p))
	require.Equal(t, "transfer_fee_plan", p["object"])
	require.Equal(t, "add_on", p["fee_application_mode"])
	items := p["items"].([]any)
	require.Len(t, items, 2)
	card := items[0].(map[string]any)
	require.Equal(t, sorted("id", "object", "fee_type", "amount_fixed_cents", "amount_fixed_currency", "amount_percentage",
		"billable_event_type", "created", "updated"), keys(card))
	require.Equal(t, "transfer_fee_plan_item", card["object"])
	require.Equal(t, "2.9", card["amount_percentage"])
	require.Equal(t, float64(30), card["amount_fixed_cents"])
	ach := items[1].(map[string]any)
	require.Equal(t, "0.8", ach["amount_percentage"])
	require.Equal(t, float64(0), ach["amount_fixed_cents"])
	require.Equal(t, "USD", ach["amount_fixed_currency"])

	got := f.sk.Get("/v1/transfer_fee_plans/" + id(p))
	require.Equal(t, http.StatusOK, got.Status)
	require.JSONEq(t, string(r.Body), string(got.Body))
	require.Equal(t, []string{id(p)}, ids(listOf(t, f.sk, "/v1/transfer_fee_plans")))
	// The mode defaults to deduct.
	d := f.sk.CreateFeePlan("deduct", testenv.CardFeeItem())
	require.Equal(t, "deduct", string(d.FeeApplicationMode))
}

func TestFeePlanValidationReportsEveryProblem(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Post("/v1/transfer_fee_plans", map[string]any{"fee_application_mode": "split", "items": []any{
		map[string]any{"fee_type": "flat", "billable_event_type": "transfer.charge.card"},                                      // no fixed
		map[string]any{"fee_type": "percentage", "amount_percentage": "101", "billable_event_type": "transfer.charge.ach"},     // > 100
		map[string]any{"fee_type": "flat", "amount_fixed_cents": 5, "amount_percentage": 1, "billable_event_type": "refund"},   // pct on flat, bad event
		map[string]any{"fee_type": "tiered", "amount_fixed_cents": -1, "billable_event_type": "transfer.charge.card"},          // bad type, negative, duplicate event
		map[string]any{"fee_type": "percentage", "amount_percentage": "1.23456", "billable_event_type": "transfer.payout.ach"}, // 5 decimals
	}})
	requireValidation(t, r, "name", "fee_application_mode", "items.0.amount_fixed_cents", "items.1.amount_percentage",
		"items.2.amount_percentage", "items.2.billable_event_type", "items.3.fee_type", "items.3.amount_fixed_cents",
		"items.3.billable_event_type", "items.4.amount_percentage")
	require.Empty(t, listOf(t, f.sk, "/v1/transfer_fee_plans"))
}

func TestAgreementLifecycleOnlyStatusChanges(t *testing.T) {
	t.Parallel()
	f := setup(t)
	plan := f.sk.CreateFeePlan("deduct", testenv.CardFeeItem())
	acct := f.sk.CreateAccount(testenv.Individual())
	r := f.sk.Post("/v1/transfer_billing_agreements", map[string]any{"transfer_fee_plan_id": id(plan), "category": "charge",
		"effective_date": "2025-03-01", "account_id": id(acct)})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	a := r.JSON()
	require.Equal(t, sorted("id", "object", "status", "category", "effective_date", "account_id", "fee_plan",
		"transfer_fee_plan_id", "created", "updated", "livemode"), keys(a))
	require.Equal(t, id(plan), a["transfer_fee_plan_id"], "the plan under the name the create sent it")
	require.Equal(t, "transfer_billing_agreement", a["object"])
	require.Equal(t, "pending", a["status"])
	require.Equal(t, "2025-03-01T00:00:00Z", a["effective_date"])
	require.Equal(t, id(acct), a["account_id"])
	require.Equal(t, id(plan), a["fee_plan"].(map[string]any)["id"])

	for _, status := range []string{"active", "inactive", "active"} {
		u := f.sk.Patch("/v1/transfer_billing_agreements/"+id(a), map[string]any{"status": status, "category": "payout"})
		require.Equal(t, http.StatusOK, u.Status, string(u.Body))
		require.Equal(t, status, u.JSON()["status"])
		require.Equal(t, "charge", u.JSON()["category"], "only the status is updatable")
	}
	requireError(t, f.sk.Patch("/v1/transfer_billing_agreements/"+id(a), map[string]any{"status": "pending"}),
		http.StatusUnprocessableEntity, "invalid_state", "")
	requireValidation(t, f.sk.Patch("/v1/transfer_billing_agreements/"+id(a), map[string]any{}), "status")
	requireValidation(t, f.sk.Patch("/v1/transfer_billing_agreements/"+id(a), map[string]any{"status": "gone"}), "status")
	got := f.sk.Get("/v1/transfer_billing_agreements/" + id(a)).JSON()
	require.Equal(t, "active", got["status"])
	require.Equal(t, id(plan), got["fee_plan"].(map[string]any)["id"])
	list := listOf(t, f.sk, "/v1/transfer_billing_agreements")
	require.Equal(t, []string{id(a)}, ids(list))
	require.NotNil(t, list[0]["fee_plan"])
}

func TestAgreementValidationAndTenancy(t *testing.T) {
	t.Parallel()
	f := setup(t)
	requireValidation(t, f.sk.Post("/v1/transfer_billing_agreements", map[string]any{"category": "gift",
		"effective_date": "yesterday", "status": "inactive", "account_id": "nope"}),
		"transfer_fee_plan_id", "category", "effective_date", "status", "account_id")

	_, otherKeys := f.env.NewMerchant(testAuthMerchant("Other"))
	otherSK := f.env.Client(otherKeys.Sandbox.Secret)
	foreignPlan := otherSK.CreateFeePlan("deduct", testenv.CardFeeItem())
	requireValidation(t, f.sk.Post("/v1/transfer_billing_agreements", map[string]any{"transfer_fee_plan_id": id(foreignPlan),
		"category": "charge", "effective_date": "2025-01-01"}), "transfer_fee_plan_id")
	requireError(t, f.sk.Get("/v1/transfer_fee_plans/"+id(foreignPlan)), http.StatusNotFound, "resource_missing", "id")
	// The other mode's plan is another tenant's too.
	livePlan := f.live.CreateFeePlan("deduct", testenv.CardFeeItem())
	requireError(t, f.sk.Get("/v1/transfer_fee_plans/"+id(livePlan)), http.StatusNotFound, "resource_missing", "id")
	a := otherSK.CreateAgreement(id(foreignPlan), "")
	requireError(t, f.sk.Get("/v1/transfer_billing_agreements/"+id(a)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Patch("/v1/transfer_billing_agreements/"+id(a), map[string]any{"status": "inactive"}),
		http.StatusNotFound, "resource_missing", "id")
	// Publishable keys may not touch pricing.
	requireError(t, f.pk.Get("/v1/transfer_fee_plans"), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post("/v1/transfer_fee_plans", map[string]any{"name": "x"}), http.StatusForbidden, "forbidden", "")
}
