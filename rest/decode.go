package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/models"
)

// decode reads a JSON body into v. An empty body decodes as {}. An
// unreadable body (or one over httpx.MaxBodyBytes) is 400 invalid_json; a
// string that is not valid UTF-8 is 422 validation_errors naming it
// (checkText); a member of the wrong JSON type is 400 parameter_invalid
// naming it. Unknown members are ignored, as the real service ignores them.
func decode(r *http.Request, v any) error {
	body, err := io.ReadAll(io.LimitReader(r.Body, httpx.MaxBodyBytes+1))
	if err != nil {
		return apierr.BadRequest(apierr.CodeInvalidJSON, "The request body could not be read", "")
	}
	if len(body) > httpx.MaxBodyBytes {
		return apierr.BadRequest(apierr.CodeInvalidJSON, "The request body is larger than 1 MiB", "")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if err := checkText(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			param := typeErrorParam(reflect.TypeOf(v), te.Field)
			if param == "" {
				return apierr.BadRequest(apierr.CodeInvalidJSON, "The request body must be a JSON object", "")
			}
			return apierr.BadRequest(apierr.CodeParameterInvalid,
				"Invalid type for parameter "+param+": expected "+jsonTypeName(te.Type.String()), param)
		}
		return apierr.BadRequest(apierr.CodeInvalidJSON, "The request body is not valid JSON: "+err.Error(), "")
	}
	if _, err := dec.Token(); err != io.EOF { // dec.More misses a stray ] or }
		return apierr.BadRequest(apierr.CodeInvalidJSON, "The request body has data after the JSON object", "")
	}
	return nil
}

func jsonTypeName(goType string) string {
	switch {
	case strings.Contains(goType, "string"):
		return "string"
	case strings.Contains(goType, "bool"):
		return "boolean"
	case strings.Contains(goType, "int"), strings.Contains(goType, "float"):
		return "number"
	case strings.HasPrefix(strings.TrimLeft(goType, "*"), "[]"):
		return "array"
	default:
		return "object"
	}
}

// query reads the URL query, collecting every malformed parameter.
type query struct {
	r      *http.Request
	fields apierr.Fields
	// read, when set, records each parameter asked for and its type
	// (queryRead).
	read *[]queryParam
}

func newQuery(r *http.Request) *query { return &query{r: r} }

func (q *query) str(name string) *string {
	q.note(name, "string")
	if !q.r.URL.Query().Has(name) {
		return nil
	}
	v := q.r.URL.Query().Get(name)
	// Text that PostgreSQL cannot hold is refused here, not at the database.
	if strings.ContainsRune(v, 0) || !utf8.ValidString(v) {
		q.fields.Add(name, "must be valid UTF-8 text without NUL characters")
		return nil
	}
	return &v
}

func (q *query) boolean(name string) bool {
	v := q.str(name)
	q.note(name, "boolean")
	if v == nil {
		return false
	}
	b, err := strconv.ParseBool(*v)
	if err != nil {
		q.fields.Add(name, "must be true or false")
	}
	return b
}

func (q *query) intParam(name string, min int) int {
	v := q.str(name)
	q.note(name, "integer")
	if v == nil || *v == "" {
		return 0
	}
	n, err := strconv.Atoi(*v)
	if err != nil || n < min {
		q.fields.Addf(name, "must be an integer of at least %d", min)
		return 0
	}
	return n
}

// page reads page and per_page (per_page above 100 is clamped, not refused).
func (q *query) page() models.PageParams {
	return models.PageParams{Page: q.intParam("page", 1), PerPage: q.intParam("per_page", 1)}
}

// err is 400 parameter_invalid listing every malformed parameter.
func (q *query) err() error {
	if q.fields.Empty() {
		return nil
	}
	e := apierr.As(q.fields.Err())
	e.Status, e.Code = http.StatusBadRequest, apierr.CodeParameterInvalid
	return e
}

// unix reads an integer Unix-seconds parameter (nil when absent).
func (q *query) unix(name string) *int64 {
	v := q.str(name)
	q.note(name, "integer")
	if v == nil || *v == "" {
		return nil
	}
	n, err := strconv.ParseInt(*v, 10, 64)
	if err != nil || n < 0 || n > 1<<40 {
		q.fields.Add(name, "must be a Unix timestamp in seconds")
		return nil
	}
	return &n
}

// closed reads an optional parameter of a closed set T (nil when absent);
// the operation layer checks the value against the set.
func closed[T ~string](q *query, name string) *T {
	s := q.str(name)
	if s == nil {
		return nil
	}
	v := T(*s)
	return &v
}

// optBool reads an optional boolean (nil when absent).
func (q *query) optBool(name string) *bool {
	if q.str(name) == nil {
		return nil
	}
	b := q.boolean(name)
	return &b
}
