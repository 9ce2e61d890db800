package graph

import (
	"reflect"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/frame-oss/payments-server/models"
)

// countConnections sets the complexity of every connection field of the
// schema (a field returning a *Connection type with a `first` argument) to
// count its children once per requested row. It finds them in the schema,
// so a new resource's connection is counted without a line here.
//
// root is gqlgen's ComplexityRoot: a struct per object type, holding a func
// field per GraphQL field, whose parameters are the child complexity then
// the field's arguments in schema order.
func countConnections(root any, schema *ast.Schema) {
	objects := reflect.ValueOf(root).Elem()
	for typeName, def := range schema.Types {
		obj := objects.FieldByName(typeName)
		if !obj.IsValid() || obj.Kind() != reflect.Struct {
			continue
		}
		for _, field := range def.Fields {
			if !strings.HasSuffix(field.Type.Name(), "Connection") {
				continue
			}
			firstAt := -1
			for i, arg := range field.Arguments {
				if arg.Name == "first" {
					firstAt = i
				}
			}
			fn := obj.FieldByName(goFieldName(field.Name))
			if firstAt < 0 || !fn.IsValid() || fn.Kind() != reflect.Func || !fn.CanSet() {
				continue
			}
			fn.Set(reflect.MakeFunc(fn.Type(), func(args []reflect.Value) []reflect.Value {
				child := int(args[0].Int())
				first, _ := args[1+firstAt].Interface().(*int)
				return []reflect.Value{reflect.ValueOf(connectionComplexity(child, first))}
			}))
		}
	}
}

// connectionComplexity counts a connection's children once per requested
// row.
func connectionComplexity(child int, first *int) int {
	n := models.DefaultPerPage
	if first != nil {
		n = min(max(*first, 1), models.MaxPerPage)
	}
	return 1 + child*n
}

// goFieldName is gqlgen's name for a field's complexity func: the GraphQL
// name with its first letter upper-cased.
func goFieldName(name string) string {
	return strings.ToUpper(name[:1]) + name[1:]
}
