// Command openapi-validate checks that an OpenAPI document is a valid
// OpenAPI 3.1 document: it validates against the OpenAPI 3.1 schema and
// every schema in it compiles (pb33f's libopenapi-validator). make
// openapi-lint runs it on the document the server serves, beside the two
// linters. It runs there, built without the race detector, rather than as
// a test of the rest package: the validator is CPU-bound library code that
// the race detector slows several times over and that shares nothing with
// the server's goroutines (docs/testing.md).
//
// Usage: openapi-validate FILE
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: openapi-validate FILE")
		os.Exit(2)
	}
	body, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if !validate(body, os.Stdout) {
		os.Exit(1)
	}
}

// validate writes every problem of the document to out, one a line, and
// answers whether it has none.
func validate(body []byte, out io.Writer) bool {
	problems := problemsOf(body)
	for _, p := range problems {
		fmt.Fprintln(out, p)
	}
	if len(problems) == 0 {
		fmt.Fprintln(out, "valid OpenAPI 3.1")
	}
	return len(problems) == 0
}
