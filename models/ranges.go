package models

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// Integer and time ranges every input shares, checked once for every
// operation by CheckRanges instead of by each input's Validate: a number the
// JSON decoder accepts but a column or a time conversion cannot hold would
// otherwise reach PostgreSQL and come back as a 500.
//
// The convention that makes the check generic: an input member of Go type
// int (or a type defined on int, such as FlexInt) is stored in an integer
// (int4) column, so it must fit 32 bits; an int64 member is a bigint and
// needs no check, unless it carries the tag `range:"unix"`, which marks Unix
// seconds that become a timestamptz; a time.Time must lie in the years
// 1 to 9999, like every timestamp of the API. A member tagged
// `range:"amount"` (an amount in minor units, a unit price, a quantity, a
// count of credits) must lie within the one bound on money, MaxAmount
// (internal/domain/amount), whatever its Go type.
const (
	// MinUnixSeconds is 0001-01-01T00:00:00Z.
	MinUnixSeconds int64 = -62135596800
	// MaxUnixSeconds is 9999-12-31T23:59:59Z.
	MaxUnixSeconds int64 = 253402300799
)

const (
	problemInt32 = "must be an integer from -2147483648 to 2147483647"
	// ProblemUnixSeconds is the one message of a timestamp out of range,
	// also used by the list filters.
	ProblemUnixSeconds = "must be a Unix timestamp in seconds from -62135596800 to 253402300799 (years 1 to 9999)"
)

var timeType = reflect.TypeOf(time.Time{})

// CheckRanges reports every member of params out of its range (see above),
// at its JSON path. params is an operation's parameters as parsed: a member
// named "input" (a map key or a field whose JSON name is input) is the
// request body, so its members are reported at the top level, as the
// client sent them.
func CheckRanges(params any) error {
	var f apierr.Fields
	checkRanges(&f, "", reflect.ValueOf(params), "")
	return f.Err()
}

// UnixSecondsInRange reports whether sec is a time the API can store.
func UnixSecondsInRange(sec int64) bool { return sec >= MinUnixSeconds && sec <= MaxUnixSeconds }

func checkRanges(f *apierr.Fields, path string, v reflect.Value, tag string) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		return
	}
	if v.Type() == timeType {
		if t := v.Interface().(time.Time); !t.IsZero() && (t.Year() < 1 || t.Year() > 9999) {
			f.Add(path, ProblemUnixSeconds)
		}
		return
	}
	switch v.Kind() {
	case reflect.Int:
		if n := v.Int(); n < math.MinInt32 || n > math.MaxInt32 {
			f.Add(path, problemInt32)
		} else if tag == "amount" {
			checkAmountRange(f, path, n)
		}
	case reflect.Int64:
		switch tag {
		case "unix":
			if !UnixSecondsInRange(v.Int()) {
				f.Add(path, ProblemUnixSeconds)
			}
		case "amount":
			checkAmountRange(f, path, v.Int())
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			sf := t.Field(i)
			if !sf.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			switch {
			case name == "-":
				continue
			case sf.Anonymous && name == "":
				checkRanges(f, path, v.Field(i), sf.Tag.Get("range"))
				continue
			case name == "":
				name = sf.Name
			}
			checkRanges(f, join(path, name), v.Field(i), sf.Tag.Get("range"))
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return
		}
		iter := v.MapRange()
		for iter.Next() {
			checkRanges(f, join(path, iter.Key().String()), iter.Value(), "")
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			checkRanges(f, join(path, strconv.Itoa(i)), v.Index(i), tag)
		}
	}
}

// checkAmountRange refuses an amount beyond the one bound on money.
func checkAmountRange(f *apierr.Fields, path string, n int64) {
	switch {
	case n > MaxAmount:
		f.Add(path, ProblemAmount)
	case n < -MaxAmount:
		f.Add(path, "must be at least -"+strconv.FormatInt(MaxAmount, 10))
	}
}

// join appends name to path; the operation's "input" member adds nothing.
func join(path, name string) string {
	switch {
	case path == "" && name == "input":
		return ""
	case path == "":
		return name
	default:
		return path + "." + name
	}
}
