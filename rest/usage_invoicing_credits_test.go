package rest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

func TestBillingCreditCreateAndRead(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 10)
	expires := mar15.AddDate(0, 1, 0)
	r := f.sk.Post(creditsPath, map[string]any{"product": p.product, "customer": p.customer, "billing_credits": 100,
		"expires": iso(expires), "metadata": map[string]any{"plan": "pro"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	c := r.JSON()
	require.Equal(t, creditKeys, keys(c))
	require.Equal(t, "billing_credit", c["object"])
	require.Equal(t, p.customer, c["customer"])
	require.Equal(t, p.customer, c["customer_id"])
	require.Nil(t, c["account"])
	require.Nil(t, c["account_id"])
	require.Equal(t, p.product, c["product"])
	require.Equal(t, "100", c["billing_credits"])
	require.Equal(t, "100", c["available_credits"])
	require.Equal(t, "0", c["used_credits"])
	require.Equal(t, "active", c["status"])
	require.Equal(t, false, c["watchlist"])
	require.Equal(t, false, c["limited"])
	require.Equal(t, false, c["livemode"])
	require.Equal(t, expires.Unix(), num(c["expires"]))
	require.Equal(t, mar15.Unix(), num(c["created"]), "created at the payer's clock time")
	require.Equal(t, map[string]any{"plan": "pro"}, c["metadata"])

	got := f.sk.Get(creditsPath + "/" + id(c))
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	require.Equal(t, c, got.JSON())

	// Expired exactly at its expiry on the payer's clock.
	f.sk.AdvanceTestClock(p.clock, expires.Add(-time.Second))
	require.Equal(t, "active", f.sk.Get(creditsPath + "/" + id(c)).JSON()["status"])
	f.sk.AdvanceTestClock(p.clock, expires)
	require.Equal(t, "expired", f.sk.Get(creditsPath + "/" + id(c)).JSON()["status"])
}

func TestBillingCreditListFilters(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 10)
	other := newUsageCustomer(t, f, 20)
	acct := f.sk.CreateAccount(testenv.Individual())
	exp := iso(mar15.AddDate(0, 2, 0))
	mine := f.sk.CreateBillingCredit(testenv.BillingCredit(p.product, p.customer, 5, exp))
	theirs := f.sk.CreateBillingCredit(testenv.BillingCredit(other.product, other.customer, 7, exp))
	spec := testenv.BillingCredit(p.product, "", 9, iso(testenv.Start.AddDate(1, 0, 0)))
	spec.Account = id(acct)
	spec.Limited = true
	ofAccount := f.sk.CreateBillingCredit(spec)
	require.True(t, ofAccount.Limited)
	require.Equal(t, id(acct), ofAccount.AccountID.String())

	listed := func(query string) []string {
		r := f.sk.Get(creditsPath + query)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		var out []string
		for _, c := range r.JSON()["data"].([]any) {
			out = append(out, id(c))
		}
		return out
	}
	// Newest first: the account is on no clock, so its pool is dated at
	// the server's time, before the clocked payers' mar15.
	require.Equal(t, []string{id(theirs), id(mine), id(ofAccount)}, listed(""))
	require.Equal(t, []string{id(mine)}, listed("?customer="+p.customer))
	require.Equal(t, []string{id(ofAccount)}, listed("?account="+id(acct)))
	require.Equal(t, []string{id(mine), id(ofAccount)}, listed("?product="+p.product))
	require.Empty(t, listed("?customer="+p.customer+"&product="+other.product))
}

func TestBillingCreditValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 10)
	requireValidation(t, f.sk.Post(creditsPath, map[string]any{}), "customer", "product", "billing_credits", "expires")
	requireValidation(t, f.sk.Post(creditsPath, map[string]any{"customer": p.customer, "account": "x", "product": p.product,
		"billing_credits": 0, "expires": "tomorrow", "metadata": map[string]any{"k": "v"}}), "customer", "billing_credits", "expires")
	requireValidation(t, f.sk.Post(creditsPath, map[string]any{"customer_id": p.customer, "product": p.product,
		"billing_credits": -4, "expires": iso(mar15.AddDate(0, 0, 1))}), "billing_credits")
	requireError(t, f.sk.Post(creditsPath, map[string]any{"product": p.product, "billing_credits": 1.5, "customer": p.customer,
		"expires": iso(mar15.AddDate(0, 0, 1))}), http.StatusBadRequest, "parameter_invalid", "billing_credits")

	// Rules the write checks: the payer's clock, the tenant's objects.
	body := testenv.BillingCredit(p.product, p.customer, 10, iso(mar15)).RESTBody()
	requireValidation(t, f.sk.Post(creditsPath, body), "expires")
	body = testenv.BillingCredit(p.customer, p.customer, 10, iso(mar15.AddDate(0, 1, 0))).RESTBody()
	requireValidation(t, f.sk.Post(creditsPath, body), "product")
	body = testenv.BillingCredit(p.product, p.product, 10, iso(mar15.AddDate(0, 1, 0))).RESTBody()
	requireValidation(t, f.sk.Post(creditsPath, body), "customer")
	// The SDK's customer_id names the customer.
	r := f.sk.Post(creditsPath, map[string]any{"customer_id": p.customer, "product": p.product, "billing_credits": 3,
		"expires": iso(mar15.AddDate(0, 1, 0))})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, p.customer, r.JSON()["customer"])
}

func TestBillingCreditCredentialsAndTenancy(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := newUsagePayer(t, f, 10)
	c := f.sk.CreateBillingCredit(testenv.BillingCredit(p.product, p.customer, 5, iso(mar15.AddDate(0, 1, 0))))
	body := testenv.BillingCredit(p.product, p.customer, 5, iso(mar15.AddDate(0, 1, 0))).RESTBody()

	requireError(t, f.pk.Get(creditsPath+"/"+id(c)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Get(creditsPath), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post(creditsPath, body), http.StatusForbidden, "forbidden", "")

	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	other := f.env.Client(k.Sandbox.Secret)
	requireError(t, other.Get(creditsPath+"/"+id(c)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Get(creditsPath+"/"+id(c)), http.StatusNotFound, "resource_missing", "id")
	require.Empty(t, other.Get(creditsPath).JSON()["data"])
	require.Empty(t, f.live.Get(creditsPath).JSON()["data"])
	requireValidation(t, other.Post(creditsPath, body), "customer")
	requireValidation(t, f.live.Post(creditsPath, body), "customer")

	// Production serves credits of its own payers (no provider needed).
	cu := f.live.CreateCustomer(testenv.Customer())
	pr := f.live.CreateProduct(testenv.Product())
	live := f.live.CreateBillingCredit(testenv.BillingCredit(id(pr), id(cu), 4, iso(testenv.Start.AddDate(0, 1, 0))))
	require.True(t, live.Livemode)
	require.Equal(t, http.StatusOK, f.live.Get(creditsPath+"/"+id(live)).Status)
}
