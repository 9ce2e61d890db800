package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
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

// dashboardPage is the page size of the dashboard queries.
const dashboardPage = 20

// graphQLDashboardAccounts is the accounts panel: accounts with their
// capabilities' status, their recent transfers and each transfer's
// refunds.
const graphQLDashboardAccounts = `{ accounts(first: 20) { edges { node {
  id status type capabilities { name status }
  transfers(first: 5) { edges { node { id status amount currency created refunds { id status amount } } } } } } } }`

// graphQLDashboardSubscriptions is the billing panel: subscriptions with
// their customer and product, the latest invoice and the charge that paid
// it.
const graphQLDashboardSubscriptions = `{ subscriptions(first: 20) { edges { node {
  id status currentPeriodEnd customer { id name email } product { id name }
  latestInvoice { id status total dueDate charge { id status amount refunded disputed } } } } } }`

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
// the dashboard merchant's key.
func dashboardShapes(key string) []shape {
	accounts, _ := json.Marshal(map[string]string{"query": graphQLDashboardAccounts})
	subs, _ := json.Marshal(map[string]string{"query": graphQLDashboardSubscriptions})
	return []shape{
		{label: "GraphQL dashboard: `accounts(first: 20)` with capabilities, 5 recent transfers each and their refunds",
			slug: "graphql-dashboard-accounts", method: http.MethodPost, path: "/graphql", body: string(accounts),
			want: http.StatusOK, check: graphQLConnectionOf("accounts", dashboardPage), key: key},
		{label: "GraphQL dashboard: `subscriptions(first: 20)` with customer, product, latest invoice and its charge",
			slug: "graphql-dashboard-subscriptions", method: http.MethodPost, path: "/graphql", body: string(subs),
			want: http.StatusOK, check: graphQLConnectionOf("subscriptions", dashboardPage), key: key},
	}
}

// graphQLConnectionOf checks a GraphQL answer has no errors and n edges in
// its root connection field.
func graphQLConnectionOf(field string, n int) func([]byte) error {
	return func(body []byte) error {
		var v struct {
			Errors []json.RawMessage `json:"errors"`
			Data   map[string]struct {
				Edges []json.RawMessage `json:"edges"`
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &v); err != nil {
			return err
		}
		if len(v.Errors) > 0 {
			return fmt.Errorf("GraphQL errors: %.500s", body)
		}
		if got := len(v.Data[field].Edges); got != n {
			return fmt.Errorf("GraphQL %s: %d edges, want %d (seed at least that many)", field, got, n)
		}
		return nil
	}
}
