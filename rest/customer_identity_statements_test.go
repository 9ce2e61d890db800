package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Writes and reads of customer identity verifications, and the account
// write a card causes, run a fixed number of statements. (Counts exclude
// BEGIN and COMMIT and include the credential's look-up.)
func TestCustomerIdentityAndCardWritesRunAFixedNumberOfStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)

	// credential, insert, events
	r := f.sk.Post(civPath, map[string]any{"first_name": "Ada", "phone_number": "2001001695"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, 3, r.Statements, "create from fields")
	v := r.JSON()
	cu := f.sk.CreateCustomer(testenv.Customer())
	// credential, customer, insert, events
	r = f.sk.Post(civPath+"/"+id(cu), nil)
	require.Equal(t, 4, r.Statements, "create for a customer")

	// credential, verification
	require.Equal(t, 2, f.sk.Get(civPath+"/"+id(v)).Statements, "retrieve")

	// credential, lock, update, events
	r = uploadDocs(f.sk, id(v), testenv.IdentityDocuments()[0])
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, 4, r.Statements, "a document")
	// the same (its judgement's job is inserted by the job engine on the
	// transaction's connection, which the count does not see)
	r = uploadDocs(f.sk, id(v), testenv.IdentityDocuments()[1:]...)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, 4, r.Statements, "the documents that complete it")
	// credential, lock
	require.Equal(t, 2, f.sk.Post(civPath+"/"+id(v)+"/submit", nil).Statements, "a submit that changes nothing")

	// A card for an account: credential, the account's lock (before the
	// write's time), the account's status (may it take a card?), the card,
	// and the account write: the account with its lock, its capabilities,
	// the account row (its fact and status), the capabilities activated,
	// then the events of both.
	a := cardHolder(t, f.sk, "card_send")
	f.sk.CreateCard("", testenv.Visa) // the server secret is read once per process
	body := testenv.CardBody("", testenv.Visa)
	body["account"] = id(a)
	r = f.sk.Post("/v1/payment_methods", body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, 9, r.Statements, "the card that completes the account")
	// A second card changes nothing on the account: no write of it (the
	// card itself meets the requirement: no look for others either).
	r = f.sk.Post("/v1/payment_methods", body)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, 7, r.Statements, "a card that changes nothing on the account")
}
