package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/resolvers/op"
)

// getOf serves GET (or a bodiless POST action, or a DELETE answering what
// it removed) on …/{id}/…/{param}: the object param names under the
// parent {id}.
func getOf[T any](param string, fn func(ctx context.Context, parent, id string) (T, error)) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		v, err := fn(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, param))
		respond(w, r, http.StatusOK, v, err)
	}, wireShape{responses: ok[T](http.StatusOK)})
}

// createIn serves POST …/{id}/…: 201 with the object created under the
// parent {id}.
func createIn[In, T any](fn func(ctx context.Context, parent string, in *In) (T, error)) endpoint {
	return withBody(func(r *http.Request, in *In) (int, T, error) {
		v, err := fn(r.Context(), chi.URLParam(r, "id"), in)
		return http.StatusCreated, v, err
	}).answering(http.StatusCreated)
}

// updateOf serves PATCH (or a POST action taking a body) on
// …/{id}/…/{param}: 200 with the object changed.
func updateOf[In, T any](param string, fn func(ctx context.Context, parent, id string, in *In) (T, error)) endpoint {
	return withBody(func(r *http.Request, in *In) (int, T, error) {
		v, err := fn(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, param), in)
		return http.StatusOK, v, err
	})
}

// deleteOf serves DELETE …/{id}/…/{param}: 204 once the object is gone.
func deleteOf(param string, fn func(ctx context.Context, parent, id string) error) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		if err := fn(r.Context(), chi.URLParam(r, "id"), chi.URLParam(r, param)); err != nil {
			WriteError(w, r, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}, wireShape{responses: []answer{{status: http.StatusNoContent}}})
}

// listIn serves a paged list under the parent {id}: the filter and page
// from the query string, then the {meta, data} envelope.
func listIn[F, T any](fn func(ctx context.Context, parent string, f F, lp op.ListParams) (op.Page[T], error)) endpoint {
	return listInAs("data", fn)
}

// listInAs is listIn with the items under key instead of data.
func listInAs[F, T any](key string, fn func(ctx context.Context, parent string, f F, lp op.ListParams) (op.Page[T], error)) endpoint {
	return listAs(key, func(ctx context.Context, f F, lp op.ListParams) (op.Page[T], error) {
		return fn(ctx, chi.URLParamFromCtx(ctx, "id"), f, lp)
	})
}

// dataOf serves the whole (short) list of a parent's objects as
// {"data": [...]}, unpaged, as the spec shows it.
func dataOf[T any](fn func(ctx context.Context, parent string) ([]T, error)) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		items, err := fn(r.Context(), chi.URLParam(r, "id"))
		respond(w, r, http.StatusOK, dataBody[T]{items}, err)
	}, wireShape{responses: ok[dataBody[T]](http.StatusOK)})
}

// dataBody is the {"data": [...]} body of an unpaged list.
type dataBody[T any] struct {
	Data []T `json:"data"`
}
