package graph_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// payoutReady creates an account that may receive card payouts, with a
// card: the receive capability and KYC are switched on in the database
// (the accounts tests reach them through the API).
func payoutReady(t *testing.T, f *fixture) (account map[string]any, card *models.PaymentMethod) {
	t.Helper()
	account = f.sk.CreateAccount(testenv.Individual().WithCapabilities("card_receive"))
	_, err := f.env.DB.Bun.ExecContext(context.Background(),
		"UPDATE capabilities SET status = 'active' WHERE account_id = ? AND name IN ('card_receive', 'kyc')", account["id"])
	require.NoError(t, err)
	return account, f.sk.CreateAccountCard(str(account["id"]), "4242424242424242")
}

func TestPayoutsAndFundingGraphQL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct, card := payoutReady(t, f)

	g := gql(t, f.sk, `mutation { createPayoutTopUp(input: {amount: 5000, idempotencyKey: "g1"}) {
		id amount currency source schedule { id } livemode } }`, nil)
	entry := obj(g.Data["createPayoutTopUp"])
	require.Equal(t, "MANUAL_PUSH", entry["source"])
	require.Nil(t, entry["schedule"])
	g = gql(t, f.sk, `mutation { createPayoutTopUp(input: {amount: 5000, idempotencyKey: "g1"}) { id } }`, nil)
	require.Equal(t, entry["id"], obj(g.Data["createPayoutTopUp"])["id"], "the body key returns the first entry")

	g = gql(t, f.sk, `mutation($pm: ID!) { createPayout(input: {paymentMethod: $pm, amount: 1200, currency: "USD",
		metadata: {ref: "r1"}}) { id status speed amount currency processorFee merchantFee customerFee metadata
		paymentMethod { id } account { id payouts { edges { node { id } } } } succeeded failed } }`, map[string]any{"pm": card.ID.String()})
	p := obj(g.Data["createPayout"])
	require.Equal(t, "SUCCEEDED", p["status"])
	require.Nil(t, p["speed"])
	require.Equal(t, float64(0), p["processorFee"])
	require.Nil(t, p["merchantFee"])
	require.Equal(t, map[string]any{"ref": "r1"}, p["metadata"])
	require.Equal(t, card.ID.String(), obj(p["paymentMethod"])["id"])
	require.Equal(t, []any{map[string]any{"node": map[string]any{"id": p["id"]}}}, obj(obj(p["account"])["payouts"])["edges"])
	require.NotNil(t, p["succeeded"])
	require.Nil(t, p["failed"])

	_, e := gqlError(t, f.sk, `mutation($pm: ID!) { createPayout(input: {paymentMethod: $pm, amount: 999999, currency: "USD"}) { id } }`,
		map[string]any{"pm": card.ID.String()})
	require.Equal(t, "balance_insufficient", code(e))
	require.Equal(t, http.StatusUnprocessableEntity, status(e))

	g = gql(t, f.sk, `query { merchantBalance { status currency instantPayoutBalance availableForPayout reservedAmount
		pendingPayouts lastUpdatedAt source livemode } }`, nil)
	b := obj(g.Data["merchantBalance"])
	require.Equal(t, float64(3800), b["instantPayoutBalance"])
	require.Equal(t, float64(3800), b["availableForPayout"])
	require.Equal(t, "AVAILABLE", b["status"])
	require.NotNil(t, b["lastUpdatedAt"])

	g = gql(t, f.sk, `mutation { createPayoutFundingSchedule(input: {amount: 700, cadence: DAILY}) {
		id amount cadence enabled nextRun lastRun entries { id } } }`, nil)
	s := obj(g.Data["createPayoutFundingSchedule"])
	require.Equal(t, "DAILY", s["cadence"])
	require.Equal(t, true, s["enabled"])
	require.Nil(t, s["lastRun"])
	_, err := f.env.Services.Funding.Sweep(context.Background())
	require.NoError(t, err)
	g = gql(t, f.sk, `query($id: ID!) { payoutFundingSchedule(id: $id) { lastRun entries { amount source schedule { id } } } }`,
		map[string]any{"id": s["id"]})
	sc := obj(g.Data["payoutFundingSchedule"])
	require.NotNil(t, sc["lastRun"])
	require.Equal(t, []any{map[string]any{"amount": float64(700), "source": "SCHEDULE", "schedule": map[string]any{"id": s["id"]}}},
		sc["entries"])
	g = gql(t, f.sk, `mutation($id: ID!) { updatePayoutFundingSchedule(id: $id, input: {enabled: false, cadence: MONTHLY}) {
		enabled cadence } }`, map[string]any{"id": s["id"]})
	require.Equal(t, map[string]any{"enabled": false, "cadence": "MONTHLY"}, g.Data["updatePayoutFundingSchedule"])
	_, e = gqlError(t, f.sk, `mutation($id: ID!) { updatePayoutFundingSchedule(id: $id, input: {amount: 0}) { id } }`,
		map[string]any{"id": s["id"]})
	require.Equal(t, "validation_errors", code(e))

	g = gql(t, f.sk, `query { payouts(filter: {status: SUCCEEDED}) { edges { node { id } } }
		payoutFundingSchedules { edges { node { id } } }
		payoutFundingEntries(filter: {source: SCHEDULE}) { edges { node { id source } } } }`, nil)
	require.Len(t, list(obj(g.Data["payouts"])["edges"]), 1)
	require.Len(t, list(obj(g.Data["payoutFundingSchedules"])["edges"]), 1)
	require.Len(t, list(obj(g.Data["payoutFundingEntries"])["edges"]), 1)
	for _, id := range []any{p["id"], s["id"], entry["id"]} {
		g = gql(t, f.sk, `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id})
		require.Equal(t, id, obj(g.Data["node"])["id"])
	}
	g = gql(t, f.sk, `query($id: ID!) { account(id: $id) { payouts { edges { node { amount } } } } }`, map[string]any{"id": acct["id"]})
	require.Equal(t, []any{map[string]any{"node": map[string]any{"amount": float64(1200)}}}, obj(obj(g.Data["account"])["payouts"])["edges"])

	for _, q := range []string{`query { merchantBalance { status } }`, `query { payouts { edges { node { id } } } }`,
		`mutation { createPayoutTopUp(input: {amount: 1}) { id } }`} {
		_, e = gqlError(t, f.pk, q, nil)
		require.Equal(t, "forbidden", code(e), q)
	}
}

// A mutation carrying an Idempotency-Key replays: the payout is sent once.
func TestPayoutMutationHonoursTheIdempotencyKey(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, card := payoutReady(t, f)
	f.sk.TopUp(1000)
	q := `mutation($pm: ID!) { createPayout(input: {paymentMethod: $pm, amount: 600, currency: "USD"}) { id } }`
	vars := map[string]any{"pm": card.ID.String()}
	first := f.sk.GraphQLWithHeader(q, vars, idemKey("payout-1"))
	again := f.sk.GraphQLWithHeader(q, vars, idemKey("payout-1"))
	require.Empty(t, first.Errors)
	require.Empty(t, again.Errors, "a replay, not a second payout beyond the balance")
	require.Equal(t, obj(first.Data["createPayout"])["id"], obj(again.Data["createPayout"])["id"])
	g := gql(t, f.sk, `query { merchantBalance { availableForPayout } }`, nil)
	require.Equal(t, float64(400), obj(g.Data["merchantBalance"])["availableForPayout"])
	top := `mutation { createPayoutTopUp(input: {amount: 50}) { id } }`
	a, b := f.sk.GraphQLWithHeader(top, nil, idemKey("t")), f.sk.GraphQLWithHeader(top, nil, idemKey("t"))
	require.Equal(t, obj(a.Data["createPayoutTopUp"])["id"], obj(b.Data["createPayoutTopUp"])["id"])
	g = gql(t, f.sk, `query { merchantBalance { availableForPayout } }`, nil)
	require.Equal(t, float64(450), obj(g.Data["merchantBalance"])["availableForPayout"])
}

// Nested payout and funding queries cost the same statements for one row
// or many.
func TestPayoutConnectionStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.TopUp(100000)
	for range 3 {
		_, card := payoutReady(t, f)
		for range 2 {
			f.sk.CreatePayout(testenv.Payout(card.ID.String(), 100))
		}
		f.sk.CreateFundingSchedule(testenv.FundingSchedule(10, "daily"))
	}
	_, err := f.env.Services.Funding.Sweep(context.Background())
	require.NoError(t, err)

	query := `query($first: Int) { payouts(first: $first) { edges { node { id paymentMethod { id card { lastFour } }
		billingAgreement { id } account { id payouts { edges { node { id } } } } } } } }`
	small := gql(t, f.sk, query, map[string]any{"first": 1})
	big := gql(t, f.sk, query, map[string]any{"first": 100})
	require.Len(t, list(obj(big.Data["payouts"])["edges"]), 6)
	require.Equal(t, small.Statements, big.Statements)
	// credential, page, payment methods, accounts, the accounts' payouts.
	require.Equal(t, 5, big.Statements)

	query = `query($first: Int) { payoutFundingSchedules(first: $first) { edges { node { id entries { id schedule { id } } } } } }`
	small = gql(t, f.sk, query, map[string]any{"first": 1})
	big = gql(t, f.sk, query, map[string]any{"first": 100})
	require.Len(t, list(obj(big.Data["payoutFundingSchedules"])["edges"]), 3)
	require.Equal(t, small.Statements, big.Statements)
	// credential, page, the schedules' entries (their schedules are primed).
	require.Equal(t, 3, big.Statements)

	m := f.sk.GraphQL(`mutation { createPayoutTopUp(input: {amount: 5}) { id } }`, nil)
	require.Empty(t, m.Errors)
	require.Equal(t, 6, m.Statements, "a top-up runs what REST's does")
}
