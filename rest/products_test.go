package rest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
)

var productKeys = sorted("id", "object", "name", "description", "url", "shippable", "purchase_type", "recurring",
	"default_price", "active", "image", "metadata", "created", "updated", "livemode")

var phaseKeys = sorted("id", "object", "ordinal", "name", "pricing_type", "amount", "discount_percentage",
	"period_count", "phaseable_type", "phaseable_id", "started_at", "currency", "metadata", "created", "updated",
	"livemode", "product_id", "price", "interval", "interval_count")

func TestProductCRUD(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Post("/v1/products", merge(testenv.Product().RESTBody(), map[string]any{"billing_credits": 100,
		"metadata": map[string]any{"sku": "pro"}, "url": "https://example.com/pro"}))
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	p := r.JSON()
	require.Equal(t, productKeys, keys(p))
	require.Equal(t, "product", p["object"])
	require.Equal(t, "recurring", p["purchase_type"])
	require.Equal(t, map[string]any{"interval": "monthly", "interval_count": float64(1)}, p["recurring"])
	require.Equal(t, float64(2500), p["default_price"])
	require.Equal(t, true, p["active"])
	require.Equal(t, false, p["shippable"])
	require.Nil(t, p["image"])
	require.Equal(t, p, f.sk.Get("/v1/products/"+id(p)).JSON())

	one := f.sk.CreateProduct(testenv.ProductSpec{Name: "T-shirt", DefaultPrice: 1500, Shippable: true})
	require.Equal(t, models.PurchaseType("one_time"), one.PurchaseType, "one_time by default")
	require.Nil(t, one.Recurring)

	// Validation: every problem at once.
	requireValidation(t, f.sk.Post("/v1/products", map[string]any{"default_price": -1, "purchase_type": "recurring"}),
		"name", "default_price", "recurring_interval")
	requireValidation(t, f.sk.Post("/v1/products", map[string]any{"name": "x", "recurring_interval": "monthly"}), "recurring_interval")
	requireValidation(t, f.sk.Post("/v1/products", map[string]any{"name": "x", "purchase_type": "weekly"}), "purchase_type")

	// PATCH: every create field; switching to one_time drops the period.
	r = f.sk.Patch("/v1/products/"+id(p), map[string]any{"purchase_type": "one_time", "active": false, "description": ""})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	u := r.JSON()
	require.Nil(t, u["recurring"])
	require.Equal(t, false, u["active"])
	require.Nil(t, u["description"])
	r = f.sk.Patch("/v1/products/"+id(p), map[string]any{"purchase_type": "recurring", "recurring_interval": "every_3_months"})
	require.Equal(t, map[string]any{"interval": "every_3_months", "interval_count": float64(3)}, r.JSON()["recurring"])
	requireValidation(t, f.sk.Patch("/v1/products/"+id(one), map[string]any{"purchase_type": "recurring"}), "recurring_interval")

	evs := listEvents(t, f.sk, "")
	require.Equal(t, []string{"product.created", "product.updated", "product.updated"}, eventTypes(evs, id(p)))
	require.Equal(t, map[string]any{"purchase_type": "recurring", "active": true, "description": "Everything",
		"recurring": map[string]any{"interval": "monthly", "interval_count": float64(1)}}, listEvents(t, f.sk, "product.updated")[0].previous())

	// DELETE answers {id, object, deleted}; the product is gone.
	r = f.sk.Delete("/v1/products/" + id(one))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, map[string]any{"id": id(one), "object": "product", "deleted": true}, r.JSON())
	requireError(t, f.sk.Get("/v1/products/"+id(one)), http.StatusNotFound, "resource_missing", "id")
	require.Len(t, listEvents(t, f.sk, "product.deleted"), 1)

	// Credentials and tenancy.
	requireError(t, f.pk.Get("/v1/products/"+id(p)), http.StatusForbidden, "forbidden", "")
	requireError(t, f.live.Get("/v1/products/"+id(p)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Delete("/v1/products/"+id(p)), http.StatusNotFound, "resource_missing", "id")
}

func TestDeleteProductWithChargesIsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateProduct(testenv.Product())
	// Charges come with a later area; any row that bills the product refers
	// to it the same way, and that reference is what refuses the delete.
	f.exec(t, `CREATE TABLE test_charges (merchant_id uuid, livemode boolean, product_id uuid,
		FOREIGN KEY (merchant_id, livemode, product_id) REFERENCES products (merchant_id, livemode, id))`)
	f.exec(t, `INSERT INTO test_charges VALUES (?, false, ?)`, f.env.Merchant.ID, id(p))
	requireError(t, f.sk.Delete("/v1/products/"+id(p)), http.StatusUnprocessableEntity, "product_has_charges", "id")
	require.Equal(t, http.StatusOK, f.sk.Get("/v1/products/"+id(p)).Status, "nothing changed")
	require.Empty(t, listEvents(t, f.sk, "product.deleted"))
}

func TestSearchProducts(t *testing.T) {
	t.Parallel()
	f := setup(t)
	a := f.sk.CreateProduct(testenv.ProductSpec{Name: "Pro Plan", PurchaseType: "one_time"})
	b := f.sk.CreateProduct(testenv.ProductSpec{Name: "Hoodie", Shippable: true})
	c := f.sk.CreateProduct(testenv.ProductSpec{Name: "Basic plan"})
	f.sk.Patch("/v1/products/"+id(c), map[string]any{"active": false})

	search := func(q string) []string {
		r := f.sk.Get("/v1/products/search" + q)
		require.Equal(t, http.StatusOK, r.Status, string(r.Body))
		var body struct {
			Meta     map[string]any   `json:"meta"`
			Products []map[string]any `json:"products"`
			Data     []map[string]any `json:"data"`
		}
		r.Decode(&body)
		require.Equal(t, "/v1/products/search", body.Meta["url"])
		require.Equal(t, body.Products, body.Data, "the SDKs read the products from data")
		return ids(body.Products)
	}
	require.Equal(t, []string{id(c), id(a)}, search("?name=PLAN"))
	require.Equal(t, []string{id(a)}, search("?name=plan&active=true"))
	require.Equal(t, []string{id(b)}, search("?shippable=true"))
	require.Equal(t, []string{id(c), id(b), id(a)}, search(""))
	require.Equal(t, []string{id(c), id(b), id(a)}, ids(listOf(t, f.sk, "/v1/products")))
	requireError(t, f.sk.Get("/v1/products/search?active=maybe"), http.StatusBadRequest, "parameter_invalid", "active")
}

func TestProductPhases(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateProduct(testenv.Product())
	base := "/v1/products/" + id(p) + "/phases"

	r := f.sk.Post(base, map[string]any{"ordinal": 1, "pricing_type": "static", "amount_cents": 500, "period_count": 3, "name": "Intro"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	intro := r.JSON()
	require.Equal(t, phaseKeys, keys(intro))
	require.Equal(t, "subscription_phase", intro["object"])
	require.Equal(t, "Product", intro["phaseable_type"])
	require.Equal(t, id(p), intro["phaseable_id"])
	require.Equal(t, float64(500), intro["amount"])
	require.Nil(t, intro["discount_percentage"])
	require.Nil(t, intro["started_at"])

	r = f.sk.Post(base, map[string]any{"ordinal": 2, "pricing_type": "relative", "discount_percentage": "12.5"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	rest := r.JSON()
	require.Equal(t, "12.50", rest["discount_percentage"])
	require.Nil(t, rest["period_count"], "null period_count: indefinite")

	// Nothing after an indefinite phase; ordinals unique; pricing rules.
	requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 3, "pricing_type": "static", "amount_cents": 1}), "ordinal")
	requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 1, "pricing_type": "static", "amount_cents": 1, "period_count": 1}), "ordinal")
	requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 0, "pricing_type": "static", "discount_percentage": 101}),
		"amount_cents", "discount_percentage")
	requireValidation(t, f.sk.Post(base, map[string]any{"ordinal": 0, "pricing_type": "relative", "discount_percentage": "101"}),
		"discount_percentage")
	requireValidation(t, f.sk.Post(base, map[string]any{}), "ordinal", "pricing_type")

	// A phase before the indefinite one is fine; the list is in ordinal order.
	r = f.sk.Post(base, map[string]any{"ordinal": 0, "pricing_type": "static", "amount_cents": 0, "period_count": 1})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	trial := r.JSON()
	r = f.sk.Get(base)
	require.Equal(t, http.StatusOK, r.Status)
	list := r.JSON()
	require.Equal(t, map[string]any{"product_id": id(p), "page": float64(1), "url": base, "has_more": false,
		"prev": nil, "next": nil}, list["meta"])
	require.Equal(t, []string{id(trial), id(intro), id(rest)}, ids(mapsOf(list["phases"])))
	require.Equal(t, list["phases"], list["data"], "the SDKs read the phases from data")

	// PATCH one phase; period_count null makes it indefinite, which the
	// ordering rules then refuse for a phase that others follow.
	r = f.sk.Patch(base+"/"+id(intro), map[string]any{"name": "Intro offer", "amount_cents": 700})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, float64(700), r.JSON()["amount"])
	requireValidation(t, f.sk.Patch(base+"/"+id(intro), map[string]any{"period_count": nil}), "period_count")
	requireValidation(t, f.sk.Patch(base+"/"+id(intro), map[string]any{"discount_percentage": 5}), "discount_percentage")

	// bulk_update changes several and answers all.
	r = f.sk.Patch(base+"/bulk_update", map[string]any{"phases": []any{
		map[string]any{"id": id(trial), "period_count": 2},
		map[string]any{"id": id(rest), "discount_percentage": 20, "name": "Loyal"},
	}})
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	bulk := r.JSON()
	require.Equal(t, map[string]any{"product_id": id(p), "updated_count": float64(2), "page": float64(1),
		"url": base + "/bulk_update", "has_more": false, "prev": nil, "next": nil}, bulk["meta"])
	require.Equal(t, bulk["phases"], bulk["data"])
	phases := mapsOf(bulk["phases"])
	require.Len(t, phases, 3)
	require.Equal(t, float64(2), phases[0]["period_count"])
	require.Equal(t, "20.00", phases[2]["discount_percentage"])
	requireValidation(t, f.sk.Patch(base+"/bulk_update", map[string]any{"phases": []any{
		map[string]any{"id": id(trial), "period_count": 0}, map[string]any{"id": "nope"}}}), "phases.0.period_count", "phases.1.id")
	requireValidation(t, f.sk.Patch(base+"/bulk_update", map[string]any{"phases": []any{
		map[string]any{"id": id(trial), "period_count": nil}}}), "phases")

	// GET and DELETE one phase; other products' phases are 404.
	require.Equal(t, "Intro offer", f.sk.Get(base + "/" + id(intro)).JSON()["name"])
	other := f.sk.CreateProduct(testenv.Product())
	requireError(t, f.sk.Get("/v1/products/"+id(other)+"/phases/"+id(intro)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Delete("/v1/products/"+id(other)+"/phases/"+id(intro)), http.StatusNotFound,
		"resource_missing", "id")
	r = f.sk.Delete(base + "/" + id(intro))
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	removed := r.JSON()
	require.Equal(t, sorted(append([]string{"deleted"}, phaseKeys...)...), keys(removed), "the phase, and deleted")
	require.Equal(t, id(intro), id(removed))
	require.Equal(t, true, removed["deleted"])
	require.Equal(t, "Intro offer", removed["name"])
	require.Len(t, mapsOf(f.sk.Get(base).JSON()["phases"]), 2)
	requireError(t, f.sk.Delete(base+"/"+id(intro)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Get(base), http.StatusNotFound, "resource_missing", "id")

	evs := listEvents(t, f.sk, "")
	require.Equal(t, 3, countType(evs, "product.phase.created"))
	require.Equal(t, 3, countType(evs, "product.phase.updated"))
	require.Equal(t, 1, countType(evs, "product.phase.deleted"))
}

func TestConcurrentPhasesTakeDistinctOrdinals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.sk.CreateProduct(testenv.Product())
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Every request wants ordinal 1, and all are indefinite: exactly
			// one may win.
			statuses[i] = f.sk.Post("/v1/products/"+id(p)+"/phases",
				map[string]any{"ordinal": 1 + i%2, "pricing_type": "static", "amount_cents": 100}).Status
		}()
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		if s == http.StatusCreated {
			created++
		} else {
			require.Equal(t, http.StatusUnprocessableEntity, s)
		}
	}
	require.Equal(t, 1, created, "one indefinite phase, nothing after it")
	require.Len(t, mapsOf(f.sk.Get("/v1/products/" + id(p) + "/phases").JSON()["phases"]), 1)
}

func mapsOf(v any) []map[string]any {
	out := []map[string]any{}
	for _, e := range v.([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}
