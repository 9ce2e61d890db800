package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/seed"
)

// seededOnce is what one run of `seed` creates (docs/sandbox.md, "Sample
// data"): every list a dashboard reads, with its count by status.
var seededOnce = map[string]map[string]int{
	"/v1/accounts?include_disabled=true": {"active": 1, "pending": 3, "restricted": 1, "disabled": 1},
	"/v1/customers":                      {"active": 4},
	"/v1/products":                       {"": 2},
	"/v1/test_helpers/test_clocks":       {"ready": 1},
	"/v1/subscriptions":                  {"active": 2, "canceled": 1, "past_due": 1},
	"/v1/invoices":                       {"paid": 14, "open": 1},
	"/v1/transfers":                      {"succeeded": 5, "refunded": 1, "failed": 1},
	"/v1/refunds":                        {"succeeded": 2, "failed": 1},
	"/v1/disputes":                       {"won": 1, "needs_response": 1},
	"/v1/payouts":                        {"succeeded": 1, "failed": 1},
}

// requireSeedAsDocumented runs `seed` as a new user would, on a new
// merchant of the data dir a server is serving at url: refused in
// production mode and for an unknown merchant, writing nothing; then
// what it creates, seen through REST, in the documented statuses and
// counts, the ledger balanced; then a second run, which adds a second
// identical set.
func requireSeedAsDocumented(t *testing.T, u *readmeUser, url string) {
	t.Helper()
	m := u.createMerchant(t, "--name", "Dashboard Sample", "--json")
	key := m.APIKeys.Sandbox.Secret

	out, errOut, code := u.run(t, "seed", "--merchant", m.Merchant.ID, "--mode", "production")
	require.Equal(t, 1, code, out)
	require.Contains(t, errOut, "production mode")
	out, errOut, code = u.run(t, "seed", "--merchant", "0195a1c0-0000-7000-8000-0000000000ff")
	require.Equal(t, 1, code, out)
	require.Contains(t, errOut, "no merchant 0195a1c0-0000-7000-8000-0000000000ff")
	requireSeededCounts(t, url, key, 0)

	out, errOut, code = u.run(t, "seed", "--merchant", m.Merchant.ID, "--json")
	require.Equal(t, 0, code, errOut)
	var res seedResult
	require.NoError(t, json.Unmarshal([]byte(out), &res), out)
	require.Equal(t, m.Merchant.ID, res.MerchantID)
	require.Equal(t, seed.Summary{Accounts: 6, Customers: 4, PaymentMethods: 13, Products: 2, TestClocks: 1,
		Subscriptions: 4, Invoices: 15, Transfers: 7, Refunds: 3, Disputes: 2, Payouts: 2, Events: res.Created.Events},
		*res.Created)
	requireSeededCounts(t, url, key, 1)
	events := listAll(t, url, key, "/v1/events")
	require.Len(t, events, res.Created.Events, "the summary counts the events the run emitted")
	requireSeedLedgerBalanced(t, url, key)

	// The dunning subscription's open invoice: three attempts, the next
	// retry after the clock stopped.
	for _, inv := range listAll(t, url, key, "/v1/invoices") {
		if inv["status"] == "open" {
			require.EqualValues(t, 3, inv["attempt_count"], inv)
		}
	}

	out, errOut, code = u.run(t, "seed", "--merchant", m.Merchant.ID)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "seeded the sandbox of merchant "+m.Merchant.ID)
	require.Regexp(t, `(?m)^accounts\s+6$`, out)
	require.Regexp(t, `(?m)^invoices\s+15$`, out)
	requireSeededCounts(t, url, key, 2)
}

// requireSeededCounts checks every seeded list holds runs times the data
// set, by status.
func requireSeededCounts(t *testing.T, url, key string, runs int) {
	t.Helper()
	expected, got := map[string]map[string]int{}, map[string]map[string]int{}
	for path, want := range seededOnce {
		expected[path], got[path] = map[string]int{}, map[string]int{}
		for status, n := range want {
			if runs > 0 {
				expected[path][status] = n * runs
			}
		}
		for _, item := range listAll(t, url, key, path) {
			status, _ := item["status"].(string)
			got[path][status]++
		}
	}
	require.Equal(t, expected, got)
}

// requireSeedLedgerBalanced reads the ledger of every captured charge
// (its capture, refunds and disputes) through its trace: every journal's
// entries sum to zero in each currency.
func requireSeedLedgerBalanced(t *testing.T, url, key string) {
	t.Helper()
	journals := 0
	for _, tr := range listAll(t, url, key, "/v1/transfers") {
		if tr["status"] == "failed" {
			continue
		}
		status, trace := call(t, key, http.MethodGet, fmt.Sprintf("%s/v1/charges/%s/trace", url, tr["latest_charge"]), "")
		require.Equal(t, http.StatusOK, status, trace)
		for _, j := range trace["ledger"].(map[string]any)["journals"].([]any) {
			sums := map[string]float64{}
			for _, e := range j.(map[string]any)["entries"].([]any) {
				entry := e.(map[string]any)
				sums[entry["currency"].(string)] += entry["amount"].(float64)
			}
			for currency, sum := range sums {
				require.Zero(t, sum, "journal %v in %s", j, currency)
			}
			journals++
		}
	}
	// Six captures, three refunds (one failed: no journal), two disputes
	// opened and one won.
	require.Equal(t, 6+2+2+1, journals)
}

// listAll reads every page of a list (its items under data, or the key
// the spec names).
func listAll(t *testing.T, url, key, path string) []map[string]any {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var all []map[string]any
	for page := 1; ; page++ {
		status, body := call(t, key, http.MethodGet, fmt.Sprintf("%s%s%sper_page=100&page=%d", url, path, sep, page), "")
		require.Equal(t, http.StatusOK, status, body)
		items, ok := body["data"].([]any)
		if !ok {
			items = body["subscriptions"].([]any)
		}
		for _, it := range items {
			all = append(all, it.(map[string]any))
		}
		if len(items) < 100 {
			return all
		}
	}
}
