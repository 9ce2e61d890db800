package graph_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/frame-oss/payments-server/graph/generated"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers/catalog"
)

// notNodes are the object types with an `id: ID!` that are not Node, each
// because its id names nothing node(id:) could fetch on its own.
var notNodes = map[string]string{
	"Deleted":                     "the answer of a deletion: its id is the deleted object's, which no longer resolves",
	"DeletedWebhookEndpoint":      "the answer of a deletion: its id is the deleted endpoint's, which no longer resolves",
	"Plan":                        "a subscription's product as billed: its id is the Product's, which node(id:) answers as a Product",
	"GeofenceRef":                 "a reference to a Geofence by the Geofence's id",
	"Geofence":                    "defined by the platform in code, the same for every merchant: no tenant's object and no read by id",
	"ChargeTraceEvent":            "an entry of a charge's trace (GET /v1/charges/{id}/trace), read only with its charge",
	"LedgerJournal":               "a journal of a charge's trace (GET /v1/charges/{id}/trace), read only with its charge",
	"CustomerAddress":             "part of its customer's, payment method's or charge intent's row, with no read of its own",
	"FeePlanItem":                 "an item of its fee plan's row, read and changed only with the plan",
	"SubscriptionScheduledChange": "part of its subscription's row, read and replaced only with the subscription",
	"TestClockEvent":              "a line of a test clock advance's receipt, not kept as an object",
	"WebhookAttempt":              "one POST of a delivery, read only with its delivery",
}

// servedSchema is the schema /graphql serves (its types are the generated
// executor's).
func servedSchema() *ast.Schema {
	return generated.NewExecutableSchema(generated.Config{}).Schema()
}

// Every object type that carries an `id: ID!` implements Node, so a
// client can refetch whatever it holds an id of, unless notNodes says why
// not; and every exception still names a type of the schema with an id.
func TestEveryObjectWithAnIDImplementsNode(t *testing.T) {
	t.Parallel()
	schema := servedSchema()
	var missing []string
	for name, def := range schema.Types {
		if def.Kind != ast.Object || def.BuiltIn {
			continue
		}
		id := def.Fields.ForName("id")
		if id == nil || id.Type.String() != "ID!" {
			continue
		}
		_, excepted := notNodes[name]
		isNode := slices.Contains(def.Interfaces, "Node")
		require.False(t, excepted && isNode, "%s implements Node: drop it from notNodes", name)
		if !excepted && !isNode {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "object types with an id: ID! that do not implement Node")
	for name := range notNodes {
		def := schema.Types[name]
		require.NotNil(t, def, "notNodes names %s, which the schema no longer has", name)
		require.NotNil(t, def.Fields.ForName("id"), "notNodes names %s, which has no id", name)
	}
}

// node(id:) finds one object of every Node type of the schema, as its
// own type, and another merchant's node(id:) finds none of them.
func TestNodeResolvesEveryNodeType(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ids := createOneOfEveryNode(t, f)

	var want []string
	for _, def := range servedSchema().GetPossibleTypes(servedSchema().Types["Node"]) {
		want = append(want, def.Name)
	}
	var made []string
	for name := range ids {
		made = append(made, name)
	}
	require.ElementsMatch(t, want, made, "one instance of each Node type")

	_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	other := f.env.Client(keys.Sandbox.Secret)
	for typ, id := range ids {
		q := fmt.Sprintf(`query($id: ID!) { node(id: $id) { __typename ... on %s { id } } }`, typ)
		g := gql(t, f.sk, q, map[string]any{"id": id})
		assert.Equal(t, map[string]any{"__typename": typ, "id": id}, g.Data["node"], typ)
		g = gql(t, other, q, map[string]any{"id": id})
		assert.Nil(t, g.Data["node"], "another merchant's %s is no node", typ)
	}
	g := gql(t, f.sk, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": uuid.NewString()})
	require.Nil(t, g.Data["node"], "an unknown id is no node")
}

// createOneOfEveryNode creates one object of each Node type through the
// API and returns their ids by type name.
func createOneOfEveryNode(t *testing.T, f *fixture) map[string]string {
	t.Helper()
	ids := map[string]string{}
	mutate := func(field, query string, vars map[string]any) map[string]any {
		t.Helper()
		return obj(gql(t, f.sk, query, vars).Data[field])
	}
	endpoint := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("http://localhost:4242/h", "*"))
	ids["WebhookEndpoint"] = endpoint.ID.String()
	plan := f.sk.StandardPricing()
	ids["TransferFeePlan"] = plan.ID.String()

	// An account and what hangs off it.
	acct := f.sk.CreateAccountGraphQL(testenv.Individual().WithCapabilities("kyc"), "id capabilities { id }")
	aid := str(acct["id"])
	ids["Account"] = aid
	ids["Capability"] = str(obj(list(acct["capabilities"])[0])["id"])
	ids["BillingAgreement"] = f.sk.CreateAgreement(plan.ID.String(), aid).ID.String()
	ids["BankAccount"] = f.sk.CreateBankAccount(testenv.BankAccount(aid, "000123456789")).ID.String()
	ids["BeneficialOwner"] = f.sk.CreateBeneficialOwner(aid, testenv.PartialOwner("owner")).ID.String()
	ids["PhoneVerification"] = f.sk.CreatePhoneVerification(aid, testenv.PhoneVerificationSpec{}).ID.String()
	ids["IdentityVerification"] = f.sk.CreateIdentityVerification(aid).ID.String()
	ids["OnboardingSession"] = f.sk.CreateOnboardingSession(testenv.OnboardingSession(aid)).ID.String()

	// Money: transfers, their charges, a refund, a dispute and its document.
	pm := f.sk.CreateAccountCard(aid, testenv.Visa)
	ids["PaymentMethod"] = pm.ID.String()
	charge := testenv.Charge(aid, pm.ID.String(), 1000)
	disputed := f.sk.CreateTransfer(charge)
	ids["Transfer"] = disputed.ID.String()
	ids["Charge"] = disputed.LatestCharge.String()
	dispute := f.sk.OpenDispute(disputed.LatestCharge.String(), "")
	ids["Dispute"] = dispute.ID.String()
	ids["DisputeDocument"] = f.sk.CreateDisputeDocument(dispute.ID.String(), testenv.DisputeDocument("file_1")).ID.String()
	ids["Refund"] = f.sk.CreateRefund(testenv.RefundOfTransfer(f.sk.CreateTransfer(charge).ID.String())).ID.String()
	ids["CheckoutSession"] = f.sk.CreateCheckoutSession(testenv.CheckoutSession(aid, 1500)).ID.String()
	ids["ChargeIntent"] = f.sk.CreateChargeIntent(map[string]any{"amount": 300, "currency": "usd"}).ID.String()
	ids["ChargeSession"] = f.sk.CreateChargeSession(map[string]any{}).ID.String()
	ids["SonarSession"] = f.sk.CreateSonarSession(map[string]any{}).ID.String()
	ids["PaymentLinkSession"] = f.sk.CreatePaymentLinkSession(map[string]any{"amount": 1000}).ID.String()

	// Payouts and their funding.
	_, payoutCard := payoutReady(t, f)
	ids["PayoutFundingEntry"] = f.sk.TopUp(5000).ID.String()
	ids["Payout"] = f.sk.CreatePayout(testenv.Payout(payoutCard.ID.String(), 1000)).ID.String()
	ids["PayoutFundingSchedule"] = f.sk.CreateFundingSchedule(testenv.FundingSchedule(700, "daily")).ID.String()

	// A customer, its verifications, its discounts.
	cu := f.sk.CreateCustomer(testenv.Customer())
	cid := cu.ID.String()
	ids["Customer"] = cid
	ids["CustomerIdentityVerification"] = f.sk.CreateCustomerIdentityVerification(
		testenv.CustomerIdentityVerificationSpec{CustomerID: cid}).ID.String()
	card := f.sk.CreateCard(cid, "4000000000003220")
	ids["ThreeDSIntent"] = f.pk.CreateThreeDSIntent(card.ID.String()).ID.String()
	g := gql(t, f.pk, `mutation { createDeviceAttestationChallenge { id } }`, nil)
	ids["DeviceAttestation"] = str(obj(g.Data["createDeviceAttestationChallenge"])["id"])
	coupon := f.sk.CreateCoupon(testenv.Coupon())
	ids["Coupon"] = coupon.ID.String()
	ids["PromotionCode"] = f.sk.CreatePromotionCode(testenv.PromotionCode(coupon.ID.String()).WithCode("HALF")).ID.String()
	customerID := cu.ID
	discounts, err := f.env.Redeem(context.Background(), catalog.Redemption{Codes: []string{"HALF"}, AmountCents: 1000,
		CustomerID: &customerID, DiscountableType: "Invoice"})
	require.NoError(t, err)
	ids["Discount"] = discounts[0].ID.String()

	// Billing: a subscription, its invoice and line, a phase, a swap's log.
	f.sk.CreateCard(cid, testenv.Visa)
	monthly := monthlyProduct(f, 2000, "monthly")
	ids["Product"] = monthly
	ids["ProductPhase"] = f.sk.CreatePhase(f.sk.CreateProduct(testenv.Product()).ID.String(), testenv.StaticPhase(1, 100, 0)).ID.String()
	sub := f.sk.CreateSubscription(testenv.Subscription(cid, monthly).WithProrationBehavior("always_invoice"))
	subID := sub.ID.String()
	ids["Subscription"] = subID
	ids["Invoice"] = sub.LatestInvoiceID.String()
	g = gql(t, f.sk, `query($id: ID!) { invoice(id: $id) { lineItems { id } } }`, map[string]any{"id": ids["Invoice"]})
	ids["InvoiceLineItem"] = str(obj(list(obj(g.Data["invoice"])["lineItems"])[0])["id"])
	ids["SubscriptionPhase"] = f.sk.CreateSubscriptionPhase(subID, testenv.StaticPhase(1, 900, 2)).ID.String()
	swapped := mutate("updateSubscription", `mutation($s: ID!, $p: ID!) { updateSubscription(id: $s, input: {product: $p}) {
		changeLogs { edges { node { id } } } } }`, map[string]any{"s": subID, "p": monthlyProduct(f, 5000, "monthly")})
	ids["SubscriptionChangeLog"] = str(obj(obj(list(obj(swapped["changeLogs"])["edges"])[0])["node"])["id"])
	ids["TestClock"] = f.sk.CreateTestClock(testenv.TestClock(clockStart)).ID.String()

	// Usage billing.
	metered := f.sk.CreateProduct(testenv.Product()).ID.String()
	ids["BillingMeter"] = f.sk.PriceMeter("calls", metered, "").ID.String()
	ids["MeteringEvent"] = f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "r1", cid)).ID.String()
	ids["BillingCredit"] = f.sk.CreateBillingCredit(testenv.BillingCredit(metered, cid, 10, "2026-03-01T00:00:00Z")).ID.String()

	// What the writes above announced.
	g = gql(t, f.sk, `query($ep: ID!) { events(first: 1) { edges { node { id } } }
		webhookDeliveries(endpointId: $ep, first: 1) { edges { node { id } } } }`, map[string]any{"ep": endpoint.ID.String()})
	ids["Event"] = str(obj(obj(list(obj(g.Data["events"])["edges"])[0])["node"])["id"])
	ids["WebhookDelivery"] = str(obj(obj(list(obj(g.Data["webhookDeliveries"])["edges"])[0])["node"])["id"])
	return ids
}
