package graph

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/frame-oss/payments-server/graph/response"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// httpTransport reads GraphQL requests over GET and POST: it is the
// request decoder of /graphql (gqlgen's own transports read bodies without
// a limit and echo an undecodable body in their error). It reads at most
// maxBody bytes, decodes without ever echoing the input, and answers the
// request's own errors in GraphQL's format with a code and a status:
//
//   - a body (or GET query string) over maxBody: 400 request_too_large;
//   - an unreadable body, not a JSON object, or data after it: 400
//     invalid_json; a member of the wrong JSON type: 400 parameter_invalid;
//   - text that is not valid UTF-8: 422 validation_errors (as REST);
//   - a POST that is not JSON: 415 unsupported_media_type;
//   - a mutation over GET, or another method: 405 method_not_allowed;
//   - the document limits (documentLimits): 400 with their codes.
//
// It stops, without running anything, once the client has gone.
type httpTransport struct {
	maxBody int64
}

var _ graphql.Transport = httpTransport{}

// Supports implements graphql.Transport: every method but OPTIONS and
// HEAD (transport.Options answers those) and websocket upgrades.
func (httpTransport) Supports(r *http.Request) bool {
	return r.Header.Get("Upgrade") == "" && r.Method != http.MethodOptions && r.Method != http.MethodHead
}

// Do implements graphql.Transport.
func (t httpTransport) Do(w http.ResponseWriter, r *http.Request, exec graphql.GraphExecutor) {
	ctx := r.Context()
	contentType := responseContentType(r)
	w.Header().Set("Content-Type", contentType)
	start := graphql.Now()

	var params *graphql.RawParams
	var reqErr *gqlerror.Error
	switch r.Method {
	case http.MethodGet:
		params, reqErr = t.readGET(r)
	case http.MethodPost:
		params, reqErr = t.readPOST(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, OPTIONS")
		reqErr = requestError(http.StatusMethodNotAllowed, CodeMethodNotAllowed,
			"Method %s is not allowed on /graphql: use POST (or GET for queries)", r.Method)
	}
	if ctx.Err() != nil {
		return // the client has gone: nothing to run, nobody to answer
	}
	if reqErr != nil {
		response.Write(w, statusOf(reqErr), exec.DispatchError(ctx, gqlerror.List{reqErr}))
		return
	}
	params.Headers = r.Header
	params.ReadTime = graphql.TraceTiming{Start: start, End: graphql.Now()}

	opCtx, errs := exec.CreateOperationContext(ctx, params)
	if ctx.Err() != nil {
		return
	}
	if errs != nil {
		response.Write(w, statusFor(errs, contentType), exec.DispatchError(graphql.WithOperationContext(ctx, opCtx), errs))
		return
	}
	if r.Method == http.MethodGet && opCtx.Operation.Operation != ast.Query {
		w.Header().Set("Allow", "POST")
		err := requestError(http.StatusMethodNotAllowed, CodeMethodNotAllowed,
			"GET runs queries only: send a %s with POST", opCtx.Operation.Operation)
		response.Write(w, http.StatusMethodNotAllowed, exec.DispatchError(graphql.WithOperationContext(ctx, opCtx), gqlerror.List{err}))
		return
	}
	responses, ctx := exec.DispatchOperation(ctx, opCtx)
	resp := responses(ctx)
	if resp == nil { // the client has gone
		return
	}
	response.Write(w, http.StatusOK, resp)
}

// readPOST reads and decodes a JSON body of at most maxBody bytes.
func (t httpTransport) readPOST(w http.ResponseWriter, r *http.Request) (*graphql.RawParams, *gqlerror.Error) {
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "application/json" {
		return nil, requestError(http.StatusUnsupportedMediaType, CodeUnsupportedMediaType,
			"Send the request as a JSON object with Content-Type: application/json")
	}
	if r.ContentLength > t.maxBody {
		return nil, t.tooLarge("request body")
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, t.maxBody))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, t.tooLarge("request body")
		}
		return nil, requestError(http.StatusBadRequest, apierr.CodeInvalidJSON, "The request body could not be read")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, requestError(http.StatusBadRequest, apierr.CodeInvalidJSON,
			"The request body is empty: send a JSON object with a query")
	}
	if param, bad := badText(body); bad {
		return nil, notUTF8(param)
	}
	params := &graphql.RawParams{}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(params); err != nil {
		return nil, decodeError(err)
	}
	if !atEOF(dec) { // dec.More misses a stray ] or }
		return nil, requestError(http.StatusBadRequest, apierr.CodeInvalidJSON, "The request body has data after the JSON object")
	}
	return params, nil
}

// readGET reads query, operationName, variables and extensions from the
// URL's query string.
func (t httpTransport) readGET(r *http.Request) (*graphql.RawParams, *gqlerror.Error) {
	if int64(len(r.URL.RawQuery)) > t.maxBody {
		return nil, t.tooLarge("query string")
	}
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, requestError(http.StatusBadRequest, apierr.CodeParameterInvalid, "The query string is not valid URL encoding")
	}
	for name, vs := range q {
		for _, v := range vs {
			if !utf8.ValidString(name) || !utf8.ValidString(v) {
				return nil, notUTF8(response.Bounded(strings.ToValidUTF8(name, "?"), response.MaxEchoName))
			}
		}
	}
	params := &graphql.RawParams{Query: q.Get("query"), OperationName: q.Get("operationName")}
	for name, into := range map[string]*map[string]any{"variables": &params.Variables, "extensions": &params.Extensions} {
		raw := q.Get(name)
		if raw == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(into); err != nil || !atEOF(dec) {
			return nil, withParam(requestError(http.StatusBadRequest, apierr.CodeParameterInvalid,
				"The query parameter %s must be a JSON object", name), name)
		}
	}
	return params, nil
}

func atEOF(dec *json.Decoder) bool {
	_, err := dec.Token()
	return err == io.EOF
}

func (t httpTransport) tooLarge(what string) *gqlerror.Error {
	return requestError(http.StatusBadRequest, CodeRequestTooLarge,
		"The %s is larger than %s", what, byteSize(t.maxBody))
}

// decodeError describes a JSON decoding failure without echoing the input:
// encoding/json's messages name at most one character of it.
func decodeError(err error) *gqlerror.Error {
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		if te.Field == "" {
			return requestError(http.StatusBadRequest, apierr.CodeInvalidJSON, "The request body must be a JSON object")
		}
		want := map[string]string{"query": "string", "operationName": "string"}[te.Field]
		if want == "" {
			want = "object"
		}
		param := response.Bounded(te.Field, response.MaxEchoName)
		return withParam(requestError(http.StatusBadRequest, apierr.CodeParameterInvalid,
			"Invalid type for parameter %s: expected %s", param, want), param)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return requestError(http.StatusBadRequest, apierr.CodeInvalidJSON, "The request body is not valid JSON: it ends too early")
	}
	return requestError(http.StatusBadRequest, apierr.CodeInvalidJSON, "The request body is not valid JSON: %s",
		response.Bounded(strings.TrimPrefix(err.Error(), "json: "), response.MaxEchoName))
}

func withParam(e *gqlerror.Error, param string) *gqlerror.Error {
	e.Extensions["param"] = param
	return e
}

// byteSize writes n bytes for a message: "1 MiB", "64 KiB", "1000 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}

// badText reports a JSON body holding a string that is not valid UTF-8:
// raw invalid bytes or an escaped lone surrogate (\ud800), which
// encoding/json would silently store as U+FFFD (docs/decisions.md promises
// 422, as REST answers). param names the member at fault: query,
// variables.<name>, operationName or extensions. A body that is not valid
// JSON is left to the decoder (400 invalid_json).
func badText(body []byte) (param string, bad bool) {
	if !badString(body) || !json.Valid(body) {
		return "", false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return "", true
	}
	for _, k := range slices.Sorted(maps.Keys(top)) {
		if !badString(top[k]) {
			continue
		}
		if k == "variables" {
			var vars map[string]json.RawMessage
			if json.Unmarshal(top[k], &vars) == nil {
				for _, v := range slices.Sorted(maps.Keys(vars)) {
					if badString(vars[v]) {
						return "variables." + response.Bounded(strings.ToValidUTF8(v, "?"), response.MaxEchoName), true
					}
				}
			}
		}
		return response.Bounded(strings.ToValidUTF8(k, "?"), response.MaxEchoName), true
	}
	return "", true
}

// badString reports invalid UTF-8 or a \u escape of a surrogate that is
// not a high one followed by a low one.
func badString(b []byte) bool {
	if !utf8.Valid(b) {
		return true
	}
	for i := 0; i+1 < len(b); i++ {
		if b[i] != '\\' {
			continue
		}
		if b[i+1] != 'u' {
			i++ // an escaped character, perhaps a backslash
			continue
		}
		r, ok := hex4(b, i+2)
		switch {
		case !ok:
			continue
		case r >= 0xdc00 && r <= 0xdfff:
			return true // a low surrogate alone
		case r >= 0xd800 && r <= 0xdbff:
			if i+7 >= len(b) || b[i+6] != '\\' || b[i+7] != 'u' {
				return true
			}
			if lo, ok := hex4(b, i+8); !ok || lo < 0xdc00 || lo > 0xdfff {
				return true
			}
			i += 11
		default:
			i += 5
		}
	}
	return false
}

func hex4(b []byte, at int) (rune, bool) {
	if at+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[at : at+4] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

func notUTF8(param string) *gqlerror.Error {
	e := requestError(http.StatusUnprocessableEntity, apierr.CodeValidation, "Strings must be valid UTF-8")
	if param != "" {
		e.Extensions["param"] = param
		e.Extensions["errors"] = map[string][]string{param: {"must be valid UTF-8"}}
	}
	return e
}

// statusOf is the status a request error carries.
func statusOf(e *gqlerror.Error) int {
	if s, ok := e.Extensions["status"].(int); ok {
		return s
	}
	return http.StatusBadRequest
}

// statusFor is the HTTP status of a request refused before execution:
// the status the first refusal of ours carries (documentLimits, a missing
// credential), else GraphQL over HTTP's: a document that does not parse or
// validate is answered 200 in application/json (the errors say what is
// wrong; the request itself was well-formed) and 400 in
// application/graphql-response+json, whose clients read a response
// without data by its status.
func statusFor(errs gqlerror.List, contentType string) int {
	for _, e := range errs {
		if s, ok := e.Extensions["status"].(int); ok {
			return s
		}
	}
	if errcode.GetErrorKind(errs) == errcode.KindProtocol && contentType == graphQLResponseJSON {
		return http.StatusBadRequest
	}
	return http.StatusOK
}

const graphQLResponseJSON = "application/graphql-response+json"

// responseContentType is application/json unless the client's Accept
// prefers application/graphql-response+json (gqlgen's rule).
func responseContentType(r *http.Request) string {
	accept := r.Header.Get("Accept")
	if accept == "" {
		return "application/json"
	}
	for part := range strings.SplitSeq(accept, ",") {
		mediaType, _, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		switch mediaType {
		case "*/*", "application/*", "application/json":
			return "application/json"
		case graphQLResponseJSON:
			return graphQLResponseJSON
		}
	}
	return graphQLResponseJSON
}
