package bench

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// maxAllocsPerListedAccount bounds the allocations a REST list spends on
// each account it carries: reading its row and its capabilities column,
// deriving its requirements and steps, rendering it. It was about 82
// while the capabilities were read through Bun's scanners with an
// interface per value and the steps' key lists were allocated one by one
// (docs/performance.md, "The account reads' allocations"), 63 since.
const maxAllocsPerListedAccount = 72

// maxAllocsPerPagedAccount bounds the allocations a GraphQL page of
// accounts that selects no derived member (the dashboard's accounts:
// names, statuses, capabilities' statuses) spends on each account: 135
// while every read derived every account's requirements and steps, 122
// since reads derive only what the operation selects (124.7 with the race
// detector; docs/performance.md, "Deriving only what a query selects").
const maxAllocsPerPagedAccount = 130

// TestAccountListAllocationsPerAccount pins what a page of the REST account
// list costs per account in allocations, which, unlike its time, do not
// depend on what else the machine runs.
func TestAccountListAllocationsPerAccount(t *testing.T) {
	pinAllocationsPerAccount(t, maxAllocsPerListedAccount, func(cl *testenv.Client, n int) *testenv.Response {
		return cl.Get(fmt.Sprintf("/v1/accounts?per_page=%d", n))
	})
}

// TestGraphQLAccountPageAllocationsPerAccount pins the same for a GraphQL
// page of accounts that selects no derived member: deriving what the query
// does not select raises it by 13.
func TestGraphQLAccountPageAllocationsPerAccount(t *testing.T) {
	pinAllocationsPerAccount(t, maxAllocsPerPagedAccount, func(cl *testenv.Client, n int) *testenv.Response {
		return cl.Post("/graphql", map[string]any{"query": fmt.Sprintf(
			`{ accounts(first: %d) { edges { node { id type status created capabilities { name status } } } } }`, n)})
	})
}

// pinAllocationsPerAccount fails t when read, a request of a page of n
// accounts, allocates more than bound per account: the difference between
// a page of 100 and a page of 10 over 90 accounts seeded as `make
// loadbench` seeds them, so the request's own fixed cost (HTTP, the
// credential, the client) cancels out. The pages are read one at a time,
// in a test that is not parallel; the race detector's sync.Pool, which
// drops some of what is put back, adds one to three allocations an
// account.
func pinAllocationsPerAccount(t *testing.T, bound int, read func(cl *testenv.Client, n int) *testenv.Response) {
	env := testenv.New(t)
	cl := env.Client(env.Keys.Sandbox.Secret)
	seedReadShapeAccounts(t, cl, 100)
	page := func(n int) float64 {
		return testing.AllocsPerRun(20, func() {
			if r := read(cl, n); r.Status != http.StatusOK {
				t.Fatalf("a page of %d: %d %s", n, r.Status, r.Body)
			}
		})
	}
	perAccount := (page(100) - page(10)) / 90
	t.Logf("%.1f allocations per account", perAccount)
	if perAccount > float64(bound) {
		t.Errorf("an account of the page costs %.1f allocations, more than %d", perAccount, bound)
	}
}
