package rest

import (
	"reflect"

	"github.com/invopop/jsonschema"
)

// modelSchemas are the schemas of the models whose MarshalJSON renders
// other members than their fields declare (wireSchema).
var modelSchemas = map[reflect.Type]func() *jsonschema.Schema{}
