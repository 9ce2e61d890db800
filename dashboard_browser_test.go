package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// browserDir holds the browser test's driver (playwright-core, from the npm
// registry) and its script; Chromium is Debian's.
const (
	browserDir = "testdata/browser"
	chromium   = "/usr/bin/chromium"
)

// browserGuard bounds the whole browser run: a failure guard for a hung
// browser, far beyond what a working run takes.
const browserGuard = 5 * time.Minute

// The reference dashboard in a real browser, against the served binary on a
// fresh embedded data dir filled by `server seed` as a new user fills it:
// it loads from the server alone, refuses a production key, shows the
// sample data set in every panel (the balance, the volume chart with the
// seeded failures, the disputes awaiting a response, the failed payments,
// the refunds, the payouts, every seeded account with its status, every
// seeded subscription with its invoices, every seeded transfer with its
// status, pages beyond the first, the seeded events on open),
// an account created through REST with its capabilities, a transfer, a
// subscription with its invoice, opens the seeded active account's page
// (its profile, capabilities, cards, bank accounts, transfers and payouts
// paged through, subscriptions and events, as REST lists them) and comes
// back, and shows an event arrive live over the GraphQL subscription
// (testdata/browser/dashboard.mjs does the clicking).
func TestDashboardInABrowser(t *testing.T) {
	t.Parallel()
	ensureBrowser(t)
	u := &readmeUser{dir: dataDir(t)}
	m := u.createMerchant(t, "--name", "Dashboard Platform", "--json", "--with-default-fees")
	url := u.serve(t)
	key := m.APIKeys.Sandbox.Secret

	out, errOut, code := u.run(t, "seed", "--merchant", m.Merchant.ID)
	require.Equal(t, 0, code, "seed: %s%s", out, errOut)
	seeded, err := json.Marshal(seededView(t, url, key))
	require.NoError(t, err)
	seededAccount, err := json.Marshal(seededAccountView(t, url, key))
	require.NoError(t, err)

	status, account := call(t, key, http.MethodPost, url+"/v1/accounts",
		`{"type":"individual","profile":{"individual":{"name":{"first_name":"Ada","last_name":"Lovelace"}}},
		  "capabilities":["kyc","card_send"]}`)
	require.Equal(t, http.StatusCreated, status, account)
	accountID := account["id"].(string)
	status, card := call(t, key, http.MethodPost, url+"/v1/payment_methods",
		`{"type":"card","card_number":"4242424242424242","exp_month":12,"exp_year":30,"cvc":"123","account":"`+accountID+`"}`)
	require.Equal(t, http.StatusCreated, status, card)
	status, transfer := call(t, key, http.MethodPost, url+"/v1/transfers",
		`{"amount":1250,"account_id":"`+accountID+`","source_payment_method_id":"`+card["id"].(string)+`","confirm":true}`)
	require.Equal(t, http.StatusCreated, status, transfer)
	require.Equal(t, "succeeded", transfer["status"], transfer)

	status, customer := call(t, key, http.MethodPost, url+"/v1/customers", `{"name":"Grace Hopper","email":"grace@example.com"}`)
	require.Equal(t, http.StatusCreated, status, customer)
	status, customerCard := call(t, key, http.MethodPost, url+"/v1/payment_methods",
		`{"type":"card","card_number":"4242424242424242","exp_month":12,"exp_year":30,"cvc":"123","customer":"`+customer["id"].(string)+`"}`)
	require.Equal(t, http.StatusCreated, status, customerCard)
	status, product := call(t, key, http.MethodPost, url+"/v1/products",
		`{"name":"Pro plan","purchase_type":"recurring","recurring_interval":"monthly","default_price":2500}`)
	require.Equal(t, http.StatusCreated, status, product)
	status, subscription := call(t, key, http.MethodPost, url+"/v1/subscriptions",
		`{"customer":"`+customer["id"].(string)+`","product":"`+product["id"].(string)+`","currency":"usd"}`)
	require.Equal(t, http.StatusCreated, status, subscription)
	invoiceID, _ := subscription["latest_invoice"].(string)
	require.NotEmpty(t, invoiceID, "the first period is invoiced: %v", subscription)

	ctx, cancel := context.WithTimeout(context.Background(), browserGuard)
	defer cancel()
	var browserOut bytes.Buffer
	cmd := exec.CommandContext(ctx, "node", filepath.Join(browserDir, "dashboard.mjs"))
	cmd.Env = append(os.Environ(), "SERVER_URL="+url, "SANDBOX_KEY="+key, "PRODUCTION_KEY="+m.APIKeys.Production.Secret,
		"ACCOUNT_ID="+accountID, "ACCOUNT_NAME=Ada Lovelace", "TRANSFER_ID="+transfer["id"].(string),
		"SUBSCRIPTION_ID="+subscription["id"].(string), "INVOICE_ID="+invoiceID, "SEEDED="+string(seeded),
		"SEEDED_ACCOUNT="+string(seededAccount))
	cmd.Stdout, cmd.Stderr = &browserOut, &browserOut
	err = cmd.Run()
	t.Logf("browser run:\n%s", browserOut.String())
	require.NoError(t, err, "the browser run failed:\n%s", browserOut.String())
	require.Contains(t, browserOut.String(), "dashboard: ok", browserOut.String())
}

// seededObject is an object of the sample data set as the dashboard should
// show it: its id and status (lowercase, as REST writes it and the
// dashboard prints it), and for a subscription the ids of its invoices.
type seededObject struct {
	ID       string   `json:"id"`
	Status   string   `json:"status"`
	Invoices []string `json:"invoices,omitempty"`
}

// seededView reads, through REST, what `server seed` wrote that the
// dashboard's panels show: every account, subscription (with its invoices)
// and transfer of the merchant's sandbox, before the test adds its own.
func seededView(t *testing.T, url, key string) map[string][]seededObject {
	t.Helper()
	objects := func(path string) []seededObject {
		var out []seededObject
		for _, o := range listAll(t, url, key, path) {
			out = append(out, seededObject{ID: o["id"].(string), Status: o["status"].(string)})
		}
		return out
	}
	view := map[string][]seededObject{
		"accounts":      objects("/v1/accounts"),
		"subscriptions": objects("/v1/subscriptions"),
		"transfers":     objects("/v1/transfers"),
		"failed":        objects("/v1/transfers?status=failed"),
		"refunds":       objects("/v1/refunds"),
		"payouts":       objects("/v1/payouts"),
	}
	for _, d := range objects("/v1/disputes") {
		if d.Status == "needs_response" || d.Status == "warning_needs_response" {
			view["disputes"] = append(view["disputes"], d)
		}
	}
	for _, panel := range []string{"failed", "refunds", "payouts", "disputes"} {
		require.NotEmpty(t, view[panel], "the seed has %s to show", panel)
		require.LessOrEqual(t, len(view[panel]), 20, "the %s panel's first page holds them all", panel)
	}
	for i, s := range view["subscriptions"] {
		for _, inv := range objects("/v1/invoices?subscription=" + s.ID) {
			view["subscriptions"][i].Invoices = append(view["subscriptions"][i].Invoices, inv.ID)
		}
		require.NotEmpty(t, view["subscriptions"][i].Invoices, "a seeded subscription has invoices: %s", s.ID)
	}
	statuses := map[string]bool{}
	for _, a := range view["accounts"] {
		statuses[a.Status] = true
	}
	require.GreaterOrEqual(t, len(statuses), 3, "the seed has accounts in several statuses: %v", view["accounts"])
	return view
}

// ensureBrowser installs Chromium and the driver when either is missing
// (scripts/ensure-browser.sh, which `make test` runs too), so `go test` works
// on a fresh machine: the test never skips for want of them.
func ensureBrowser(t *testing.T) {
	t.Helper()
	_, errChromium := os.Stat(chromium)
	_, errDriver := os.Stat(filepath.Join(browserDir, "node_modules", "playwright-core", "package.json"))
	if errChromium == nil && errDriver == nil {
		return
	}
	out, err := exec.Command("scripts/ensure-browser.sh").CombinedOutput()
	require.NoError(t, err, "scripts/ensure-browser.sh:\n%s", out)
}

// seededAccountPage is what the account page should show of the seed's
// active account (Ada Lovelace, the one with the charges and payouts),
// read through REST: the ids of its objects in each panel, each with its
// status.
type seededAccountPage struct {
	ID             string         `json:"id"`
	Status         string         `json:"status"`
	Capabilities   []seededObject `json:"capabilities"`
	PaymentMethods []seededObject `json:"payment_methods"`
	Transfers      []seededObject `json:"transfers"`
	Payouts        []seededObject `json:"payouts"`
	Subscriptions  []seededObject `json:"subscriptions"`
}

// seededAccountView finds the seed's active individual account and reads
// its page's objects through REST, before the test adds its own.
func seededAccountView(t *testing.T, url, key string) seededAccountPage {
	t.Helper()
	var page seededAccountPage
	for _, a := range listAll(t, url, key, "/v1/accounts?status=active") {
		if a["type"] == "individual" {
			require.Empty(t, page.ID, "the seed has one active individual account")
			page.ID, page.Status = a["id"].(string), a["status"].(string)
			for _, c := range a["capabilities"].([]any) {
				c := c.(map[string]any)
				page.Capabilities = append(page.Capabilities, seededObject{ID: c["name"].(string), Status: c["status"].(string)})
			}
		}
	}
	require.NotEmpty(t, page.ID, "the seed has an active individual account")
	objects := func(path string) []seededObject {
		out := []seededObject{}
		for _, o := range listAll(t, url, key, path) {
			out = append(out, seededObject{ID: o["id"].(string), Status: o["status"].(string)})
		}
		return out
	}
	page.PaymentMethods = objects("/v1/accounts/" + page.ID + "/payment_methods")
	page.Transfers = objects("/v1/transfers?account_id=" + page.ID)
	page.Payouts = objects("/v1/payouts?account_id=" + page.ID)
	page.Subscriptions = objects("/v1/subscriptions/search?account=" + page.ID)
	require.Greater(t, len(page.Transfers), 5, "the account's transfers fill more than the page's first page")
	require.NotEmpty(t, page.Payouts)
	require.NotEmpty(t, page.Capabilities)
	return page
}
