package app_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each table is read and written through one Go type, its model: a second
// row type over the same table restates its columns (or hides them behind
// a bare name), and the two drift. bunTables finds the struct types whose
// bun.BaseModel names a table, in the production code.
func TestEachTableHasOneModel(t *testing.T) {
	t.Parallel()
	models := map[string][]string{}
	forEachProductionFile(t, func(rel string, f *ast.File) {
		for _, m := range bunTables(f) {
			models[m.table] = append(models[m.table], rel+": "+m.typ)
		}
	})
	require.NotEmpty(t, models, "the walk found the models")
	for _, table := range slices.Sorted(maps.Keys(models)) {
		if types := models[table]; len(types) > 1 {
			slices.Sort(types)
			t.Errorf("table %s has %d Go types (%s): read and write it through its one model", table, len(types),
				strings.Join(types, ", "))
		}
	}
}

// tableModel is a struct type and the table its bun.BaseModel names.
type tableModel struct{ table, typ string }

// bunTables are the struct types of f that name a table (their embedded
// bun.BaseModel's `bun:"table:…"` tag), in the order declared.
func bunTables(f *ast.File) []tableModel {
	var out []tableModel
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return true
		}
		for _, field := range st.Fields.List {
			if len(field.Names) != 0 || field.Tag == nil {
				continue
			}
			sel, ok := field.Type.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "BaseModel" {
				continue
			}
			tag, err := strconv.Unquote(field.Tag.Value)
			if err != nil {
				continue
			}
			for _, opt := range strings.Split(reflect.StructTag(tag).Get("bun"), ",") {
				if table, ok := strings.CutPrefix(opt, "table:"); ok {
					out = append(out, tableModel{table, ts.Name.Name})
				}
			}
		}
		return true
	})
	return out
}

// The check finds a second row type over a table, as the test clock's
// deletion once declared one beside the subscriptions' model.
func TestTablesCheckFindsASecondModel(t *testing.T) {
	src := "package x\n" +
		"type pendingLine struct {\n\tbun.BaseModel `bun:\"table:subscription_pending_lines,alias:pl\"`\n\tID string `bun:\"id,pk\"`\n}\n" +
		"type pendingLineRow struct {\n\tbun.BaseModel `bun:\"table:subscription_pending_lines,alias:spl\"`\n}\n" +
		"type plain struct{ Name string `bun:\"name\"` }\n"
	f, err := parser.ParseFile(token.NewFileSet(), "x.go", src, 0)
	require.NoError(t, err)
	require.Equal(t, []tableModel{{"subscription_pending_lines", "pendingLine"}, {"subscription_pending_lines", "pendingLineRow"}},
		bunTables(f))
}
