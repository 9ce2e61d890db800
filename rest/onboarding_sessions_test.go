package rest_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

var sessionKeys = sorted("id", "object", "account_id", "client_secret", "return_url", "expires_at", "steps", "url", "livemode")

func TestOnboardingSessionLifecycle(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual().WithCapabilities("idv", "card_verification", "geo_compliance"))

	r := f.sk.Post("/v1/onboarding_sessions", map[string]any{"account_id": id(acct), "return_url": "https://example.com/done"})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	s := r.JSON()
	require.Equal(t, sessionKeys, keys(s))
	require.Equal(t, "onboarding_session", s["object"])
	require.Regexp(t, `^onb_sess_[0-9A-Za-z]{40}$`, s["client_secret"])
	require.Equal(t, []any{"id_verification", "payment_method", "geo_compliance"}, s["steps"], "every pending step by default")
	require.Equal(t, float64(testenv.Start.Add(30*time.Minute).Unix()), float64(requireInt(t, s["expires_at"], "expires_at")))
	require.Contains(t, s["url"], "https://")

	got := f.sk.Get("/v1/onboarding_sessions?account_id=" + id(acct))
	require.Equal(t, http.StatusOK, got.Status, string(got.Body))
	require.Equal(t, id(s), id(got.JSON()))
	require.Equal(t, s["url"], got.JSON()["url"])
	require.Equal(t, s["client_secret"], got.JSON()["client_secret"], "the secret key reads the live secret again")

	// Bootstrap with the session's secret: the session and the full account.
	holder := f.env.Client(s["client_secret"].(string))
	b := holder.Get("/v1/onboarding_sessions/bootstrap")
	require.Equal(t, http.StatusOK, b.Status, string(b.Body))
	boot := b.JSON()
	require.Equal(t, id(s), id(boot))
	require.Equal(t, id(acct), id(boot["account"].(map[string]any)))
	require.Contains(t, boot["account"], "profile")
	require.NotContains(t, boot["account"], "metadata")

	// The secret's scope (spec doc 1 §5.5): its own account, nothing else.
	require.Equal(t, http.StatusOK, holder.Get("/v1/accounts/"+id(acct)).Status)
	other := f.sk.CreateAccount(testenv.Individual())
	requireError(t, holder.Get("/v1/accounts/"+id(other)), http.StatusNotFound, "resource_missing", "id")
	requireError(t, holder.Get("/v1/accounts"), http.StatusForbidden, "forbidden", "")
	requireError(t, holder.Post("/v1/onboarding_sessions", map[string]any{"account_id": id(acct)}), http.StatusForbidden, "forbidden", "")
	requireError(t, holder.Get("/v1/onboarding_sessions?account_id="+id(acct)), http.StatusForbidden, "forbidden", "")
	requireError(t, holder.Post(runsPath(id(acct)), nil), http.StatusForbidden, "forbidden", "")
	requireError(t, holder.Get(ownersPath(id(acct))), http.StatusForbidden, "forbidden", "")
	requireError(t, f.sk.Get("/v1/onboarding_sessions/bootstrap"), http.StatusForbidden, "forbidden", "")

	// A new session replaces the old one at once.
	r = f.sk.Post("/v1/onboarding_sessions", map[string]any{"account_id": id(acct), "steps": []string{"payment_method"}})
	require.Equal(t, http.StatusCreated, r.Status, string(r.Body))
	second := r.JSON()
	require.Equal(t, []any{"payment_method"}, second["steps"])
	requireError(t, holder.Get("/v1/onboarding_sessions/bootstrap"), http.StatusUnauthorized, "invalid_client_secret", "")
	replaced := f.sk.Get("/v1/onboarding_sessions?account_id=" + id(acct)).JSON()
	require.Equal(t, id(second), id(replaced))
	require.Equal(t, second["client_secret"], replaced["client_secret"], "the new session's secret, not the ended one's")
	require.NotEqual(t, s["client_secret"], second["client_secret"])

	// After 30 minutes the session and its secret are gone.
	f.env.Clock.Advance(31 * time.Minute)
	requireError(t, f.env.Client(second["client_secret"].(string)).Get("/v1/onboarding_sessions/bootstrap"),
		http.StatusUnauthorized, "invalid_client_secret", "")
	requireError(t, f.sk.Get("/v1/onboarding_sessions?account_id="+id(acct)), http.StatusNotFound, "resource_missing", "account_id")
}

func TestOnboardingSessionRefusals(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual())
	requireValidation(t, f.sk.Post("/v1/onboarding_sessions", map[string]any{}), "account_id")
	requireValidation(t, f.sk.Post("/v1/onboarding_sessions", map[string]any{"account_id": id(acct),
		"steps": []string{"kyc"}, "return_url": "not a url"}), "steps", "return_url")
	requireError(t, f.sk.Post("/v1/onboarding_sessions", map[string]any{"account_id": "nope"}), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.live.Post("/v1/onboarding_sessions", map[string]any{"account_id": id(acct)}), http.StatusNotFound, "resource_missing", "id")
	requireError(t, f.pk.Post("/v1/onboarding_sessions", map[string]any{"account_id": id(acct)}), http.StatusForbidden, "forbidden", "")
	requireError(t, f.sk.Get("/v1/onboarding_sessions?account_id="+id(acct)), http.StatusNotFound, "resource_missing", "account_id")
	requireError(t, f.sk.Get("/v1/onboarding_sessions"), http.StatusNotFound, "resource_missing", "account_id")
}

func TestOnboardingSessionConcurrentCreates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	acct := f.sk.CreateAccount(testenv.Individual())
	secrets := racingSessionCreates(f.sk, "/v1/onboarding_sessions", map[string]any{"account_id": id(acct)})
	var active int
	require.NoError(t, f.env.DB.Bun.NewRaw("SELECT count(*) FROM onboarding_sessions WHERE status = 'active'").Scan(t.Context(), &active))
	require.Equal(t, 1, active)
	working := 0
	for _, s := range secrets {
		if s != "" && f.env.Client(s).Get("/v1/onboarding_sessions/bootstrap").Status == http.StatusOK {
			working++
		}
	}
	require.Equal(t, 1, working, "one secret works: the later session's")
}

// racingSessionCreates posts body to path twice at once and answers each
// created session's client secret ("" for a create refused).
func racingSessionCreates(cl *testenv.Client, path string, body map[string]any) []string {
	var wg sync.WaitGroup
	secrets := make([]string, 2)
	for i := range secrets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := cl.Post(path, body)
			if r.Status == http.StatusCreated {
				secrets[i] = r.JSON()["client_secret"].(string)
			}
		}()
	}
	wg.Wait()
	return secrets
}
