package rest_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

var couponKeys = sorted("id", "object", "name", "description", "discount_type", "discount_value",
	"discount_value_currency", "duration", "duration_in_months", "status", "applicable_to", "max_redemptions",
	"times_redeemed", "minimum_order_amount_cents", "minimum_order_amount_currency", "discount_cap_cents",
	"discount_cap_currency", "valid_from", "valid_until", "is_expired", "is_maxed_out", "metadata", "livemode", "created",
	"updated")

var promotionCodeKeys = sorted("id", "object", "code", "coupon", "customer", "active", "first_time_transaction",
	"max_redemptions", "max_customer_redemptions", "times_redeemed", "minimum_amount_cents", "minimum_amount_currency",
	"expires_at", "is_expired", "is_maxed_out", "is_redeemable", "remaining_redemptions", "is_customer_specific",
	"metadata", "livemode", "created_at", "coupon_id", "created", "updated")

func TestCoupons(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Post("/v1/coupons", map[string]any{"name": "Spring", "discount_type": "fixed_amount", "discount_value": 5,
		"duration": "repeating", "duration_in_months": 3, "applicable_to": "all_products", "max_redemptions": 2,
		"valid_until": testenv.Start.Unix() + 3600, "minimum_order_amount_cents": 1000, "discount_cap_cents": 400})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	c := r.JSON()
	require.Equal(t, couponKeys, keys(c), "product_id is present only for specific_products")
	require.Equal(t, "5.00", c["discount_value"])
	require.Equal(t, "USD", c["discount_value_currency"])
	require.Equal(t, "active", c["status"])
	require.Equal(t, false, c["is_expired"])
	require.Equal(t, false, c["is_maxed_out"])
	require.Equal(t, "USD", c["minimum_order_amount_currency"])

	p := f.sk.CreateProduct(testenv.Product())
	pctSpec := testenv.Coupon()
	pctSpec.DiscountValue, pctSpec.ApplicableTo, pctSpec.ProductID = "12.5", "specific_products", id(p)
	pct := f.sk.CreateCoupon(pctSpec)
	require.Equal(t, models.Decimal("12.5"), pct.DiscountValue)
	require.Nil(t, pct.DiscountValueCurrency)
	require.Equal(t, p.ID, *pct.ProductID)

	errs := requireValidation(t, f.sk.Post("/v1/coupons", map[string]any{"discount_type": "percentage", "discount_value": 101,
		"duration": "repeating", "applicable_to": "specific_products"}), "name", "discount_value", "duration_in_months", "product_id")
	requireProblem(t, errs, "discount_value", "must be from 0 to 100 for a percentage")
	requireValidation(t, f.sk.Post("/v1/coupons", map[string]any{"name": "x", "discount_type": "percentage", "discount_value": 5,
		"duration": "once", "duration_in_months": 2, "applicable_to": "all_products", "product_id": id(p)}), "duration_in_months", "product_id")
	requireValidation(t, f.sk.Post("/v1/coupons", map[string]any{"name": "spring", "discount_type": "percentage",
		"discount_value": 5, "duration": "once", "applicable_to": "all_products"}), "name")

	// is_expired follows the clock.
	f.env.Clock.Advance(2 * 3600 * timeSecond)
	require.Equal(t, true, f.sk.Get("/v1/coupons/" + id(c)).JSON()["is_expired"])

	r = f.sk.Patch("/v1/coupons/"+id(c), map[string]any{"status": "inactive", "description": "Old"})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "inactive", r.JSON()["status"])
	requireValidation(t, f.sk.Patch("/v1/coupons/"+id(c), map[string]any{"status": "archived"}), "status")

	require.Equal(t, []string{id(pct)}, ids(listOf(t, f.sk, "/v1/coupons?discount_type=percentage")))
	require.Equal(t, []string{id(c)}, ids(listOf(t, f.sk, "/v1/coupons?status=inactive")))
	require.Equal(t, []string{id(pct)}, ids(listOf(t, f.sk, "/v1/coupons?applicable_to=specific_products")))
	requireValidation(t, f.sk.Get("/v1/coupons?status=gone"), "status")
	requireError(t, f.pk.Get("/v1/coupons"), http.StatusForbidden, "forbidden", "")
	requireError(t, f.live.Get("/v1/coupons/"+id(c)), http.StatusNotFound, "resource_missing", "id")
	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"coupon.created", "coupon.updated"}, eventTypes(evs, id(c)))
}

func TestPromotionCodes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	coupon := f.sk.CreateCoupon(testenv.Coupon())
	cust := f.sk.CreateCustomer(testenv.Customer())
	r := f.sk.Post("/v1/promotion_codes", map[string]any{"code": " spring-10 ", "coupon_id": id(coupon),
		"customer": id(cust), "max_redemptions": 5, "expires_at": "2027-01-01T00:00:00Z", "minimum_amount_cents": 100})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	pc := r.JSON()
	require.Equal(t, promotionCodeKeys, keys(pc))
	require.Equal(t, "SPRING-10", pc["code"])
	require.Equal(t, id(coupon), pc["coupon"])
	require.Equal(t, id(cust), pc["customer"])
	require.Equal(t, true, pc["active"])
	require.Equal(t, true, pc["is_redeemable"])
	require.Equal(t, true, pc["is_customer_specific"])
	require.Equal(t, float64(5), pc["remaining_redemptions"])
	require.Equal(t, "USD", pc["minimum_amount_currency"])
	require.Equal(t, float64(1798761600), pc["expires_at"])

	// Codes are unique per merchant and mode, in any case.
	requireValidation(t, f.sk.Post("/v1/promotion_codes", map[string]any{"code": "Spring-10", "coupon_id": id(coupon)}), "code")
	other := f.env.Client(f.env.Keys.Production.Secret)
	liveCoupon := other.CreateCoupon(testenv.Coupon())
	other.CreatePromotionCode(testenv.PromotionCode(id(liveCoupon)).WithCode("SPRING-10"))
	requireValidation(t, f.sk.Post("/v1/promotion_codes", map[string]any{"code": "bad code!", "coupon_id": uuid.NewString()}),
		"code")
	requireValidation(t, f.sk.Post("/v1/promotion_codes", map[string]any{"code": "x", "coupon_id": uuid.NewString()}), "coupon_id")

	// PATCH: null removes the customer restriction and the expiry.
	r = f.sk.Patch("/v1/promotion_codes/"+id(pc), map[string]any{"customer": nil, "expires_at": nil, "max_redemptions": nil,
		"first_time_transaction": true})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	u := r.JSON()
	require.Nil(t, u["customer"])
	require.Nil(t, u["expires_at"])
	require.Nil(t, u["max_redemptions"])
	require.Nil(t, u["remaining_redemptions"])
	require.Equal(t, false, u["is_customer_specific"])
	require.Equal(t, true, u["first_time_transaction"])
	ev := listEvents(t, f.sk, "promotion_code.updated")
	require.Len(t, ev, 1)
	require.Equal(t, id(cust), ev[0].previous()["customer"])

	// Expiry follows the clock.
	soon := f.env.Clock.Now().Add(time.Minute).UTC().Format(time.RFC3339)
	r = f.sk.Patch("/v1/promotion_codes/"+id(pc), map[string]any{"expires_at": soon})
	require.Equal(t, false, r.JSON()["is_expired"])
	f.env.Clock.Advance(2 * time.Minute)
	got := f.sk.Get("/v1/promotion_codes/" + id(pc)).JSON()
	require.Equal(t, true, got["is_expired"])
	require.Equal(t, false, got["is_redeemable"])

	second := f.sk.CreatePromotionCode(testenv.PromotionCodeSpec{CouponID: id(coupon), Code: "SECOND", Inactive: true})
	require.Equal(t, []string{id(second), id(pc)}, ids(listOf(t, f.sk, "/v1/promotion_codes?coupon_id="+id(coupon))))
	require.Equal(t, []string{id(second)}, ids(listOf(t, f.sk, "/v1/promotion_codes?active=false")))
	require.Equal(t, []string{id(pc)}, ids(listOf(t, f.sk, "/v1/promotion_codes?first_time_transaction=true")))
	require.Empty(t, listOf(t, f.sk, "/v1/promotion_codes?customer="+id(cust)))
	requireError(t, f.pk.Post("/v1/promotion_codes", map[string]any{}), http.StatusForbidden, "forbidden", "")
}

func TestValidateDiscounts(t *testing.T) {
	t.Parallel()
	f := setup(t)
	tenOff := f.sk.CreateCoupon(testenv.AmountOffCoupon("10.00"))
	halfSpec := testenv.Coupon()
	halfSpec.DiscountValue, halfSpec.DiscountCapCents = "50", 2000
	half := f.sk.CreateCoupon(halfSpec)
	minOrderSpec := testenv.Coupon()
	minOrderSpec.MinimumOrderAmountCents = 100000
	minOrder := f.sk.CreateCoupon(minOrderSpec)
	cust := f.sk.CreateCustomer(testenv.Customer())
	someone := f.sk.CreateCustomer(testenv.Customer())
	f.sk.CreatePromotionCode(testenv.PromotionCode(id(tenOff)).WithCode("TEN"))
	f.sk.CreatePromotionCode(testenv.PromotionCode(id(half)).WithCode("HALF"))
	f.sk.CreatePromotionCode(testenv.PromotionCode(id(minOrder)).WithCode("BIG"))
	f.sk.CreatePromotionCode(testenv.PromotionCodeSpec{CouponID: id(half), Code: "MINE", CustomerID: id(someone)})
	f.sk.CreatePromotionCode(testenv.PromotionCodeSpec{CouponID: id(half), Code: "OFF", Inactive: true})
	f.sk.CreatePromotionCode(testenv.PromotionCodeSpec{CouponID: id(half), Code: "FIRST", FirstTimeTransaction: true})

	// The publishable key may validate (client-side checkout).
	r := f.pk.Post("/v1/discounts/validate", map[string]any{"amount_cents": 5000, "customer_id": id(cust),
		"promotion_codes": []string{"ten", "HALF", "nope", "BIG", "MINE", "OFF", "TEN", "FIRST"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	v := r.JSON()
	res := mapsOf(v["validation_result"])
	require.Len(t, res, 8)
	reasons := []any{}
	for _, e := range res {
		reasons = append(reasons, e["reason"])
	}
	require.Equal(t, []any{nil, nil, "not_found", "minimum_amount_not_met", "customer_mismatch", "inactive", "duplicate", nil}, reasons)
	// TEN takes 1000 of 5000; HALF 50 % of the remaining 4000 capped at
	// 2000; FIRST 50 % of the remaining 2000 = 1000.
	require.Equal(t, float64(1000), res[0]["discount_amount_cents"])
	require.Equal(t, float64(1), res[0]["application_order"])
	require.Equal(t, float64(2000), res[1]["discount_amount_cents"])
	require.Equal(t, float64(1000), res[7]["discount_amount_cents"])
	require.Equal(t, float64(3), res[7]["application_order"])
	require.Equal(t, float64(0), res[2]["discount_amount_cents"])
	require.Nil(t, res[2]["application_order"])
	require.Equal(t, float64(4000), v["total_discount_amount_cents"])
	require.Equal(t, "TEN", res[0]["code"])
	require.Equal(t, true, res[0]["valid"])
	require.Equal(t, v["validation_result"], v["data"], "the results again where the Ruby SDK reads them")
	require.Equal(t, res[0]["coupon"], res[0]["coupon_id"], "the coupon under the SDK's name too")
	require.Equal(t, res[0]["promotion_code"], res[0]["promotion_code_id"])

	requireValidation(t, f.sk.Post("/v1/discounts/validate", map[string]any{"customer_id": id(cust), "account_id": id(cust)}),
		"amount_cents", "promotion_codes", "customer_id")
	requireError(t, f.sk.Post("/v1/discounts/validate", map[string]any{"amount_cents": 1, "promotion_codes": []string{},
		"customer_id": uuid.NewString()}), http.StatusNotFound, "resource_missing", "customer_id")
	// FIRST needs a payer.
	r = f.sk.Post("/v1/discounts/validate", map[string]any{"amount_cents": 100, "promotion_codes": []string{"FIRST"}})
	require.Equal(t, "customer_required", mapsOf(r.JSON()["validation_result"])[0]["reason"])
	require.Empty(t, listEvents(t, f.sk, "discount.created"), "validation redeems nothing")
}

func TestRedeemAndDiscountRecords(t *testing.T) {
	t.Parallel()
	f := setup(t)
	coupon := f.sk.CreateCoupon(testenv.Coupon().WithMaxRedemptions(3))
	cust := f.sk.CreateCustomer(testenv.Customer())
	code := f.sk.CreatePromotionCode(testenv.PromotionCodeSpec{CouponID: id(coupon), Code: "LOYAL", MaxCustomerRedemptions: 1})
	first := f.sk.CreatePromotionCode(testenv.PromotionCodeSpec{CouponID: id(coupon), Code: "WELCOME", FirstTimeTransaction: true})
	cid := uuid.MustParse(id(cust))
	ctx := context.Background()

	ds, err := f.env.Redeem(ctx, catalog.Redemption{Codes: []string{"welcome", "LOYAL"}, AmountCents: 10000,
		CustomerID: &cid, DiscountableType: "Invoice"})
	require.NoError(t, err)
	require.Len(t, ds, 2)
	require.Equal(t, int64(1000), ds[0].DiscountAmountCents)
	require.Equal(t, int64(900), ds[1].DiscountAmountCents, "stacks on what the first left")

	// Per-customer limit and first-transaction rule: the whole redemption
	// is refused and nothing is counted.
	_, err = f.env.Redeem(ctx, catalog.Redemption{Codes: []string{"LOYAL"}, AmountCents: 10000, CustomerID: &cid,
		DiscountableType: "Invoice"})
	require.ErrorContains(t, err, "customer_limit_reached")
	_, err = f.env.Redeem(ctx, catalog.Redemption{Codes: []string{"WELCOME"}, AmountCents: 10000, CustomerID: &cid,
		DiscountableType: "Invoice"})
	require.ErrorContains(t, err, "not_first_transaction")

	require.Equal(t, float64(1), f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()["times_redeemed"])
	require.Equal(t, float64(1), f.sk.Get("/v1/promotion_codes/" + id(first)).JSON()["times_redeemed"])
	require.Equal(t, float64(2), f.sk.Get("/v1/coupons/" + id(coupon)).JSON()["times_redeemed"])

	list := listOf(t, f.sk, "/v1/discounts?customer_id="+id(cust))
	require.Len(t, list, 2)
	d := f.sk.Get("/v1/discounts/" + id(list[0])).JSON()
	require.Equal(t, sorted("id", "object", "coupon", "promotion_code", "customer", "account", "account_id",
		"discountable_type", "discountable_id", "application_order", "discount_amount_cents", "discount_amount_currency",
		"livemode", "created", "updated", "coupon_id", "promotion_code_id", "customer_id"), keys(d))
	require.Equal(t, "discount", d["object"])
	require.Equal(t, "Invoice", d["discountable_type"])
	require.Len(t, listEvents(t, f.sk, "discount.created"), 2)
	requireError(t, f.pk.Get("/v1/discounts"), http.StatusForbidden, "forbidden", "")
	requireError(t, f.live.Get("/v1/discounts/"+id(d)), http.StatusNotFound, "resource_missing", "id")
	require.Empty(t, listOf(t, f.sk, "/v1/discounts?customer_id=nope"))
}

// TestConcurrentRedemptionsRespectTheLimit: N simultaneous redemptions of
// a code limited to k redeem exactly k.
func TestConcurrentRedemptionsRespectTheLimit(t *testing.T) {
	t.Parallel()
	f := setup(t)
	coupon := f.sk.CreateCoupon(testenv.Coupon())
	const n, k = 12, 5
	code := f.sk.CreatePromotionCode(testenv.PromotionCode(id(coupon)).WithCode("RUSH").WithMaxRedemptions(k))
	var wg sync.WaitGroup
	var mu sync.Mutex
	redeemed, refused := 0, 0
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := f.env.Redeem(context.Background(), catalog.Redemption{Codes: []string{"RUSH"}, AmountCents: 1000,
				DiscountableType: "Transfer"})
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				redeemed++
			} else {
				require.ErrorContains(t, err, "maxed_out")
				refused++
			}
		}()
	}
	wg.Wait()
	require.Equal(t, k, redeemed)
	require.Equal(t, n-k, refused)
	got := f.sk.Get("/v1/promotion_codes/" + id(code)).JSON()
	require.Equal(t, float64(k), got["times_redeemed"])
	require.Equal(t, true, got["is_maxed_out"])
	require.Equal(t, float64(0), got["remaining_redemptions"])
	require.Len(t, listOf(t, f.sk, "/v1/discounts?per_page=100"), k)
	require.Equal(t, float64(k), f.sk.Get("/v1/coupons/" + id(coupon)).JSON()["times_redeemed"])
}

// TestConcurrentCodesAreUnique: concurrent creates of one code (in any
// case) create it once; the others get the validation error a pre-check
// would give.
func TestConcurrentCodesAreUnique(t *testing.T) {
	t.Parallel()
	f := setup(t)
	coupon := f.sk.CreateCoupon(testenv.Coupon())
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code := "same"
			if i%2 == 1 {
				code = "SAME"
			}
			statuses[i] = f.sk.Post("/v1/promotion_codes", map[string]any{"code": code, "coupon_id": id(coupon)}).Status
		}()
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		if s == http.StatusCreated {
			created++
		} else {
			require.Equal(t, http.StatusUnprocessableEntity, s)
		}
	}
	require.Equal(t, 1, created)
	require.Len(t, listOf(t, f.sk, "/v1/promotion_codes"), 1)
}
