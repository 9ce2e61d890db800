package bench

import (
	"fmt"
	"net/http"
	"syscall"
	"testing"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// readShapesQuery is the GraphQL read shape of `make loadbench`
// (bench/loadbench/shapes.go): a page of 50 accounts with their
// capabilities.
const readShapesQuery = `{ accounts(first: 50) { edges { node { id capabilities { name status currentlyDue } } } } }`

// BenchmarkReadShapes runs the read shapes of `make loadbench` in process,
// one request at a time, on accounts seeded as it seeds them (three
// capabilities each): the one to profile (-cpuprofile) when a load table
// shows the API well below its composed limit, since its profile is the
// server's own work without the load generator's. cpu-ns/op is the CPU
// time of this process (client and server, not PostgreSQL) per request:
// unlike ns/op it hardly moves when other work shares the machine.
func BenchmarkReadShapes(b *testing.B) {
	env := testenv.New(b)
	cl := env.Client(env.Keys.Sandbox.Secret)
	id := seedReadShapeAccounts(b, cl, 100)
	gql := map[string]any{"query": readShapesQuery}
	for _, s := range []struct {
		name   string
		method string
		path   string
		body   any
	}{
		{"get_account", http.MethodGet, "/v1/accounts/" + id, nil},
		{"list_10", http.MethodGet, "/v1/accounts?per_page=10", nil},
		{"list_100", http.MethodGet, "/v1/accounts?per_page=100", nil},
		{"graphql_accounts_50", http.MethodPost, "/graphql", gql},
	} {
		b.Run(s.name, func(b *testing.B) {
			statements := 0
			cpu := processCPU()
			for range b.N {
				r := cl.Do(s.method, s.path, s.body, nil)
				if r.Status != http.StatusOK {
					b.Fatalf("%s %s: %d %s", s.method, s.path, r.Status, r.Body)
				}
				statements = r.Statements
			}
			b.ReportMetric(float64(statements), "statements/op")
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// seedReadShapeAccounts creates n accounts as `make loadbench` seeds them
// (three capabilities each, a profile with a name and an e-mail) and
// returns the id of the last.
func seedReadShapeAccounts(tb testing.TB, cl *testenv.Client, n int) string {
	var id string
	for i := range n {
		r := cl.Post("/v1/accounts", map[string]any{"type": "individual",
			"capabilities": []string{"kyc", "phone_verification", "card_verification"},
			"profile": map[string]any{"individual": map[string]any{
				"name":  map[string]any{"first_name": "Ada", "last_name": "Lovelace"},
				"email": fmt.Sprintf("seed%d@example.com", i)}}})
		if r.Status != http.StatusCreated {
			tb.Fatalf("seed: %d %s", r.Status, r.Body)
		}
		id = r.JSON()["id"].(string)
	}
	return id
}

// processCPU is the CPU time this process has used, user and system, in
// nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
