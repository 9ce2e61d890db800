package rest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

var bankKeys = sorted("id", "object", "routing_number", "account_number_last_4", "account_type", "bank_name",
	"processor_name", "status", "customer_id", "account_id", "livemode", "created", "updated")

func linkBank(c *testenv.Client, accountID, token string) *testenv.Response {
	return c.Post("/v1/bank_accounts", map[string]any{"processor": "sandbox", "processor_token": token, "account_id": accountID})
}

func TestBankAccountLinksAndActivates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(persona("+12001001695", "bank_account_verification"))
	require.Equal(t, []any{"bank_account"}, capByName(acct["capabilities"], "bank_account_verification")["currently_due"])

	r := linkBank(f.sk, id(acct), "sandbox-token-110000000-000123456789")
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	ba := r.JSON()
	require.Equal(t, bankKeys, keys(ba))
	require.Equal(t, "bank_account", ba["object"])
	require.Equal(t, "110000000", ba["routing_number"])
	require.Equal(t, "6789", ba["account_number_last_4"])
	require.Equal(t, "checking", ba["account_type"])
	require.Equal(t, "sandbox", ba["processor_name"])
	require.Equal(t, "verified", ba["status"])
	require.Equal(t, id(acct), ba["account_id"])
	require.Nil(t, ba["customer_id"])
	require.NotContains(t, string(r.Body), "000123456789", "the account number is never answered")

	a := f.sk.Get("/v1/accounts/" + id(acct)).JSON()
	require.Equal(t, "active", capByName(a["capabilities"], "bank_account_verification")["status"])
	require.Equal(t, ba, f.sk.Get("/v1/bank_accounts/"+id(ba)).JSON())

	// Linking it again answers the same bank account.
	again := linkBank(f.sk, id(acct), "sandbox-token-110000000-000123456789")
	require.Equal(t, http.StatusOK, again.Status, string(again.Body))
	require.Equal(t, id(ba), id(again.JSON()))

	// The account's link token links the succeeding test account too.
	lt := f.sk.Get("/v1/accounts/" + id(acct) + "/plaid_link_token")
	require.Equal(t, http.StatusOK, lt.Status, string(lt.Body))
	require.Equal(t, map[string]any{"link_token": "link-sandbox-" + id(acct)}, lt.JSON())
	other := f.sk.CreateAccount(testenv.Individual())
	r = linkBank(f.sk, id(other), lt.JSON()["link_token"].(string))
	requireValidation(t, r, "processor_token")
	r = linkBank(f.sk, id(other), "link-sandbox-"+id(other))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, "6789", r.JSON()["account_number_last_4"])
}

func TestBankAccountRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual())
	requireValidation(t, f.sk.Post("/v1/bank_accounts", map[string]any{}), "processor", "processor_token", "account_id")
	requireValidation(t, f.sk.Post("/v1/bank_accounts", map[string]any{"processor": "sandbox", "processor_token": "x",
		"account_id": id(acct), "customer_id": "c"}), "account_id")
	requireValidation(t, f.sk.Post("/v1/bank_accounts", map[string]any{"processor": "plaid", "processor_token": "x",
		"account_id": id(acct)}), "processor")
	for _, tok := range []string{"sandbox-token-110000000-000111111113", "sandbox-token-110000000-000111111116",
		"sandbox-token-021000021-000123456789", "public-sandbox-x"} {
		requireValidation(t, linkBank(f.sk, id(acct), tok), "processor_token")
	}
	requireError(t, linkBank(f.sk, "nope", "sandbox-token-110000000-000123456789"), http.StatusNotFound, "resource_missing", "account_id")
	requireError(t, f.sk.Get("/v1/bank_accounts/nope"), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.pk.Post("/v1/bank_accounts", map[string]any{"processor": "sandbox"}), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Get("/v1/accounts/"+id(acct)+"/plaid_link_token"), http.StatusForbidden, "forbidden", "")

	ba := f.sk.CreateBankAccount(testenv.BankAccount(id(acct), "000222222227"))
	_, k := f.env.NewMerchant(auth.NewMerchant{Name: "B"})
	theirs := f.env.Client(k.Sandbox.Secret)
	requireError(t, theirs.Get("/v1/bank_accounts/"+id(ba)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, linkBank(theirs, id(acct), "sandbox-token-110000000-000123456789"), http.StatusNotFound, "resource_missing", "account_id")
	requireError(t, f.live.Get("/v1/bank_accounts/"+id(ba)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, theirs.Get("/v1/accounts/"+id(acct)+"/plaid_link_token"), http.StatusNotFound, "resource_missing", "id")
	live := f.live.CreateAccount(testenv.Individual())
	requireError(t, f.live.Get("/v1/accounts/"+id(live)+"/plaid_link_token"), http.StatusServiceUnavailable, "provider_not_configured", "")
	requireError(t, linkBank(f.live, id(live), "sandbox-token-110000000-000123456789"), http.StatusServiceUnavailable, "provider_not_configured", "")
}

func TestBankAccountWithOnboardingSecret(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("bank_account_verification"))
	other := f.sk.CreateAccount(testenv.Individual())
	theirs := f.sk.CreateBankAccount(testenv.BankAccount(id(other), testenv.ACHSucceeds))
	holder := f.sk.OnboardingHolder(id(acct))

	// account_id and customer_id are ignored: the secret's own account.
	r := holder.Post("/v1/bank_accounts", map[string]any{"processor": "sandbox", "account_id": id(other), "customer_id": "x",
		"processor_token": "sandbox-token-110000000-000333333335"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	mine := r.JSON()
	require.Equal(t, id(acct), mine["account_id"])
	require.Equal(t, "3335", mine["account_number_last_4"])
	require.Equal(t, http.StatusOK, holder.Get("/v1/bank_accounts/"+id(mine)).Status)
	requireError(t, holder.Get("/v1/bank_accounts/"+id(theirs)), http.StatusNotFound, "resource_missing", "id")
	require.Equal(t, http.StatusOK, holder.Get("/v1/accounts/"+id(acct)+"/plaid_link_token").Status)
	requireError(t, holder.Get("/v1/accounts/"+id(other)+"/plaid_link_token"), http.StatusNotFound, "resource_missing", "id")
	require.Len(t, f.sk.Get("/v1/accounts/" + id(other)).JSON()["capabilities"], 0)
}

func TestBankAccountConcurrentLinksKeepOne(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual())
	const n = 4
	got := make([]*testenv.Response, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = linkBank(f.sk, id(acct), "sandbox-token-110000000-000123456789")
		}()
	}
	wg.Wait()
	created := 0
	for _, r := range got {
		require.Contains(t, []int{http.StatusCreated, http.StatusOK}, r.Status, string(r.Body))
		require.Equal(t, id(got[0].JSON()), id(r.JSON()))
		if r.Status == http.StatusCreated {
			created++
		}
	}
	require.Equal(t, 1, created)
}
