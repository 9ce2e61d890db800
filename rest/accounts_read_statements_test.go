package rest_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// A read of accounts is the credential's statements and one more: each
// account with its capabilities in one statement, for one account, its
// capabilities, a page of 100 and a search alike.
func TestAccountReadsRunOneStatementAfterTheCredential(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc", "card_send"))
	for range 3 {
		f.sk.CreateAccount(testenv.Individual().WithCapabilities("kyc_prefill", "card_receive"))
	}
	f.sk.CreateAccount(testenv.Individual())
	path := "/v1/accounts/" + id(a)

	// An id that cannot be an account answers 404 before the read queries:
	// what it costs is the credential's cost (asked twice, so that a
	// credential cache, if any, is warm).
	credential := func(c *testenv.Client) int {
		c.Get("/v1/accounts/not-an-id")
		r := c.Get("/v1/accounts/not-an-id")
		require.Equal(t, http.StatusNotFound, r.Status)
		return r.Statements
	}
	for _, tc := range []struct {
		name string
		c    *testenv.Client
		path string
	}{
		{"GET by id", f.sk, path},
		{"GET by id, publishable key", f.pk, path},
		{"capabilities", f.sk, path + "/capabilities"},
		{"one capability", f.sk, path + "/capabilities/kyc"},
		{"list", f.sk, "/v1/accounts"},
		{"list of 100", f.sk, "/v1/accounts?per_page=100"},
		{"search", f.sk, "/v1/accounts/search?name=ada"},
	} {
		want := credential(tc.c) + 1
		r := tc.c.Get(tc.path)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", tc.name, r.Body)
		require.Equal(t, want, r.Statements, tc.name)
	}
	want := credential(f.sk) + 1
	r := f.sk.Get("/v1/accounts/" + uuid.NewString())
	require.Equal(t, http.StatusNotFound, r.Status)
	require.Equal(t, want, r.Statements, "an unknown account")
}
