package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The statements of the area's writes are a constant of what they change,
// not of how many payment methods, phases or codes are involved. (Counts
// exclude BEGIN and COMMIT and include the credential's look-up.)
func TestCatalogWritesRunAFixedNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)

	// credential, insert, events
	r := f.sk.Post("/v1/customers", testenv.Customer().RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, 3, r.Statements, "customer create")
	c := r.JSON()

	// The server secret (the fingerprints' key) is read once per process.
	f.sk.CreateCard("", testenv.Visa)
	// credential, customer lock, card insert, events
	r = f.sk.Post("/v1/payment_methods", testenv.CardBody(id(c), testenv.Visa))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, 4, r.Statements, "card create attached to a customer")
	f.sk.CreateCard(id(c), testenv.VisaDebit)
	f.sk.CreateCard(id(c), testenv.Visa)

	// credential, lock, payment methods, customer update, methods update
	// (one for all three), events (one for all four)
	r = f.sk.Post("/v1/customers/"+id(c)+"/block", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, 6, r.Statements, "block with three payment methods")

	// credential, lock, payment methods
	r = f.sk.Post("/v1/customers/"+id(c)+"/block", nil)
	require.Equal(t, 3, r.Statements, "a block that changes nothing writes nothing")

	// One statement for the customer with all its payment methods.
	r = f.sk.Get("/v1/customers/" + id(c))
	require.Len(t, r.JSON()["payment_methods"], 3)
	require.Equal(t, 2, r.Statements, "customer read: credential, customer with its methods")
	r = f.sk.Get("/v1/customers?per_page=100")
	require.Equal(t, 2, r.Statements, "customer list")

	// credential, product lock, phases, phases update (one for both), events
	p := f.sk.CreateProduct(testenv.Product())
	base := "/v1/products/" + id(p) + "/phases"
	a := f.sk.CreatePhase(id(p), testenv.StaticPhase(1, 1, 1))
	b := f.sk.CreatePhase(id(p), testenv.StaticPhase(2, 1, 0))
	r = f.sk.Patch(base+"/bulk_update", map[string]any{"phases": []any{
		map[string]any{"id": id(a), "amount_cents": 2}, map[string]any{"id": id(b), "amount_cents": 3}}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, 5, r.Statements, "bulk update of two phases")
}
