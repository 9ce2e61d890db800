package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/accounts"
)

// bankAccountRoutes mounts /v1/bank_accounts (spec doc 1 §4.9) and the
// account's link token.
func bankAccountRoutes(r chi.Router, svc *accounts.BankAccounts) {
	r.Post("/v1/bank_accounts", func(w http.ResponseWriter, r *http.Request) {
		var in models.CreateBankAccountInput
		if err := decode(r, &in); err != nil {
			WriteError(w, r, err)
			return
		}
		ba, err := svc.Create(r.Context(), &in)
		status := http.StatusCreated
		if err == nil && ba.Existing {
			status = http.StatusOK
		}
		respond(w, r, status, ba, err)
	})
	r.Get("/v1/bank_accounts/{id}", func(w http.ResponseWriter, r *http.Request) {
		ba, err := svc.Get(r.Context(), chi.URLParam(r, "id"))
		respond(w, r, http.StatusOK, ba, err)
	})
	r.Get("/v1/accounts/{id}/plaid_link_token", func(w http.ResponseWriter, r *http.Request) {
		t, err := svc.LinkToken(r.Context(), chi.URLParam(r, "id"))
		respond(w, r, http.StatusOK, t, err)
	})
}
