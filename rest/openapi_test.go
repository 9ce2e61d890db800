package rest_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/models"
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

// The document reads for people and tools: every operation has a
// readable, unique operationId (listAccounts, getTransferV2), a summary,
// a description and a tag; the server is named; page parameters carry the
// bounds the server enforces; a filter of a closed set lists its values.
func TestOpenAPIDocumentIsReadable(t *testing.T) {
	t.Parallel()
	var doc struct {
		Servers []map[string]string `json:"servers"`
		Tags    []map[string]string `json:"tags"`
		Paths   map[string]map[string]struct {
			OperationID string   `json:"operationId"`
			Summary     string   `json:"summary"`
			Description string   `json:"description"`
			Tags        []string `json:"tags"`
			Parameters  []struct {
				Name   string         `json:"name"`
				In     string         `json:"in"`
				Schema map[string]any `json:"schema"`
			} `json:"parameters"`
		} `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openAPIDocument(t, setup(t).env), &doc))
	require.NotEmpty(t, doc.Servers)
	require.NotEmpty(t, doc.Tags)
	ids := map[string]string{}
	byRoute := map[string]string{}
	for path, item := range doc.Paths {
		for method, op := range item {
			route := strings.ToUpper(method) + " " + path
			require.Regexp(t, `^[a-z][A-Za-z0-9]*$`, op.OperationID, route)
			require.NotContains(t, ids, op.OperationID, "%s and %s share an operationId", route, ids[op.OperationID])
			ids[op.OperationID] = route
			byRoute[route] = op.OperationID
			require.NotEmpty(t, op.Summary, route)
			require.NotEmpty(t, op.Description, route)
			require.Len(t, op.Tags, 1, route)
			for _, p := range op.Parameters {
				switch p.Name {
				case "page", "per_page":
					require.EqualValues(t, 1, p.Schema["minimum"], "%s %s: the server refuses 0", route, p.Name)
				}
			}
		}
	}
	for route, id := range map[string]string{
		"GET /v1/accounts": "listAccounts", "POST /v1/accounts": "createAccount", "GET /v1/accounts/{id}": "getAccount",
		"PATCH /v1/accounts/{id}": "updateAccount", "POST /v1/accounts/{id}/restrict": "restrictAccount",
		"GET /v1/accounts/{id}/capabilities": "listAccountCapabilities", "GET /v2/transfers/{id}": "getTransferV2",
	} {
		require.Equal(t, id, byRoute[route], route)
	}
	enumOf := func(route, param string) []any {
		for path, item := range doc.Paths {
			for method, op := range item {
				if strings.ToUpper(method)+" "+path != route {
					continue
				}
				for _, p := range op.Parameters {
					if p.Name == param {
						values, _ := p.Schema["enum"].([]any)
						return values
					}
				}
			}
		}
		return nil
	}
	require.Contains(t, enumOf("GET /v1/transfers", "status"), "disputed")
	require.Contains(t, enumOf("GET /v1/accounts", "status"), "restricted")
	require.Contains(t, enumOf("GET /v1/payouts", "status"), "failed")
}

// A status in a response body lists the values it can hold, from the
// same declaration the server checks (models.Enum), so a client generator
// writes a closed type: every string member named status or ending in
// _status, anywhere in a response component, carries an enum. A
// display_status is a label for a person (its wording is no contract)
// and the error envelope's status is the HTTP status, a number.
func TestOpenAPIResponseStatusesCarryTheirEnums(t *testing.T) {
	t.Parallel()
	var doc struct {
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(openAPIDocument(t, setup(t).env), &doc))
	var missing []string
	var walk func(where string, schema any)
	walk = func(where string, schema any) {
		switch s := schema.(type) {
		case []any:
			for _, item := range s {
				walk(where, item)
			}
		case map[string]any:
			props, _ := s["properties"].(map[string]any)
			for name, member := range props {
				if name != "status" && (!strings.HasSuffix(name, "_status") || strings.HasPrefix(name, "display_")) {
					continue
				}
				text, err := json.Marshal(member)
				require.NoError(t, err)
				isString := strings.Contains(string(text), `"string"`)
				closed := strings.Contains(string(text), `"enum"`) || strings.Contains(string(text), `"const"`) ||
					strings.Contains(string(text), `"$ref"`)
				if isString && !closed {
					missing = append(missing, where+"."+name)
				}
			}
			for key, value := range s {
				walk(where+"/"+key, value)
			}
		}
	}
	bound := 0
	for name, schema := range doc.Components.Schemas {
		if strings.HasPrefix(name, "request.") {
			continue
		}
		walk(name, schema)
		if text, _ := json.Marshal(schema); strings.Contains(string(text), `"enum"`) {
			bound++
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "response statuses without their enum: type the member with its models.Enum type")
	require.Greater(t, bound, 20, "response components carry enums")

	charge, _ := json.Marshal(doc.Components.Schemas["Charge"])
	require.Contains(t, string(charge), `"enum":["pending","succeeded","failed"]`, "REST keeps its lower-case values")

	// The closed sets beside the statuses are named the same way, with
	// their lower-case wire values.
	responses := map[string]any{}
	for name, schema := range doc.Components.Schemas {
		if !strings.HasPrefix(name, "request.") {
			responses[name] = schema
		}
	}
	text, err := json.Marshal(responses)
	require.NoError(t, err)
	for _, typ := range []reflect.Type{reflect.TypeFor[models.FeeApplicationMode](), reflect.TypeFor[models.FeeType](),
		reflect.TypeFor[models.BillableEventType](), reflect.TypeFor[models.AuthorizationMode](),
		reflect.TypeFor[models.FeeSource](), reflect.TypeFor[models.PayoutSpeed](), reflect.TypeFor[models.FundingCadence](),
		reflect.TypeFor[models.LineItemKind](), reflect.TypeFor[models.BillingReason]()} {
		values, ok := models.EnumValues(typ)
		require.True(t, ok, "%s is a declared closed set", typ)
		enum, err := json.Marshal(map[string]any{"enum": values})
		require.NoError(t, err)
		require.Contains(t, string(text), strings.Trim(string(enum), "{}"), "a response member of type %s names its values", typ)
	}
}
