package rest

import (
	"net/http"
	"reflect"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/funding"
)

// payoutRoutes mounts /v1/payouts, /v1/payout_funding and
// /v1/merchant_balance (spec doc 2 §4.7; docs/funding.md).
func payoutRoutes(r routes, svc *funding.Service) {
	r.Post("/v1/payouts", create(svc.Payouts.Create))
	r.Get("/v1/payouts", list(svc.Payouts.List))
	r.Get("/v1/payouts/{id}", get(svc.Payouts.Get))
	r.Get("/v1/payout_funding/schedules", list(svc.Schedules.List))
	r.Post("/v1/payout_funding/schedules", create(svc.Schedules.Create))
	r.Get("/v1/payout_funding/schedules/{id}", get(svc.Schedules.Get))
	r.Patch("/v1/payout_funding/schedules/{id}", update(svc.Schedules.Update))
	r.Post("/v1/payout_funding/top_ups", topUp(svc.Entries))
	r.Get("/v1/payout_funding/entries", list(svc.Entries.List))
	r.Get("/v1/payout_funding/entries/{id}", get(svc.Entries.Get))
	r.Get("/v1/merchant_balance", read(svc.MerchantBalance))
}

// topUp answers 201 with the new entry, or 200 with the entry an earlier
// top-up of the same body idempotency_key created.
func topUp(entries *funding.Entries) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		var in models.CreateTopUpInput
		if err := decode(r, &in); err != nil {
			WriteError(w, r, err)
			return
		}
		t, err := entries.TopUp(r.Context(), &in)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		status := http.StatusOK
		if t.Created {
			status = http.StatusCreated
		}
		respond(w, r, status, t.Entry, nil)
	}, wireShape{body: reflect.TypeFor[models.CreateTopUpInput](), responses: []answer{
		{http.StatusCreated, reflect.TypeFor[*models.FundingEntry]()}, {http.StatusOK, reflect.TypeFor[*models.FundingEntry]()}}})
}
