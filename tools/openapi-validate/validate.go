package main

import (
	"fmt"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
)

// problemsOf lists what keeps body from being a valid OpenAPI 3.1
// document: a version other than 3.1.0, the schema validation's problems,
// and a model that does not build (a schema that does not compile).
func problemsOf(body []byte) []string {
	doc, err := libopenapi.NewDocument(body)
	if err != nil {
		return []string{fmt.Sprintf("not an OpenAPI document: %v", err)}
	}
	var problems []string
	if v := doc.GetVersion(); v != "3.1.0" {
		problems = append(problems, fmt.Sprintf("openapi is %q, not 3.1.0", v))
	}
	v, errs := validator.NewValidator(doc)
	for _, e := range errs {
		problems = append(problems, fmt.Sprintf("validator: %v", e))
	}
	if v != nil {
		if _, found := v.ValidateDocument(); len(found) > 0 {
			// Each problem with the schema's own failures under it: where in
			// the OpenAPI 3.1 schema and why.
			for _, p := range found {
				problems = append(problems, fmt.Sprintf("%s: %s", p.Message, p.Reason))
				for _, f := range p.SchemaValidationErrors {
					problems = append(problems, fmt.Sprintf("  at %s: %s", f.KeywordLocation, f.Reason))
				}
			}
		}
	}
	if _, err := doc.BuildV3Model(); err != nil {
		problems = append(problems, fmt.Sprintf("model: %v", err))
	}
	return problems
}
