package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

const unsupportedCurrency = "must be a supported ISO 4217 currency code, such as USD"

// Three letters are not a currency: every currency parameter is checked
// against the ISO 4217 list the sandbox processor settles in, with one
// message, so a made-up code never reaches a charge, a coupon or the
// ledger. Real codes in any case still pass.
func TestCurrenciesOutsideISO4217AreRefusedWithOneMessage(t *testing.T) {
	t.Parallel()
	f := setup(t)
	coupon := f.sk.Post("/v1/coupons", map[string]any{"name": "Ten", "discount_type": "percentage", "discount_value": "10",
		"duration": "once", "applicable_to": "all_products"})
	require.Equal(t, http.StatusCreated, coupon.Status, string(coupon.Body))
	phases := "/v1/products/" + id(f.sk.CreateProduct(testenv.Product())) + "/phases"

	for _, c := range []struct {
		path, param string
		body        map[string]any
	}{
		{"/v1/transfers", "currency", map[string]any{"currency": "ABC"}},
		{"/v1/charge_intents", "currency", map[string]any{"currency": "abc"}},
		{"/v1/coupons", "discount_value_currency", map[string]any{"discount_type": "fixed_amount", "discount_value": "5.00",
			"discount_value_currency": "ABC"}},
		{"/v1/coupons", "minimum_order_amount_currency", map[string]any{"minimum_order_amount_cents": 100,
			"minimum_order_amount_currency": "XAU"}},
		{"/v1/coupons", "discount_cap_currency", map[string]any{"discount_cap_cents": 100, "discount_cap_currency": "XTS"}},
		{"/v1/promotion_codes", "minimum_amount_currency", map[string]any{"code": "ABC", "coupon_id": id(coupon.JSON()),
			"minimum_amount_cents": 100, "minimum_amount_currency": "ABC"}},
		{phases, "currency", map[string]any{"ordinal": 0, "pricing_type": "static", "amount_cents": 1, "currency": "ABC"}},
		{"/v1/checkout_sessions", "amount.currency", map[string]any{"amount": map[string]any{"value": 100, "currency": "ABC"}}},
		{"/v1/transfer_fee_plans", "items.0.amount_fixed_currency", map[string]any{"name": "P", "fee_application_mode": "deduct",
			"items": []any{map[string]any{"fee_type": "flat", "amount_fixed_cents": 30, "amount_fixed_currency": "ABC"}}}},
		{"/v1/payouts", "currency", map[string]any{"currency": "ABC"}},
	} {
		r := f.sk.Post(c.path, c.body)
		require.Equal(t, http.StatusUnprocessableEntity, r.Status, "%s: %s", c.path, r.Body)
		require.Equal(t, "validation_errors", r.JSON()["code"], "%s: %s", c.path, r.Body)
		errs := r.JSON()["error_details"].(map[string]any)["errors"].(map[string]any)
		require.Equal(t, []any{unsupportedCurrency}, errs[c.param], "%s %s: %s", c.path, c.param, r.Body)
	}

	// A real code, in any case, is accepted.
	r := f.sk.Post(phases, map[string]any{"ordinal": 0, "pricing_type": "static", "amount_cents": 1, "currency": "eur"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
}
