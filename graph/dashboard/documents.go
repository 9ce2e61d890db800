package dashboard

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// The dashboard's GraphQL documents are the page's own query constants
// (`const NAME = `…`;` in its modules, fragments pulled in with ${NAME}):
// Documents reads them from the embedded modules, so the tests that
// validate them against the schema and count their statements run exactly
// what the page sends.

var (
	// documentConst is one template-literal constant of a module.
	documentConst = regexp.MustCompile("(?m)^const ([A-Z][A-Z0-9_]*) = `([^`]*)`;")
	// substitution is a ${NAME} inside a document.
	substitution = regexp.MustCompile(`\$\{([A-Z][A-Z0-9_]*)\}`)
	// operationName is the name of the document's operation.
	operationName = regexp.MustCompile(`(query|subscription|mutation)\s+([A-Za-z_][A-Za-z0-9_]*)`)
)

// Documents is every named operation the dashboard sends, by its name
// (DashboardAccounts, DashboardAccount, …), with the fragments it uses
// written into it as the page writes them.
func Documents() (map[string]string, error) {
	modules, err := fs.Glob(files, "*.js")
	if err != nil {
		return nil, err
	}
	docs := map[string]string{}
	for _, name := range modules {
		ops, err := moduleOperations(name)
		if err != nil {
			return nil, err
		}
		for _, op := range ops {
			if _, dup := docs[op.Name]; dup {
				return nil, fmt.Errorf("%s: operation %s named twice", name, op.Name)
			}
			docs[op.Name] = op.Document
		}
	}
	return docs, nil
}

// Operation is one document the dashboard sends.
type Operation struct {
	Name     string // the operation's name (DashboardAccounts)
	Type     string // query, mutation or subscription
	Document string // the document, its fragments included
}

// Operations are the documents the dashboard sends when it opens (those
// of its main module, dashboard.js, in the order it declares them): what
// `make loadbench` replays as the dashboard's shapes. An account's page
// (account.js) needs the account's id, so it is not among them.
func Operations() ([]Operation, error) {
	ops, err := moduleOperations("dashboard.js")
	if err == nil && len(ops) == 0 {
		err = fmt.Errorf("dashboard: no GraphQL operation in dashboard.js")
	}
	return ops, err
}

// moduleOperations reads one module's operations, in the order the module
// declares them; a constant that is not an operation is a fragment.
func moduleOperations(module string) ([]Operation, error) {
	src, err := fs.ReadFile(files, module)
	if err != nil {
		return nil, err
	}
	matches := documentConst.FindAllStringSubmatch(string(src), -1)
	consts := map[string]string{}
	for _, m := range matches {
		consts[m[1]] = m[2]
	}
	var ops []Operation
	for _, m := range matches {
		constName, text := m[1], m[2]
		op := operationName.FindStringSubmatch(text)
		if op == nil || !strings.HasPrefix(strings.TrimSpace(text), op[1]) {
			continue // a fragment
		}
		doc, err := expand(text, consts, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path.Base(module), constName, err)
		}
		ops = append(ops, Operation{Name: op[2], Type: op[1], Document: strings.TrimSpace(doc)})
	}
	return ops, nil
}

// expand writes each ${NAME} of text as the module's constant NAME.
func expand(text string, consts map[string]string, depth int) (string, error) {
	if depth > 8 {
		return "", fmt.Errorf("fragments nested too deep")
	}
	var missing error
	out := substitution.ReplaceAllStringFunc(text, func(ref string) string {
		name := substitution.FindStringSubmatch(ref)[1]
		inner, ok := consts[name]
		if !ok {
			missing = fmt.Errorf("${%s} is not a constant of the module", name)
			return ref
		}
		expanded, err := expand(inner, consts, depth+1)
		if err != nil {
			missing = err
		}
		return expanded
	})
	return out, missing
}
