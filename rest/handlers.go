package rest

import (
	"context"
	"net/http"
	"reflect"

	"github.com/go-chi/chi/v5"
)

// The shapes of a REST endpoint: a route line binds an operation of the
// operation layer to one of these, which decode and respond, and nothing
// else (an endpoint with more to decode writes its own handler). An
// object under a parent (an account's beneficial owners) has the parent's
// id as {id} and its own as the path parameter its shape names
// (handlers_nested.go).

// get serves GET …/{id}: the object the operation returns for the path id.
func get[T any](fn func(context.Context, string) (T, error)) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		v, err := fn(r.Context(), chi.URLParam(r, "id"))
		respond(w, r, http.StatusOK, v, err)
	}, wireShape{responses: ok[T](http.StatusOK)})
}

// read serves a GET of an object that has no id: the caller's own (its
// balance, its client configuration).
func read[T any](fn func(context.Context) (T, error)) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		v, err := fn(r.Context())
		respond(w, r, http.StatusOK, v, err)
	}, wireShape{responses: ok[T](http.StatusOK)})
}

// create serves POST with a JSON body: 201 with the object created.
func create[In, T any](fn func(context.Context, *In) (T, error)) endpoint {
	return withBody(func(r *http.Request, in *In) (int, T, error) {
		v, err := fn(r.Context(), in)
		return http.StatusCreated, v, err
	}).answering(http.StatusCreated)
}

// call serves a POST (or PATCH) with a JSON body that answers 200: it
// judges, accepts or completes rather than creates.
func call[In, T any](fn func(context.Context, *In) (T, error)) endpoint {
	return withBody(func(r *http.Request, in *In) (int, T, error) {
		v, err := fn(r.Context(), in)
		return http.StatusOK, v, err
	})
}

// createOrFind serves a POST that may answer an object it already had: 201
// when it created one, 200 when found says the answer existed before.
func createOrFind[In, T any](fn func(context.Context, *In) (T, error), found func(T) bool) endpoint {
	return withBody(func(r *http.Request, in *In) (int, T, error) {
		v, err := fn(r.Context(), in)
		if err == nil && found(v) {
			return http.StatusOK, v, nil
		}
		return http.StatusCreated, v, err
	}).answering(http.StatusCreated, http.StatusOK)
}

// update serves PATCH (or a POST action taking a body) on …/{id}: 200 with
// the object changed.
func update[In, T any](fn func(context.Context, string, *In) (T, error)) endpoint {
	return withBody(func(r *http.Request, in *In) (int, T, error) {
		v, err := fn(r.Context(), chi.URLParam(r, "id"), in)
		return http.StatusOK, v, err
	})
}

// updateOrAccept serves a POST action taking a body on …/{id} whose work
// may go on after the answer: 200 with the object when it is done, 202
// with it when accepted(v) says the rest continues in the background.
func updateOrAccept[In, T any](fn func(context.Context, string, *In) (T, error), accepted func(T) bool) endpoint {
	return withBody(func(r *http.Request, in *In) (int, T, error) {
		v, err := fn(r.Context(), chi.URLParam(r, "id"), in)
		if err == nil && accepted(v) {
			return http.StatusAccepted, v, nil
		}
		return http.StatusOK, v, err
	}).answering(http.StatusOK, http.StatusAccepted)
}

// action serves a POST on …/{id} that takes no body (cancel, block): 200
// with the object changed. A body, if one is sent, is not read.
func action[T any](fn func(context.Context, string) (T, error)) endpoint {
	return get(fn)
}

// bodiless serves a POST on …/{id} whose body, if any, must be an empty
// JSON object (or absent): the operation reads what is stored, and answers
// status.
func bodiless[T any](status int, fn func(context.Context, string) (T, error)) endpoint {
	return withBody(func(r *http.Request, _ *struct{}) (int, T, error) {
		v, err := fn(r.Context(), chi.URLParam(r, "id"))
		return status, v, err
	}).answering(status)
}

// withBody decodes the JSON body into a fresh In (400 for a malformed
// one, before the operation runs), then answers what serve returns: 200
// unless the shape says otherwise (answering).
func withBody[In, T any](serve func(r *http.Request, in *In) (int, T, error)) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		var in In
		if err := decode(r, &in); err != nil {
			WriteError(w, r, err)
			return
		}
		status, v, err := serve(r, &in)
		respond(w, r, status, v, err)
	}, wireShape{body: reflect.TypeFor[In](), responses: ok[T](http.StatusOK)})
}
