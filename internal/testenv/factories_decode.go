package testenv

import (
	"net/http"
	"reflect"

	"github.com/google/uuid"
)

// create posts body to path and decodes the 201 answer into the resource's
// model, so a test reads a fixture's fields with the types the server uses
// (uuid.UUID ids, int64 amounts) rather than through JSON-shaped maps.
// Anything but 201 fails the test, naming what was being created.
func create[T any](c *Client, what, path string, body any) *T {
	c.env.T.Helper()
	return post[T](c, "create "+what, path, body, http.StatusCreated)
}

// post is create for an action answering want (200 for a confirm), named
// by what in the failure.
func post[T any](c *Client, what, path string, body any, want int) *T {
	t := c.env.T
	t.Helper()
	r := c.Post(path, body)
	if r.Status != want {
		t.Fatalf("testenv: %s: want %d, got %d: %s", what, want, r.Status, r.Body)
	}
	v := new(T)
	r.Decode(v)
	return v
}

// ID returns the id of a fixture as the API spells it: the "id" member of
// a decoded JSON object, or the ID field of a model. Tests that hold both
// kinds (a model from a factory, a map from a response they assert on) can
// name either the same way.
func ID(v any) string {
	if m, ok := v.(map[string]any); ok {
		s, _ := m["id"].(string)
		return s
	}
	rv := reflect.Indirect(reflect.ValueOf(v))
	if rv.Kind() == reflect.Struct {
		if f := rv.FieldByName("ID"); f.IsValid() {
			if u, ok := f.Interface().(uuid.UUID); ok {
				return u.String()
			}
		}
	}
	panic("testenv: ID of a " + reflect.TypeOf(v).String() + ", which has no id")
}
