package bench

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/frame-oss/payments-server/graph/dashboard"
	"github.com/frame-oss/payments-server/internal/app"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/seed"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// BenchmarkDashboardShapes runs the queries the dashboard sends when it
// opens (graph/dashboard's Operations, the shapes `make loadbench` replays
// as graphql-dashboard-*), one request at a time, on the sample data set
// seeded ten times as `make loadbench` seeds it. Most of them are small
// pages, so what they cost beyond their statements is mostly the fixed
// cost of a GraphQL request: this is the benchmark to profile
// (-cpuprofile, -memprofile) for it. cpu-ns/op is the CPU time of this
// process (client and server, not PostgreSQL) per request.
func BenchmarkDashboardShapes(b *testing.B) {
	env, queries := dashboardEnv(b)
	cl := env.Client(env.Keys.Sandbox.Secret)
	for _, op := range queries {
		body := map[string]any{"query": op.Document, "operationName": op.Name}
		b.Run(strings.TrimPrefix(op.Name, "Dashboard"), func(b *testing.B) {
			statements := 0
			cpu := processCPU()
			for range b.N {
				r := cl.Do(http.MethodPost, "/graphql", body, nil)
				if r.Status != http.StatusOK || bytes.Contains(r.Body, []byte(`"errors"`)) {
					b.Fatalf("%s: %d %s", op.Name, r.Status, r.Body)
				}
				statements = r.Statements
			}
			b.ReportMetric(float64(statements), "statements/op")
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}

// dashboardEnv is a server with serve's credential cache, as `make
// loadbench` runs it (the credential's statement is not part of a request
// there), over the sample data set seeded ten times, and the dashboard's
// queries.
func dashboardEnv(b *testing.B) (*testenv.Env, []dashboard.Operation) {
	env := testenv.New(b, func(o *app.Options) { o.CredentialCache = auth.DefaultCacheConfig() })
	for range 10 {
		if _, err := seed.Run(context.Background(), env.Services, env.Merchant); err != nil {
			b.Fatalf("seed: %v", err)
		}
	}
	ops, err := dashboard.Operations()
	if err != nil {
		b.Fatal(err)
	}
	var queries []dashboard.Operation
	for _, op := range ops {
		if op.Type == "query" {
			queries = append(queries, op)
		}
	}
	return env, queries
}
