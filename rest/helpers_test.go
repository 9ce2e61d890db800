package rest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// fixture is one test's server with clients for the default merchant's keys.
type fixture struct {
	env  *testenv.Env
	sk   *testenv.Client // sandbox secret key
	pk   *testenv.Client // sandbox publishable key
	live *testenv.Client // production secret key
}

func setup(t *testing.T, opts ...testenv.Option) *fixture {
	t.Helper()
	env := testenv.New(t, opts...)
	return &fixture{
		env:  env,
		sk:   env.Client(env.Keys.Sandbox.Secret),
		pk:   env.Client(env.Keys.Sandbox.Publishable),
		live: env.Client(env.Keys.Production.Secret),
	}
}

// exec runs raw SQL against the test's database (only for states the API
// cannot create).
func (f *fixture) exec(t *testing.T, query string, args ...any) {
	t.Helper()
	_, err := f.env.DB.Bun.ExecContext(context.Background(), query, args...)
	require.NoError(t, err)
}

// Valid fixtures are built with the typed factories the GraphQL tests
// share (testenv.Individual, testenv.Business, Client.CreateAccount); merge
// and del are for bodies a spec deliberately cannot say: malformed input
// for validation tests, and input aliases.

// del marks a member to remove from a request body in merge.
type removal struct{}

var del = removal{}

// merge returns base with overrides applied: nested objects merge, del
// removes a member, anything else replaces.
func merge(base, overrides map[string]any) map[string]any {
	out := make(map[string]any, len(base))
	for k, v := range base {
		if m, ok := v.(map[string]any); ok {
			out[k] = merge(m, nil)
		} else {
			out[k] = v
		}
	}
	for k, v := range overrides {
		switch v := v.(type) {
		case removal:
			delete(out, k)
		case map[string]any:
			if cur, ok := out[k].(map[string]any); ok {
				out[k] = merge(cur, v)
			} else {
				out[k] = merge(v, nil)
			}
		default:
			out[k] = v
		}
	}
	return out
}

// id is the id of a response object or of a model a factory returned.
func id(obj any) string { return testenv.ID(obj) }

// keys returns the member names of obj, sorted.
func keys(obj map[string]any) []string {
	out := make([]string, 0, len(obj))
	for k := range obj {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sorted(s ...string) []string {
	out := append([]string{}, s...)
	sort.Strings(out)
	return out
}

// requireError checks the full error envelope (API-DECISIONS §2) and returns
// it. param "" means the envelope must not carry one.
func requireError(t *testing.T, r *testenv.Response, status int, code, param string) map[string]any {
	t.Helper()
	require.Equal(t, status, r.Status, string(r.Body))
	require.True(t, strings.HasPrefix(r.Header.Get("Content-Type"), "application/json"), r.Header.Get("Content-Type"))
	e := r.JSON()
	require.Equal(t, float64(status), e["status"], string(r.Body))
	require.Equal(t, code, e["code"], string(r.Body))
	msg, ok := e["message"].(string)
	require.True(t, ok && msg != "", "message must be a non-empty string: %s", r.Body)
	require.Equal(t, msg, e["error"], "error carries the message (the Ruby SDK raises with it): %s", r.Body)
	want := []string{"status", "error", "code", "message", "error_details", "request_id"}
	if param != "" {
		want = append(want, "param")
		require.Equal(t, param, e["param"], string(r.Body))
	}
	if _, ok := e["details"]; ok {
		want = append(want, "details")
	}
	require.Equal(t, sorted(want...), keys(e), string(r.Body))
	details, ok := e["error_details"].(map[string]any)
	require.True(t, ok, "error_details must be an object: %s", r.Body)
	require.Equal(t, msg, details["message"], string(r.Body))
	rid, _ := e["request_id"].(string)
	require.True(t, strings.HasPrefix(rid, "req_"), string(r.Body))
	require.Equal(t, r.Header.Get("Request-Id"), rid)
	return e
}

// errorDetails returns error_details of an envelope.
func errorDetails(e map[string]any) map[string]any { return e["error_details"].(map[string]any) }

// requireValidation checks a 422 validation_errors envelope whose
// error_details.errors names exactly the given paths, and returns the errors.
func requireValidation(t *testing.T, r *testenv.Response, paths ...string) map[string]any {
	t.Helper()
	param := ""
	if len(paths) == 1 {
		param = paths[0]
	}
	e := requireError(t, r, http.StatusUnprocessableEntity, "validation_errors", param)
	d := errorDetails(e)
	require.Equal(t, sorted("message", "data", "errors"), keys(d), string(r.Body))
	errs := d["errors"].(map[string]any)
	require.Equal(t, map[string]any{"errors": errs}, d["data"],
		"the field problems also sit in error_details.data.errors, where the CLI reads them: %s", r.Body)
	require.Equal(t, sorted(paths...), keys(errs), string(r.Body))
	for path, problems := range errs {
		list, ok := problems.([]any)
		require.True(t, ok && len(list) > 0, "errors.%s must be a non-empty array", path)
		for _, p := range list {
			s, ok := p.(string)
			require.True(t, ok && s != "", "errors.%s holds a non-string", path)
		}
	}
	return errs
}

// requireProblem asserts that errors[path] contains problem.
func requireProblem(t *testing.T, errs map[string]any, path, problem string) {
	t.Helper()
	require.Contains(t, errs[path], problem, "errors.%s", path)
}

var accountKeys = sorted("id", "object", "type", "status", "blocked_reason", "restricted_by", "external_id",
	"metadata", "payout_payment_method_id", "profile", "capabilities", "terms_of_service", "steps",
	"created", "updated", "livemode", "test_clock")

var capabilityKeys = sorted("id", "object", "account_id", "name", "status", "disabled_reason",
	"ineligible_reason", "currently_due", "errors", "created", "updated", "disabled", "livemode")

// requireInt asserts v is a JSON integer and returns it.
func requireInt(t *testing.T, v any, what string) int64 {
	t.Helper()
	f, ok := v.(float64)
	require.True(t, ok, "%s must be a number, got %T %v", what, v, v)
	require.Equal(t, float64(int64(f)), f, "%s must be an integer", what)
	return int64(f)
}

// requireISO asserts v is an ISO 8601 string and returns its time.
func requireISO(t *testing.T, v any, what string) time.Time {
	t.Helper()
	s, ok := v.(string)
	require.True(t, ok, "%s must be an ISO 8601 string, got %T %v", what, v, v)
	at, err := time.Parse(time.RFC3339, s)
	require.NoError(t, err, "%s", what)
	return at
}

func requireStringArray(t *testing.T, v any, what string) []string {
	t.Helper()
	list, ok := v.([]any)
	require.True(t, ok, "%s must be an array, got %T", what, v)
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		require.True(t, ok, "%s must hold strings", what)
		out = append(out, s)
	}
	return out
}

// requireAccountShape checks every member and JSON type of an Account as a
// secret key sees it (spec doc 1 §2.1).
func requireAccountShape(t *testing.T, a map[string]any) {
	t.Helper()
	require.Equal(t, accountKeys, keys(a))
	require.Equal(t, "account", a["object"])
	require.Regexp(t, `^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`, a["id"])
	require.Contains(t, []any{"individual", "business"}, a["type"])
	require.Contains(t, []any{"pending", "active", "restricted", "disabled"}, a["status"])
	if a["blocked_reason"] != nil {
		require.Contains(t, []any{"fraud_blocked", "platform_restricted", "merchant_restricted", "restricted", "disabled"}, a["blocked_reason"])
	}
	requireStringArray(t, a["restricted_by"], "restricted_by")
	if a["external_id"] != nil {
		require.IsType(t, "", a["external_id"])
	}
	require.IsType(t, map[string]any{}, a["metadata"])
	require.Nil(t, a["payout_payment_method_id"])
	profile, ok := a["profile"].(map[string]any)
	require.True(t, ok, "profile must be an object")
	require.Equal(t, []string{a["type"].(string)}, keys(profile), "profile holds only the account type's member")
	if a["type"] == "individual" {
		requireIndividualShape(t, profile["individual"].(map[string]any))
	} else {
		requireBusinessShape(t, profile["business"].(map[string]any))
	}
	caps, ok := a["capabilities"].([]any)
	require.True(t, ok, "capabilities must be an array")
	for _, c := range caps {
		requireCapabilityShape(t, c.(map[string]any))
		require.Equal(t, a["id"], c.(map[string]any)["account_id"])
	}
	if tos := a["terms_of_service"]; tos != nil {
		m := tos.(map[string]any)
		require.Subset(t, keys(m), []string{"token", "accepted", "accepted_at"})
		require.Equal(t, true, m["accepted"])
		requireISO(t, m["accepted_at"], "terms_of_service.accepted_at")
	}
	steps, ok := a["steps"].([]any)
	require.True(t, ok, "steps must be an array")
	for _, s := range steps {
		step := s.(map[string]any)
		require.Equal(t, sorted("key", "status", "label", "fields", "currently_due"), keys(step))
		require.IsType(t, "", step["key"])
		require.IsType(t, "", step["label"])
		require.Contains(t, []any{"pending", "completed"}, step["status"])
		requireStringArray(t, step["fields"], "steps.fields")
		requireStringArray(t, step["currently_due"], "steps.currently_due")
	}
	requireInt(t, a["created"], "created")
	requireInt(t, a["updated"], "updated")
	require.IsType(t, false, a["livemode"])
}

func requireIndividualShape(t *testing.T, p map[string]any) {
	t.Helper()
	require.Equal(t, sorted("name", "email", "phone", "ssn_last_four", "birthdate", "address"), keys(p))
	if n := p["name"]; n != nil {
		require.Equal(t, sorted("first_name", "middle_name", "last_name", "suffix"), keys(n.(map[string]any)))
	}
	if ph := p["phone"]; ph != nil {
		require.Equal(t, sorted("number", "country_code"), keys(ph.(map[string]any)))
	}
	if addr := p["address"]; addr != nil {
		requireAddressShape(t, addr.(map[string]any))
	}
}

func requireBusinessShape(t *testing.T, p map[string]any) {
	t.Helper()
	require.Equal(t, sorted("legal_business_name", "doing_business_as", "business_type", "email", "phone",
		"website", "description", "ein_last_four", "mcc", "naics", "same_physical_and_legal_address",
		"address", "physical_address"), keys(p))
	for _, k := range []string{"address", "physical_address"} {
		if addr := p[k]; addr != nil {
			requireAddressShape(t, addr.(map[string]any))
		}
	}
}

func requireAddressShape(t *testing.T, a map[string]any) {
	t.Helper()
	require.Equal(t, sorted("line_1", "line_2", "city", "state", "postal_code", "country"), keys(a))
}

// requireCapabilityShape checks every member and JSON type of a Capability
// (spec doc 1 §2.2): its timestamps are ISO 8601 strings.
func requireCapabilityShape(t *testing.T, c map[string]any) {
	t.Helper()
	require.Equal(t, capabilityKeys, keys(c))
	require.Equal(t, "capability", c["object"])
	require.IsType(t, "", c["id"])
	require.IsType(t, "", c["account_id"])
	require.IsType(t, "", c["name"])
	require.Contains(t, []any{"unrequested", "pending", "active", "disabled"}, c["status"])
	require.Nil(t, c["ineligible_reason"], "ineligible_reason is deprecated and always null")
	requireStringArray(t, c["currently_due"], "currently_due")
	errs, ok := c["errors"].([]any)
	require.True(t, ok, "errors must be an array")
	for _, e := range errs {
		require.Equal(t, sorted("code", "requirement", "reason"), keys(e.(map[string]any)))
	}
	requireISO(t, c["created"], "capability created")
	requireISO(t, c["updated"], "capability updated")
	if c["status"] == "disabled" {
		requireISO(t, c["disabled"], "capability disabled")
	} else {
		require.Nil(t, c["disabled"])
	}
	require.IsType(t, false, c["livemode"])
}

// capByName returns the capability called name from a list (nil if absent).
func capByName(list any, name string) map[string]any {
	for _, c := range list.([]any) {
		if m := c.(map[string]any); m["name"] == name {
			return m
		}
	}
	return nil
}

// capNames returns the names of a capability list, in order.
func capNames(list any) []string {
	out := []string{}
	for _, c := range list.([]any) {
		out = append(out, c.(map[string]any)["name"].(string))
	}
	return out
}

// capStatuses maps name to status.
func capStatuses(list any) map[string]string {
	out := map[string]string{}
	for _, c := range list.([]any) {
		m := c.(map[string]any)
		out[m["name"].(string)] = m["status"].(string)
	}
	return out
}

// arrayOf turns []map[string]any into []any for the helpers above.
func arrayOf(list []map[string]any) []any {
	out := make([]any, len(list))
	for i, m := range list {
		out[i] = m
	}
	return out
}

// event is a decoded event.
type event struct {
	ID       string         `json:"id"`
	Object   string         `json:"object"`
	Type     string         `json:"type"`
	Created  int64          `json:"created"`
	Livemode bool           `json:"livemode"`
	Data     map[string]any `json:"data"`
}

func (e event) object() map[string]any { return e.Data["object"].(map[string]any) }

func (e event) previous() map[string]any {
	p, _ := e.Data["previous_attributes"].(map[string]any)
	return p
}

// listEvents returns every event the client sees (oldest first), optionally
// of one type.
func listEvents(t *testing.T, c *testenv.Client, typ string) []event {
	t.Helper()
	path := "/v1/events?per_page=100"
	if typ != "" {
		path += "&type=" + typ
	}
	r := c.Get(path)
	require.Equal(t, http.StatusOK, r.Status, string(r.Body))
	var body struct {
		Meta map[string]any `json:"meta"`
		Data []event        `json:"data"`
	}
	r.Decode(&body)
	require.Equal(t, false, body.Meta["has_more"], "test expects fewer than 100 events")
	out := make([]event, len(body.Data))
	for i, e := range body.Data {
		out[len(body.Data)-1-i] = e
	}
	return out
}

// eventTypes lists the types of the events about object id, oldest first.
func eventTypes(events []event, objectID string) []string {
	out := []string{}
	for _, e := range events {
		if e.object()["id"] == objectID {
			out = append(out, e.Type)
		}
	}
	return out
}

func countType(events []event, typ string) int {
	n := 0
	for _, e := range events {
		if e.Type == typ {
			n++
		}
	}
	return n
}

// jsonString renders v for messages.
func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
