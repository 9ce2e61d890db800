package bench

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// maxAllocsPerPagedAccount bounds the allocations a GraphQL page of
// accounts that selects no derived member (the dashboard's accounts:
// names, statuses, capabilities' statuses) spends on each account: 135
// while every read derived every account's requirements and steps, 122
// since reads derive only what the operation selects (124.7 with the race
// detector, whose sync.Pool drops some of what is put back;
// docs/performance.md, "Deriving only what a query selects").
const maxAllocsPerPagedAccount = 130

// TestGraphQLAccountPageAllocationsPerAccount pins what a GraphQL page of
// accounts that selects no derived member costs per account in
// allocations: the difference between a page of 100 and a page of 10 over
// 90 accounts, so the request's fixed cost cancels out, as
// TestAccountListAllocationsPerAccount does for REST. Deriving what the
// query does not select raises it by 13.
func TestGraphQLAccountPageAllocationsPerAccount(t *testing.T) {
	env := testenv.New(t)
	cl := env.Client(env.Keys.Sandbox.Secret)
	seedReadShapeAccounts(t, cl, 100)
	page := func(n int) float64 {
		body := map[string]any{"query": fmt.Sprintf(
			`{ accounts(first: %d) { edges { node { id type status created capabilities { name status } } } } }`, n)}
		return testing.AllocsPerRun(20, func() {
			if r := cl.Post("/graphql", body); r.Status != http.StatusOK {
				t.Fatalf("POST /graphql: %d %s", r.Status, r.Body)
			}
		})
	}
	perAccount := (page(100) - page(10)) / 90
	t.Logf("%.1f allocations per paged account", perAccount)
	if perAccount > maxAllocsPerPagedAccount {
		t.Errorf("a paged account costs %.1f allocations, more than %d", perAccount, maxAllocsPerPagedAccount)
	}
}
