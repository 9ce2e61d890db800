package main

import (
	"strings"
	"testing"
)

const validDocument = `{
  "openapi": "3.1.0",
  "info": {"title": "t", "version": "1"},
  "paths": {
    "/v1/things": {"get": {"responses": {"200": {"description": "ok",
      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}}}
  },
  "components": {"schemas": {"Thing": {"type": "object", "properties": {"id": {"type": "string"}}}}}
}`

func TestAValidDocumentHasNoProblems(t *testing.T) {
	var out strings.Builder
	if !validate([]byte(validDocument), &out) {
		t.Fatalf("a valid document was refused:\n%s", out.String())
	}
}

// Each broken document is refused with a line naming what is wrong, so a
// document the server starts serving wrong fails make openapi-lint.
func TestBrokenDocumentsAreRefused(t *testing.T) {
	for name, c := range map[string]struct{ body, says string }{
		"not JSON":       {`{"openapi": `, "not an OpenAPI document"},
		"version 3.0":    {strings.Replace(validDocument, `"3.1.0"`, `"3.0.3"`, 1), "not 3.1.0"},
		"info missing":   {strings.Replace(validDocument, `"info": {"title": "t", "version": "1"},`, ``, 1), "info"},
		"no description": {strings.Replace(validDocument, `"description": "ok",`, ``, 1), "description"},
	} {
		t.Run(name, func(t *testing.T) {
			var out strings.Builder
			if validate([]byte(c.body), &out) {
				t.Fatalf("accepted:\n%s", out.String())
			}
			if !strings.Contains(out.String(), c.says) {
				t.Fatalf("the problems do not say %q:\n%s", c.says, out.String())
			}
		})
	}
}
