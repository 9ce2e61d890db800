package rest

import (
	"context"
	"net/http"

	"github.com/go-chi/chi/v5"
)

// The shapes of a REST endpoint: a route line binds an operation of the
// operation layer to one of these, which decode and respond, and nothing
// else (an endpoint with more to decode writes its own handler).

// get serves GET …/{id}: the object the operation returns for the path id.
func get[T any](fn func(context.Context, string) (T, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := fn(r.Context(), chi.URLParam(r, "id"))
		respond(w, r, http.StatusOK, v, err)
	}
}

// create serves POST with a JSON body: 201 with the object created.
func create[In, T any](fn func(context.Context, *In) (T, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in In
		if err := decode(r, &in); err != nil {
			WriteError(w, r, err)
			return
		}
		v, err := fn(r.Context(), &in)
		respond(w, r, http.StatusCreated, v, err)
	}
}

// update serves PATCH (or a POST action taking a body) on …/{id}: 200 with
// the object changed.
func update[In, T any](fn func(context.Context, string, *In) (T, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in In
		if err := decode(r, &in); err != nil {
			WriteError(w, r, err)
			return
		}
		v, err := fn(r.Context(), chi.URLParam(r, "id"), &in)
		respond(w, r, http.StatusOK, v, err)
	}
}

// action serves a POST on …/{id} that takes no body (cancel, block): 200
// with the object changed. A body, if one is sent, is not read.
func action[T any](fn func(context.Context, string) (T, error)) http.HandlerFunc {
	return get(fn)
}
