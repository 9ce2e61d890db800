package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The SDK's coupon members: percent_off and currency are the spec's
// discount_value and discount_value_currency under other names; amount_off
// (its unit unstated), metadata and a renaming update are refused, every
// problem at once, and nothing is written.
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
		"amount_off": 500, "currency": "USD", "duration": "once", "metadata": map[string]any{"k": "v"}}),
		"amount_off", "discount_value", "applicable_to", "metadata")
	requireProblem(t, errs, "amount_off", `is not accepted: its unit is not stated; send discount_value, `+
		`the amount in major units as a decimal string ("5.00"), with discount_value_currency`)
	requireProblem(t, errs, "metadata", "is not accepted: coupons keep no metadata")
	requireValidation(t, f.sk.Post("/v1/coupons", map[string]any{"name": "SDKMIX", "discount_type": "fixed_amount",
		"percent_off": 10, "duration": "once", "applicable_to": "all_products"}), "percent_off", "discount_value")

	// The SDK's update: name and metadata are refused, the coupon unchanged.
	errs = requireValidation(t, f.sk.Patch("/v1/coupons/"+id(c), map[string]any{"name": "RENAMED",
		"metadata": map[string]any{}}), "name", "metadata")
	requireProblem(t, errs, "name", "is not accepted: a coupon's name is its unique identifier and does not change")
	require.Equal(t, "SDKPCT", f.sk.Get("/v1/coupons/" + id(c)).JSON()["name"])
	list := f.sk.Get("/v1/coupons").JSON()
	require.Len(t, list["data"], 3, "refused creates write nothing")
}

// The SDK's promotion code members: expires_at as Unix seconds is the same
// instant as the spec's ISO 8601 string; metadata is refused.
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
		"expires_at": 1.5, "metadata": map[string]any{}}), "expires_at", "metadata")
	requireProblem(t, errs, "metadata", "is not accepted: promotion codes keep no metadata")
	requireValidation(t, f.sk.Post("/v1/promotion_codes", map[string]any{"code": "sdkfar", "coupon_id": id(coupon),
		"expires_at": int64(1) << 40}), "expires_at")
	requireValidation(t, f.sk.Patch("/v1/promotion_codes/"+id(code), map[string]any{"active": false,
		"metadata": map[string]any{"k": "v"}}), "metadata")
	require.Equal(t, true, f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()["active"])
	requireError(t, f.sk.Post("/v1/promotion_codes", map[string]any{"code": "sdktype", "coupon_id": id(coupon),
		"expires_at": true}), http.StatusBadRequest, "parameter_invalid", "expires_at")
}
