package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
)

func (h *handlers) createAccount(w http.ResponseWriter, r *http.Request) {
	var in models.CreateAccountInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	a, err := h.res.CreateAccount(r.Context(), &in)
	respond(w, r, http.StatusCreated, a, err)
}

func (h *handlers) listAccounts(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	f := models.AccountListFilter{Status: q.str("status"), Type: q.str("type"), ExternalID: q.str("external_id"),
		IncludeDisabled: q.boolean("include_disabled")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.res.ListAccounts(r.Context(), f, pp)
	respondPage(w, r, page, err)
}

func (h *handlers) searchAccounts(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	s := models.AccountSearch{Name: q.str("name"), Email: q.str("email"), ExternalID: q.str("external_id"),
		Status: q.str("status"), Type: q.str("type")}
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.res.SearchAccounts(r.Context(), s, pp)
	respondPage(w, r, page, err)
}

func (h *handlers) getAccount(w http.ResponseWriter, r *http.Request) {
	a, err := h.res.GetAccount(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, a, err)
}

func (h *handlers) updateAccount(w http.ResponseWriter, r *http.Request) {
	var in models.UpdateAccountInput
	if err := decode(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	a, err := h.res.UpdateAccount(r.Context(), chi.URLParam(r, "id"), &in)
	respond(w, r, http.StatusOK, a, err)
}

func (h *handlers) disableAccount(w http.ResponseWriter, r *http.Request) {
	a, err := h.res.DisableAccount(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, a, err)
}

func (h *handlers) restrictAccount(w http.ResponseWriter, r *http.Request) {
	a, err := h.res.RestrictAccount(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, a, err)
}

func (h *handlers) unrestrictAccount(w http.ResponseWriter, r *http.Request) {
	a, err := h.res.UnrestrictAccount(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, a, err)
}
