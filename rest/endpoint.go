package rest

import (
	"context"
	"net/http"
	"reflect"
	"sort"

	"github.com/go-chi/chi/v5"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// endpoint is a route's handler together with what it exchanges on the
// wire. The shapes of handlers.go return one, knowing their input and
// output types, and a hand-written handler declares its own (handled), so
// a route cannot be mounted without the description the OpenAPI document
// is derived from (openapi.go).
type endpoint struct {
	serve http.HandlerFunc
	wire  wireShape
}

// wireShape is what one operation takes and answers.
type wireShape struct {
	// query lists the query parameters the handler reads.
	query []queryParam
	// body is the JSON request body's Go type; nil when no body is read.
	body reflect.Type
	// multipart names the file parts of a multipart/form-data body, for a
	// handler that reads one instead of JSON.
	multipart []string
	// responses are the successful answers; errors are the envelope's.
	responses []answer
}

// queryParam is one query string parameter and its JSON Schema type
// ("string", "boolean" or "integer").
type queryParam struct {
	name, kind string
	// values is the closed set a parameter takes (a filter field of a
	// models.Enum type), nil for any.
	values []string
}

// answer is one successful status and the Go type of its JSON body (nil
// for a response without content).
type answer struct {
	status int
	body   reflect.Type
}

// handled is a hand-written handler with the wire shape declared beside it.
func handled(serve http.HandlerFunc, wire wireShape) endpoint {
	return endpoint{serve: serve, wire: wire}
}

// answering is e answering statuses, each with the body its first answer
// declares.
func (e endpoint) answering(statuses ...int) endpoint {
	body := e.wire.responses[0].body
	e.wire.responses = nil
	for _, s := range statuses {
		e.wire.responses = append(e.wire.responses, answer{status: s, body: body})
	}
	return e
}

// ok is a wire shape answering status with a body of type T.
func ok[T any](status int) []answer {
	return []answer{{status: status, body: reflect.TypeFor[T]()}}
}

// pageParams are the page-number parameters every paged list reads
// (query.page).
var pageParams = []queryParam{{name: "page", kind: "integer"}, {name: "per_page", kind: "integer"}}

// params lists the query parameters of a hand-written handler: strs are
// string parameters, then pageParams when paged.
func params(paged bool, strs ...string) []queryParam {
	out := make([]queryParam, 0, len(strs)+2)
	for _, s := range strs {
		out = append(out, queryParam{name: s, kind: "string"})
	}
	if paged {
		out = append(out, pageParams...)
	}
	return out
}

// closedParam is a string parameter taking the closed set of T.
func closedParam[T ~string](name string) queryParam {
	values, _ := models.EnumValues(reflect.TypeFor[T]())
	return queryParam{name: name, kind: "string", values: values}
}

// filterParams are the query parameters a list filter of type F declares
// by its `query` tags (filter decodes them), then the page parameters.
func filterParams[F any]() []queryParam {
	t := reflect.TypeFor[F]()
	var out []queryParam
	for name, i := range op.FilterParams(t) {
		kind := "string"
		switch t.Field(i).Type.Elem().Kind() {
		case reflect.Bool:
			kind = "boolean"
		case reflect.Int64:
			kind = "integer"
		}
		values, _ := models.EnumValues(t.Field(i).Type.Elem())
		out = append(out, queryParam{name: name, kind: kind, values: values})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return append(out, pageParams...)
}

// pageOf is the {meta, key: [T]} body of a paged list (respondPageAs),
// with the items under "data" too when the spec names them otherwise.
func pageOf[T any](key string) reflect.Type {
	fields := []reflect.StructField{
		{Name: "Meta", Type: reflect.TypeFor[models.ListMeta](), Tag: `json:"meta"`},
		{Name: "Items", Type: reflect.TypeFor[[]T](), Tag: reflect.StructTag(`json:"` + key + `"`)},
	}
	if key != "data" {
		fields = append(fields, reflect.StructField{Name: "Data", Type: reflect.TypeFor[[]T](), Tag: `json:"data"`})
	}
	return reflect.StructOf(fields)
}

// routes mounts endpoints on a chi router and records each, in order, for
// the OpenAPI document. Its methods are chi's, taking an endpoint.
type routes struct {
	mux chi.Router
	ops *[]operation
}

// operation is one mounted method and path with its wire shape.
type operation struct {
	method, pattern string
	wire            wireShape
}

func (rt routes) Get(pattern string, e endpoint)    { rt.handle(http.MethodGet, pattern, e) }
func (rt routes) Post(pattern string, e endpoint)   { rt.handle(http.MethodPost, pattern, e) }
func (rt routes) Patch(pattern string, e endpoint)  { rt.handle(http.MethodPatch, pattern, e) }
func (rt routes) Delete(pattern string, e endpoint) { rt.handle(http.MethodDelete, pattern, e) }

func (rt routes) handle(method, pattern string, e endpoint) {
	rt.mux.Method(method, pattern, e.serve)
	*rt.ops = append(*rt.ops, operation{method: method, pattern: pattern, wire: e.wire})
}

// pageFrom is the answer of a handler that pages what fn lists under key:
// the item type is the list function's, so the declaration follows it.
func pageFrom[F, T any](key string, _ lister[F, T]) []answer {
	return []answer{{status: http.StatusOK, body: pageOf[T](key)}}
}

// returnedBy is the type fn answers: a hand-written handler declares its
// body as the one the operation it calls returns.
func returnedBy[A, T any](_ func(context.Context, A) (T, error)) reflect.Type {
	return reflect.TypeFor[T]()
}

// queryRead lists the query parameters decode asks for, by running it once
// on a request without any: a handler whose query decoding is a function
// declares its parameters by that function alone.
func queryRead(decode func(q *query)) []queryParam {
	var read []queryParam
	r, _ := http.NewRequest(http.MethodGet, "/", nil)
	decode(&query{r: r, read: &read})
	return read
}

// note records that the handler reads parameter name as kind; a later,
// narrower reading of the same name (a boolean read as text first) wins.
func (q *query) note(name, kind string) {
	if q.read == nil {
		return
	}
	for i := range *q.read {
		if (*q.read)[i].name == name {
			(*q.read)[i].kind = kind
			return
		}
	}
	*q.read = append(*q.read, queryParam{name: name, kind: kind})
}
