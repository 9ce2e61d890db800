package rest_test

import (
	"log/slog"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// A card number sent where an id belongs (a client that put the number in
// the path) is neither written to the request log nor echoed in the error,
// on REST and GraphQL alike: both show only "****" and its last four
// digits.
func TestCardNumbersInPathsAreMaskedInLogsAndErrors(t *testing.T) {
	t.Parallel()
	logs := &syncBuffer{}
	f := setup(t, testenv.WithLogger(slog.New(slog.NewJSONHandler(logs, nil))))
	const number = "4242424242424242"

	r := f.sk.Get("/v1/payment_methods/" + number)
	e := requireError(t, r, http.StatusNotFound, "resource_missing", "id")
	require.NotContains(t, string(r.Body), number)
	require.Contains(t, e["message"], "****4242")

	for _, path := range []string{
		"/v1/payment_methods/" + url.PathEscape("4242 4242 4242 4242") + "/attach",
		"/v1/customers/4242-4242-4242-4242",
		"/v1/" + number,
	} {
		r := f.sk.Post(path, map[string]any{"customer": number})
		require.NotContains(t, string(r.Body), "4242 4242 4242 4242", path)
		require.NotContains(t, string(r.Body), "4242-4242-4242-4242", path)
		require.NotContains(t, string(r.Body), number, path)
	}

	gql := f.sk.Do(http.MethodPost, "/graphql", map[string]any{
		"query": `{ paymentMethod(id: "` + number + `") { id } }`}, nil)
	require.Equal(t, http.StatusOK, gql.Status, string(gql.Body))
	require.Contains(t, string(gql.Body), "resource_missing")
	require.NotContains(t, string(gql.Body), number)

	require.Contains(t, logs.String(), `"path":"/v1/payment_methods/****4242"`)
	require.NotContains(t, logs.String(), number)
	require.NotContains(t, logs.String(), "4242 4242 4242 4242")
	require.NotContains(t, logs.String(), "4242-4242-4242-4242")
}
