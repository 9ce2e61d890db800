package main

import (
	"bytes"
	"context"
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
// fresh embedded data dir: it loads from the server alone, refuses a
// production key, shows an account created through REST with its
// capabilities, a transfer, a subscription with its invoice, and shows an event arrive live over the
// GraphQL subscription (testdata/browser/dashboard.mjs does the clicking).
func TestDashboardInABrowser(t *testing.T) {
	ensureBrowser(t)
	u := &readmeUser{dir: dataDir(t)}
	m := u.createMerchant(t, "--name", "Dashboard Platform", "--json", "--with-default-fees")
	url := u.serve(t)
	key := m.APIKeys.Sandbox.Secret

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
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, "node", filepath.Join(browserDir, "dashboard.mjs"))
	cmd.Env = append(os.Environ(), "SERVER_URL="+url, "SANDBOX_KEY="+key, "PRODUCTION_KEY="+m.APIKeys.Production.Secret,
		"ACCOUNT_ID="+accountID, "ACCOUNT_NAME=Ada Lovelace", "TRANSFER_ID="+transfer["id"].(string),
		"SUBSCRIPTION_ID="+subscription["id"].(string), "INVOICE_ID="+invoiceID)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	t.Logf("browser run:\n%s", out.String())
	require.NoError(t, err, "the browser run failed:\n%s", out.String())
	require.Contains(t, out.String(), "dashboard: ok", out.String())
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
