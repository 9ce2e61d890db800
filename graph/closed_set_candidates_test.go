package graph_test

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/models"
)

// The closed sets are found, not listed: a set the registry (models.Enum)
// does not know cannot reach GraphQL as a String unnoticed, because every
// place a closed set shows itself is walked here:
//
//   - a string type of models with constants of its own (a Go const set);
//   - a wire member of a model (with a json tag that is not "-") whose column
//     the database holds to a fixed list of values (a CHECK constraint).
//
// Each must be a type declared with models.Enum (TestClosedSetsAreEnums…
// then holds GraphQL to an enum for it), or be one of openSets, each with
// the reason it is not a closed set of the API.
func TestClosedSetCandidatesAreDeclaredEnums(t *testing.T) {
	t.Parallel()
	src := parseModels(t)
	// The walk sees what it should: a const set and a stored member.
	require.Contains(t, src.constSets["AccountStatus"], "AccountStatusActive")
	require.NotEmpty(t, src.columns["accounts.status"])
	declared := map[string]bool{}
	for _, typ := range models.EnumTypes() {
		declared[typ.PkgPath()+"."+typ.Name()] = true
	}
	modelsPkg := reflect.TypeFor[models.FeeType]().PkgPath()

	var missing []string
	for name, consts := range src.constSets {
		if len(consts) >= 2 && !declared[modelsPkg+"."+name] && openSets["models."+name] == "" {
			missing = append(missing, "models."+name+" (constants "+strings.Join(consts, ", ")+")")
		}
	}

	f := setup(t)
	rows, err := f.env.DB.Bun.QueryContext(context.Background(), `
		SELECT c.conrelid::regclass::text, a.attname, pg_get_constraintdef(c.oid)
		FROM pg_constraint c
		JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
		WHERE c.contype = 'c' AND cardinality(c.conkey) = 1 AND c.connamespace = 'public'::regnamespace`)
	require.NoError(t, err)
	defer rows.Close()
	checked := 0
	for rows.Next() {
		var table, column, def string
		require.NoError(t, rows.Scan(&table, &column, &def))
		values := closedList(def)
		if values == nil {
			continue
		}
		checked++
		for _, field := range src.columns[table+"."+column] {
			if field.goType != "" && declared[field.goType] {
				continue
			}
			where := field.structName + "." + field.name
			if openSets["models."+where] != "" {
				continue
			}
			missing = append(missing, "models."+where+" ("+table+"."+column+" in "+strings.Join(values, ", ")+")")
		}
	}
	require.NoError(t, rows.Err())
	require.Greater(t, checked, 20, "the database's closed lists are read")
	slices.Sort(missing)
	require.Empty(t, missing, "closed sets not declared with models.Enum: give each a type and declare its set")
}

// openSets are the string types with constants and the constrained
// columns that are not closed sets of the API, with the reason.
var openSets = map[string]string{
	"models.Decimal":     "a number written as text",
	"models.Date":        "a date written as text",
	"models.UsageNumber": "a number written as text",
	// Currencies are ISO 4217 codes (CurrencyCode in GraphQL): payouts and
	// their funding hold to USD today, a limit of the service, not a set
	// of the API's own.
	"models.Payout.Currency":          "an ISO 4217 currency",
	"models.FundingEntry.Currency":    "an ISO 4217 currency",
	"models.FundingSchedule.Currency": "an ISO 4217 currency",
}

// closedList is the values of a CHECK constraint that holds one column to
// a fixed list (col IN (...), col = '...'); nil for any other constraint.
func closedList(def string) []string {
	oneOf := regexp.MustCompile(`^CHECK \(\(\(?\w+\)?(?:::text)? = ANY \(\(?ARRAY\[(.*)\]\)?(?:::text\[\])?\)\)\)$`)
	single := regexp.MustCompile(`^CHECK \(\(\(?\w+\)?(?:::text)? = ('[^']*'::\w+(?: \w+)?)\)\)$`)
	var list string
	if m := oneOf.FindStringSubmatch(def); m != nil {
		list = m[1]
	} else if m := single.FindStringSubmatch(def); m != nil {
		list = m[1]
	} else {
		return nil
	}
	var values []string
	for _, m := range regexp.MustCompile(`'([^']*)'`).FindAllStringSubmatch(list, -1) {
		values = append(values, m[1])
	}
	return values
}

// modelSource is what the walk reads from models' source: each string
// type's constants, and the wire members stored in a table's column.
type modelSource struct {
	constSets map[string][]string      // type name -> its constants
	columns   map[string][]columnField // "table.column" -> the members stored there
}

type columnField struct {
	structName, name string
	// goType is the member's type as a registry key (import path and
	// name), "" for a built-in type (string, *string).
	goType string
}

func parseModels(t *testing.T) modelSource {
	t.Helper()
	fset := token.NewFileSet()
	paths, err := filepath.Glob("../models/*.go")
	require.NoError(t, err)
	modelsPkg := reflect.TypeFor[models.FeeType]().PkgPath()
	src := modelSource{constSets: map[string][]string{}, columns: map[string][]columnField{}}
	stringTypes := map[string]bool{}
	var files []*ast.File
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, p, nil, 0)
		require.NoError(t, err)
		files = append(files, file)
		for _, d := range file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					if id, ok := ts.Type.(*ast.Ident); ok && id.Name == "string" {
						stringTypes[ts.Name.Name] = true
					}
				}
			}
		}
	}
	for _, file := range files {
		imports := map[string]string{}
		for _, imp := range file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			name := filepath.Base(path)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imports[name] = path
		}
		for _, d := range file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			switch g.Tok {
			case token.CONST:
				// A constant's type is written (A T = "a"), converted
				// (A = T("a")) or carried down a block from the one above.
				var last string
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					typ := ""
					if id, ok := vs.Type.(*ast.Ident); ok {
						typ = id.Name
					} else if len(vs.Values) == 1 {
						if call, ok := vs.Values[0].(*ast.CallExpr); ok {
							if id, ok := call.Fun.(*ast.Ident); ok {
								typ = id.Name
							}
						}
					} else if vs.Type == nil && len(vs.Values) == 0 {
						typ = last
					}
					last = typ
					if stringTypes[typ] {
						for _, n := range vs.Names {
							src.constSets[typ] = append(src.constSets[typ], n.Name)
						}
					}
				}
			case token.TYPE:
				for _, s := range g.Specs {
					ts := s.(*ast.TypeSpec)
					st, ok := ts.Type.(*ast.StructType)
					if !ok {
						continue
					}
					table := structTable(st)
					if table == "" {
						continue
					}
					for _, fld := range st.Fields.List {
						if fld.Tag == nil || len(fld.Names) == 0 {
							continue
						}
						tag, _ := strconv.Unquote(fld.Tag.Value)
						column := strings.Split(reflect.StructTag(tag).Get("bun"), ",")[0]
						jsonTag, onWire := reflect.StructTag(tag).Lookup("json")
						if column == "" || strings.Contains(column, ":") || !onWire || strings.HasPrefix(jsonTag, "-") {
							continue
						}
						src.columns[table+"."+column] = append(src.columns[table+"."+column],
							columnField{structName: ts.Name.Name, name: fld.Names[0].Name, goType: typeKey(fld.Type, imports, modelsPkg)})
					}
				}
			}
		}
	}
	return src
}

// structTable is the table a model struct maps to (its bun.BaseModel's
// table: tag), "" for a struct that is not a table's row.
func structTable(st *ast.StructType) string {
	for _, fld := range st.Fields.List {
		sel, ok := fld.Type.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "BaseModel" || len(fld.Names) != 0 || fld.Tag == nil {
			continue
		}
		tag, _ := strconv.Unquote(fld.Tag.Value)
		for _, part := range strings.Split(reflect.StructTag(tag).Get("bun"), ",") {
			if name, ok := strings.CutPrefix(part, "table:"); ok {
				return name
			}
		}
	}
	return ""
}

// typeKey names a member's type as the registry does (import path, dot,
// name), through a pointer; "" for a built-in type.
func typeKey(e ast.Expr, imports map[string]string, modelsPkg string) string {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	switch x := e.(type) {
	case *ast.Ident:
		if x.Name == "string" {
			return ""
		}
		return modelsPkg + "." + x.Name
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok {
			return imports[pkg.Name] + "." + x.Sel.Name
		}
	}
	return "?"
}
