package rest

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/frame-oss/payments-server/internal/platform/idempotency"
	"github.com/frame-oss/payments-server/models"
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
	ids := operationIDs(ops)
	tags := map[string]bool{}
	for i, o := range ops {
		item := paths[o.pattern]
		if item == nil {
			item = map[string]any{}
			paths[o.pattern] = item
		}
		obj := operationObject(schemas, o)
		obj["operationId"] = ids[i]
		obj["summary"] = summaryOf(ids[i])
		obj["description"] = descriptionOf(o)
		obj["tags"] = []string{tagOf(o.pattern)}
		tags[tagOf(o.pattern)] = true
		item[strings.ToLower(o.method)] = obj
	}
	var tagList []map[string]string
	for _, name := range slices.Sorted(maps.Keys(tags)) {
		tagList = append(tagList, map[string]string{"name": name, "description": "Operations on " + name + "."})
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
		"servers": []map[string]string{{"url": "/", "description": "The server that serves this document."}},
		"tags":    tagList,
		"paths":   paths,
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
		param := map[string]any{"name": q.name, "in": "query", "schema": schema}
		switch {
		case q.name == "page" && q.kind == "integer":
			schema["minimum"], schema["default"] = 1, 1
			param["description"] = "The page, from 1; a page past the last is empty."
		case q.name == "per_page" && q.kind == "integer":
			schema["minimum"], schema["default"] = 1, models.DefaultPerPage
			param["description"] = "Items per page, at least 1; values above 100 are treated as 100."
		case q.kind == "integer":
			schema["minimum"] = 0
		}
		if len(q.values) > 0 {
			schema["enum"] = q.values
		}
		parameters = append(parameters, param)
	}
	if o.method == http.MethodPost {
		parameters = append(parameters, map[string]any{"$ref": "#/components/parameters/IdempotencyKey"})
	}
	op := map[string]any{"responses": responsesObject(schemas, o.wire.responses)}
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

// operationIDs names each operation by what it does and to what, in
// camelCase as client generators name methods: listAccounts (GET
// /v1/accounts), getAccount (GET /v1/accounts/{id}), createAccount (POST),
// updateAccount (PATCH), deleteAccount (DELETE), restrictAccount (POST
// /v1/accounts/{id}/restrict), listAccountCapabilities (GET
// /v1/accounts/{id}/capabilities); /v2 adds V2. Two operations that would
// share a name keep their path's words to tell them apart.
func operationIDs(ops []operation) []string {
	out := make([]string, len(ops))
	seen := map[string]int{}
	for i, o := range ops {
		out[i] = operationName(o)
		seen[out[i]]++
	}
	for i, o := range ops {
		if seen[out[i]] > 1 {
			out[i] = pathName(o)
		}
	}
	// A name still shared (an alias path of the same words) is numbered.
	count := map[string]int{}
	for i := range out {
		count[out[i]]++
		if count[out[i]] > 1 {
			out[i] += strconv.Itoa(count[out[i]])
		}
	}
	return out
}

// pathName names an operation by its method and every word of its path,
// a parameter as By<Name>: getBillingMeteringById.
func pathName(o operation) string {
	var words []string
	for _, seg := range strings.Split(strings.Trim(o.pattern, "/"), "/") {
		switch {
		case seg == "v1":
		case strings.HasPrefix(seg, "{"):
			words = append(words, "by", strings.Trim(seg, "{}"))
		default:
			words = append(words, seg)
		}
	}
	return strings.ToLower(o.method) + camel(splitWords(words))
}

// operationName is an operation's name by the rule of operationIDs.
func operationName(o operation) string {
	segments := strings.Split(strings.Trim(o.pattern, "/"), "/")
	version := ""
	if len(segments) > 0 && (segments[0] == "v1" || segments[0] == "v2") {
		if segments[0] == "v2" {
			version = "V2"
		}
		segments = segments[1:]
	}
	var words []string
	endsWithID, action := false, ""
	for i, s := range segments {
		if strings.HasPrefix(s, "{") {
			endsWithID = i == len(segments)-1
			if n := len(words); n > 0 {
				words[n-1] = singular(words[n-1])
			}
			continue
		}
		words = append(words, s)
	}
	verb := map[string]string{http.MethodGet: "get", http.MethodPost: "create", http.MethodPatch: "update",
		http.MethodDelete: "delete", http.MethodPut: "replace"}[o.method]
	last := segments[len(segments)-1]
	switch {
	case o.method == http.MethodGet && !endsWithID && len(words) > 0 && last != "search" && !singularWord(last):
		verb = "list"
	case o.method == http.MethodPost && !endsWithID && len(segments) > 1 && strings.HasPrefix(segments[len(segments)-2], "{"):
		// POST /v1/accounts/{id}/restrict: an action on the object.
		if !pluralWord(last) {
			action, words = last, words[:len(words)-1]
		}
	case o.method == http.MethodPost && len(words) > 0 && pluralWord(words[len(words)-1]):
		words[len(words)-1] = singular(words[len(words)-1])
	}
	if action != "" {
		verb = ""
		words = append([]string{action}, words...)
	}
	return lowerFirst(verb + camel(splitWords(words)) + version)
}

// splitWords splits path words on their underscores and dots.
func splitWords(words []string) []string {
	var out []string
	for _, w := range words {
		out = append(out, strings.FieldsFunc(w, func(r rune) bool { return r == '_' || r == '.' || r == '-' })...)
	}
	return out
}

func camel(words []string) string {
	var b strings.Builder
	for _, w := range words {
		if w == "" {
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	return b.String()
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// pluralWord reports a path word naming a collection (accounts,
// capabilities, identity_verifications).
func pluralWord(w string) bool { return strings.HasSuffix(w, "s") && !singularWord(w) }

// singularWord reports the path words that end in s but name one thing.
func singularWord(w string) bool {
	switch w {
	case "status", "address", "business", "me", "balance", "trace", "complete", "merchant_balance", "access":
		return true
	}
	return !strings.HasSuffix(w, "s")
}

// singular is a collection word's item: accounts → account, capabilities
// → capability, statuses → status.
func singular(w string) string {
	switch {
	case !pluralWord(w):
		return w
	case strings.HasSuffix(w, "ies"):
		return strings.TrimSuffix(w, "ies") + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "uses"), strings.HasSuffix(w, "xes"):
		return strings.TrimSuffix(w, "es")
	default:
		return strings.TrimSuffix(w, "s")
	}
}

// summaryOf is an operation id in words: "List account capabilities".
func summaryOf(id string) string {
	var words []string
	start := 0
	for i := 1; i <= len(id); i++ {
		if i == len(id) || (id[i] >= 'A' && id[i] <= 'Z') {
			words = append(words, strings.ToLower(id[start:i]))
			start = i
		}
	}
	s := strings.Join(words, " ")
	s = strings.ReplaceAll(s, " v2", " (v2)")
	return strings.ToUpper(s[:1]) + s[1:]
}

// descriptionOf says how an operation is reached and what it answers.
func descriptionOf(o operation) string {
	var parts []string
	parts = append(parts, "`"+o.method+" "+o.pattern+"`.")
	for _, a := range o.wire.responses {
		parts = append(parts, "Answers "+strconv.Itoa(a.status)+" "+http.StatusText(a.status)+" on success.")
	}
	for _, q := range o.wire.query {
		if q.name == "page" {
			parts = append(parts, "A page-numbered list (page, per_page): the meta block's has_more tells whether more follow.")
			break
		}
	}
	if o.method == http.MethodPost {
		parts = append(parts, "Send an Idempotency-Key to retry it safely.")
	}
	parts = append(parts, "Errors answer in the error envelope (docs/decisions.md).")
	return strings.Join(parts, " ")
}

// tagOf groups an operation by the resource its path starts with
// (/v1/accounts/{id}/capabilities: accounts).
func tagOf(pattern string) string {
	segments := strings.Split(strings.Trim(pattern, "/"), "/")
	for _, s := range segments {
		if s != "v1" && s != "v2" && s != "" && !strings.HasPrefix(s, "{") {
			if s == "test_helpers" || s == "billing" || s == "payout_funding" {
				continue
			}
			return s
		}
	}
	return "api"
}
