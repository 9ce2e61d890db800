package dashboard

import (
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
)

// The dashboard's GraphQL documents, read from the page's own script
// (static/dashboard.js), so that what measures or checks them (the
// dashboard shapes of `make loadbench`, the schema test) runs what a
// browser sends, not a copy that drifts from it.

// documentConst is one of the script's documents: a constant holding a
// template literal (`const ACCOUNTS = `...`;`), which may interpolate
// another such constant (a fragment: ${ACCOUNT_NAME}).
var documentConst = regexp.MustCompile("(?s)\nconst ([A-Z][A-Z0-9_]*) = `([^`]*)`;")

// interpolation is a ${NAME} inside a template literal.
var interpolation = regexp.MustCompile(`\$\{([A-Za-z0-9_]+)\}`)

// operationName is the name of the operation a document defines.
var operationName = regexp.MustCompile(`(?m)^\s*(query|mutation|subscription)\s+([A-Za-z0-9_]+)`)

// Operation is one document the dashboard sends.
type Operation struct {
	Name     string // the operation's name (DashboardAccounts)
	Type     string // query, mutation or subscription
	Document string // the document, its fragments included
}

// Operations are the documents of the dashboard's script, by operation
// name, in the order the script declares them. An interpolation of
// anything but an earlier document constant is an error: the script's
// documents are constants, and a document the browser would build from
// variables is not one a benchmark can replay.
func Operations() ([]Operation, error) {
	script, err := fs.ReadFile(files, "dashboard.js")
	if err != nil {
		return nil, err
	}
	consts := map[string]string{}
	var ops []Operation
	for _, m := range documentConst.FindAllStringSubmatch(string(script), -1) {
		name, text := m[1], m[2]
		var missing []string
		text = interpolation.ReplaceAllStringFunc(text, func(ref string) string {
			v, ok := consts[interpolation.FindStringSubmatch(ref)[1]]
			if !ok {
				missing = append(missing, ref)
			}
			return v
		})
		if len(missing) > 0 {
			sort.Strings(missing)
			return nil, fmt.Errorf("dashboard: %s interpolates %s, not an earlier document", name, strings.Join(missing, ", "))
		}
		consts[name] = text
		if op := operationName.FindStringSubmatch(text); op != nil {
			ops = append(ops, Operation{Name: op[2], Type: op[1], Document: strings.TrimSpace(text)})
		}
	}
	if len(ops) == 0 {
		return nil, fmt.Errorf("dashboard: no GraphQL operation in dashboard.js")
	}
	return ops, nil
}
