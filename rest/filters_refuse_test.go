package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

// A filter value that no object can hold is refused, as GraphQL refuses
// it: 422 validation_errors naming the parameter, with the values it
// takes, before any statement; a value of the closed set is a filter
// (matching nothing is then an empty page). Page sizes out of range are
// refused too; per_page above 100 is clamped (spec doc 1 §8).
func TestListFiltersRefuseWhatCannotMatch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, path := range []string{
		"/v1/transfers?status=bogus",
		"/v1/charge_intents?status=done",
		"/v1/coupons?discount_type=free",
		"/v1/coupons?applicable_to=everything",
		"/v1/payouts?status=sent",
		"/v1/accounts?type=robot",
		"/v1/payout_funding/entries?source=bank",
	} {
		r := f.sk.Get(path)
		require.LessOrEqual(t, r.Statements, 1, "%s is refused before the list runs (the one statement is the credential's)", path)
		errs := requireValidation(t, r, paramOf(path))
		require.Contains(t, errs[paramOf(path)].([]any)[0], "must be one of: ", path)
	}
	// The event catalogue is closed too: a type no event can have is
	// refused, a declared type that no event has yet is an empty page.
	for _, path := range []string{"/v1/events?type=transfer.exploded", "/v1/events?type=TRANSFER_CREATED", "/v1/events?type="} {
		r := f.sk.Get(path)
		require.LessOrEqual(t, r.Statements, 1, "%s is refused before the list runs", path)
		errs := requireValidation(t, r, "type")
		require.Equal(t, []any{webhooks.ProblemEventType}, errs["type"], path)
	}
	r := f.sk.Get("/v1/events?type=payout.failed")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Empty(t, r.JSON()["data"])
	for _, path := range []string{"/v1/transfers?status=disputed", "/v1/transfers?status=requires_payment_method",
		"/v1/charge_intents?status=requires_confirmation", "/v1/coupons?status=archived", "/v1/payouts?status=failed",
		"/v1/payout_funding/entries?source=schedule"} {
		r := f.sk.Get(path)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", path, r.Body)
		require.Empty(t, r.JSON()["data"], path)
	}
	for _, path := range []string{"/v1/transfers?per_page=0", "/v1/transfers?per_page=-1", "/v1/transfers?page=0"} {
		r := f.sk.Get(path)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", path, r.Body)
		require.Equal(t, "parameter_invalid", r.JSON()["code"], path)
	}
	r = f.sk.Get("/v1/transfers?per_page=500")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, http.StatusOK, f.sk.Get("/v1/transfers?page=1000").Status, "a page past the end is empty")
}

// paramOf is the one query parameter of path.
func paramOf(path string) string {
	_, q, _ := strings.Cut(path, "?")
	name, _, _ := strings.Cut(q, "=")
	return name
}
