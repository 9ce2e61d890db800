package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The SDK's coupon members: percent_off and currency are the spec's
// discount_value and discount_value_currency under other names; amount_off
// (its unit unstated) is refused, every problem at once, and nothing is
// written; metadata is kept and an update may rename the coupon.
func TestCouponTakesTheSDKsMembers(t *testing.T) {
	t.Parallel()
	f := setup(t)

	r := f.sk.Post("/v1/coupons", map[string]any{"name": "SDKPCT", "discount_type": "percentage", "percent_off": 15,
		"duration": "once", "applicable_to": "all_products"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	c := r.JSON()
	require.Equal(t, "15", c["discount_value"])
	require.Nil(t, c["discount_value_currency"])

	// Both names with one value are taken; two values are refused.
	r = f.sk.Post("/v1/coupons", map[string]any{"name": "SDKBOTH", "discount_type": "percentage", "percent_off": 20,
		"discount_value": "20.00", "duration": "once", "applicable_to": "all_products"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	requireValidation(t, f.sk.Post("/v1/coupons", map[string]any{"name": "SDKTWO", "discount_type": "percentage",
		"percent_off": 20, "discount_value": 25, "duration": "once", "applicable_to": "all_products"}), "percent_off")
	errs := requireValidation(t, f.sk.Post("/v1/coupons", map[string]any{"name": "SDKBIG", "discount_type": "percentage",
		"percent_off": 120, "currency": "USD", "duration": "once", "applicable_to": "all_products"}), "percent_off", "currency")
	requireProblem(t, errs, "percent_off", "must be from 0 to 100 for a percentage")
	requireProblem(t, errs, "currency", "is only allowed for fixed_amount")

	// currency carries a fixed amount's currency; amount_off is refused
	// with the member to send instead.
	r = f.sk.Post("/v1/coupons", map[string]any{"name": "SDKEUR", "discount_type": "fixed_amount", "discount_value": "5.00",
		"currency": "eur", "duration": "once", "applicable_to": "all_products"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, "EUR", r.JSON()["discount_value_currency"])
	requireValidation(t, f.sk.Post("/v1/coupons", map[string]any{"name": "SDKCUR", "discount_type": "fixed_amount",
		"discount_value": "5.00", "discount_value_currency": "USD", "currency": "EUR", "duration": "once",
		"applicable_to": "all_products"}), "currency")
	errs = requireValidation(t, f.sk.Post("/v1/coupons", map[string]any{"name": "SDKOFF", "discount_type": "fixed_amount",
		"amount_off": 500, "currency": "USD", "duration": "once", "metadata": map[string]any{"k": strings.Repeat("v", 101)}}),
		"amount_off", "discount_value", "applicable_to", "metadata.k")
	requireProblem(t, errs, "amount_off", `is not accepted: its unit is not stated; send discount_value, `+
		`the amount in major units as a decimal string ("5.00"), with discount_value_currency`)
	requireProblem(t, errs, "metadata.k", "must be at most 100 characters")
	requireValidation(t, f.sk.Post("/v1/coupons", map[string]any{"name": "SDKMIX", "discount_type": "fixed_amount",
		"percent_off": 10, "duration": "once", "applicable_to": "all_products"}), "percent_off", "discount_value")

	// The SDK's update renames the coupon and merges its metadata; a name
	// another coupon has, in any case, is refused and changes nothing.
	r = f.sk.Patch("/v1/coupons/"+id(c), map[string]any{"name": "RENAMED", "metadata": map[string]any{"k": "v"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "RENAMED", r.JSON()["name"])
	require.Equal(t, map[string]any{"k": "v"}, r.JSON()["metadata"])
	r = f.sk.Patch("/v1/coupons/"+id(c), map[string]any{"metadata": map[string]any{"k": nil, "l": "w"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"l": "w"}, r.JSON()["metadata"], "a null value removes its key")
	requireError(t, f.sk.Patch("/v1/coupons/"+id(c), map[string]any{"name": "sdkeur", "metadata": map[string]any{"m": "x"}}),
		http.StatusUnprocessableEntity, "validation_errors", "name")
	requireValidation(t, f.sk.Patch("/v1/coupons/"+id(c), map[string]any{"name": strings.Repeat("n", 101),
		"metadata": map[string]any{"": "x"}}), "name", "metadata")
	got := f.sk.Get("/v1/coupons/" + id(c)).JSON()
	require.Equal(t, "RENAMED", got["name"])
	require.Equal(t, map[string]any{"l": "w"}, got["metadata"])
	list := f.sk.Get("/v1/coupons").JSON()
	require.Len(t, list["data"], 3, "refused creates write nothing")
	for _, coupon := range list["data"].([]any) {
		require.NotNil(t, coupon.(map[string]any)["metadata"], "a coupon created without metadata has an empty one")
	}
}

// The SDK's promotion code members: expires_at as Unix seconds is the same
// instant as the spec's ISO 8601 string; metadata is kept.
func TestPromotionCodeTakesTheSDKsMembers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	coupon := f.sk.CreateCoupon(testenv.Coupon())
	at := testenv.Start.Add(48 * time.Hour).Truncate(time.Second)

	r := f.sk.Post("/v1/promotion_codes", map[string]any{"code": "sdkunix", "coupon_id": id(coupon), "expires_at": at.Unix()})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	code := r.JSON()
	require.Equal(t, float64(at.Unix()), code["expires_at"])

	later := at.Add(time.Hour)
	r = f.sk.Patch("/v1/promotion_codes/"+id(code), map[string]any{"expires_at": later.Unix()})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(later.Unix()), r.JSON()["expires_at"])
	r = f.sk.Patch("/v1/promotion_codes/"+id(code), map[string]any{"expires_at": later.Format(time.RFC3339)})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body), "the spec's string is still taken")

	errs := requireValidation(t, f.sk.Post("/v1/promotion_codes", map[string]any{"code": "sdkbad", "coupon_id": id(coupon),
		"expires_at": 1.5, "metadata": map[string]any{strings.Repeat("k", 41): "v"}}), "expires_at", "metadata."+strings.Repeat("k", 41))
	requireProblem(t, errs, "metadata."+strings.Repeat("k", 41), "key must be at most 40 characters")
	requireValidation(t, f.sk.Post("/v1/promotion_codes", map[string]any{"code": "sdkfar", "coupon_id": id(coupon),
		"expires_at": int64(1) << 40}), "expires_at")
	require.Equal(t, map[string]any{}, code["metadata"])
	r = f.sk.Patch("/v1/promotion_codes/"+id(code), map[string]any{"metadata": map[string]any{"campaign": "spring"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"campaign": "spring"}, r.JSON()["metadata"])
	many := map[string]any{}
	for i := range 20 {
		many[fmt.Sprintf("k%d", i)] = "v"
	}
	requireValidation(t, f.sk.Patch("/v1/promotion_codes/"+id(code), map[string]any{"active": false, "metadata": many}),
		"metadata")
	got := f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()
	require.Equal(t, true, got["active"], "a refused update changes nothing")
	require.Equal(t, map[string]any{"campaign": "spring"}, got["metadata"])
	r = f.sk.Post("/v1/promotion_codes", map[string]any{"code": "sdkmeta", "coupon_id": id(coupon),
		"metadata": map[string]any{"campaign": "fall"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"campaign": "fall"}, r.JSON()["metadata"])
	requireError(t, f.sk.Post("/v1/promotion_codes", map[string]any{"code": "sdktype", "coupon_id": id(coupon),
		"expires_at": true}), http.StatusBadRequest, "parameter_invalid", "expires_at")
}
