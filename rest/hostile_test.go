package rest_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/httpx"
	"github.com/frame-oss/payments-server/internal/testenv"
)

// Finding 8: a string that is not valid UTF-8 is refused with 422, as
// docs/decisions.md promises, never stored as U+FFFD.
func TestInvalidUTF8IsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	body := testenv.Individual().WithMetadata(map[string]string{"order": "42"}).RESTBody()
	valid, err := json.Marshal(body)
	require.NoError(t, err)
	with := func(old, new string) []byte {
		require.Equal(t, 1, bytes.Count(valid, []byte(old)), old)
		return bytes.Replace(valid, []byte(old), []byte(new), 1)
	}

	for name, tc := range map[string]struct {
		body  []byte
		param string
	}{
		"raw invalid byte":         {with(`"Ada"`, "\"A\xffda\""), "profile.individual.name.first_name"},
		"truncated sequence":       {with(`"Lovelace"`, "\"Lovelac\xc3\""), "profile.individual.name.last_name"},
		"overlong encoding":        {with(`"Austin"`, "\"Aus\xc0\xaftin\""), "profile.individual.address.city"},
		"lone high surrogate":      {with(`"Ada"`, `"A\ud800da"`), "profile.individual.name.first_name"},
		"lone low surrogate":       {with(`"42"`, `"4\udc002"`), "metadata.order"},
		"high without its low":     {with(`"42"`, `"\uD83D\u0041"`), "metadata.order"},
		"metadata key":             {with(`"order"`, "\"ord\xffer\""), "metadata"},
		"ignored member, too":      {with(`"type"`, "\"x\":\"\xfe\",\"type\""), "x"},
		"inside an array of names": {with(`"metadata"`, "\"capabilities\":[\"kyc\xff\"],\"metadata\""), "capabilities"},
	} {
		r := f.sk.Do(http.MethodPost, "/v1/accounts", tc.body, nil)
		e := requireError(t, r, http.StatusUnprocessableEntity, "validation_errors", tc.param)
		t.Logf("%s: %s", name, e["message"])
		require.NotContains(t, string(r.Body), "\ufffd", name)
	}

	// Two strings at fault: both named, at once.
	two := bytes.Replace(with(`"Ada"`, "\"A\xffda\""), []byte(`"Austin"`), []byte("\"Aus\xfftin\""), 1)
	r := f.sk.Do(http.MethodPost, "/v1/accounts", two, nil)
	e := requireError(t, r, http.StatusUnprocessableEntity, "validation_errors", "")
	errs := e["error_details"].(map[string]any)["errors"].(map[string]any)
	requireProblem(t, errs, "profile.individual.name.first_name", "must be valid UTF-8")
	requireProblem(t, errs, "profile.individual.address.city", "must be valid UTF-8")

	// A top-level string and an invalid key at the top level.
	r = f.sk.Do(http.MethodPost, "/v1/accounts", []byte("\"\xff\""), nil)
	requireError(t, r, http.StatusUnprocessableEntity, "validation_errors", "")
	r = f.sk.Do(http.MethodPost, "/v1/accounts", []byte("{\"\xff\":1}"), nil)
	requireError(t, r, http.StatusUnprocessableEntity, "validation_errors", "")
	// An invalid byte outside any string is unreadable JSON.
	r = f.sk.Do(http.MethodPost, "/v1/accounts", []byte("{\xff}"), nil)
	requireError(t, r, http.StatusBadRequest, "invalid_json", "")
	r = f.sk.Do(http.MethodPost, "/v1/accounts", []byte("{\"type\":\"\xff\"}]"), nil)
	requireError(t, r, http.StatusBadRequest, "invalid_json", "")
	// PATCH decodes through the same path.
	acct := f.sk.CreateAccount(testenv.Individual())
	r = f.sk.Patch("/v1/accounts/"+id(acct), "{\"metadata\":{\"k\":\"v\xff\"}}")
	requireError(t, r, http.StatusUnprocessableEntity, "validation_errors", "metadata.k")

	require.Equal(t, 1, countAccounts(t, f.sk), "only the valid account was stored")
	// Valid escapes, surrogate pairs and non-ASCII text are accepted.
	ok := with(`"Ada"`, `"\u00c1d\u00e1 \ud83d\ude00 \\ud800 Zoë"`)
	r = f.sk.Do(http.MethodPost, "/v1/accounts", ok, nil)
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	name := r.JSON()["profile"].(map[string]any)["individual"].(map[string]any)["name"].(map[string]any)
	require.Equal(t, "Ádá 😀 \\ud800 Zoë", name["first_name"])
	require.Equal(t, 2, countAccounts(t, f.sk))
}

// The request body limit is defined once (httpx.MaxBodyBytes) and holds.
func TestBodyLimitIsTheSharedOne(t *testing.T) {
	t.Parallel()
	f := setup(t)
	require.Equal(t, 1<<20, httpx.MaxBodyBytes)
	pad := func(n int) string { return `{"metadata":{"k":"v"},"pad":"` + strings.Repeat("a", n) + `"}` }
	over := pad(httpx.MaxBodyBytes)
	r := f.sk.Post("/v1/accounts", over)
	requireError(t, r, http.StatusBadRequest, "invalid_json", "")
	under := pad(httpx.MaxBodyBytes - 100)
	r = f.sk.Post("/v1/accounts", under)
	requireError(t, r, http.StatusUnprocessableEntity, "validation_errors", "")
}

// Finding 10: error messages that echo input redact credentials.
func TestErrorMessagesRedactCredentials(t *testing.T) {
	t.Parallel()
	f := setup(t)
	sk := f.env.Keys.Sandbox.Secret
	secret := sk[strings.LastIndexByte(sk, '_')+1:]
	for _, tc := range []struct {
		method, path string
		status       int
		code, param  string
	}{
		{http.MethodGet, "/v1/accounts/" + sk, 404, "resource_missing", "id"},
		{http.MethodGet, "/v1/" + sk, 404, "route_not_found", ""},
		{http.MethodPut, "/v1/accounts/" + sk, 405, "method_not_allowed", ""},
		{http.MethodPatch, "/v1/accounts/" + sk, 404, "resource_missing", "id"},
	} {
		r := f.sk.Do(tc.method, tc.path, nil, nil)
		requireError(t, r, tc.status, tc.code, tc.param)
		require.NotContains(t, string(r.Body), secret, tc.path)
		require.Contains(t, string(r.Body), "sk_sandbox_"+httpx.Redacted)
	}
	r := f.sk.Post("/v1/accounts", map[string]any{"type": "individual", "metadata": map[string]any{sk: "x"}})
	requireError(t, r, http.StatusUnprocessableEntity, "validation_errors", "")
	require.NotContains(t, string(r.Body), secret, "field paths echo metadata keys")
}
