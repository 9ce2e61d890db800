package graph

import (
	"context"
	"fmt"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/lexer"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/frame-oss/payments-server/graph/response"
)

// The extensions.code of the errors that refuse a request before anything
// runs (extensions.status 400, HTTP 400).
const (
	CodeRequestTooLarge       = "request_too_large"      // body over MaxBodyBytes
	CodeQueryTooLarge         = "query_too_large"        // over TokenLimit
	CodeTooManyFields         = "too_many_fields"        // over MaxFields
	CodeTooManyAliases        = "too_many_aliases"       // over MaxAliases
	CodeTooManyDirectives     = "too_many_directives"    // over MaxDirectives
	CodeTooManyMutations      = "too_many_mutations"     // over MaxMutationFields
	CodeIntrospectionRepeated = "introspection_repeated" // __schema selected twice
	CodeIntrospectionDisabled = "introspection_disabled" // __schema or __type, turned off
	CodeUnsupportedMediaType  = "unsupported_media_type" // a POST that is not JSON (415)
	CodeMethodNotAllowed      = "method_not_allowed"     // a mutation over GET, PUT... (405)
)

// CodeTooManyErrors is the code of the note ending a cut error list
// (the presenter's CapErrors).
const CodeTooManyErrors = response.CodeTooManyErrors

// codeComplexityLimit is the code of gqlgen's complexity limit.
const codeComplexityLimit = "COMPLEXITY_LIMIT_EXCEEDED"

func init() {
	// Nothing runs after these: like a validation error (gqlgen leaves its
	// complexity limit answered 200, unlike the depth limit's 422).
	for _, c := range []string{CodeQueryTooLarge, CodeTooManyFields, CodeTooManyAliases,
		CodeTooManyDirectives, CodeTooManyMutations, CodeIntrospectionRepeated, CodeIntrospectionDisabled,
		codeComplexityLimit} {
		errcode.RegisterErrorType(c, errcode.KindProtocol)
	}
}

// requestError is a GraphQL error refusing the request itself, with the
// REST-style code and status the presenter gives API errors.
func requestError(status int, code, format string, args ...any) *gqlerror.Error {
	return &gqlerror.Error{Message: fmt.Sprintf(format, args...),
		Extensions: map[string]any{"code": code, "status": status}}
}

// documentLimits refuses, before gqlgen parses and validates a query, a
// document whose size would make parsing, validation, the depth and
// complexity walks or execution cost more than a bounded amount of CPU.
// Every check is linear in the query's size and stops as soon as its
// limit is passed:
//
//  1. a lexer pass counts tokens (TokenLimit);
//  2. the document is parsed (now at most TokenLimit tokens);
//  3. one walk counts fields (MaxFields; fragments expanded where they are
//     spread, which also bounds the later depth and complexity walks, whose
//     cost grows with the expansion), aliases (MaxAliases), directives
//     (MaxDirectives), and the root fields of each mutation
//     (MaxMutationFields); __schema may be selected once (each alias of it
//     answers the whole schema, 66 KB, for a few bytes of query), and not
//     at all when introspection is off (gqlgen would answer a plain error
//     from the field, an internal error to the presenter).
//
// Validation (whose cost grows with the square of same-named fields) then
// only ever sees a bounded document. A query found in the parsed query
// cache passed these checks when it was first seen and is not checked
// again. A document that does not parse is left to gqlgen, which reports
// the syntax error.
type documentLimits struct {
	schemaFree
	tokens, fields, aliases, directives, mutations int
	noIntrospection                                bool
	cache                                          graphql.Cache[*ast.QueryDocument]
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = documentLimits{}

// ExtensionName implements graphql.HandlerExtension.
func (documentLimits) ExtensionName() string { return "DocumentLimits" }

// MutateOperationParameters implements graphql.OperationParameterMutator;
// it runs after automatic persisted queries have put the query text in.
func (l documentLimits) MutateOperationParameters(ctx context.Context, p *graphql.RawParams) *gqlerror.Error {
	if p.Query == "" {
		return nil
	}
	if l.cache != nil {
		if _, ok := l.cache.Get(ctx, p.Query); ok {
			return nil
		}
	}
	src := &ast.Source{Input: p.Query}
	if countTokens(src, l.tokens) > l.tokens {
		return requestError(http.StatusBadRequest, CodeQueryTooLarge,
			"The query has more than %d tokens (names, values and punctuation); send a smaller query", l.tokens)
	}
	doc, err := parser.ParseQuery(src)
	if err != nil {
		return nil
	}
	return l.check(doc)
}

// countTokens counts src's tokens, stopping once past limit (or at a
// lexical error, which the parser reports).
func countTokens(src *ast.Source, limit int) int {
	lx := lexer.New(src)
	n := 0
	for n <= limit {
		tok, err := lx.ReadToken()
		if err != nil || tok.Kind == lexer.EOF {
			break
		}
		n++
	}
	return n
}

// counter walks a document, counting what the limits bound. Its work is
// bounded by the limits: it stops once any count passes its limit.
type counter struct {
	l                              documentLimits
	doc                            *ast.QueryDocument
	fields, aliases, directiveUses int
	over                           bool
}

func (l documentLimits) check(doc *ast.QueryDocument) *gqlerror.Error {
	c := &counter{l: l, doc: doc}
	// Fields as executed: each operation with its fragments expanded where
	// they are spread. Aliases and directives as written.
	reached := map[string]bool{}
	for _, op := range doc.Operations {
		c.directives(op.Directives)
		for _, v := range op.VariableDefinitions {
			c.directives(v.Directives)
		}
		c.expand(op.SelectionSet, false, map[string]bool{}, reached)
		if c.over {
			return c.refusal()
		}
	}
	for _, f := range doc.Fragments {
		c.directives(f.Directives)
		// A fragment no operation spreads (which validation refuses) is
		// still validated: its fields count once.
		c.written(f.SelectionSet, !reached[f.Name])
		if c.over {
			return c.refusal()
		}
	}
	for _, op := range doc.Operations {
		roots := map[string]string{}
		rootFields(op.SelectionSet, doc.Fragments, map[string]bool{}, roots)
		if op.Operation == ast.Mutation && len(roots) > l.mutations {
			return requestError(http.StatusBadRequest, CodeTooManyMutations,
				"The request has more than %d root mutation fields; none of them ran. Send them in several requests", l.mutations)
		}
		schemas := 0
		for _, name := range roots {
			if l.noIntrospection && (name == "__schema" || name == "__type") {
				return requestError(http.StatusBadRequest, CodeIntrospectionDisabled,
					"Schema introspection (%s) is turned off on this server", name)
			}
			if name == "__schema" {
				schemas++
			}
		}
		if schemas > 1 {
			return requestError(http.StatusBadRequest, CodeIntrospectionRepeated,
				"A query may select __schema once (aliases of it repeat the whole schema)")
		}
	}
	return nil
}

func (c *counter) refusal() *gqlerror.Error {
	switch {
	case c.fields > c.l.fields:
		return requestError(http.StatusBadRequest, CodeTooManyFields,
			"The query selects more than %d fields (a fragment's fields count wherever it is spread); send a smaller query", c.l.fields)
	case c.aliases > c.l.aliases:
		return requestError(http.StatusBadRequest, CodeTooManyAliases,
			"The query uses more than %d aliases; send a smaller query", c.l.aliases)
	default:
		return requestError(http.StatusBadRequest, CodeTooManyDirectives,
			"The query uses more than %d directives; send a smaller query", c.l.directives)
	}
}

func (c *counter) directives(d ast.DirectiveList) {
	c.directiveUses += len(d)
	if c.directiveUses > c.l.directives {
		c.over = true
	}
}

// selection counts one selection as a field. Fragment spreads and inline
// fragments count too, so that fragments made only of spreads cannot make
// the expansion unbounded.
func (c *counter) selection() {
	c.fields++
	if c.fields > c.l.fields {
		c.over = true
	}
}

// alias counts a field's alias, if it has one (the parser sets Alias to
// the name when there is none).
func (c *counter) alias(f *ast.Field) {
	if f.Alias != "" && f.Alias != f.Name {
		c.aliases++
		if c.aliases > c.l.aliases {
			c.over = true
		}
	}
}

// expand walks an operation's set with fragments expanded where they are
// spread, counting fields; aliases and directives only outside fragments
// (written counts those of fragments, once). visiting guards against
// fragment cycles (which validation refuses); reached collects the
// fragments spread.
func (c *counter) expand(set ast.SelectionSet, inFragment bool, visiting, reached map[string]bool) {
	for _, sel := range set {
		if c.over {
			return
		}
		c.selection()
		switch s := sel.(type) {
		case *ast.Field:
			if !inFragment {
				c.alias(s)
				c.directives(s.Directives)
			}
			c.expand(s.SelectionSet, inFragment, visiting, reached)
		case *ast.InlineFragment:
			if !inFragment {
				c.directives(s.Directives)
			}
			c.expand(s.SelectionSet, inFragment, visiting, reached)
		case *ast.FragmentSpread:
			if !inFragment {
				c.directives(s.Directives)
			}
			f := c.doc.Fragments.ForName(s.Name)
			if f == nil || visiting[s.Name] {
				continue
			}
			reached[s.Name] = true
			visiting[s.Name] = true
			c.expand(f.SelectionSet, true, visiting, reached)
			delete(visiting, s.Name)
		}
	}
}

// written walks a fragment definition as written, counting its aliases
// and directives, and its fields when countFields (a fragment no
// operation spreads).
func (c *counter) written(set ast.SelectionSet, countFields bool) {
	for _, sel := range set {
		if c.over {
			return
		}
		if countFields {
			c.selection()
		}
		switch s := sel.(type) {
		case *ast.Field:
			c.alias(s)
			c.directives(s.Directives)
			c.written(s.SelectionSet, countFields)
		case *ast.InlineFragment:
			c.directives(s.Directives)
			c.written(s.SelectionSet, countFields)
		case *ast.FragmentSpread:
			c.directives(s.Directives)
		}
	}
}

// rootFields maps the response names of a root selection set (the fields
// that execute) to their field names, through fragments.
func rootFields(set ast.SelectionSet, frags ast.FragmentDefinitionList, visiting map[string]bool, names map[string]string) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			name := s.Alias
			if name == "" {
				name = s.Name
			}
			names[name] = s.Name
		case *ast.InlineFragment:
			rootFields(s.SelectionSet, frags, visiting, names)
		case *ast.FragmentSpread:
			f := frags.ForName(s.Name)
			if f == nil || visiting[s.Name] {
				continue
			}
			visiting[s.Name] = true
			rootFields(f.SelectionSet, frags, visiting, names)
			delete(visiting, s.Name)
		}
	}
}
