package rest_test

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/domain/webhook"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/testenv"
	"github.com/frame-oss/payments-server/resolvers/webhooks"
)

var webhookEndpointKeys = sorted("id", "object", "url", "status", "enabled", "description", "event_codes",
	"livemode", "created", "updated")

var reWebhookSecret = regexp.MustCompile(`^whsec_[0-9a-f]{32}$`)

func TestWebhookEndpointLifecycle(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost:4242/hooks",
		"event_codes": []string{"account.created", "account.updated", "account.created"}, "description": "local"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	e := r.JSON()
	require.Equal(t, sorted(append([]string{"secret"}, webhookEndpointKeys...)...), keys(e))
	require.Regexp(t, reWebhookSecret, e["secret"], "the secret is shown on create")
	require.Equal(t, "webhook_endpoint", e["object"])
	require.Equal(t, "active", e["status"])
	require.Equal(t, true, e["enabled"], "the SDKs' enabled is true while active")
	require.Equal(t, "local", e["description"])
	require.Equal(t, []any{"account.created", "account.updated"}, e["event_codes"], "duplicates dropped")
	require.Equal(t, false, e["livemode"])
	requireInt(t, e["created"], "created")

	got := f.sk.Get("/v1/webhook_endpoints/" + id(e))
	require.Equal(t, http.StatusOK, got.Status)
	require.Equal(t, webhookEndpointKeys, keys(got.JSON()), "never the secret on retrieve")
	list := f.sk.Get("/v1/webhook_endpoints").JSON()
	require.Len(t, list["data"], 1)
	require.Equal(t, webhookEndpointKeys, keys(list["data"].([]any)[0].(map[string]any)), "nor in lists")
	require.Contains(t, list, "meta")

	u := f.sk.Patch("/v1/webhook_endpoints/"+id(e), map[string]any{"url": "http://127.0.0.1:9/x",
		"event_codes": []string{"*"}, "status": "disabled", "description": ""})
	require.Equal(t, http.StatusOK, u.Status, string(u.Body))
	uj := u.JSON()
	require.Equal(t, webhookEndpointKeys, keys(uj))
	require.Equal(t, "http://127.0.0.1:9/x", uj["url"])
	require.Equal(t, []any{"*"}, uj["event_codes"])
	require.Equal(t, "disabled", uj["status"])
	require.Equal(t, false, uj["enabled"])
	require.Nil(t, uj["description"])

	rot := f.sk.Post("/v1/webhook_endpoints/"+id(e)+"/rotate_secret", nil)
	require.Equal(t, http.StatusOK, rot.Status, string(rot.Body))
	require.Regexp(t, reWebhookSecret, rot.JSON()["secret"])
	require.NotEqual(t, e["secret"], rot.JSON()["secret"])

	d := f.sk.Delete("/v1/webhook_endpoints/" + id(e))
	require.Equal(t, http.StatusOK, d.Status)
	require.Equal(t, map[string]any{"id": id(e), "object": "webhook_endpoint", "deleted": true}, d.JSON())
	requireError(t, f.sk.Get("/v1/webhook_endpoints/"+id(e)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Delete("/v1/webhook_endpoints/"+id(e)), http.StatusNotFound, "resource_missing", "id")
	require.Empty(t, f.sk.Get("/v1/webhook_endpoints").JSON()["data"])
}

func TestWebhookEndpointValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// An unknown event code is a 400 naming event_codes, carrying every
	// other problem too.
	r := f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "ftp://x", "event_codes": []string{"account.created", "acount.created", "nope"}})
	e := requireError(t, r, http.StatusBadRequest, "parameter_invalid", "event_codes")
	require.Contains(t, e["message"], "acount.created, nope")
	errs := errorDetails(e)["errors"].(map[string]any)
	require.Equal(t, sorted("url", "event_codes"), keys(errs))

	errs = requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{}), "url", "event_codes")
	requireProblem(t, errs, "url", "is required")
	requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "https://example.com/h", "event_codes": []string{}}), "event_codes")
	requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "https://u:p@example.com/h", "event_codes": []string{"*"}}), "url")
	requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "https://example.com/" + strings.Repeat("a", 3000), "event_codes": []string{"*"}}), "url")
	requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "/relative", "event_codes": []string{"*"}, "description": strings.Repeat("d", 501)}), "url", "description")
	requireError(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": 5, "event_codes": []string{"*"}}), http.StatusBadRequest, "parameter_invalid", "url")
	// A port beyond TCP's 65535 (once accepted when it had five digits).
	for _, port := range []string{"65536", "99999"} {
		errs = requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost:" + port + "/h", "event_codes": []string{"*"}}), "url")
		requireProblem(t, errs, "url", "has an invalid port (1 to 65535)")
	}
	requireError(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "https://example.com", "event_codes": "*"}), http.StatusBadRequest, "parameter_invalid", "event_codes")

	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("http://localhost/h"))
	requireValidation(t, f.sk.Patch("/v1/webhook_endpoints/"+id(ep), map[string]any{"status": "paused"}), "status")
	requireValidation(t, f.sk.Patch("/v1/webhook_endpoints/"+id(ep), map[string]any{"url": "http://localhost:70000/h"}), "url")
	requireError(t, f.sk.Patch("/v1/webhook_endpoints/"+id(ep), map[string]any{"event_codes": []string{"x.y"}}), http.StatusBadRequest, "parameter_invalid", "event_codes")
	requireValidation(t, f.sk.Post("/v1/webhook_endpoints/"+id(ep)+"/rotate_secret", map[string]any{"grace_period_seconds": -1}), "grace_period_seconds")
	require.Equal(t, ep.URL, f.sk.Get("/v1/webhook_endpoints/" + id(ep)).JSON()["url"], "a refused update changes nothing")
	require.Len(t, f.sk.Get("/v1/webhook_endpoints").JSON()["data"], 1, "refused creates left nothing")
}

// fakeResolver answers every host with its addresses.
type fakeResolver map[string][]netip.Addr

func (r fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := r[host]; ok {
		return a, nil
	}
	return nil, errors.New("no such host")
}

func TestWebhookEndpointURLSafety(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.Services.Webhooks.UseResolver(fakeResolver{
		"inside.example":  {netip.MustParseAddr("10.1.2.3")},
		"meta.example":    {netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("169.254.169.254")},
		"outside.example": {netip.MustParseAddr("93.184.216.34")},
	})
	for _, url := range append([]string{"http://outside.example/h", "https://10.0.0.1/h", "https://192.168.1.1/h",
		"https://0.0.0.0/h", "https://100.64.0.1/h", "https://inside.example/h", "https://[ff02::1]/h",
		"https://256.0.0.1/h"}, append(loopbackSpellings("https"), neverURLs("https")...)...) {
		r := f.live.Post("/v1/webhook_endpoints", map[string]any{"url": url, "event_codes": []string{"*"}})
		requireValidation(t, r, "url")
	}
	for _, url := range []string{"https://outside.example/h", "https://93.184.216.34/h", "https://unresolvable.example/h"} {
		r := f.live.Post("/v1/webhook_endpoints", map[string]any{"url": url, "event_codes": []string{"*"}})
		require.Equal(t, http.StatusCreated, r.Status, url+": "+string(r.Body))
		require.Equal(t, true, r.JSON()["livemode"])
	}
	// The sandbox accepts local receivers when the operator allows them
	// (as the test environment does), but never link-local or metadata.
	for _, url := range append([]string{"http://127.0.0.1:8080/h", "https://inside.example/h", "http://10.0.0.1/h",
		"http://100.64.0.1/h"}, loopbackSpellings("http")...) {
		r := f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": url, "event_codes": []string{"*"}})
		require.Equal(t, http.StatusCreated, r.Status, url+": "+string(r.Body))
		f.sk.Delete("/v1/webhook_endpoints/" + r.JSON()["id"].(string)) // under the endpoint limit
	}
	for _, url := range neverURLs("http") {
		requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": url, "event_codes": []string{"*"}}), "url")
	}
}

// A sandbox whose operator does not allow local destinations refuses them
// at create and update, in every spelling, as production does.
func TestWebhookEndpointSandboxRefusesLocalAddressesUnlessAllowed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.env.Services.Webhooks.UseDestinations(webhook.Destinations{})
	f.env.Services.Webhooks.UseResolver(fakeResolver{
		"inside.example":  {netip.MustParseAddr("192.168.7.7")},
		"meta.example":    {netip.MustParseAddr("169.254.169.254")},
		"outside.example": {netip.MustParseAddr("93.184.216.34")},
	})
	for _, url := range append([]string{"http://inside.example/h", "http://10.0.0.1/h", "http://100.64.0.1/h",
		"http://[fc00::1]/h", "http://224.0.0.1/h", "http://0.0.0.0/h"}, append(loopbackSpellings("http"), neverURLs("http")...)...) {
		requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": url, "event_codes": []string{"*"}}), "url")
	}
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("http://outside.example/h"))
	requireValidation(t, f.sk.Patch("/v1/webhook_endpoints/"+id(ep), map[string]any{"url": "http://localhost./h"}), "url")
	require.Len(t, f.sk.Get("/v1/webhook_endpoints").JSON()["data"], 1)
}

// loopbackSpellings are URLs naming loopback as browsers and resolvers
// read them.
func loopbackSpellings(scheme string) []string {
	var urls []string
	for _, host := range []string{"127.0.0.1", "localhost", "localhost.", "LOCALHOST", "LocalHost.", "api.localhost",
		"127.1", "0x7f000001", "2130706433", "0177.0.0.1", "127.0.0.1.", "[::1]", "[::ffff:127.0.0.1]",
		"[0:0:0:0:0:0:0:1]", "[::1%25lo]"} {
		urls = append(urls, scheme+"://"+host+":8443/h")
	}
	return urls
}

// neverURLs point at link-local and metadata addresses, which no mode
// reaches.
func neverURLs(scheme string) []string {
	return []string{scheme + "://169.254.169.254/latest/meta-data/", scheme + "://[fe80::1]/h", scheme + "://[fe80::1%25eth0]/h",
		scheme + "://metadata.google.internal/computeMetadata/v1/", scheme + "://METADATA.google.internal./x",
		scheme + "://0xa9fea9fe/", scheme + "://[::ffff:169.254.169.254]/", scheme + "://meta.example/h",
		scheme + "://[fd00:ec2::254]/", scheme + "://100.100.100.200/"}
}

func TestWebhookEndpointScopes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("http://localhost/h"))
	path := "/v1/webhook_endpoints/" + id(ep)
	// Another mode, another merchant: missing.
	requireError(t, f.live.Get(path), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Post(path+"/rotate_secret", nil), http.StatusNotFound, "resource_missing", "id")
	_, other := f.env.NewMerchant(auth.NewMerchant{Name: "Other"})
	oc := f.env.Client(other.Sandbox.Secret)
	requireError(t, oc.Get(path), http.StatusNotFound, "resource_missing", "id")
	requireError(t, oc.Patch(path, map[string]any{"status": "disabled"}), http.StatusNotFound, "resource_missing", "id")
	requireError(t, oc.Delete(path), http.StatusNotFound, "resource_missing", "id")
	requireError(t, oc.Get(path+"/deliveries"), http.StatusNotFound, "resource_missing", "id")
	require.Empty(t, oc.Get("/v1/webhook_endpoints").JSON()["data"])
	// Only the secret key manages endpoints.
	requireError(t, f.pk.Get("/v1/webhook_endpoints"), http.StatusForbidden, "forbidden", "")
	requireError(t, f.pk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h", "event_codes": []string{"*"}}), http.StatusForbidden, "forbidden", "")
	requireError(t, f.env.Client("").Get("/v1/webhook_endpoints"), http.StatusUnauthorized, "authentication_required", "")
}

func TestWebhookEndpointConcurrentRotations(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint("http://localhost/h"))
	secrets := make([]string, 6)
	var wg sync.WaitGroup
	for i := range secrets {
		wg.Go(func() {
			r := f.sk.Post("/v1/webhook_endpoints/"+id(ep)+"/rotate_secret", nil)
			if r.Status == http.StatusOK {
				secrets[i] = r.JSON()["secret"].(string)
			}
		})
	}
	wg.Wait()
	// Rotations run one after the other (row lock): the stored secret is one
	// of those answered, and the one before it is the previous secret.
	var sealedCurrent, sealedPrevious string
	require.NoError(t, f.env.DB.Bun.QueryRowContext(context.Background(),
		`SELECT secret, previous_secret FROM webhook_endpoints WHERE id = ?`, id(ep)).Scan(&sealedCurrent, &sealedPrevious))
	require.NotContains(t, sealedCurrent+sealedPrevious, "whsec_", "secrets are stored sealed")
	src := f.env.Services.Webhooks.Secret
	current, err := src.Open(context.Background(), webhooks.SecretPurpose, sealedCurrent)
	require.NoError(t, err)
	previous, err := src.Open(context.Background(), webhooks.SecretPurpose, sealedPrevious)
	require.NoError(t, err)
	require.Contains(t, secrets, current)
	require.True(t, previous == *ep.Secret || contains(secrets, previous))
	require.NotEqual(t, current, previous)
	for _, s := range secrets {
		require.NotEmpty(t, s)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestWebhookEndpointHostileInput(t *testing.T) {
	t.Parallel()
	f := setup(t)
	many := make([]string, 10_000)
	for i := range many {
		many[i] = "account.created"
	}
	requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h", "event_codes": many}), "event_codes")
	requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h\x00", "event_codes": []string{"*"}}), "url")
	requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h", "event_codes": []string{"*"}, "description": "a\x00b"}), "description")
	requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h", "event_codes": []string{""}}), "event_codes")
	requireValidation(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h", "event_codes": []any{nil}}), "event_codes")
	requireError(t, f.sk.Post("/v1/webhook_endpoints", "[]"), http.StatusBadRequest, "invalid_json", "")
	requireError(t, f.sk.Post("/v1/webhook_endpoints/"+strings.Repeat("9", 5000)+"/rotate_secret", nil), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Get("/v1/webhook_deliveries/x"), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.sk.Get("/v1/webhook_endpoints/x/deliveries"), http.StatusNotFound, "resource_missing", "id")
	require.Empty(t, f.sk.Get("/v1/webhook_endpoints").JSON()["data"])
}

func TestWebhookEndpointStatements(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// The first seal of the process loads the server secret (once).
	f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h0", "event_codes": []string{"account.disabled"}})
	r := f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h", "event_codes": []string{"*"}})
	require.Equal(t, http.StatusCreated, r.Status)
	// The credential (when not cached), the lock, the count against the
	// limit (a statement of its own: one that waited for the lock would
	// still count what was there before), the insert.
	require.LessOrEqual(t, r.Statements, 4)
	ep := r.JSON()
	g := f.sk.Get("/v1/webhook_endpoints/" + id(ep))
	require.LessOrEqual(t, g.Statements, 2, "one read")
	// Writes of other areas queue deliveries in their own statement (the
	// events trigger): an account create costs what it cost before.
	before := f.sk.Post("/v1/accounts", testenv.Individual().RESTBody()).Statements
	f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h2", "event_codes": []string{"*"}})
	after := f.sk.Post("/v1/accounts", testenv.Individual().RESTBody()).Statements
	require.Equal(t, before, after)
	for range 3 {
		f.sk.Post("/v1/accounts", testenv.Individual().RESTBody())
	}
	l := f.sk.Get("/v1/webhook_endpoints/" + id(ep) + "/deliveries")
	require.Len(t, l.JSON()["data"], 5)
	require.LessOrEqual(t, l.Statements, 3, "credential, the endpoint, the deliveries with their attempts")
}

func TestWebhookEndpointLimitHoldsUnderConcurrentCreates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const tries = 24
	statuses := make([]int, tries)
	var wg sync.WaitGroup
	for i := range statuses {
		wg.Go(func() {
			statuses[i] = f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h", "event_codes": []string{"*"}}).Status
		})
	}
	wg.Wait()
	created := 0
	for _, s := range statuses {
		require.Contains(t, []int{http.StatusCreated, http.StatusUnprocessableEntity}, s)
		if s == http.StatusCreated {
			created++
		}
	}
	require.Equal(t, 16, created, "exactly the limit, however the creates interleave")
	requireError(t, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h", "event_codes": []string{"*"}}),
		http.StatusUnprocessableEntity, "webhook_endpoint_limit_reached", "")
	// The other mode has its own allowance; a delete frees a place.
	require.Equal(t, http.StatusCreated, f.live.Post("/v1/webhook_endpoints", map[string]any{"url": "https://93.184.216.34/h", "event_codes": []string{"*"}}).Status)
	first := f.sk.Get("/v1/webhook_endpoints").JSON()["data"].([]any)[0].(map[string]any)
	f.sk.Delete("/v1/webhook_endpoints/" + id(first))
	require.Equal(t, http.StatusCreated, f.sk.Post("/v1/webhook_endpoints", map[string]any{"url": "http://localhost/h", "event_codes": []string{"*"}}).Status)
}
