package app_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A resource's members are declared once, on its Go model (bun and json
// tags); REST, GraphQL, events and the reads derive from it. What restates
// them is refused here, in the production code (tests and generated files
// aside):
//
//   - JSON built in SQL (json_build_object, json_agg, row_to_json, …):
//     children are read in their parent's statement by op.Embed, which
//     derives its aggregate from the child's model (resolvers/op/embed.go,
//     the one place such SQL is written);
//   - a hand-written codec that writes member names: a MarshalJSON,
//     UnmarshalJSON, Scan, Value, MarshalText or …JSON function whose body
//     holds a JSON key ("name":), a member's name ("account_id"), a
//     struct with json tags of a shape other than its receiver's, or a
//     second name appended by hand (withSDKMembers: a second name is an
//     sdk tag on its field, whose MarshalJSON is generated).
//
// What differs from encoding/json's rendering or reading is declared on
// the fields instead (sdk, wire, into and null tags, read by
// models/generate), so no entry lists an exception here: a new
// hand-written codec or second shape fails the test.

// envelopes are the transports' own bodies around resources, whose members
// are no resource's.
var envelopes = map[string]bool{
	"rest/jsonbody/render.go: Page.appendJSON": true, // {"meta": …, "data": […]}
}

// derivedAggregate is the one file that writes JSON in SQL, from models'
// metadata.
const derivedAggregate = "resolvers/op/embed.go"

// jsonInSQL finds the PostgreSQL functions that build JSON.
var jsonInSQL = regexp.MustCompile(`(?i)\b(jsonb?_build_object|jsonb?_build_array|jsonb?_agg|jsonb?_object_agg|row_to_json|array_to_json|to_jsonb?)\s*\(`)

// jsonKey finds a JSON object key written in a string; memberName a
// string that is a member's snake_case name.
var (
	jsonKey    = regexp.MustCompile(`"[A-Za-z0-9_]+"\s*:`)
	memberName = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)+$`)
)

// isCodec tells the functions that encode or decode a value.
func isCodec(name string) bool {
	switch name {
	case "MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText", "Scan", "Value":
		return true
	}
	return strings.HasSuffix(strings.ToLower(name), "json")
}

// isGenerated reports whether the Go file at path is generated code,
// from its package clause and the comments before it alone.
func isGenerated(path string) (bool, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return false, err
	}
	return ast.IsGenerated(f), nil
}

// forEachProductionFile parses each Go file of the tree that is neither a
// test nor generated, and hands it to visit with its path from the root.
func forEachProductionFile(t *testing.T, visit func(rel string, f *ast.File)) {
	t.Helper()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		// The generated files are most of the tree's bytes (gqlgen's
		// executor alone is megabytes): their header says what they are,
		// so only the others are parsed whole.
		if generated, err := isGenerated(path); err != nil || generated {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		visit(rel, f)
		return nil
	})
	require.NoError(t, err)
}

func TestMembersAreDeclaredOnce(t *testing.T) {
	t.Parallel()
	found := map[string]string{}
	forEachProductionFile(t, func(rel string, f *ast.File) {
		for finding, what := range restatements(f) {
			if finding == "JSON built in SQL" && rel == derivedAggregate {
				continue
			}
			if !envelopes[rel+": "+finding] {
				found[rel+": "+finding] = what
			}
		}
	})

	for _, key := range slices.Sorted(maps.Keys(found)) {
		t.Errorf("%s restates members (%s): declare them once, on the model (op.Embed for children read with their parent, "+
			"struct tags for a rendering or a reading)", key, found[key])
	}
}

// restatements are what f writes of members a second time: "JSON built in
// SQL", and "Type.Method" for each hand-written codec naming members, with
// what was seen.
func restatements(f *ast.File) map[string]string {
	out := map[string]string{}
	tagged := taggedStructs(f)
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && jsonInSQL.MatchString(s) {
				out["JSON built in SQL"] = jsonInSQL.FindString(s)
			}
		}
		fn, ok := n.(*ast.FuncDecl)
		if !ok || fn.Body == nil || !isCodec(fn.Name.Name) {
			return true
		}
		receiver := ""
		if fn.Recv != nil && len(fn.Recv.List) == 1 {
			receiver = typeName(fn.Recv.List[0].Type)
		}
		var seen []string
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); n.Kind == token.STRING && err == nil &&
					(jsonKey.MatchString(s) || memberName.MatchString(s)) {
					seen = append(seen, strconv.Quote(s))
				}
			case *ast.StructType:
				if hasJSONTags(n) {
					seen = append(seen, "a struct with json tags")
				}
			case *ast.CallExpr:
				// A second name appended by hand, whatever it is spelt:
				// it belongs on its field (an sdk tag).
				if typeName(n.Fun) == "withSDKMembers" {
					seen = append(seen, "a second name appended by hand")
				}
			case *ast.CompositeLit:
				if name := typeName(n.Type); name != receiver && tagged[name] {
					seen = append(seen, "a "+name)
				}
			case *ast.ValueSpec:
				if name := typeName(n.Type); name != receiver && tagged[name] {
					seen = append(seen, "a "+name)
				}
			}
			return true
		})
		if len(seen) > 0 {
			key := fn.Name.Name
			if receiver != "" {
				key = receiver + "." + key
			}
			out[key] = strings.Join(seen, ", ")
		}
		return true
	})
	return out
}

// taggedStructs are the struct types f declares with json tags.
func taggedStructs(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok {
			for _, s := range g.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok {
					if st, ok := ts.Type.(*ast.StructType); ok && hasJSONTags(st) {
						out[ts.Name.Name] = true
					}
				}
			}
		}
	}
	return out
}

func hasJSONTags(st *ast.StructType) bool {
	for _, field := range st.Fields.List {
		if field.Tag == nil {
			continue
		}
		tag, err := strconv.Unquote(field.Tag.Value)
		if err == nil {
			if name, ok := reflect.StructTag(tag).Lookup("json"); ok && name != "-" {
				return true
			}
		}
	}
	return false
}

// typeName is the name of a (pointer to a, generic) named type, or "".
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.IndexExpr:
		return typeName(e.X)
	case *ast.IndexListExpr:
		return typeName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// The checks find what they are meant to: the constructs this change
// removed, as they were written.
func TestMembersCheckFindsRestatements(t *testing.T) {
	src := `package models
const capabilities = "(SELECT coalesce(json_agg(json_build_array(c.id, c.name)), '[]') FROM capabilities AS c)"
func (c *Capability) appendJSON(b []byte) []byte { return append(b, ` + "`" + `{"livemode":` + "`" + `...) }
func (p PhoneVerification) MarshalJSON() ([]byte, error) { return withSDKMembers(nil, sdkMember{"account_id", p.AccountID}) }
func (c Customer) MarshalJSON() ([]byte, error) { return json.Marshal(struct{ ID string ` + "`json:\"id\"`" + ` }{}) }
type redacted struct{ ID string ` + "`json:\"id\"`" + ` }
func (pm PaymentMethod) MarshalJSON() ([]byte, error) { return json.Marshal(redacted{}) }
func (p *Profile) Scan(src any) error { return scanJSONColumn(src, p) }
func (e WebhookEndpoint) MarshalJSON() ([]byte, error) { return withSDKMembers(nil, sdkMember{"enabled", true}) }
func (a Account) MarshalJSON() ([]byte, error) { type plain Account; return marshalJSON(plain(a)) }
func (in *PromotionCodeInput) UnmarshalJSON(b []byte) error { in.ClearMaxRedemptions = isNull(b, "max_redemptions"); return nil }
`
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	require.NoError(t, err)
	require.Equal(t, []string{"Capability.appendJSON", "Customer.MarshalJSON", "JSON built in SQL",
		"PaymentMethod.MarshalJSON", "PhoneVerification.MarshalJSON", "PromotionCodeInput.UnmarshalJSON", "WebhookEndpoint.MarshalJSON"}, slices.Sorted(maps.Keys(restatements(f))))
}
