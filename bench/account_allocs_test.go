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

// TestAccountListAllocationsPerAccount pins what a page of the REST account
// list costs per account in allocations, which, unlike its time, do not
// depend on what else the machine runs: the difference between a page of
// 100 and a page of 10 over 90 accounts, so the request's own fixed cost
// (HTTP, the credential, the client) cancels out. The pages are read one
// at a time, in a test that is not parallel; the race detector's
// sync.Pool, which drops some of what is put back, adds about one
// allocation an account.
func TestAccountListAllocationsPerAccount(t *testing.T) {
	env := testenv.New(t)
	cl := env.Client(env.Keys.Sandbox.Secret)
	seedReadShapeAccounts(t, cl, 100)
	page := func(n int) float64 {
		path := fmt.Sprintf("/v1/accounts?per_page=%d", n)
		return testing.AllocsPerRun(20, func() {
			if r := cl.Get(path); r.Status != http.StatusOK {
				t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
			}
		})
	}
	perAccount := (page(100) - page(10)) / 90
	t.Logf("%.1f allocations per listed account", perAccount)
	if perAccount > maxAllocsPerListedAccount {
		t.Errorf("a listed account costs %.1f allocations, more than %d", perAccount, maxAllocsPerListedAccount)
	}
}
