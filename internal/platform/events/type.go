package events

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Type is an event type. Only Declare makes one, so an operation can emit
// only a type some area declared: a misspelt or forgotten type does not
// compile, and every type emitted is one webhook endpoints may subscribe to.
type Type struct{ name string }

// String is the type's wire name ("transfer.created").
func (t Type) String() string { return t.name }

// IsZero reports whether t is the zero Type, which names no event (a
// field meaning "no event chosen yet").
func (t Type) IsZero() bool { return t.name == "" }

// Declaration is a declared type and what triggers it, as the webhook
// catalogue documents it.
type Declaration struct {
	Type    Type
	Trigger string
}

// Name is the declared type's wire name.
func (d Declaration) Name() string { return d.Type.name }

// typeName is the shape of a wire name: dot-separated lowercase words.
var typeName = regexp.MustCompile(`^[a-z][a-z_]*(\.[a-z][a-z_]*)+$`)

var registry = struct {
	sync.RWMutex
	byName map[string]Declaration
}{byName: map[string]Declaration{}}

// Declare declares an event type once, with what triggers it, in its area's
// events file as a package-level value:
//
//	var EventTransferCreated = events.Declare("transfer.created", "a transfer is created")
//
// The declarations are the webhook catalogue (Declarations) and the list
// docs/webhooks.md shows. A second declaration of one name, a malformed
// name or an empty trigger is a programming error and panics when the
// program starts.
func Declare(name, trigger string) Type {
	if !typeName.MatchString(name) {
		panic(fmt.Sprintf("events: %q is not an event type name (dot-separated lowercase words)", name))
	}
	if strings.TrimSpace(trigger) == "" {
		panic(fmt.Sprintf("events: %s is declared without what triggers it", name))
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.byName[name]; dup {
		panic(fmt.Sprintf("events: %s is declared twice", name))
	}
	t := Type{name: name}
	registry.byName[name] = Declaration{Type: t, Trigger: trigger}
	return t
}

// Declarations returns every declared event type, by name.
func Declarations() []Declaration {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]Declaration, 0, len(registry.byName))
	for _, d := range registry.byName {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b Declaration) int { return strings.Compare(a.Name(), b.Name()) })
	return out
}

// IsDeclared reports whether name is a declared event type.
func IsDeclared(name string) bool {
	registry.RLock()
	defer registry.RUnlock()
	_, ok := registry.byName[name]
	return ok
}
