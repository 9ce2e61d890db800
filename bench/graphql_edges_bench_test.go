package bench

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/frame-oss/payments-server/internal/testenv"
)

const accountsWithOwners = `query($n: Int!) { accounts(first: $n) { edges { node {
	id beneficialOwners { id firstName account { id } } } } } }`

// BenchmarkGraphQLLoaderEdge measures a query whose nested list loads
// through a loader edge (each account's beneficial owners, and each
// owner's account back), at list sizes 10 and 100: the latency of a level
// that the look-ahead reads in one batch, and its statement count.
func BenchmarkGraphQLLoaderEdge(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			env := testenv.New(b)
			cl := env.Client(env.Keys.Sandbox.Secret)
			for range n {
				a := cl.CreateAccount(testenv.Business())
				o := cl.Post("/v1/accounts/"+a["id"].(string)+"/beneficial_owners", map[string]any{
					"first_name": "A", "last_name": "B", "email": "a@b.example", "roles": []string{"owner"}})
				if o.Status != http.StatusCreated {
					b.Fatalf("seed owner: %d %s", o.Status, o.Body)
				}
			}
			vars := map[string]any{"n": n}
			statements := 0
			b.ResetTimer()
			for range b.N {
				g := cl.GraphQL(accountsWithOwners, vars)
				if len(g.Errors) > 0 || g.Status != http.StatusOK {
					b.Fatalf("query: %d %s", g.Status, g.Raw)
				}
				statements = g.Statements
			}
			b.ReportMetric(float64(statements), "statements/op")
		})
	}
}
