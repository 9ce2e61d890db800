package main

import (
	"bytes"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// A derived member renders its method's value under its sdk name; a
// derivation naming no method of the field's type (or one taking
// arguments) fails the generation instead of writing code that does not
// compile.
func TestDerivedMembersRenderTheirMethod(t *testing.T) {
	pkg := checkSource(t, "package models\n"+
		"type Status string\n"+
		"func (s Status) Enabled() bool { return s == \"active\" }\n"+
		"func (s Status) Is(o string) bool { return string(s) == o }\n"+
		"type Endpoint struct {\n"+
		"\tStatus Status `json:\"status\" sdk:\"enabled,derived:Enabled\"`\n"+
		"\tAccountID string `json:\"account\" sdk:\"account_id\"`\n"+
		"}\n"+
		"type Missing struct{ Status Status `json:\"status\" sdk:\"enabled,derived:Active\"` }\n"+
		"type Argued struct{ Status Status `json:\"status\" sdk:\"enabled,derived:Is\"` }\n")
	st := func(name string) *types.Struct {
		return pkg.Scope().Lookup(name).Type().Underlying().(*types.Struct)
	}
	names, err := secondNamesOf(st("Endpoint"), "")
	if err != nil {
		t.Fatal(err)
	}
	want := []secondName{{name: "enabled", path: "Status.Enabled()"}, {name: "account_id", path: "AccountID"}}
	if len(names) != len(want) || names[0] != want[0] || names[1] != want[1] {
		t.Fatalf("second names %v, want %v", names, want)
	}
	for typ, says := range map[string]string{"Missing": "is no method", "Argued": "must take nothing"} {
		if _, err := secondNamesOf(st(typ), ""); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want an error saying %q", typ, err, says)
		}
	}
}

func checkSource(t *testing.T, src string) *types.Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "models.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("models", fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// A declared rendering or reading that names what the type lacks fails
// the generation, saying what, instead of writing code that does not
// compile.
func TestDeclaredCodecsRefuseWhatTheTypeLacks(t *testing.T) {
	pkg := checkSource(t, "package models\n"+
		"type Redacts struct {\n"+
		"\tID string `json:\"id\"`\n"+
		"\tredacted bool `wire:\"redacts:id,secret\"`\n"+
		"}\n"+
		"type Tombstoned struct{ Deleted int `wire:\"tombstone\"` }\n"+
		"type alts struct{ Amount *int64 `json:\"amount\" into:\"AmountCents\"` }\n"+
		"type Unknown struct{ sdk alts `wire:\"alternatives\"` }\n"+
		"type Mistyped struct {\n"+
		"\tAmountCents *int `json:\"amount_cents\"`\n"+
		"\tsdk alts `wire:\"alternatives\"`\n"+
		"}\n")
	st := func(name string) (*types.TypeName, *types.Struct) {
		obj := pkg.Scope().Lookup(name).(*types.TypeName)
		return obj, obj.Type().Underlying().(*types.Struct)
	}
	for typ, says := range map[string]string{
		"Redacts":    "redacts:secret names no member",
		"Tombstoned": "needs a time with IsZero",
		"Unknown":    "names no field of the request",
		"Mistyped":   "needs the type *int",
	} {
		obj, s := st(typ)
		var body bytes.Buffer
		err := marshaler(&body, typ, s)
		if err == nil {
			err = unmarshaler(&body, obj, s)
		}
		if err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%s: %v, want an error saying %q", typ, err, says)
		}
	}
}
