package main

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// serveTLS starts `serve` with args (HTTPS ones) on a free port until the
// test ends and waits for /healthz over HTTPS, trusting the CA file at
// caFile (made by the server for --tls-dev, so read at each try). It
// returns the server's https URL, a client trusting the CA, and its
// output so far.
func (u *readmeUser) serveTLS(t *testing.T, caFile string, args ...string) (string, *http.Client, *lockedBuffer) {
	t.Helper()
	addr, logs := u.start(t, args...)
	requireServing(t, logs) // the CA is written before the socket listens
	url := "https://" + addr
	client := trusting(caFile)
	require.NotNil(t, client, "serve wrote no CA at %s: %s", caFile, logs.String())
	resp, err := client.Get(url + "/healthz")
	require.NoError(t, err)
	_ = resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	return url, client, logs
}

// trusting is a client trusting the CA in caFile only, as NODE_EXTRA_CA_CERTS
// or SSL_CERT_FILE make a client trust it; nil while the file is missing.
func trusting(caFile string) *http.Client {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil
	}
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}}}
}

// The README's "Local webhooks with the CLI", as a new user runs it: the
// server with development HTTPS (its trust instructions), then on the
// wire what each CLI command does (login and whoami: GET /v1/me; listen:
// the /cable session with the README's --events and --skip-endpoints,
// forwarding to a local receiver as the CLI forwards; events resend).
// The CLI itself is not part of the project; its protocol is what
// internal/testenv/cable.go speaks.
func TestReadmeLocalWebhooksWithTheCLI(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("README.md")
	require.NoError(t, err)
	readme := string(raw)
	for _, shown := range []string{
		"export FRAME_API_BASE_URL=http://localhost:8080/v1", `echo "$KEY" | frame login`, "frame whoami",
		"frame events resend EVENT_ID", "go run . serve --tls-dev",
		"export NODE_EXTRA_CA_CERTS=$PWD/.data/tls/ca.pem", "export SSL_CERT_FILE=$PWD/.data/tls/ca-bundle.pem",
		"export FRAME_API_BASE_URL=https://localhost:8080/v1", "serve --tls-cert FILE --tls-key FILE",
	} {
		require.Contains(t, readme, shown, "the README shows what this test runs")
	}
	events := strings.Split(readmeSnippet(t, readme, `frame listen --forward-to \S+ --events (\S+) --skip-endpoints`), ",")

	u := &readmeUser{dir: dataDir(t)}
	m := u.createMerchant(t, "--name", "My Platform", "--json")
	key := m.APIKeys.Sandbox.Secret
	tlsDir := filepath.Join(u.dir, "tls")
	url, client, logs := u.serveTLS(t, filepath.Join(tlsDir, "ca.pem"), "--tls-dev")
	require.Contains(t, logs.String(), "export NODE_EXTRA_CA_CERTS="+filepath.Join(tlsDir, "ca.pem"))
	require.Contains(t, logs.String(), "export SSL_CERT_FILE="+filepath.Join(tlsDir, "ca-bundle.pem"))
	_, err = http.Get(url + "/healthz")
	require.Error(t, err, "a client that does not trust the CA refuses the server")

	// serve --tls-cert FILE --tls-key FILE: a certificate of one's own (here
	// the one --tls-dev made), by a second server on the same data dir.
	own, ownClient, _ := u.serveTLS(t, filepath.Join(tlsDir, "ca.pem"),
		"--tls-cert", filepath.Join(tlsDir, "localhost.pem"), "--tls-key", filepath.Join(tlsDir, "localhost-key.pem"))
	status, me := callVia(t, ownClient, key, http.MethodGet, own+"/v1/me", "")
	require.Equal(t, http.StatusOK, status, me)
	for _, bad := range [][]string{{"--tls-cert", "cert.pem"}, {"--tls-key", "key.pem"},
		{"--tls-dev", "--tls-cert", "cert.pem", "--tls-key", "key.pem"}} {
		_, errOut, code := u.run(t, append([]string{"serve"}, bad...)...)
		require.Equal(t, 1, code, "%v: %s", bad, errOut)
		require.Contains(t, errOut, "--tls-", "%v", bad)
	}

	// frame login, frame whoami: GET /v1/me.
	status, me = callVia(t, client, key, http.MethodGet, url+"/v1/me", "")
	require.Equal(t, http.StatusOK, status, me)
	require.Equal(t, true, me["dev_mode"])
	require.Equal(t, "My Platform", me["merchant_name"])
	require.Equal(t, m.Merchant.ID, me["merchant_id"])

	// A sandbox endpoint the session holds back.
	status, ep := callVia(t, client, key, http.MethodPost, url+"/v1/webhook_endpoints",
		`{"url":"https://hooks.example/held","event_codes":["*"]}`)
	require.Equal(t, http.StatusCreated, status, ep)

	// frame listen --forward-to … --events … --skip-endpoints, over wss.
	got := make(chan *http.Request, 8)
	var session struct {
		Secret string `json:"whsec"`
	}
	fwd := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mac := hmac.New(sha256.New, []byte(session.Secret))
		mac.Write(body)
		if r.Header.Get("X-Frame-Signature") != "sha256="+hex.EncodeToString(mac.Sum(nil)) {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		got <- r
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(fwd.Close)
	c, _, err := testenv.DialCable(t, url, key, []string{"actioncable-v1-json"}, client)
	require.NoError(t, err)
	id := testenv.ListenIdentifier(events, true, "")
	c.Subscribe(id, 0)
	require.Equal(t, "welcome", c.Next().Type)
	require.Equal(t, "confirm_subscription", c.Next().Type)
	require.NoError(t, json.Unmarshal(c.Next().Message, &session))
	require.True(t, strings.HasPrefix(session.Secret, "whsec_cli_"))

	status, cust := callVia(t, client, key, http.MethodPost, url+"/v1/customers", `{"name":"Ada Lovelace","email":"ada@example.com"}`)
	require.Equal(t, http.StatusCreated, status, cust)
	forward := func() (deliveryID, eventID string) {
		t.Helper()
		var ev struct {
			ID      string          `json:"webhook_message_id"`
			Type    string          `json:"event_type"`
			Payload json.RawMessage `json:"payload"`
		}
		require.NoError(t, json.Unmarshal(c.Next().Message, &ev))
		require.Equal(t, events[0], ev.Type)
		mac := hmac.New(sha256.New, []byte(session.Secret))
		mac.Write(ev.Payload)
		req, err := http.NewRequest(http.MethodPost, fwd.URL, bytes.NewReader(ev.Payload))
		require.NoError(t, err)
		req.Header.Set("X-Frame-Signature", "sha256="+hex.EncodeToString(mac.Sum(nil)))
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_ = resp.Body.Close()
		c.Ack(id, ev.ID, resp.StatusCode, "", 5)
		var payload struct {
			ID string `json:"id"`
		}
		require.NoError(t, json.Unmarshal(ev.Payload, &payload))
		return ev.ID, payload.ID
	}
	delivery, eventID := forward()
	r := <-got
	require.Equal(t, "/", r.URL.Path)

	// frame events resend EVENT_ID: the session gets it again.
	status, resent := callVia(t, client, key, http.MethodPost, url+"/v1/events/"+eventID+"/resend", "")
	require.Equal(t, http.StatusOK, status, resent)
	require.Equal(t, "queued", resent["status"])
	again, sameEvent := forward()
	require.Equal(t, eventID, sameEvent)
	require.NotEqual(t, delivery, again)

	// The acks are the deliveries' attempts (once the server has read
	// them: a connection's frames are handled in order, so the answer to
	// a later subscribe comes after them).
	c.Subscribe(`{"channel":"Barrier"}`, 0)
	require.Equal(t, "reject_subscription", c.Next().Type)
	status, d := callVia(t, client, key, http.MethodGet, url+"/v1/webhook_deliveries/"+delivery, "")
	require.Equal(t, http.StatusOK, status, d)
	require.Equal(t, "succeeded", d["status"])
	status, held := callVia(t, client, key, http.MethodGet,
		url+"/v1/webhook_endpoints/"+ep["id"].(string)+"/deliveries?status=skipped", "")
	require.Equal(t, http.StatusOK, status, held)
	require.NotEmpty(t, held["data"], "the endpoint was held back, its deliveries recorded as skipped")
}
