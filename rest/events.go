package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

func (h *handlers) listEvents(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r)
	typ := q.str("type")
	pp := q.page()
	if err := q.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	page, err := h.res.ListEvents(r.Context(), typ, pp)
	respondPage(w, r, page, err)
}

func (h *handlers) getEvent(w http.ResponseWriter, r *http.Request) {
	e, err := h.res.GetEvent(r.Context(), chi.URLParam(r, "id"))
	respond(w, r, http.StatusOK, e, err)
}
