package rest_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// POST /v1/payment_methods/{id}/block and /unblock (the real service's
// SDK calls them; the spec's payment method statuses include blocked).
func TestBlockAndUnblockAPaymentMethod(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	pm := f.sk.CreateCard(id(c), testenv.Visa)
	path := "/v1/payment_methods/" + id(pm)

	r := f.sk.Post(path+"/block", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "blocked", r.JSON()["status"])
	require.Equal(t, "active", f.sk.Get("/v1/customers/" + id(c)).JSON()["status"], "the owner is untouched")

	// Blocking again changes nothing and announces nothing.
	r = f.sk.Post(path+"/block", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "blocked", r.JSON()["status"])

	r = f.sk.Post(path+"/unblock", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "active", r.JSON()["status"])
	r = f.sk.Post(path+"/unblock", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "active", r.JSON()["status"])

	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"payment_method.created", "payment_method.blocked", "payment_method.unblocked"}, eventTypes(evs, id(pm)))
	blocked := listEvents(t, f.sk, "payment_method.blocked")
	require.Equal(t, "active", blocked[0].previous()["status"])
}

// A customer's block holds its payment methods: one of them cannot be
// unblocked alone until the customer is.
func TestUnblockRefusedWhileTheCustomerIsBlocked(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.sk.CreateCustomer(testenv.Customer())
	pm := f.sk.CreateCard(id(c), testenv.Visa)
	path := "/v1/payment_methods/" + id(pm)
	f.sk.BlockCustomer(id(c))

	requireError(t, f.sk.Post(path+"/unblock", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	require.Equal(t, "blocked", f.sk.Get(path).JSON()["status"])

	require.Equal(t, http.StatusOK, f.sk.Post("/v1/customers/"+id(c)+"/unblock", nil).Status)
	require.Equal(t, "active", f.sk.Get(path).JSON()["status"])

	// The customer's unblock lifts every blocked method it holds (spec
	// doc 2 §3: payment activity may resume), one blocked alone before too.
	require.Equal(t, http.StatusOK, f.sk.Post(path+"/block", nil).Status)
	f.sk.BlockCustomer(id(c))
	require.Equal(t, http.StatusOK, f.sk.Post("/v1/customers/"+id(c)+"/unblock", nil).Status)
	require.Equal(t, "active", f.sk.Get(path).JSON()["status"])
}

func TestBlockRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	pm := f.sk.CreateCard("", testenv.Visa)
	path := "/v1/payment_methods/" + id(pm)

	requireError(t, f.pk.Post(path+"/block", nil), http.StatusForbidden, "forbidden", "")
	requireError(t, f.sk.Post("/v1/payment_methods/"+uuid.NewString()+"/block", nil), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Post(path+"/unblock", nil), http.StatusNotFound, "resource_missing", "id")

	require.Equal(t, http.StatusOK, f.sk.Post(path+"/detach", nil).Status)
	requireError(t, f.sk.Post(path+"/block", nil), http.StatusUnprocessableEntity, "invalid_state", "")
	requireError(t, f.sk.Post(path+"/unblock", nil), http.StatusUnprocessableEntity, "invalid_state", "")
}

// An account's blocked card no longer meets its card requirement for a
// capability requested afterwards; unblocked, it does again.
func TestBlockingAnAccountCardMovesTheRequirement(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := cardHolder(t, f.sk, "card_send")
	card := f.sk.CreateAccountCard(id(a), testenv.Visa)
	require.Equal(t, http.StatusOK, f.sk.Post("/v1/payment_methods/"+id(card)+"/block", nil).Status)
	got := requestCapabilities(t, f.sk, id(a), "card_receive")
	require.Equal(t, []any{"payment_method.card"}, capByName(got["capabilities"], "card_receive")["currently_due"])

	require.Equal(t, http.StatusOK, f.sk.Post("/v1/payment_methods/"+id(card)+"/unblock", nil).Status)
	got = f.sk.Get("/v1/accounts/" + id(a)).JSON()
	require.Empty(t, capByName(got["capabilities"], "card_receive")["currently_due"])
}
