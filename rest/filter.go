package rest

import (
	"context"
	"net/http"
	"reflect"

	"github.com/frame-oss/payments-server/resolvers/op"
)

// filter decodes the query string into a list filter of type F by the
// filter's `query` tags (the one declaration the operation layer applies,
// resolvers/op/filter.go): *string (or a pointer to a named string type, a
// closed set the operation layer checks), *bool and *int64 (Unix seconds)
// fields; every malformed parameter is collected in q.
func filter[F any](q *query) F {
	var f F
	v := reflect.ValueOf(&f).Elem()
	for param, i := range op.FilterParams(v.Type()) {
		field := v.Field(i)
		var got any
		switch field.Interface().(type) {
		case *string:
			got = q.str(param)
		case *bool:
			got = q.optBool(param)
		case *int64:
			got = q.unix(param)
		default:
			if t := field.Type(); t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.String {
				if s := q.str(param); s != nil {
					value := reflect.New(t.Elem())
					value.Elem().SetString(*s)
					field.Set(value)
				}
				continue
			}
			panic("rest: filter " + v.Type().Name() + "." + v.Type().Field(i).Name + " has no query decoding")
		}
		if rv := reflect.ValueOf(got); !rv.IsNil() {
			field.Set(rv)
		}
	}
	return f
}

// lister is a resource's one list function (a Table's List bound to its
// service).
type lister[F, T any] func(ctx context.Context, f F, lp op.ListParams) (op.Page[T], error)

// list serves a REST list: the filter and page from the query string (400
// for a malformed parameter), then the page in the {meta, data} envelope.
func list[F, T any](fn lister[F, T]) endpoint { return listAs("data", fn) }

// listAs is list with the items under key instead of data.
func listAs[F, T any](key string, fn lister[F, T]) endpoint {
	return handled(func(w http.ResponseWriter, r *http.Request) {
		q := newQuery(r)
		page, err := readList(r, q, filter[F](q), fn)
		respondPageAs(w, r, key, page, err)
	}, wireShape{query: filterParams[F](), responses: []answer{{status: http.StatusOK, body: pageOf[T](key)}}})
}

// readList reads the page of fn's list that filter f and the page
// parameters of q ask for. Every malformed parameter, of the filter or of
// the page, is collected in q and answered at once (400) before the list
// runs, so a refused request costs no statement.
func readList[F, T any](r *http.Request, q *query, f F, fn lister[F, T]) (op.Page[T], error) {
	pp := q.page()
	if err := q.err(); err != nil {
		return op.Page[T]{}, err
	}
	return fn(r.Context(), f, op.ListParams{PageParams: pp})
}
