package rest_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// Concurrent ingests are committed together, and what each is answered
// does not depend on how they were grouped: in one burst, new references
// sent twice answer one event each, a payer that is not the merchant's is
// that request's 422 alone, and events into a billed window are refused,
// while the rest commit.
func TestMeteringEventsCommittedTogetherAnswerAsAlone(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.sk.StandardPricing()
	cu := f.sk.CreateCustomer(testenv.Customer())
	f.sk.CreateCard(cu.ID.String(), testenv.Visa)
	product := testenv.Product()
	product.DefaultPrice = 1000
	f.sk.PriceMeter("calls", f.sk.CreateProduct(product).ID.String(), "")
	// The test clock of the environment is 2026-01-15T12:00:00Z: bill the
	// hour before it.
	f.sk.CreateMeteringEvent(testenv.MeteringEvent("calls", "billed", cu.ID.String()).At("2026-01-15T11:30:00Z"))
	r := f.sk.Post("/v1/billing/billing_invoice", testenv.UsageInvoice(cu.ID.String(), "2026-01-15T11:00:00Z", "2026-01-15T12:00:00Z").RESTBody())
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))

	type request struct {
		body map[string]any
		kind string
	}
	var reqs []request
	for i := range 32 {
		body := testenv.MeteringEvent("calls", fmt.Sprintf("g-%d", i), cu.ID.String()).RESTBody()
		reqs = append(reqs, request{body, "new"}, request{body, "new"})
	}
	for i := range 16 {
		reqs = append(reqs, request{testenv.MeteringEvent("calls", fmt.Sprintf("x-%d", i), "not-a-customer").RESTBody(), "payer"})
		reqs = append(reqs, request{testenv.MeteringEvent("calls", fmt.Sprintf("late-%d", i), cu.ID.String()).
			At("2026-01-15T11:45:00Z").RESTBody(), "late"})
	}
	got := make([]*testenv.Response, len(reqs))
	var wg sync.WaitGroup
	for i, rq := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = f.sk.Post(meteringEventsPath, rq.body)
		}()
	}
	wg.Wait()
	byRef := map[string]string{}
	for i, rq := range reqs {
		r := got[i]
		switch rq.kind {
		case "new":
			require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
			ev := r.JSON()
			ref := ev["reference"].(string)
			require.Equal(t, rq.body["reference"], ref)
			if prev, ok := byRef[ref]; ok {
				require.Equal(t, prev, id(ev), "a reference sent twice answers one event")
			}
			byRef[ref] = id(ev)
		case "payer":
			requireValidation(t, r, "customer")
		case "late":
			requireError(t, r, http.StatusUnprocessableEntity, "usage_period_invoiced", "timestamp")
		}
	}
	require.Len(t, byRef, 32)
	var n, late int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM metering_events WHERE reference LIKE 'g-%'").Scan(t.Context(), &n))
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM metering_events WHERE reference LIKE 'late-%'").Scan(t.Context(), &late))
	require.Equal(t, 32, n)
	require.Zero(t, late)
}
