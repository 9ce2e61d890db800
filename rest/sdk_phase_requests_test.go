package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// The SDK's phase members: amount is amount_cents under its name, and
// metadata is kept as on other resources; the ones with no meaning on a
// phase are the spec's validation error.
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
		"interval_count": 1, "metadata": map[string]any{"k": "v"}}), "ordinal", "pricing_type", "interval", "interval_count")
	requireProblem(t, e, "interval", "is not accepted: a phase lasts period_count periods of its subscription")
	require.Equal(t, float64(800), f.sk.Get(base + "/" + id(phase)).JSON()["amount"])
}

// A product's phase keeps metadata (the SDK's create and update send it),
// merged on update as everywhere; bad metadata changes nothing.
func TestProductPhaseKeepsMetadata(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateProduct(testenv.Product())
	base := "/v1/products/" + id(p) + "/phases"

	r := f.sk.Post(base, map[string]any{"ordinal": 1, "pricing_type": "static", "amount": 700, "currency": "USD",
		"metadata": map[string]any{"tier": "intro", "k": "v"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	phase := r.JSON()
	require.Equal(t, map[string]any{"tier": "intro", "k": "v"}, phase["metadata"])

	r = f.sk.Patch(base+"/"+id(phase), map[string]any{"metadata": map[string]any{"k": nil, "more": "x"}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"tier": "intro", "more": "x"}, r.JSON()["metadata"])
	listed := f.sk.Get(base).JSON()["data"].([]any)[0].(map[string]any)
	require.Equal(t, map[string]any{"tier": "intro", "more": "x"}, listed["metadata"])

	// Hostile metadata: wrong types, long keys and values, too many keys
	// after the merge, in a bulk update too. Nothing changes.
	requireError(t, f.sk.Patch(base+"/"+id(phase), map[string]any{"metadata": "tier"}), http.StatusBadRequest,
		"parameter_invalid", "metadata")
	long := strings.Repeat("k", 41)
	requireValidation(t, f.sk.Patch(base+"/"+id(phase), map[string]any{"metadata": map[string]any{
		"k": strings.Repeat("v", 101)}}), "metadata.k")
	requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 2, "pricing_type": "static", "amount": 1,
		"metadata": map[string]any{long: "v"}}), "metadata."+long)
	many := map[string]any{}
	for i := range 19 {
		many[string(rune('a'+i))] = "v"
	}
	requireValidation(t, f.sk.Patch(base+"/"+id(phase), map[string]any{"metadata": many}), "metadata")
	requireValidation(t, f.sk.Patch(base+"/bulk_update", map[string]any{"phases": []any{
		map[string]any{"id": id(phase), "metadata": many}}}), "phases.0.metadata")
	require.Equal(t, map[string]any{"tier": "intro", "more": "x"}, f.sk.Get(base + "/" + id(phase)).JSON()["metadata"])

	// A subscription's phases keep none: refused, naming the member.
	sub := insertSubscriptionRow(t, f, f.sk, f.env.Merchant, uuid.Nil)
	requireValidation(t, f.sk.Post(subscriptionPhasesOf(sub), map[string]any{"ordinal": 1, "pricing_type": "static",
		"amount_cents": 100, "metadata": map[string]any{"k": "v"}}), "metadata")
}

// The Ruby SDK reads a product phase's price (its amount) and interval
// (the product's billing period, which each of the phase's periods lasts)
// and sends price for amount_cents; a price contradicting amount_cents, or
// of the wrong type, is refused and changes nothing.
func TestProductPhaseAnswersPriceAndInterval(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateProduct(testenv.RecurringProduct(2000, "monthly"))
	base := "/v1/products/" + id(p) + "/phases"

	r := f.sk.Post(base, map[string]any{"ordinal": 1, "pricing_type": "static", "price": 700, "currency": "USD", "period_count": 3})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	phase := r.JSON()
	require.Equal(t, float64(700), phase["amount"])
	require.Equal(t, float64(700), phase["price"])
	require.Equal(t, "monthly", phase["interval"])
	require.Equal(t, float64(1), phase["interval_count"])
	require.Equal(t, phase, f.sk.Get(base+"/"+id(phase)).JSON(), "the create answers what a read reads")
	listed := f.sk.Get(base).JSON()["phases"].([]any)[0].(map[string]any)
	require.Equal(t, "monthly", listed["interval"])
	require.Equal(t, float64(700), listed["price"])

	r = f.sk.Patch(base+"/"+id(phase), map[string]any{"price": 900})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(900), r.JSON()["amount"])
	require.Equal(t, float64(900), r.JSON()["price"])
	require.Equal(t, "monthly", r.JSON()["interval"])

	requireValidation(t, f.sk.Patch(base+"/"+id(phase), map[string]any{"price": 1, "amount_cents": 2}), "price")
	requireValidation(t, f.sk.Patch(base+"/"+id(phase), map[string]any{"price": 1, "amount": 2}), "price")
	requireValidation(t, f.sk.Patch(base+"/"+id(phase), map[string]any{"price": 100_000_000_000}), "amount_cents")
	requireValidation(t, f.sk.Patch(base+"/"+id(phase), map[string]any{"price": -5}), "amount_cents")
	bad := f.sk.Patch(base+"/"+id(phase), map[string]any{"price": "900"})
	require.Equal(t, http.StatusBadRequest, bad.Status, string(bad.Body))
	bad = f.sk.Patch(base+"/"+id(phase), map[string]any{"price": strings.Repeat("9", 400)})
	require.Equal(t, http.StatusBadRequest, bad.Status, string(bad.Body))
	require.Equal(t, float64(900), f.sk.Get(base + "/" + id(phase)).JSON()["price"], "refused requests change nothing")

	// A relative phase's price is null, as its amount is; a product that
	// is not recurring gives its phases no interval: left out, not null.
	rel := f.sk.Post(base, map[string]any{"ordinal": 2, "pricing_type": "relative", "discount_percentage": 10, "currency": "USD"})
	require.Equal(t, http.StatusCreated, rel.Status, string(rel.Body))
	require.Nil(t, rel.JSON()["price"])
	require.Contains(t, rel.JSON(), "price")
	spec := testenv.Product()
	spec.PurchaseType, spec.RecurringInterval = "one_time", ""
	oneTime := f.sk.CreateProduct(spec)
	r = f.sk.Post("/v1/products/"+id(oneTime)+"/phases", map[string]any{"ordinal": 1, "pricing_type": "static", "price": 100, "currency": "USD"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	require.NotContains(t, r.JSON(), "interval")
	require.NotContains(t, r.JSON(), "interval_count")
	require.NotContains(t, f.sk.Get("/v1/products/"+id(oneTime)+"/phases/"+id(r.JSON())).JSON(), "interval")
}
