package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// TestTrailingSlashPaths: every path answers with or without a trailing
// slash (API-DECISIONS §9), reads and writes alike, and a list's meta.url
// is the path without it. The PHP SDK sends the subscription phase list
// and create with one.
func TestTrailingSlashPaths(t *testing.T) {
	t.Parallel()
	f := setup(t)
	coupon := f.sk.CreateCoupon(testenv.Coupon())

	r := f.sk.Get("/v1/coupons/")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "/v1/coupons", r.JSON()["meta"].(map[string]any)["url"])
	require.Len(t, r.JSON()["data"], 1)

	r = f.sk.Get("/v1/coupons/" + id(coupon) + "/")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, id(coupon), id(r.JSON()))

	r = f.sk.Post("/v1/customers/", map[string]any{"name": "Slash", "email": "slash@example.com"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))

	// Two slashes are not one: the path stays unknown, in the envelope.
	r = f.sk.Get("/v1/coupons//")
	require.Equal(t, http.StatusNotFound, r.Status, string(r.Body))
	require.Equal(t, "route_not_found", r.JSON()["code"])
}
