package rest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The SDK's phase members: amount is amount_cents under its name; the
// ones with no meaning on a phase are the spec's validation error.
func TestProductPhaseTakesTheSDKsMembers(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateProduct(testenv.Product())
	base := "/v1/products/" + id(p) + "/phases"

	r := f.sk.Post(base, map[string]any{"ordinal": 1, "pricing_type": "static", "amount": 700, "currency": "USD", "name": "Intro"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	phase := r.JSON()
	require.Equal(t, float64(700), phase["amount"])

	r = f.sk.Patch(base+"/"+id(phase), map[string]any{"amount": 900})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(900), r.JSON()["amount"])

	// Both names with one value are taken; two values are refused.
	r = f.sk.Patch(base+"/"+id(phase), map[string]any{"amount": 800, "amount_cents": 800})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	requireValidation(t, f.sk.Patch(base+"/"+id(phase), map[string]any{"amount": 1, "amount_cents": 2}), "amount")

	// The SDK's required create members without the spec's (ordinal,
	// pricing_type) and those with no meaning here: every problem at once.
	e := requireValidation(t, f.sk.Post(base, map[string]any{"amount": 500, "currency": "USD", "interval": "month",
		"interval_count": 1, "metadata": map[string]any{"k": "v"}}), "ordinal", "pricing_type", "interval", "interval_count", "metadata")
	requireProblem(t, e, "interval", "is not accepted: a phase lasts period_count periods of its subscription")
	requireValidation(t, f.sk.Patch(base+"/"+id(phase), map[string]any{"metadata": map[string]any{}}), "metadata")
	require.Equal(t, float64(800), f.sk.Get(base + "/" + id(phase)).JSON()["amount"])
}
