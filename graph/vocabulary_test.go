package graph_test

import (
	"os"
	"path/filepath"
	"reflect"
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

// stringStatuses are the status fields still typed String: closed sets
// that have no models.Enum declaration yet. A new status field is an enum;
// this list only shrinks.
var stringStatuses = map[string]bool{
	"Charge.status": true, "Dispute.status": true, "Dispute.displayStatus": true, "Refund.status": true,
	"BillingAgreement.status": true, "GeoComplianceStatus.status": true, "IDVResult.status": true,
	"MerchantBalance.status": true, "PaymentLinkSession.status": true,
	"CreateCouponInput.status": true, "UpdateCouponInput.status": true, "CreateAgreementInput.status": true,
	"UpdateAgreementInput.status": true,
}

// The schema names one thing one way: every status (a field, an input
// field or an argument named status or ending in Status) is an enum but
// for the listed ones still waiting, and every enum bound to a closed set
// of models (models.Enum) has exactly that set's values, in SCREAMING_CASE,
// so a filter takes the values objects return and REST's filters and
// GraphQL's refuse the same values.
func TestOneVocabularyForStatusesAndClosedSets(t *testing.T) {
	t.Parallel()
	s := schemaWithDirectives(t)
	isStatus := func(name string) bool { return name == "status" || strings.HasSuffix(name, "Status") }
	var stringTyped []string
	check := func(where string, typ *ast.Type) {
		named := typ.Name()
		def := s.Types[named]
		if def == nil || def.Kind == ast.Enum {
			return
		}
		if named == "String" && !stringStatuses[where] {
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

	byName := map[string]reflect.Type{}
	for _, typ := range models.EnumTypes() {
		byName[typ.PkgPath()+"."+typ.Name()] = typ
	}
	bound := 0
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
			typ, ok := byName[name]
			if !ok {
				continue
			}
			bound++
			wire, _ := models.EnumValues(typ)
			var want, got []string
			for _, w := range wire {
				want = append(want, strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(w)))
			}
			for _, v := range def.EnumValues {
				got = append(got, v.Name)
			}
			slices.Sort(want)
			slices.Sort(got)
			require.Equal(t, want, got, "enum %s and the closed set %s", def.Name, name)
		}
	}
	require.GreaterOrEqual(t, bound, 10, "the closed sets are bound to enums")
}
