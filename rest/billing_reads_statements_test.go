package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// A subscription (with its phases and plan) and an invoice (with its
// lines and payer) are one statement after the credential's, read alone
// or as a page, whatever the page holds.
func TestBillingReadsAreOneStatementEach(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	s := f.sk.CreateSubscriber(testenv.Visa)
	f.sk.CreatePhase(s.Product.ID.String(), testenv.StaticPhase(0, 1000, 1))
	f.sk.CreatePhase(s.Product.ID.String(), testenv.StaticPhase(1, 1500, 2))
	r := f.sk.Post("/v1/subscriptions", s.Subscription().RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	sub := r.JSON()
	phases := mapsOf(f.sk.Get(subscriptionPhasesOf(id(sub))).JSON()["phases"])
	require.Len(t, phases, 2)
	require.Equal(t, phases[0], sub["current_phase"], "the phase in force, in the phase's own shape")
	p := newInvoicePayer(t, f.sk, "")
	inv := createInvoice(t, f.sk, p.body("request_payment", 2, nil))
	createInvoice(t, f.sk, p.body("request_payment", 3, nil))

	// credential, the object or the page
	for _, path := range []string{"/v1/subscriptions/" + id(sub), "/v1/subscriptions", "/v1/invoices/" + id(inv), "/v1/invoices"} {
		r := f.sk.Get(path)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		require.Equal(t, 2, r.Statements, path)
	}
}
