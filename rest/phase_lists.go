package rest

import (
	"context"
	"net/http"
	"reflect"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
)

// The phases of a product and those of a subscription are listed and bulk
// updated alike: both answer all the parent's phases under a meta that
// names the parent (and, after a bulk update, how many phases changed).
// body builds a family's {meta, phases} body.

// wholeList is the meta of a list answered whole, on one page: the
// members every list's meta has (the SDKs read has_more and page from it).
func wholeList(r *http.Request) models.ListMeta {
	return models.ListMeta{Page: 1, URL: r.URL.Path}
}

// phaseList answers GET .../{id}/phases with the parent's phases.
func phaseList[P, B any](list func(ctx context.Context, parentID string) ([]*P, error),
	body func(list models.ListMeta, parentID string, updated *int, phases []*P) B) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		id := chi.URLParam(r, "id")
		phases, err := list(r.Context(), id)
		respond(w, r, http.StatusOK, body(wholeList(r), id, nil, phases), err)
	}, wireShape{responses: ok[B](http.StatusOK)})
}

// phaseBulkUpdate answers PATCH .../{id}/phases/bulk_update with the
// parent's phases after the update and how many it changed.
func phaseBulkUpdate[P, In, B any](update func(ctx context.Context, parentID string, in *In) ([]*P, int, error),
	body func(list models.ListMeta, parentID string, updated *int, phases []*P) B) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		var in In
		if err := decode(r, &in); err != nil {
			WriteError(w, r, err)
			return
		}
		id := chi.URLParam(r, "id")
		phases, n, err := update(r.Context(), id, &in)
		respond(w, r, http.StatusOK, body(wholeList(r), id, &n, phases), err)
	}, wireShape{body: reflect.TypeFor[In](), responses: ok[B](http.StatusOK)})
}
