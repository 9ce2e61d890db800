package graph_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

func TestCouponsAndPromotionCodesGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := gql(t, f.sk, `mutation { createCoupon(input: {name: "Half", discountType: PERCENTAGE, discountValue: 50,
		duration: ONCE, applicableTo: ALL_PRODUCTS, maxRedemptions: 10}) { id discountValue isExpired isMaxedOut } }`, nil)
	c := obj(g.Data["createCoupon"])
	require.Equal(t, "50", c["discountValue"])

	cust := f.sk.CreateCustomer(testenv.Customer())
	g = gql(t, f.sk, `mutation($c: ID!, $cust: ID!) { createPromotionCode(input: {code: "half", couponId: $c, customer: $cust,
		expiresAt: "2030-01-01T00:00:00Z"}) { id code isCustomerSpecific coupon { id } customer { id } } }`,
		map[string]any{"c": c["id"], "cust": cust.ID.String()})
	pc := obj(g.Data["createPromotionCode"])
	require.Equal(t, "HALF", pc["code"])
	require.Equal(t, true, pc["isCustomerSpecific"])
	require.Equal(t, c["id"], obj(pc["coupon"])["id"])

	g = gql(t, f.sk, `mutation($id: ID!) { updatePromotionCode(id: $id, input: {clearCustomer: true, clearExpiresAt: true}) {
		customerId expiresAt isCustomerSpecific } }`, map[string]any{"id": pc["id"]})
	require.Equal(t, map[string]any{"customerId": nil, "expiresAt": nil, "isCustomerSpecific": false}, g.Data["updatePromotionCode"])

	g = gql(t, f.pk, `query { validateDiscounts(input: {amountCents: 1000, promotionCodes: ["half", "nope"]}) {
		validationResult { code valid reason discountAmountCents applicationOrder } totalDiscountAmountCents } }`, nil)
	v := obj(g.Data["validateDiscounts"])
	require.Equal(t, float64(500), v["totalDiscountAmountCents"])
	require.Equal(t, "not_found", obj(list(v["validationResult"])[1])["reason"])

	cid := uuid.MustParse(str(cust.ID.String()))
	_, err := f.env.Redeem(context.Background(), catalog.Redemption{Codes: []string{"HALF"}, AmountCents: 1000,
		CustomerID: &cid, DiscountableType: "Invoice"})
	require.NoError(t, err)
	g = gql(t, f.sk, `query($id: ID!) { customer(id: $id) { discounts { discountAmountCents coupon { name } promotionCode { code timesRedeemed } } } }`,
		map[string]any{"id": cust.ID.String()})
	d := obj(list(obj(g.Data["customer"])["discounts"])[0])
	require.Equal(t, float64(500), d["discountAmountCents"])
	require.Equal(t, "Half", obj(d["coupon"])["name"])
	require.Equal(t, float64(1), obj(d["promotionCode"])["timesRedeemed"])

	_, e := gqlError(t, f.pk, `mutation { createCoupon(input: {name: "x", discountType: PERCENTAGE, discountValue: 1,
		duration: ONCE, applicableTo: ALL_PRODUCTS}) { id } }`, nil)
	require.Equal(t, "forbidden", code(e))
}

func TestCouponConnectionStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for i := 0; i < 3; i++ {
		coupon := f.sk.CreateCoupon(testenv.AmountOffCoupon("2.50"))
		f.sk.CreatePromotionCode(testenv.PromotionCode(coupon.ID.String()))
	}
	query := `query($first: Int) { coupons(first: $first) { edges { node { id promotionCodes { code coupon { id } } } } } }`
	small := gql(t, f.sk, query, map[string]any{"first": 1})
	big := gql(t, f.sk, query, map[string]any{"first": 100})
	require.Len(t, list(obj(big.Data["coupons"])["edges"]), 3)
	require.Equal(t, small.Statements, big.Statements)
	require.Equal(t, 3, big.Statements, "the credential, the page, every coupon's codes in one batch")
}
