package bench

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/frame-oss/payments-server/internal/testenv"
)

const nestedAccounts = `query($n: Int!) { accounts(first: $n) { edges { node {
	id status profile { individual { email } }
	capabilities { name status currentlyDue account { id status } }
	steps { key status } } } pageInfo { hasNextPage } } }`

// BenchmarkGraphQLNested measures a dashboard-style nested query (accounts,
// their capabilities, each capability's account again) at list sizes 10
// and 100, and reports the SQL statements it ran: a constant of the query's
// shape, the same at both sizes.
func BenchmarkGraphQLNested(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			env := testenv.New(b)
			cl := env.Client(env.Keys.Sandbox.Secret)
			for range n {
				if r := cl.Post("/v1/accounts", accountBody()); r.Status != http.StatusCreated {
					b.Fatalf("seed: %d %s", r.Status, r.Body)
				}
			}
			vars := map[string]any{"n": n}
			statements := 0
			b.ResetTimer()
			for range b.N {
				g := cl.GraphQL(nestedAccounts, vars)
				if len(g.Errors) > 0 || g.Status != http.StatusOK {
					b.Fatalf("query: %d %s", g.Status, g.Raw)
				}
				statements = g.Statements
			}
			b.ReportMetric(float64(statements), "statements/op")
		})
	}
}
