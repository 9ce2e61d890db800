package rest_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Numbers the JSON decoder accepts but an integer column or a timestamp
// cannot hold are refused as 422 naming the member, on every operation,
// instead of reaching PostgreSQL and coming back as a 500.
func TestIntegersAndTimesOutOfRangeAre422(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const over32 = int64(1) << 31
	const farFuture, farPast = int64(9_200_000_000_000_000_000), int64(-9_200_000_000_000_000_000)

	coupon := map[string]any{"name": "Ten", "discount_type": "percentage", "discount_value": "10",
		"duration": "once", "applicable_to": "all_products"}
	for param, body := range map[string]map[string]any{
		"max_redemptions":    {"max_redemptions": over32},
		"valid_until":        {"valid_until": farFuture},
		"valid_from":         {"valid_from": farPast},
		"duration_in_months": {"duration": "repeating", "duration_in_months": over32},
	} {
		requireValidation(t, f.sk.Post("/v1/coupons", merge(coupon, body)), param)
	}
	requireValidation(t, f.sk.Post("/v1/coupons", merge(coupon, map[string]any{"valid_until": farPast})), "valid_until")
	// Every problem at once: the range and the input's own rules.
	requireValidation(t, f.sk.Post("/v1/coupons", merge(coupon, map[string]any{"max_redemptions": over32, "duration": "weekly"})),
		"max_redemptions", "duration")

	// The largest values that fit are accepted.
	r := f.sk.Post("/v1/coupons", merge(coupon, map[string]any{"max_redemptions": over32 - 1, "valid_until": int64(253402300799)}))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	couponID := id(r.JSON())
	requireValidation(t, f.sk.Patch("/v1/coupons/"+couponID, map[string]any{"max_redemptions": over32}), "max_redemptions")

	promo := map[string]any{"code": "BIG", "coupon_id": couponID}
	requireValidation(t, f.sk.Post("/v1/promotion_codes", merge(promo, map[string]any{"max_redemptions": over32})), "max_redemptions")
	requireValidation(t, f.sk.Post("/v1/promotion_codes", merge(promo, map[string]any{"max_customer_redemptions": -over32 - 1})),
		"max_customer_redemptions")
	r = f.sk.Post("/v1/promotion_codes", promo)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	requireValidation(t, f.sk.Patch("/v1/promotion_codes/"+id(r.JSON()), map[string]any{"max_redemptions": over32}), "max_redemptions")

	phases := "/v1/products/" + id(f.sk.CreateProduct(testenv.Product())) + "/phases"
	requireValidation(t, f.sk.Post(phases, map[string]any{"ordinal": over32, "pricing_type": "static", "amount_cents": 1}), "ordinal")
	requireValidation(t, f.sk.Post(phases, map[string]any{"ordinal": 0, "pricing_type": "static", "amount_cents": 1, "period_count": over32}),
		"period_count")

	requireValidation(t, f.sk.Post("/v1/payout_funding/schedules", map[string]any{"amount": 5000, "cadence": "weekly", "next_run": farFuture}),
		"next_run")

	// A query parameter out of range is malformed (400), like any other.
	for _, sec := range []int64{farFuture, farPast} {
		requireError(t, f.sk.Get("/v1/customers/search?created_before="+strconv.FormatInt(sec, 10)),
			http.StatusBadRequest, "parameter_invalid", "created_before")
	}
}
