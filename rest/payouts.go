package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/funding"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// payoutRoutes mounts /v1/payouts, /v1/payout_funding and
// /v1/merchant_balance (spec doc 2 §4.7; docs/funding.md).
func payoutRoutes(r chi.Router, svc *funding.Service) {
	h := payoutHandlers{svc}
	r.Post("/v1/payouts", create(h.svc.CreatePayout))
	r.Get("/v1/payouts", h.list)
	r.Get("/v1/payouts/{id}", get(h.svc.GetPayout))
	r.Get("/v1/payout_funding/schedules", h.listSchedules)
	r.Post("/v1/payout_funding/schedules", create(h.svc.CreateSchedule))
	r.Get("/v1/payout_funding/schedules/{id}", get(h.svc.GetSchedule))
	r.Patch("/v1/payout_funding/schedules/{id}", update(h.svc.UpdateSchedule))
	r.Post("/v1/payout_funding/top_ups", h.topUp)
	r.Get("/v1/payout_funding/entries", h.listEntries)
	r.Get("/v1/payout_funding/entries/{id}", get(h.svc.GetEntry))
	r.Get("/v1/merchant_balance", h.balance)
}

type payoutHandlers struct{ svc *funding.Service }

func (h payoutHandlers) list(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := funding.PayoutFilter{AccountID: q.str("account_id"), Status: q.str("status")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListPayouts(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h payoutHandlers) listSchedules(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListSchedules(r.Context(), op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

// topUp answers 201 with the new entry, or 200 with the entry an earlier
// top-up of the same body idempotency_key created.
func (h payoutHandlers) topUp(w http.ResponseWriter, r *http.Request) {
	var in models.CreateTopUpInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	t, err := h.svc.CreateTopUp(r.Context(), &in)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	status := http.StatusOK
	if t.Created {
		status = http.StatusCreated
	}
	respond(w, r, status, t.Entry, nil)
}

func (h payoutHandlers) listEntries(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := funding.EntryFilter{ScheduleID: q.str("schedule"), Source: q.str("source")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.svc.ListEntries(r.Context(), f, op.ListParams{PageParams: pp})
	respondPage(w, r, page, err)
}

func (h payoutHandlers) balance(w http.ResponseWriter, r *http.Request) {
	b, err := h.svc.MerchantBalance(r.Context())
	respond(w, r, http.StatusOK, b, err)
}
