package rest_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// Spec doc 1 §4.9: a bank account linked for a customer (customer_id).
func TestBankAccountLinkedForACustomer(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	spec := testenv.CustomerBankAccount(id(c), "000123456789")

	ba := f.sk.CreateBankAccount(spec)
	require.Equal(t, c.ID, *ba.CustomerID)
	require.Nil(t, ba.AccountID)
	got := f.sk.Get("/v1/bank_accounts/" + id(ba))
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	require.Equal(t, id(c), got.JSON()["customer_id"])
	require.Nil(t, got.JSON()["account_id"])
	require.Equal(t, "6789", got.JSON()["account_number_last_4"])

	// The same bank account again is the one linked (200).
	r := f.sk.Post("/v1/bank_accounts", spec.RESTBody())
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, id(ba), id(r.JSON()))

	// Another customer gets a bank account of its own.
	other := f.sk.CreateCustomer(testenv.Customer())
	require.NotEqual(t, id(ba), id(f.sk.CreateBankAccount(testenv.CustomerBankAccount(id(other), "000123456789"))))

	// Scoped to the merchant and mode.
	_, keys := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	requireError(t, f.env.Client(keys.Sandbox.Secret).Get("/v1/bank_accounts/"+id(ba)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Get("/v1/bank_accounts/"+id(ba)), http.StatusNotFound, "resource_missing", "id")
}

func TestCustomerBankAccountRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	acct := f.sk.CreateAccount(testenv.Individual())

	requireError(t, f.sk.Post("/v1/bank_accounts", testenv.CustomerBankAccount(uuid.NewString(), "000123456789").RESTBody()),
		http.StatusNotFound, "resource_missing", "customer_id")
	requireValidation(t, f.sk.Post("/v1/bank_accounts", map[string]any{"processor": "sandbox",
		"processor_token": testenv.SandboxBankToken(testenv.TestRouting, "000123456789"), "customer_id": ""}), "customer_id")
	// An account's link token is not the customer's.
	link := testenv.CustomerBankAccount(id(c), "")
	link.ProcessorToken = "link-sandbox-" + id(acct)
	requireValidation(t, f.sk.Post("/v1/bank_accounts", link.RESTBody()), "processor_token")
	requireValidation(t, f.sk.Post("/v1/bank_accounts", testenv.CustomerBankAccount(id(c), "000111111113").RESTBody()), "processor_token")

	// A deleted customer refuses further operations.
	require.Equal(t, http.StatusOK, f.sk.Delete("/v1/customers/"+id(c)).Status)
	requireError(t, f.sk.Post("/v1/bank_accounts", testenv.CustomerBankAccount(id(c), "000123456789").RESTBody()),
		http.StatusUnprocessableEntity, "invalid_state", "")
}
