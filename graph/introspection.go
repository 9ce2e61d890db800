package graph

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
)

// introspectionKey answers schema introspection (__schema, __type) only to
// a secret key: the schema maps every operation and argument of the API,
// which an anonymous caller, or one holding a publishable key or a session
// secret (both public: they sit in browsers), has no use for. Without a
// credential the answer is 401 authentication_required, with another kind
// 403 forbidden, and nothing runs. Options.AnonymousIntrospection (serve
// --graphql-introspection-anonymous) turns the check off for local
// development, where tools fetch the schema without a key.
//
// It runs on every operation, after parsing, so that a query text found in
// the parsed-query cache (documentLimits checks a text once) is still
// checked against the credential of the request that sends it.
type introspectionKey struct{ schemaFree }

var _ operationCheck = introspectionKey{}

// ExtensionName implements graphql.HandlerExtension.
func (introspectionKey) ExtensionName() string { return "IntrospectionKey" }

// MutateOperationContext implements graphql.OperationContextMutator.
func (introspectionKey) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil || !introspects(oc) {
		return nil
	}
	p := auth.FromContext(ctx)
	switch {
	case p == nil:
		return requestError(http.StatusUnauthorized, apierr.CodeAuthenticationNeeded,
			"Schema introspection needs a secret key: send 'Authorization: Bearer sk_...'")
	case p.Kind != auth.SecretKey:
		return requestError(http.StatusForbidden, apierr.CodeForbidden,
			"Schema introspection needs a secret key; a %s credential may not introspect", string(p.Kind))
	}
	return nil
}

// introspects reports whether the operation selects __schema or __type
// among its root fields (fragments included), the only place GraphQL
// allows them.
func introspects(oc *graphql.OperationContext) bool {
	roots := map[string]string{}
	rootFields(oc.Operation.SelectionSet, oc.Doc.Fragments, map[string]bool{}, roots)
	for _, name := range roots {
		if name == "__schema" || name == "__type" {
			return true
		}
	}
	return false
}

// credentialRequired refuses, before anything runs, an operation sent
// without a credential: 401 authentication_required in GraphQL's shape,
// as a credential that does not authenticate is refused (WriteError), so a
// client meets one answer for both. Every field of the graph needs a
// credential; what an anonymous caller may still ask is __typename, and
// the schema when Options.AnonymousIntrospection opens it.
type credentialRequired struct {
	schemaFree
	anonymousIntrospection bool
}

var _ operationCheck = credentialRequired{}

// ExtensionName implements graphql.HandlerExtension.
func (credentialRequired) ExtensionName() string { return "CredentialRequired" }

// MutateOperationContext implements graphql.OperationContextMutator.
func (c credentialRequired) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil || auth.FromContext(ctx) != nil {
		return nil
	}
	roots := map[string]string{}
	rootFields(oc.Operation.SelectionSet, oc.Doc.Fragments, map[string]bool{}, roots)
	for _, name := range roots {
		switch {
		case name == "__typename":
		case c.anonymousIntrospection && (name == "__schema" || name == "__type"):
		default:
			return requestError(http.StatusUnauthorized, apierr.CodeAuthenticationNeeded,
				"No credential provided: send 'Authorization: Bearer <key>'")
		}
	}
	return nil
}
