package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"unicode"

	"github.com/frame-oss/payments-server/graph/dashboard"
)

// The dashboard shapes: the two queries a dashboard's first screen makes
// (docs/graphql.md), over the sample data of `server seed` run
// dashboardSeedRuns times on a merchant of their own, so the account
// shapes above read the benchmark's accounts as before and the dashboard's
// accounts have transfers, refunds and subscriptions to show.

// dashboardSeedRuns is how many sample data sets are seeded: each adds 6
// accounts, 4 subscriptions and 15 invoices with their charges, transfers,
// refunds and disputes.
const dashboardSeedRuns = 10

// seedDashboard runs `server seed` runs times on the merchant.
func seedDashboard(ctx context.Context, bin, dataDir, merchantID string, runs int) error {
	for i := range runs {
		cmd := exec.CommandContext(ctx, bin, "seed", "--merchant", merchantID, "--json", "--data-dir", dataDir)
		cmd.Env = serverEnv()
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("seed run %d: %w: %s", i+1, err, strings.TrimSpace(errOut.String()))
		}
	}
	return nil
}

// dashboardShapes are the dashboard's queries as table rows, made with
// the dashboard merchant's key: every query the page sends
// (graph/dashboard.Operations reads them from its script, fragments
// included), as it sends them when it opens, without variables (the first
// page of each panel).
func dashboardShapes(key string) ([]shape, error) {
	ops, err := dashboard.Operations()
	if err != nil {
		return nil, err
	}
	var out []shape
	for _, op := range ops {
		if op.Type != "query" {
			continue // the event stream is a subscription, not a request
		}
		body, _ := json.Marshal(map[string]string{"query": op.Document, "operationName": op.Name})
		out = append(out, shape{label: "GraphQL dashboard: `" + op.Name + "`", slug: dashboardSlug(op.Name),
			method: http.MethodPost, path: "/graphql", body: string(body), want: http.StatusOK,
			check: graphQLAnswerOf(op.Name), key: key})
	}
	return out, nil
}

// dashboardSlug names a dashboard query's result files:
// DashboardFailedPayments is graphql-dashboard-failed-payments.
func dashboardSlug(operation string) string {
	name := strings.TrimPrefix(operation, "Dashboard")
	var b strings.Builder
	b.WriteString("graphql-dashboard")
	for i, r := range name {
		if unicode.IsUpper(r) || i == 0 {
			b.WriteByte('-')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// graphQLAnswer is a GraphQL answer: its errors and each root field's value.
type graphQLAnswer struct {
	Errors []json.RawMessage           `json:"errors"`
	Data   map[string]*json.RawMessage `json:"data"`
}

// graphQLAnswerOf checks a GraphQL answer has no errors and a value for
// every root field it asked for.
func graphQLAnswerOf(operation string) func([]byte) error {
	return decodedAs(func(v *graphQLAnswer, body []byte) error {
		if len(v.Errors) > 0 {
			return fmt.Errorf("GraphQL errors in %s: %.500s", operation, body)
		}
		if len(v.Data) == 0 {
			return fmt.Errorf("%s answered no data: %.500s", operation, body)
		}
		for field, value := range v.Data {
			if value == nil || string(*value) == "null" {
				return fmt.Errorf("%s answered null for %s", operation, field)
			}
		}
		return nil
	})
}
