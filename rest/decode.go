package rest

import (
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/rest/jsonbody"
)

// decode reads a JSON body into v: jsonbody.Decode, which says how a body
// is refused.
func decode(r *http.Request, v any) error { return jsonbody.Decode(r, v) }

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
