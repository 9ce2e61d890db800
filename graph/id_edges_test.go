package graph_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Every field that names another object by id has the edge to that object
// beside it: the edge answers the object the id names, and null where the
// id is null (or hidden from the caller, as an account's payout method is).
func TestIDFieldsHaveTheirEdges(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ids := createOneOfEveryNode(t, f)
	x := idEdgeFixtures(t, f, ids)

	cases := []struct {
		typ, id, idField, edge string
		set                    bool // the id, and so the edge, is not null
	}{
		{"BankAccount", x.customerBank, "customerId", "customer", true},
		{"BankAccount", ids["BankAccount"], "customerId", "customer", false},
		{"DisputeDocument", ids["DisputeDocument"], "disputeId", "dispute", true},
		{"InvoiceLineItem", ids["InvoiceLineItem"], "invoiceId", "invoice", true},
		{"InvoiceLineItem", ids["InvoiceLineItem"], "meterId", "meter", false},
		{"InvoiceLineItem", x.usageLine, "meterId", "meter", true},
		{"SubscriptionPhase", ids["SubscriptionPhase"], "subscriptionId", "subscription", true},
		{"Payout", x.agreedPayout, "transferFeePlanId", "transferFeePlan", true},
		{"Refund", x.intentRefund, "chargeIntentId", "chargeIntent", true},
		{"Refund", ids["Refund"], "chargeIntentId", "chargeIntent", false},
		{"Dispute", x.intentDispute, "chargeIntentId", "chargeIntent", true},
		{"Dispute", ids["Dispute"], "chargeIntentId", "chargeIntent", false},
		{"Account", x.payoutAccount, "payoutPaymentMethodId", "payoutPaymentMethod", true},
		{"Account", ids["Account"], "payoutPaymentMethodId", "payoutPaymentMethod", false},
	}
	for _, c := range cases {
		q := fmt.Sprintf(`query($id: ID!) { node(id: $id) { ... on %s { %s %s { id } } } }`, c.typ, c.idField, c.edge)
		node := obj(gql(t, f.sk, q, map[string]any{"id": c.id}).Data["node"])
		name := c.typ + "." + c.edge
		if !c.set {
			require.Nil(t, node[c.idField], name)
			require.Nil(t, node[c.edge], name)
			continue
		}
		require.NotNil(t, node[c.idField], name)
		require.Equal(t, map[string]any{"id": node[c.idField]}, node[c.edge], name)
	}

	// A publishable key sees no account's payout method: neither its id nor the edge.
	g := gql(t, f.pk, `query($id: ID!) { node(id: $id) { ... on Account { payoutPaymentMethodId payoutPaymentMethod { id } } } }`,
		map[string]any{"id": x.payoutAccount})
	if n := g.Data["node"]; n != nil {
		require.Equal(t, map[string]any{"payoutPaymentMethodId": nil, "payoutPaymentMethod": nil}, n)
	}

	// A refund's and a dispute's payer is their charge's: an account paid
	// the transfer's charge, a customer the charge intent's.
	payers := []struct{ typ, id, payer string }{
		{"Refund", ids["Refund"], "account"}, {"Refund", x.intentRefund, "customer"},
		{"Dispute", ids["Dispute"], "account"}, {"Dispute", x.intentDispute, "customer"},
	}
	for _, p := range payers {
		q := fmt.Sprintf(`query($id: ID!) { node(id: $id) { ... on %s { account { id } customer { id }
			charge { accountId customerId } } } }`, p.typ)
		node := obj(gql(t, f.sk, q, map[string]any{"id": p.id}).Data["node"])
		charge := obj(node["charge"])
		other := map[string]string{"account": "customer", "customer": "account"}[p.payer]
		require.NotNil(t, charge[p.payer+"Id"], p.typ)
		require.Equal(t, map[string]any{"id": charge[p.payer+"Id"]}, node[p.payer], p.typ+"."+p.payer)
		require.Nil(t, node[other], p.typ+"."+other)
	}
	for _, list := range []string{"refunds", "disputes"} {
		g := gql(t, f.sk, `query { `+list+`(first: 100) { edges { node { account { id } customer { id } } } } }`, nil)
		// The credential, the page, one batch of accounts, one of customers.
		require.Equal(t, 4, g.Statements, list)
	}

	// A validation's codes name their promotion code and coupon.
	g = gql(t, f.sk, `query { validateDiscounts(input: {amountCents: 1000, promotionCodes: ["HALF"]}) {
		validationResult { promotionCodeId promotionCode { id } couponId coupon { id } } } }`, nil)
	v := obj(list(obj(g.Data["validateDiscounts"])["validationResult"])[0])
	require.Equal(t, map[string]any{"promotionCodeId": ids["PromotionCode"], "promotionCode": map[string]any{"id": ids["PromotionCode"]},
		"couponId": ids["Coupon"], "coupon": map[string]any{"id": ids["Coupon"]}}, v)

	// Under a page of parents each edge is one batch: the statement count
	// is the same for one parent of each kind (the newest, which the
	// fixtures made with every edge set) as for all of them.
	const page = `query($n: Int) {
		invoices(first: $n) { edges { node { lineItems { invoice { id } meter { id } } } } }
		refunds(first: $n) { edges { node { chargeIntent { id } } } }
		disputes(first: $n) { edges { node { chargeIntent { id } } } }
		payouts(first: $n) { edges { node { transferFeePlan { id } } } }
		accounts(first: $n) { edges { node { payoutPaymentMethod { id } } } } }`
	small := gql(t, f.sk, page, map[string]any{"n": 1})
	big := gql(t, f.sk, page, map[string]any{"n": 100})
	require.Greater(t, len(list(obj(big.Data["refunds"])["edges"])), 1)
	require.Greater(t, len(list(obj(big.Data["accounts"])["edges"])), 1)
	require.Equal(t, small.Statements, big.Statements)
	// The credential, the five pages (the invoices' with their line
	// items), then one batch per edge: meters, the refunds' and the
	// disputes' charge intents, fee plans, payment methods (the line
	// items' invoices are the page's).
	require.Equal(t, 11, big.Statements)
}

// idEdges are the objects TestIDFieldsHaveTheirEdges needs beyond one of
// every node: ones whose optional ids are set.
type idEdges struct {
	customerBank, usageLine, intentRefund, intentDispute, payoutAccount, agreedPayout string
}

func idEdgeFixtures(t *testing.T, f *fixture, ids map[string]string) idEdges {
	t.Helper()
	var x idEdges
	x.customerBank = f.sk.CreateBankAccount(testenv.CustomerBankAccount(ids["Customer"], "000123456789")).ID.String()

	// A charge intent's charge, refunded and disputed.
	cu := f.sk.CreateCustomer(testenv.Customer())
	card := f.sk.CreateCard(cu.ID.String(), testenv.Visa)
	intent := func() string {
		ci := f.sk.CreateChargeIntent(map[string]any{"amount": 2000, "currency": "usd", "customer": cu.ID.String(),
			"payment_method": card.ID.String(), "confirm": true})
		require.NotNil(t, ci.LatestCharge, "a confirmed intent has charged")
		return ci.ID.String()
	}
	x.intentRefund = f.sk.CreateRefund(testenv.RefundOfChargeIntent(intent())).ID.String()
	disputed := f.sk.CreateChargeIntent(map[string]any{"amount": 2000, "currency": "usd", "customer": cu.ID.String(),
		"payment_method": card.ID.String(), "confirm": true})
	x.intentDispute = f.sk.OpenDispute(disputed.LatestCharge.ID.String(), "").ID.String()

	// A usage invoice, charged when the customer's threshold is reached.
	payer := f.sk.CreateCustomer(testenv.Customer()).ID.String()
	f.sk.CreateCard(payer, testenv.Visa)
	pricedProduct(f, "edge.calls", 100)
	f.sk.SetUsageThreshold(payer, 500)
	f.sk.CreateMeteringEvent(testenv.MeteringEvent("edge.calls", "e1", payer).WithValue("6"))
	g := gql(t, f.sk, `query($cu: ID!) { customer(id: $cu) { invoices(first: 1) { edges { node {
		lineItems { id meterId } } } } } }`, map[string]any{"cu": payer})
	for _, e := range list(obj(obj(g.Data["customer"])["invoices"])["edges"]) {
		for _, l := range list(obj(obj(e)["node"])["lineItems"]) {
			if obj(l)["meterId"] != nil {
				x.usageLine = str(obj(l)["id"])
			}
		}
	}
	require.NotEmpty(t, x.usageLine, "the usage invoice has a usage line")

	// A payout under a payout agreement is priced by the agreement's plan.
	plan := f.sk.CreateFeePlan("deduct", testenv.PushToCardFeeItem())
	f.sk.CreateBillingAgreement(testenv.PayoutAgreement(plan.ID.String()))
	_, payoutCard := payoutReady(t, f)
	x.agreedPayout = f.sk.CreatePayout(testenv.Payout(payoutCard.ID.String(), 1000)).ID.String()

	// An account whose onboarding recorded its payout method.
	account := f.sk.CreateAccount(testenv.Individual())
	x.payoutAccount = str(account["id"])
	payoutMethod := f.sk.CreateAccountCard(x.payoutAccount, testenv.Visa)
	session := f.sk.CreateSDKOnboardingSession(testenv.OnboardingSession(x.payoutAccount))
	f.sk.SetOnboardingPayout(session.ID.String(), payoutMethod.ID.String())
	return x
}
