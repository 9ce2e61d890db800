package main

import (
	"bytes"
	"fmt"
	"go/types"
	"reflect"
	"strings"
)

// A request type's reading differs from encoding/json's where its fields
// declare it:
//
//   - wire:"alternatives" on a struct field: the members of that struct
//     (the real service's SDK's names) are read from the same body; one
//     tagged into:"Field" is carried into Field when Field was not sent.
//     Its type is Field's, or has a method Value returning Field's type
//     (nil: nothing to carry). One named as a member of the request is
//     read by the alternative alone (a member the SDK sends in another
//     JSON type). When the alternatives struct has a field named carried,
//     carried.note records the name a carried value was read under;
//   - null:"member" on a *bool field: true when member is sent as null
//     (a PATCH that clears);
//   - a request embedding one whose reading is declared reads through
//     the embedded one's, then its own members.
//
// unmarshaler writes the UnmarshalJSON of the named struct type obj, st,
// when it has such fields.
func unmarshaler(body *bytes.Buffer, obj *types.TypeName, st *types.Struct) error {
	if !readsItsOwnWay(st) {
		return nil
	}
	name := obj.Name()
	fmt.Fprintf(body, "// UnmarshalJSON reads %s as encoding/json does, then what its\n// fields' tags declare (alternative members, members sent as null).\n", name)
	fmt.Fprintf(body, "func (in *%s) UnmarshalJSON(b []byte) error {\n", name)
	if inner := embeddedReading(st); inner != nil {
		if err := readThroughEmbedded(body, obj.Pkg(), st, inner); err != nil {
			return err
		}
		body.WriteString("return nil\n}\n\n")
		return nil
	}
	alternatives, err := alternativesOf(st)
	if err != nil {
		return err
	}
	var shadows []string
	for _, a := range alternatives {
		if a.shadows != "" {
			shadows = append(shadows, fmt.Sprintf("%s json.RawMessage `json:%q`", a.shadows, a.member))
		}
	}
	fmt.Fprintf(body, "type plain %s\n", name)
	if len(shadows) == 0 {
		body.WriteString("if err := json.Unmarshal(b, (*plain)(in)); err != nil {\nreturn err\n}\n")
	} else {
		fmt.Fprintf(body, "if err := json.Unmarshal(b, &struct {\n*plain\n%s\n}{plain: (*plain)(in)}); err != nil {\nreturn err\n}\n",
			strings.Join(shadows, "\n"))
	}
	if len(alternatives) > 0 {
		fmt.Fprintf(body, "if err := json.Unmarshal(b, &in.%s); err != nil {\nreturn err\n}\n", alternatives[0].field)
	}
	for _, a := range alternatives {
		if a.into != "" {
			body.WriteString(a.carry())
		}
	}
	if nulls := nullFlags(st); len(nulls) > 0 {
		body.WriteString("nulls, err := membersSentNull(b)\nif err != nil {\nreturn err\n}\n")
		for _, n := range nulls {
			fmt.Fprintf(body, "in.%s = nulls.flag(%q)\n", n[0], n[1])
		}
	}
	body.WriteString("return nil\n}\n\n")
	return nil
}

// readsItsOwnWay tells a struct whose fields declare their reading, or
// that embeds one.
func readsItsOwnWay(st *types.Struct) bool {
	for i := range st.NumFields() {
		tag := reflect.StructTag(st.Tag(i))
		if tag.Get("wire") == "alternatives" || tag.Get("null") != "" {
			return true
		}
	}
	return embeddedReading(st) != nil
}

// embeddedReading is the embedded struct field of st whose reading is
// declared: its UnmarshalJSON would be promoted to st and read st's own
// members not at all, so st gets one that reads both.
func embeddedReading(st *types.Struct) *types.Var {
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		if inner, ok := f.Type().Underlying().(*types.Struct); ok && readsItsOwnWay(inner) {
			return f
		}
	}
	return nil
}

// readThroughEmbedded reads the embedded request first, then st's own
// members through a struct of them.
func readThroughEmbedded(body *bytes.Buffer, pkg *types.Package, st *types.Struct, inner *types.Var) error {
	fmt.Fprintf(body, "if err := in.%[1]s.UnmarshalJSON(b); err != nil {\nreturn err\n}\n", inner.Name())
	var fields, targets, values []string
	for i := range st.NumFields() {
		f := st.Field(i)
		tag := reflect.StructTag(st.Tag(i))
		if f == inner || !f.Exported() || tag.Get("json") == "-" {
			continue
		}
		if f.Embedded() {
			return fmt.Errorf("%s: a second embedded request is not supported", f.Name())
		}
		typ, err := localType(pkg, f.Type())
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name(), err)
		}
		fields = append(fields, fmt.Sprintf("%s %s `json:%q`", f.Name(), typ, tag.Get("json")))
		targets, values = append(targets, "in."+f.Name()), append(values, "own."+f.Name())
	}
	if len(fields) == 0 {
		return nil
	}
	fmt.Fprintf(body, "var own struct {\n%s\n}\nif err := json.Unmarshal(b, &own); err != nil {\nreturn err\n}\n%s = %s\n",
		strings.Join(fields, "\n"), strings.Join(targets, ", "), strings.Join(values, ", "))
	return nil
}

// localType writes t as the models package names it; only the package's
// own types and the language's are supported (no imports to write).
func localType(pkg *types.Package, t types.Type) (string, error) {
	foreign := false
	s := types.TypeString(t, func(p *types.Package) string {
		if p != pkg {
			foreign = true
		}
		return ""
	})
	if foreign {
		return "", fmt.Errorf("the type %s is of another package", t)
	}
	return s, nil
}

// alternative is a member of the alternatives struct.
type alternative struct {
	field    string // the alternatives struct's field in the request ("sdk")
	path     string // the member's field in it ("PercentOff")
	member   string // its JSON name ("percent_off")
	into     string // the request's field it is carried into, if any
	intoName string // that field's JSON name
	byValue  bool   // carried through its Value method
	shadows  string // the request's field of the same JSON name, read by the alternative alone
	notes    bool   // the alternatives struct records what it carried
}

// carry is the code carrying a into its field when that was not sent.
func (a alternative) carry() string {
	note := ""
	if a.notes {
		note = fmt.Sprintf("in.%s.carried.note(%q, %q)\n", a.field, a.intoName, a.member)
	}
	if a.byValue {
		return fmt.Sprintf("if v := in.%[1]s.%[2]s.Value(); in.%[3]s == nil && v != nil {\nin.%[3]s = v\n%[4]s}\n", a.field, a.path, a.into, note)
	}
	return fmt.Sprintf("if in.%[3]s == nil && in.%[1]s.%[2]s != nil {\nv := *in.%[1]s.%[2]s\nin.%[3]s = &v\n%[4]s}\n", a.field, a.path, a.into, note)
}

// alternativesOf lists the members of st's alternatives struct (at most
// one), checking their into tags against st.
func alternativesOf(st *types.Struct) ([]alternative, error) {
	var out []alternative
	found := false
	for i := range st.NumFields() {
		if reflect.StructTag(st.Tag(i)).Get("wire") != "alternatives" {
			continue
		}
		if found {
			return nil, fmt.Errorf("two fields tagged wire:\"alternatives\"")
		}
		found = true
		holder := st.Field(i)
		alts, ok := holder.Type().Underlying().(*types.Struct)
		if !ok {
			return nil, fmt.Errorf("%s: wire:\"alternatives\" goes on a struct", holder.Name())
		}
		notes := false
		for j := range alts.NumFields() {
			if alts.Field(j).Name() == "carried" {
				notes = true
			}
		}
		for j := range alts.NumFields() {
			f := alts.Field(j)
			tag := reflect.StructTag(alts.Tag(j))
			member, _, _ := strings.Cut(tag.Get("json"), ",")
			if !f.Exported() || member == "" || member == "-" {
				continue
			}
			a := alternative{field: holder.Name(), path: f.Name(), member: member, notes: notes}
			if target := fieldByJSONName(st, member); target != nil {
				a.shadows = target.Name()
			}
			if into := tag.Get("into"); into != "" {
				target := fieldByName(st, into)
				if target == nil {
					return nil, fmt.Errorf("%s.%s: into:%q names no field of the request", holder.Name(), f.Name(), into)
				}
				a.into, a.intoName = into, jsonNameOf(st, into)
				switch {
				case types.Identical(f.Type(), target.Type()):
					if _, isPtr := f.Type().(*types.Pointer); !isPtr {
						return nil, fmt.Errorf("%s.%s: into needs a pointer (nil: not sent)", holder.Name(), f.Name())
					}
				case valueOf(f.Type(), target.Type()):
					a.byValue = true
				default:
					return nil, fmt.Errorf("%s.%s: into:%q needs the type %s or a Value method giving it", holder.Name(), f.Name(), into, target.Type())
				}
			}
			out = append(out, a)
		}
	}
	return out, nil
}

// valueOf tells whether t has a method Value() of type want.
func valueOf(t, want types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Value")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), want)
}

func fieldByName(st *types.Struct, name string) *types.Var {
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			return st.Field(i)
		}
	}
	return nil
}

func jsonNameOf(st *types.Struct, name string) string {
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			n, _, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
			return n
		}
	}
	return ""
}

// fieldByJSONName is the direct field of st read from the member name.
func fieldByJSONName(st *types.Struct, member string) *types.Var {
	for i := range st.NumFields() {
		n, _, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		if n == member && st.Field(i).Exported() {
			return st.Field(i)
		}
	}
	return nil
}

// nullFlags are st's fields tagged null, with the member each watches.
func nullFlags(st *types.Struct) [][2]string {
	var out [][2]string
	for i := range st.NumFields() {
		if member := reflect.StructTag(st.Tag(i)).Get("null"); member != "" {
			out = append(out, [2]string{st.Field(i).Name(), member})
		}
	}
	return out
}
