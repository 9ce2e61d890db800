package apierr

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
)

// Fields collects every field problem of one request so that the client
// learns all of them at once, not one per round trip.
type Fields struct {
	problems map[string][]string
	order    []string
	// parent and prefix make a view (Under) that records into parent.
	parent *Fields
	prefix string
}

// Under returns a view of f that records every problem at prefix.path:
// the checks of a nested input (a payment method inside a charge intent)
// report under its member, together with the outer input's problems.
func (f *Fields) Under(prefix string) *Fields { return &Fields{parent: f, prefix: prefix + "."} }

// Add records a problem with the field at the dotted path.
func (f *Fields) Add(path, problem string) {
	if f.parent != nil {
		f.parent.Add(f.prefix+path, problem)
		return
	}
	if f.problems == nil {
		f.problems = map[string][]string{}
	}
	if _, seen := f.problems[path]; !seen {
		f.order = append(f.order, path)
	}
	f.problems[path] = append(f.problems[path], problem)
}

// Addf records a formatted problem.
func (f *Fields) Addf(path, format string, args ...any) { f.Add(path, fmt.Sprintf(format, args...)) }

// Has reports whether path already has a problem.
func (f *Fields) Has(path string) bool {
	if f.parent != nil {
		return f.parent.Has(f.prefix + path)
	}
	_, ok := f.problems[path]
	return ok
}

// Empty reports whether no problem was recorded (under a view's prefix,
// for a view).
func (f *Fields) Empty() bool {
	if f.parent != nil {
		for _, path := range f.parent.root().order {
			if strings.HasPrefix(path, f.parent.prefixOf()+f.prefix) {
				return false
			}
		}
		return true
	}
	return len(f.problems) == 0
}

// root is the Fields a view records into.
func (f *Fields) root() *Fields {
	for f.parent != nil {
		f = f.parent
	}
	return f
}

// prefixOf is the whole prefix a view adds (empty for a root).
func (f *Fields) prefixOf() string {
	if f.parent == nil {
		return ""
	}
	return f.parent.prefixOf() + f.prefix
}

// Err returns the validation error, or nil when there is no problem. A
// view answers for everything recorded, as its root does.
func (f *Fields) Err() error {
	if f.parent != nil {
		return f.root().Err()
	}
	if f.Empty() {
		return nil
	}
	return Validation(f.problems, f.order)
}

// Validation builds the 422 validation_errors error. order gives the order in
// which problems were found; the message lists them in that order.
func Validation(problems map[string][]string, order []string) *Error {
	if len(order) == 0 {
		for k := range problems {
			order = append(order, k)
		}
		sort.Strings(order)
	}
	parts := make([]string, 0, len(order))
	for _, path := range order {
		parts = append(parts, path+" "+strings.Join(problems[path], ", "))
	}
	e := &Error{Status: http.StatusUnprocessableEntity, Code: CodeValidation,
		Message: "Validation failed: " + strings.Join(parts, "; "), Fields: problems}
	if len(order) == 1 {
		e.Param = order[0]
	}
	return e
}

// FieldError is a validation error about one field.
func FieldError(path, problem string) *Error {
	return Validation(map[string][]string{path: {problem}}, []string{path})
}
