package rest_test

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// openAPIDocument fetches the served document, as a client generator
// would: without a credential.
func openAPIDocument(t *testing.T, env *testenv.Env) []byte {
	t.Helper()
	r := env.Client("").Get("/openapi.json")
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	return r.Body
}

// The served document is a valid OpenAPI 3.1 document: it validates
// against the OpenAPI 3.1 schema, and every schema in it compiles.
func TestOpenAPIDocumentIsValidOpenAPI31(t *testing.T) {
	t.Parallel()
	body := openAPIDocument(t, setup(t).env)

	doc, err := libopenapi.NewDocument(body)
	require.NoError(t, err)
	require.Equal(t, "3.1.0", doc.GetVersion())
	v, errs := validator.NewValidator(doc)
	require.Empty(t, errs)
	valid, problems := v.ValidateDocument()
	for _, p := range problems {
		t.Errorf("%s: %s (%s)", p.Message, p.Reason, p.Context)
	}
	require.True(t, valid)
	_, buildErrs := doc.BuildV3Model()
	require.NoError(t, buildErrs)
}

// Every /v1 and /v2 route the server mounts is in the document, with its
// method, and the document has no operation the server does not mount.
func TestOpenAPIDocumentListsEveryMountedRoute(t *testing.T) {
	t.Parallel()
	env := setup(t).env
	var mounted []string
	err := chi.Walk(env.App.Handler.(chi.Routes), func(method, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		if strings.HasPrefix(route, "/v1/") || strings.HasPrefix(route, "/v2/") {
			mounted = append(mounted, method+" "+route)
		}
		return nil
	})
	require.NoError(t, err)

	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openAPIDocument(t, env), &doc))
	var documented []string
	for path, item := range doc.Paths {
		for method := range item {
			documented = append(documented, strings.ToUpper(method)+" "+path)
		}
	}
	sort.Strings(mounted)
	sort.Strings(documented)
	require.NotEmpty(t, mounted)
	require.Equal(t, mounted, documented)
}
