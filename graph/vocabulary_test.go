package graph_test

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/frame-oss/payments-server/models"
)

// schemaWithDirectives is the schema as written, its gqlgen directives
// (@goModel, @goEnum) included.
func schemaWithDirectives(t *testing.T) *ast.Schema {
	t.Helper()
	files, err := filepath.Glob("schema/*.graphqls")
	require.NoError(t, err)
	var sources []*ast.Source
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		sources = append(sources, &ast.Source{Name: f, Input: string(b)})
	}
	s, gerr := gqlparser.LoadSchema(sources...)
	require.Nil(t, gerr)
	return s
}

// The schema names one thing one way: every status (a field, an input
// field or an argument named status or ending in Status) is an enum, and
// every enum bound to a closed set
// of models (models.Enum) has exactly that set's values, in SCREAMING_CASE,
// so a filter takes the values objects return and REST's filters and
// GraphQL's refuse the same values.
func TestOneVocabularyForStatusesAndClosedSets(t *testing.T) {
	t.Parallel()
	s := schemaWithDirectives(t)
	// A display* field is a label for a person ("Inquiry: needs response"),
	// written beside the status it renders, not a value to match on.
	isStatus := func(name string) bool {
		return (name == "status" || strings.HasSuffix(name, "Status")) && !strings.HasPrefix(name, "display")
	}
	var stringTyped []string
	check := func(where string, typ *ast.Type) {
		named := typ.Name()
		def := s.Types[named]
		if def == nil || def.Kind == ast.Enum {
			return
		}
		if named == "String" {
			stringTyped = append(stringTyped, where)
		}
	}
	for _, def := range s.Types {
		if strings.HasPrefix(def.Name, "__") {
			continue
		}
		for _, f := range def.Fields {
			if isStatus(f.Name) && !strings.HasSuffix(f.Name, "statusCode") {
				check(def.Name+"."+f.Name, f.Type)
			}
			for _, a := range f.Arguments {
				if isStatus(a.Name) {
					check(def.Name+"."+f.Name+"("+a.Name+")", a.Type)
				}
			}
		}
	}
	slices.Sort(stringTyped)
	require.Empty(t, stringTyped, "statuses typed String: make each an enum bound to its models.Enum type")

	// One casing for currencies: every currency is a CurrencyCode, which
	// GraphQL writes upper case.
	var currencies []string
	for _, def := range s.Types {
		for _, f := range def.Fields {
			if (f.Name == "currency" || strings.HasSuffix(f.Name, "Currency")) && f.Type.Name() != "CurrencyCode" {
				currencies = append(currencies, def.Name+"."+f.Name)
			}
		}
	}
	require.Empty(t, currencies, "currencies not typed CurrencyCode")

	bound := 0
	for _, b := range enumBindings(s) {
		bound++
		wire, _ := models.EnumValues(b.typ)
		var want, got []string
		for _, w := range wire {
			want = append(want, strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(w)))
		}
		for _, v := range b.def.EnumValues {
			got = append(got, v.Name)
		}
		slices.Sort(want)
		slices.Sort(got)
		require.Equal(t, want, got, "enum %s and the closed set %s", b.def.Name, b.goName)
	}
	require.GreaterOrEqual(t, bound, 10, "the closed sets are bound to enums")
}

// enumBinding is a GraphQL enum bound (@goModel) to a closed set of
// models: the Go type's name as the directive writes it, and the type.
type enumBinding struct {
	def    *ast.Definition
	goName string
	typ    reflect.Type
}

// enumBindings is every binding of the schema's enums to a closed set
// declared in models (models.EnumTypes), in the schema's order, each
// enum's bindings in the directive's order.
func enumBindings(s *ast.Schema) []enumBinding {
	byName := map[string]reflect.Type{}
	for _, typ := range models.EnumTypes() {
		byName[typ.PkgPath()+"."+typ.Name()] = typ
	}
	var out []enumBinding
	for _, def := range s.Types {
		if def.Kind != ast.Enum {
			continue
		}
		d := def.Directives.ForName("goModel")
		if d == nil {
			continue
		}
		var goTypes []string
		if m := d.Arguments.ForName("model"); m != nil {
			goTypes = append(goTypes, m.Value.Raw)
		}
		if ms := d.Arguments.ForName("models"); ms != nil {
			for _, c := range ms.Value.Children {
				goTypes = append(goTypes, c.Value.Raw)
			}
		}
		for _, name := range goTypes {
			if typ, ok := byName[name]; ok {
				out = append(out, enumBinding{def: def, goName: name, typ: typ})
			}
		}
	}
	return out
}

// generatedMarshalers is every (un)marshaler name the generated executor
// declares: gqlgen names each after the GraphQL type and the Go type it
// converts between ("marshalNFeeType2githubᚗcom…modelsᚐFeeType").
func generatedMarshalers(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("generated/*.go")
	require.NoError(t, err)
	decl := regexp.MustCompile(`func \(ec \*executionContext\) ((?:un)?marshal[NO][^(]+)\(`)
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range decl.FindAllSubmatch(b, -1) {
			names = append(names, string(m[1]))
		}
	}
	return names
}

// A closed set is typed by its enum wherever GraphQL speaks of it: every
// closed set declared in models (models.Enum's registry, not a list kept
// here) that the executor converts at all is converted by an enum bound to
// it, never by String (which gqlgen would cast to the named type, putting
// the wire spelling on the wire and taking any string in). A closed set
// typed String in the schema fails here once its Go type is declared with
// models.Enum.
func TestClosedSetsAreEnumsWhereverGraphQLConvertsThem(t *testing.T) {
	t.Parallel()
	s := schemaWithDirectives(t)
	pkg := reflect.TypeFor[models.FeeType]().PkgPath()
	modelsPath := strings.NewReplacer(".", "ᚗ", "/", "ᚋ", "-", "ᚑ").Replace(pkg) + "ᚐ"
	declared := map[string]bool{}
	for _, typ := range models.EnumTypes() {
		if typ.PkgPath() == pkg {
			declared[typ.Name()] = true
		}
	}
	converter := regexp.MustCompile(`^(?:un)?marshal[NO](\w+?)2[ᚕᚖ]*` + regexp.QuoteMeta(modelsPath) + `(\w+)`)
	var wrong []string
	converted := map[string]bool{}
	for _, name := range generatedMarshalers(t) {
		m := converter.FindStringSubmatch(name)
		if m == nil || !declared[m[2]] {
			continue
		}
		converted[m[2]] = true
		if def := s.Types[m[1]]; def == nil || def.Kind != ast.Enum {
			wrong = append(wrong, "models."+m[2]+" as "+m[1])
		}
	}
	slices.Sort(wrong)
	require.Empty(t, slices.Compact(wrong), "closed sets GraphQL converts through a type that is not an enum: bind an enum to each")
	for _, name := range []string{"FeeApplicationMode", "FeeType", "BillableEventType", "AuthorizationMode", "PayoutSpeed",
		"FundingCadence", "LineItemKind", "BillingReason", "FeeSource"} {
		require.True(t, declared[name], "models.%s is declared with models.Enum", name)
		require.True(t, converted[name], "GraphQL converts models.%s", name)
	}
}
