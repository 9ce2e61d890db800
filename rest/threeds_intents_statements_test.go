package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// A 3-D Secure intent's create, poll, resend and completion run a fixed
// number of statements (credential included, BEGIN and COMMIT not).
func TestThreeDSIntentStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	p := newPayer(t, f.sk, "4000000000003220")
	f.sk.CreateTransfer(p.charging(1000))

	// credential, card lock, waiting intent, insert
	r := f.pk.Post("/v1/3ds/intents", map[string]any{"payment_method_id": id(p.card)})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.Equal(t, 4, r.Statements, "create")
	path := "/v1/3ds/intents/" + id(r.JSON())

	r = f.pk.Get(path)
	require.Equal(t, 2, r.Statements, "poll: credential, intent")

	// credential, intent lock, update
	r = f.pk.Post(path+"/resend", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, 3, r.Statements, "resend")

	// A busy card: credential, card lock, waiting intent.
	r = f.pk.Post("/v1/3ds/intents", map[string]any{"payment_method_id": id(p.card)})
	require.Equal(t, http.StatusNotFound, r.Status)
	require.Equal(t, 3, r.Statements, "refused create")

	// The answer resolves the waiting charge: credential, intent, card lock,
	// intent lock, intent update, waiting transfers, the block-list
	// screen, fee plan, the charge,
	// the capture journal (accounts, journal, entries), the transfer
	// update, events.
	// (The settlement job goes in through River's own driver on the same
	// transaction, which the count does not see.)
	r = f.sk.Post("/v1/test_helpers/"+path[len("/v1/"):]+"/complete", nil)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, 14, r.Statements, "complete")
}
