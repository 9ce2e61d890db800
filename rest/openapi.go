package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/frame-oss/payments-server/internal/platform/idempotency"
)

// The OpenAPI 3.1 document of the REST API is derived from the routes as
// they are mounted: each route line's endpoint knows its path, method,
// query parameters, body and answers (endpoint.go), and the schemas are
// reflected from the Go types the handlers decode and render
// (openapi_schema.go). Nothing in it is written by hand but the error
// statuses every operation may answer and the credentials.

// errorStatuses are the statuses an operation answers in the envelope
// (API-DECISIONS §2); any other failure is the default response, the same
// envelope.
var errorStatuses = []int{
	http.StatusBadRequest, http.StatusUnauthorized, http.StatusPaymentRequired, http.StatusForbidden,
	http.StatusNotFound, http.StatusConflict, http.StatusUnprocessableEntity, http.StatusTooManyRequests,
	http.StatusInternalServerError, http.StatusServiceUnavailable,
}

// serveOpenAPI answers the document of ops, built at the first request.
func serveOpenAPI(ops []operation) http.HandlerFunc {
	var once sync.Once
	var doc []byte
	var err error
	return func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { doc, err = openAPIDocument(ops) })
		if err != nil {
			WriteError(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(doc)
	}
}

// openAPIDocument renders the OpenAPI 3.1 document of ops.
func openAPIDocument(ops []operation) ([]byte, error) {
	schemas := newSchemaSet()
	paths := map[string]map[string]any{}
	for _, o := range ops {
		item := paths[o.pattern]
		if item == nil {
			item = map[string]any{}
			paths[o.pattern] = item
		}
		item[strings.ToLower(o.method)] = operationObject(schemas, o)
	}
	errorSchema := schemas.response(reflect.TypeFor[envelope]())
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":   "Payments platform REST API",
			"version": "1",
			"description": "Every /v1 and /v2 operation, derived from the server's own route and model " +
				"declarations. Errors answer in one envelope (the Error response).",
		},
		"paths": paths,
		"security": []map[string][]string{
			{"secretKey": {}}, {"publishableKey": {}}, {"sessionSecret": {}},
		},
		"components": map[string]any{
			"schemas": schemas.defs,
			"responses": map[string]any{"Error": map[string]any{
				"description": "The error envelope (status, code, message, error_details, request_id).",
				"headers": map[string]any{"Request-Id": map[string]any{
					"description": "The request's id, also in the body's request_id.",
					"schema":      map[string]any{"type": "string"}}},
				"content": map[string]any{"application/json": map[string]any{"schema": errorSchema}},
			}},
			"parameters": map[string]any{"IdempotencyKey": map[string]any{
				"name": idempotency.Header, "in": "header", "required": false,
				"description": "Makes a POST safe to retry: the same key answers the first result again " +
					"(marked Idempotent-Replayed: true).",
				"schema": map[string]any{"type": "string"},
			}},
			"securitySchemes": map[string]any{
				"secretKey": map[string]any{"type": "http", "scheme": "bearer",
					"description": "A secret key (sk_…): the merchant's server-side credential."},
				"publishableKey": map[string]any{"type": "http", "scheme": "bearer",
					"description": "A publishable key (pk_…): the operations a browser or app may call; " +
						"others answer 403."},
				"sessionSecret": map[string]any{"type": "http", "scheme": "bearer",
					"description": "A session's client secret (an onboarding or checkout session's): " +
						"the operations of that session only."},
			},
		},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	// The reflector refers to its own $defs; the document keeps them as
	// components.
	return bytes.ReplaceAll(b, []byte(`"#/$defs/`), []byte(`"#/components/schemas/`)), nil
}

// pathParam matches a chi path parameter, named as OpenAPI names it.
var pathParam = regexp.MustCompile(`\{([^}:]+)\}`)

// operationObject describes one operation.
func operationObject(schemas *schemaSet, o operation) map[string]any {
	var parameters []any
	inPath := map[string]bool{}
	for _, m := range pathParam.FindAllStringSubmatch(o.pattern, -1) {
		inPath[m[1]] = true
		parameters = append(parameters, map[string]any{"name": m[1], "in": "path", "required": true,
			"schema": map[string]any{"type": "string"}})
	}
	for _, q := range o.wire.query {
		if inPath[q.name] {
			continue
		}
		schema := map[string]any{"type": q.kind}
		if q.kind == "integer" {
			schema["minimum"] = 0
		}
		parameters = append(parameters, map[string]any{"name": q.name, "in": "query", "schema": schema})
	}
	if o.method == http.MethodPost {
		parameters = append(parameters, map[string]any{"$ref": "#/components/parameters/IdempotencyKey"})
	}
	op := map[string]any{"operationId": operationID(o), "responses": responsesObject(schemas, o.wire.responses)}
	if len(parameters) > 0 {
		op["parameters"] = parameters
	}
	content := map[string]any{}
	if o.wire.body != nil {
		content["application/json"] = map[string]any{"schema": schemas.request(o.wire.body)}
	}
	if len(o.wire.multipart) > 0 {
		files := map[string]any{}
		for _, name := range o.wire.multipart {
			files[name] = map[string]any{"type": "string", "contentMediaType": "application/octet-stream"}
		}
		content["multipart/form-data"] = map[string]any{"schema": map[string]any{"type": "object", "properties": files}}
	}
	if len(content) > 0 {
		// An empty body reads as {} (decode).
		op["requestBody"] = map[string]any{"required": false, "content": content}
	}
	return op
}

// responsesObject lists the successful answers and the envelope's.
func responsesObject(schemas *schemaSet, answers []answer) map[string]any {
	out := map[string]any{"default": map[string]any{"$ref": "#/components/responses/Error"}}
	for _, s := range errorStatuses {
		out[strconv.Itoa(s)] = map[string]any{"$ref": "#/components/responses/Error"}
	}
	for _, a := range answers {
		r := map[string]any{"description": http.StatusText(a.status)}
		if a.body != nil {
			r["content"] = map[string]any{"application/json": map[string]any{"schema": schemas.response(a.body)}}
		}
		out[strconv.Itoa(a.status)] = r
	}
	return out
}

// operationID names an operation by its method and path segments:
// get.v1.accounts.id for GET /v1/accounts/{id}.
func operationID(o operation) string {
	segments := strings.FieldsFunc(strings.NewReplacer("{", "", "}", "").Replace(o.pattern),
		func(r rune) bool { return r == '/' })
	return strings.ToLower(o.method) + "." + strings.Join(segments, ".")
}
