package rest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Hostile input on the area's endpoints: every one answers in the
// envelope, never a 5xx, and changes nothing.
func TestCatalogHostileInput(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	huge := strings.Repeat("4", 100000)
	for _, tc := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/v1/payment_methods", map[string]any{"type": "card", "card_number": huge, "exp_month": 1, "exp_year": 30, "cvc": "1\x00"}},
		{"POST", "/v1/payment_methods", map[string]any{"type": "card", "card_number": "4242\x004242", "exp_month": 99999999999999999, "exp_year": -1}},
		{"POST", "/v1/payment_methods", map[string]any{"type": "ach", "routing_number": huge, "account_number": "\x00", "account_type": huge}},
		{"POST", "/v1/payment_methods", `{"type": "card", "_wallet": "apple"}`},
		{"POST", "/v1/payment_methods/connect_plaid", map[string]any{"account": "\x00", "public_token": huge}},
		{"POST", "/v1/payment_methods/" + id(c) + "/attach", map[string]any{"customer": id(c)}},
		{"POST", "/v1/discounts/validate", map[string]any{"amount_cents": -1, "promotion_codes": make([]string, 5000)}},
		{"POST", "/v1/discounts/validate", map[string]any{"amount_cents": 1, "promotion_codes": []string{"A\x00", huge[:60]}}},
		{"POST", "/v1/promotion_codes", map[string]any{"code": "\x00", "coupon_id": huge}},
		{"POST", "/v1/coupons", map[string]any{"name": huge, "discount_type": "percentage", "discount_value": "1e400", "duration": "once", "applicable_to": "all_products"}},
		{"POST", "/v1/coupons", `{"discount_value": [1]}`},
		{"POST", "/v1/products", map[string]any{"name": "x", "default_price": 1e30}},
		{"POST", "/v1/products/" + id(c) + "/phases", map[string]any{"ordinal": 1}},
		{"PATCH", "/v1/customers/" + id(c), map[string]any{"phone": huge, "ssn": huge, "billing_address": "x"}},
		{"GET", "/v1/customers/search?q=%00", nil},
		{"GET", "/v1/customers/search?created_after=99999999999999999999", nil},
		{"GET", "/v1/promotion_codes?coupon_id=%27%3B", nil},
	} {
		r := f.sk.Do(tc.method, tc.path, tc.body, nil)
		require.Less(t, r.Status, 500, "%s %s: %s", tc.method, tc.path, r.Body)
		if r.Status >= 400 {
			e := r.JSON()
			require.NotEmpty(t, e["code"], "%s %s", tc.method, tc.path)
			require.NotContains(t, string(r.Body), huge[:50], "errors do not echo the input")
		}
	}
	require.Len(t, listOf(t, f.sk, "/v1/payment_methods?include_wallets=true"), 0)
	require.Len(t, listOf(t, f.sk, "/v1/coupons"), 0)
}
