package op

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
)

// A list filter is declared once, as a struct whose fields are pointers
// (nil: not asked) tagged with the REST query parameter they come from and
// the condition they add:
//
//	type RefundFilter struct {
//		Transfer *string               `query:"transfer" filter:"transfer_id,id"`
//		Status   *models.RefundStatus  `query:"status" filter:"status,enum"`
//	}
//
// REST decodes the query string into it by the `query` tags (rest's
// filter); GraphQL's filter input is the same type (bound with @goModel in
// its schema file, enum fields typed), so both reach Table.List, which
// checks and applies it here, the same way. The conditions
// (`filter:"<column>,<kind>"`):
//
//	id            an id: refused with "is not a valid id" unless it parses
//	eq            equal (the default kind)
//	enum          equal, one of the closed set of the field's type
//	              (models.Enum): a value that no row can hold is refused
//	enum=a|b      equal, one of the listed values (a set of its own)
//	lower         equal to the lower-cased, trimmed value (a lower-cased column)
//	contains      a substring, in any case, of a lower-cased search column
//	before, after a Unix time, exclusive bound of a timestamp column
//
// A field tagged `filter:"-"` is the resource's own: the filter applies it
// in its Apply method; `filter:"-,enum"` checks it against its closed set
// first. A filter with cross-field rules implements Check.

// FilterChecker is a filter with rules across its fields (two that
// exclude each other); Check adds every problem to f.
type FilterChecker interface{ Check(f *apierr.Fields) }

// FilterApplier is a filter with conditions beyond its tags.
type FilterApplier interface {
	Apply(q *bun.SelectQuery) *bun.SelectQuery
}

// filterField is one tagged field of a filter type.
type filterField struct {
	index  int
	param  string
	column string
	kind   string
	values []string // enum
}

var filterFields sync.Map // reflect.Type -> []filterField

// fieldsOf parses (once per type) the tags of filter type t.
func fieldsOf(t reflect.Type) []filterField {
	if v, ok := filterFields.Load(t); ok {
		return v.([]filterField)
	}
	var out []filterField
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("filter")
		if tag == "" || tag == "-" {
			continue
		}
		// "-,kind": checked here, applied by the filter itself.
		column, kind, _ := strings.Cut(tag, ",")
		if kind == "" {
			kind = "eq"
		}
		f := filterField{index: i, param: sf.Tag.Get("query"), column: column, kind: kind}
		if f.param == "" {
			f.param = column
		}
		if rest, ok := strings.CutPrefix(kind, "enum="); ok {
			f.kind, f.values = "enum", strings.Split(rest, "|")
		} else if kind == "enum" {
			values, ok := models.EnumValues(sf.Type.Elem())
			if !ok {
				panic(fmt.Sprintf("op: filter %s.%s: %s declares no closed set (models.Enum)", t.Name(), sf.Name, sf.Type.Elem()))
			}
			f.values = values
		}
		switch f.kind {
		case "id", "eq", "enum", "lower", "contains", "before", "after":
		default:
			panic(fmt.Sprintf("op: filter %s.%s: unknown kind %q", t.Name(), sf.Name, kind))
		}
		if sf.Type.Kind() != reflect.Pointer {
			panic(fmt.Sprintf("op: filter %s.%s must be a pointer (nil: not asked)", t.Name(), sf.Name))
		}
		out = append(out, f)
	}
	filterFields.Store(t, out)
	return out
}

// ApplyFilter checks filter (a filter struct or a pointer to one; nil for
// none) and adds its conditions to q. Every problem is reported at once,
// as a validation error naming the query parameters at fault.
func ApplyFilter(q *bun.SelectQuery, filter any) (*bun.SelectQuery, error) {
	if filter == nil {
		return q, nil
	}
	v := reflect.ValueOf(filter)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return q, nil
		}
		v = v.Elem()
	}
	var problems apierr.Fields
	if c, ok := v.Interface().(FilterChecker); ok {
		c.Check(&problems)
	}
	for _, f := range fieldsOf(v.Type()) {
		fv := v.Field(f.index)
		if fv.IsNil() {
			continue
		}
		val := fv.Elem().Interface()
		col := bun.Ident(f.column)
		switch f.kind {
		case "id":
			uid, ok := ids.Parse(fmt.Sprint(val))
			if !ok {
				problems.Add(f.param, "is not a valid id")
				continue
			}
			q = q.Where("?TableAlias.? = ?", col, uid)
		case "eq":
			q = q.Where("?TableAlias.? = ?", col, val)
		case "enum":
			s := fmt.Sprint(val)
			if !contains(f.values, s) {
				problems.Add(f.param, "must be one of: "+strings.Join(f.values, ", "))
				continue
			}
			if f.column != "-" {
				q = q.Where("?TableAlias.? = ?", col, s)
			}
		case "lower":
			q = q.Where("?TableAlias.? = ?", col, strings.ToLower(strings.TrimSpace(fmt.Sprint(val))))
		case "contains":
			term := strings.Join(strings.Fields(strings.ToLower(fmt.Sprint(val))), " ")
			if term != "" {
				q = q.Where("?TableAlias.? LIKE ?", col, "%"+LikeEscape(term)+"%")
			}
		case "before", "after":
			sec, ok := val.(int64)
			if !ok {
				panic(fmt.Sprintf("op: filter %s: %s takes an *int64 of Unix seconds", v.Type().Name(), f.kind))
			}
			if !models.UnixSecondsInRange(sec) {
				problems.Add(f.param, models.ProblemUnixSeconds)
				continue
			}
			op := "<"
			if f.kind == "after" {
				op = ">"
			}
			q = q.Where("?TableAlias.? "+op+" ?", col, time.Unix(sec, 0).UTC())
		}
	}
	if err := problems.Err(); err != nil {
		return q, err
	}
	if a, ok := v.Interface().(FilterApplier); ok {
		q = a.Apply(q)
	}
	return q, nil
}

// FilterParams lists the REST query parameters of a filter type, in field
// order, with the field each fills: rest decodes a query string by it.
func FilterParams(t reflect.Type) map[string]int {
	out := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		if p := t.Field(i).Tag.Get("query"); p != "" {
			out[p] = i
		}
	}
	return out
}

// LikeEscape escapes LIKE wildcards in user input.
func LikeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
