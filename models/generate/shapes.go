package main

import (
	"fmt"
	"go/types"
	"reflect"
	"strings"
)

// secondShape is a rendering of a resource other than its json tags',
// chosen while a field says so: a tombstone, a redaction.
type secondShape struct {
	doc    string // what the MarshalJSON's comment says of it
	when   string // Go condition on v, the value rendered
	render string // Go expression rendering v, ([]byte, error)
}

// tombstoneMembers are the fields a tombstone is filled from, each the
// member of the same name of the resource.
var tombstoneMembers = []string{"ID", "Livemode", "Created", "Updated"}

// secondShapesOf are the second shapes the fields of s declare (wire tags),
// in field order.
func secondShapesOf(s *types.Struct) ([]secondShape, error) {
	var out []secondShape
	for i := range s.NumFields() {
		f := s.Field(i)
		tag := reflect.StructTag(s.Tag(i)).Get("wire")
		switch {
		case tag == "tombstone":
			shape, err := tombstone(s, f)
			if err != nil {
				return nil, err
			}
			out = append(out, shape)
		case strings.HasPrefix(tag, "redacts:"):
			shape, err := redaction(s, f, strings.Split(strings.TrimPrefix(tag, "redacts:"), ","))
			if err != nil {
				return nil, err
			}
			out = append(out, shape)
		}
	}
	return out, nil
}

// tombstone renders a resource whose time field f is set as the
// Tombstone of its kind (its Object field's), filled from its
// tombstoneMembers.
func tombstone(s *types.Struct, f *types.Var) (secondShape, error) {
	if _, ok := f.Type().(*types.Named); !ok || !hasMethod(f.Type(), "IsZero", false) {
		return secondShape{}, fmt.Errorf("%s: wire:\"tombstone\" needs a time with IsZero", f.Name())
	}
	obj, _, _ := types.LookupFieldOrMethod(s, false, f.Pkg(), "Object")
	field, ok := obj.(*types.Var)
	var kind string
	if ok {
		if named, isNamed := field.Type().(*types.Named); isNamed && named.Obj().Name() == "Object" && named.TypeArgs().Len() == 1 {
			kind = types.TypeString(named.TypeArgs().At(0), func(*types.Package) string { return "" })
		}
	}
	if kind == "" {
		return secondShape{}, fmt.Errorf("%s: a tombstone names its kind by the resource's Object field, which it lacks", f.Name())
	}
	values := []string{"Deleted: true"}
	for _, m := range tombstoneMembers {
		if obj, _, _ := types.LookupFieldOrMethod(s, false, f.Pkg(), m); obj == nil {
			return secondShape{}, fmt.Errorf("%s: a tombstone is filled from the field %s, which the resource lacks", f.Name(), m)
		}
		values = append(values, fmt.Sprintf("%s: v.%s", m, m))
	}
	return secondShape{
		doc:    fmt.Sprintf("Once %s is set, it renders as its Tombstone", f.Name()),
		when:   fmt.Sprintf("!v.%s.IsZero()", f.Name()),
		render: fmt.Sprintf("json.Marshal(Tombstone[%s]{%s})", kind, strings.Join(values, ", ")),
	}, nil
}

// redaction renders a resource whose bool field f is true as the members
// named alone, in that order.
func redaction(s *types.Struct, f *types.Var, names []string) (secondShape, error) {
	if b, ok := f.Type().(*types.Basic); !ok || b.Kind() != types.Bool {
		return secondShape{}, fmt.Errorf("%s: wire:\"redacts:…\" goes on a bool field", f.Name())
	}
	members, err := membersOf(s, "")
	if err != nil {
		return secondShape{}, err
	}
	kept := make([]string, 0, len(names))
	for _, name := range names {
		i := indexOf(members, name)
		if i < 0 {
			return secondShape{}, fmt.Errorf("%s: redacts:%s names no member of the resource", f.Name(), name)
		}
		kept = append(kept, fmt.Sprintf("sdkMember{%q, v.%s}", name, members[i].path))
	}
	return secondShape{
		doc:    fmt.Sprintf("While %s, it renders as its members\n// %s alone", f.Name(), strings.Join(names, ", ")),
		when:   "v." + f.Name(),
		render: fmt.Sprintf("withSDKMembers([]byte(\"{}\"), %s)", strings.Join(kept, ", ")),
	}, nil
}

func indexOf(members []member, name string) int {
	for i, m := range members {
		if m.name == name {
			return i
		}
	}
	return -1
}
