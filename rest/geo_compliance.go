package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/accounts"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// geoComplianceRoutes mounts the account's geo compliance and
// /v1/geofences (spec doc 1 §4.8).
func geoComplianceRoutes(r chi.Router, svc *accounts.Geo) {
	r.Get("/v1/accounts/{id}/geo_compliance", func(w http.ResponseWriter, r *http.Request) {
		g, err := svc.Evaluate(r.Context(), chi.URLParam(r, "id"))
		respond(w, r, http.StatusOK, g, err)
	})
	r.Get("/v1/geofences", func(w http.ResponseWriter, r *http.Request) {
		q := newQuery(r)
		pp := q.page()
		if err := q.err(); err != nil {
			WriteError(w, r, err)
			return
		}
		page, err := svc.Geofences(r.Context(), op.ListParams{PageParams: pp})
		respondPage(w, r, page, err)
	})
}
