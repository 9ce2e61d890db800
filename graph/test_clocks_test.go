package graph_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

// clockStart is noon on 10 January 2026, UTC: where the clocks start.
var clockStart = time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)

const testClockFields = `id name frozenTime status livemode created`

func TestTestClocksInTheGraph(t *testing.T) {
	t.Parallel()
	f := setup(t)

	g := gql(t, f.sk, `mutation($t: Int!) { createTestClock(input: {frozenTime: $t, name: "run"}) { `+testClockFields+` receipt { effects { at } } } }`,
		map[string]any{"t": clockStart.Unix()})
	clock := obj(g.Data["createTestClock"])
	clockID := str(clock["id"])
	require.Equal(t, map[string]any{"id": clockID, "name": "run", "frozenTime": "2026-01-10T12:00:00Z", "status": "READY",
		"livemode": false, "created": "2026-01-15T12:00:00Z", "receipt": nil}, clock)

	// A customer bound through its create input lives on the clock's time.
	in := testenv.Customer().GraphQLInput()
	in["testClock"] = clockID
	g = gql(t, f.sk, `mutation($in: CreateCustomerInput!) { createCustomer(input: $in) { id created testClock { id frozenTime } } }`,
		map[string]any{"in": in})
	cu := obj(g.Data["createCustomer"])
	require.Equal(t, "2026-01-10T12:00:00Z", cu["created"])
	require.Equal(t, map[string]any{"id": clockID, "frozenTime": "2026-01-10T12:00:00Z"}, cu["testClock"])
	acct := testenv.Individual().GraphQLInput()
	acct["testClock"] = clockID
	g = gql(t, f.sk, `mutation($in: CreateAccountInput!) { createAccount(input: $in) { created testClock { id } } }`,
		map[string]any{"in": acct})
	require.Equal(t, map[string]any{"created": "2026-01-10T12:00:00Z", "testClock": map[string]any{"id": clockID}},
		g.Data["createAccount"])
	unbound := f.sk.CreateCustomer(testenv.Customer())
	g = gql(t, f.sk, `query($c: ID!) { node(id: $c) { ... on Customer { testClock { id } } } }`, map[string]any{"c": unbound.ID.String()})
	require.Equal(t, map[string]any{"testClock": nil}, g.Data["node"])

	// An invoice due on the 13th falls overdue at the start of the 14th:
	// the advance's receipt says so.
	pr := f.sk.CreateProduct(testenv.Product())
	invID := f.sk.CreateInvoice(testenv.Invoice(str(cu["id"]), "request_payment", pr.ID.String(), 1).WithNetTerms(3)).ID.String()
	g = gql(t, f.sk, `mutation($i: ID!) { issueInvoice(id: $i) { dueDate } }`, map[string]any{"i": invID})
	require.Equal(t, "2026-01-13", obj(g.Data["issueInvoice"])["dueDate"])

	const advance = `mutation($id: ID!, $t: Int!) { advanceTestClock(id: $id, input: {frozenTime: $t}) { id frozenTime advancedTo status
		receipt { effects { at kind objectId events { id type } } } } }`
	vars := map[string]any{"id": clockID, "t": clockStart.AddDate(0, 0, 5).Unix()}
	first := f.sk.GraphQLWithHeader(advance, vars, idemKey("gql-advance"))
	require.Empty(t, first.Errors, string(first.Raw))
	advanced := obj(first.Data["advanceTestClock"])
	require.Equal(t, "2026-01-15T12:00:00Z", advanced["frozenTime"])
	require.Equal(t, "2026-01-15T12:00:00Z", advanced["advancedTo"], "ready: all the way")
	require.Equal(t, "READY", advanced["status"])
	effects := list(obj(advanced["receipt"])["effects"])
	require.Len(t, effects, 1, string(first.Raw))
	effect := obj(effects[0])
	require.Equal(t, "2026-01-14T00:00:00Z", effect["at"])
	require.Equal(t, "OVERDUE", effect["kind"])
	require.Equal(t, invID, effect["objectId"])
	require.Len(t, list(effect["events"]), 1)
	require.Equal(t, "invoice.overdue", obj(list(effect["events"])[0])["type"])

	// The clock moves on; the advance retried under its key answers as
	// recorded, and moves nothing.
	gql(t, f.sk, advance, map[string]any{"id": clockID, "t": clockStart.AddDate(0, 0, 6).Unix()})
	again := f.sk.GraphQLWithHeader(advance, vars, idemKey("gql-advance"))
	require.Empty(t, again.Errors, string(again.Raw))
	require.Equal(t, first.Data, again.Data)
	g = gql(t, f.sk, `query($id: ID!) { testClock(id: $id) { frozenTime receipt { effects { at } } } }`, map[string]any{"id": clockID})
	require.Equal(t, map[string]any{"frozenTime": "2026-01-16T12:00:00Z", "receipt": nil}, g.Data["testClock"],
		"a read has no receipt")
	_, e := gqlError(t, f.sk, advance, map[string]any{"id": clockID, "t": clockStart.Unix()})
	require.Equal(t, "validation_errors", code(e), "the past is refused")

	// The list, newest first.
	g = gql(t, f.sk, `mutation($t: Int!) { createTestClock(input: {frozenTime: $t}) { id name } }`, map[string]any{"t": clockStart.Unix()})
	second := obj(g.Data["createTestClock"])
	require.Nil(t, second["name"])
	g = gql(t, f.sk, `{ testClocks(first: 1) { edges { node { id } } pageInfo { hasNextPage } } }`, nil)
	page := obj(g.Data["testClocks"])
	require.Equal(t, []any{map[string]any{"node": map[string]any{"id": second["id"]}}}, page["edges"])
	require.Equal(t, true, obj(page["pageInfo"])["hasNextPage"])
	g = gql(t, f.sk, `{ testClocks(first: 10) { edges { node { id } } } }`, nil)
	require.Len(t, list(obj(g.Data["testClocks"])["edges"]), 2)

	// Another merchant's clock is missing, and cannot be bound to.
	_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "other"})
	other := f.env.Client(keys.Sandbox.Secret)
	g, e = gqlError(t, other, `query($id: ID!) { testClock(id: $id) { id } }`, map[string]any{"id": clockID})
	require.Equal(t, map[string]any{"testClock": nil}, g.Data)
	require.Equal(t, "resource_missing", code(e))
	require.Equal(t, fmt.Sprintf("No such test_clock: '%s'", clockID), e.Message)
	_, e = gqlError(t, other, advance, map[string]any{"id": clockID, "t": clockStart.AddDate(0, 0, 7).Unix()})
	require.Equal(t, "resource_missing", code(e))
	_, e = gqlError(t, other, `mutation($id: ID!) { deleteTestClock(id: $id) { id } }`, map[string]any{"id": clockID})
	require.Equal(t, "resource_missing", code(e))
	_, e = gqlError(t, other, `mutation($in: CreateCustomerInput!) { createCustomer(input: $in) { id } }`, map[string]any{"in": in})
	require.Equal(t, "validation_errors", code(e))
	g = gql(t, other, `{ testClocks { edges { node { id } } } }`, nil)
	require.Empty(t, list(obj(g.Data["testClocks"])["edges"]))

	// Delete: the clock is gone, and so is what was bound to it.
	g = gql(t, f.sk, `mutation($id: ID!) { deleteTestClock(id: $id) { id object deleted } }`, map[string]any{"id": clockID})
	require.Equal(t, map[string]any{"id": clockID, "object": "test_clock", "deleted": true}, g.Data["deleteTestClock"])
	_, e = gqlError(t, f.sk, `query($id: ID!) { testClock(id: $id) { id } }`, map[string]any{"id": clockID})
	require.Equal(t, "resource_missing", code(e))
	_, e = gqlError(t, f.sk, `mutation($id: ID!) { deleteTestClock(id: $id) { id } }`, map[string]any{"id": clockID})
	require.Equal(t, "resource_missing", code(e))
	g = gql(t, f.sk, `query($c: ID!) { node(id: $c) { ... on Customer { isDeleted } } }`, map[string]any{"c": cu["id"]})
	require.Equal(t, map[string]any{"isDeleted": true}, g.Data["node"])
}

// An effect's kind is the Kind of the due source that applied it, so the
// closed set the schema's TestClockEffectKind enum is bound to
// (models.TestClockEffectKinds) is exactly the registered due sources:
// a source added without its kind would answer an effect GraphQL cannot
// write.
func TestTestClockEffectKindsAreTheDueSources(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var kinds []string
	for _, src := range f.env.Services.Billing.DueSources() {
		kinds = append(kinds, src.Kind())
	}
	want := make([]string, len(models.TestClockEffectKinds))
	for i, k := range models.TestClockEffectKinds {
		want[i] = string(k)
	}
	require.ElementsMatch(t, want, kinds)
}
