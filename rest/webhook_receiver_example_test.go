package rest_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/testenv"
)

// verifyWebhook is the receiver-side example of docs/webhooks.md, verbatim
// (TestWebhookDocsShowTheTestedExample keeps the two the same).
//
// BEGIN EXAMPLE
// verifyWebhook checks a delivery's signatures: X-Frame-Signature-V2 (with
// replay protection) when present, else X-Frame-Signature.
func verifyWebhook(secret string, h http.Header, body []byte, now time.Time) error {
	sign := func(msg []byte) string {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write(msg)
		return hex.EncodeToString(m.Sum(nil))
	}
	if v2 := h.Get("X-Frame-Signature-V2"); v2 != "" {
		var t string
		var sigs []string
		for _, part := range strings.Split(v2, ",") {
			k, v, _ := strings.Cut(part, "=")
			if k == "t" {
				t = v
			} else if k == "v1" {
				sigs = append(sigs, v)
			}
		}
		ts, err := strconv.ParseInt(t, 10, 64)
		if err != nil || now.Sub(time.Unix(ts, 0)).Abs() > 5*time.Minute {
			return errors.New("stale or missing timestamp")
		}
		want := sign(append([]byte(t+"."), body...))
		for _, s := range sigs {
			if hmac.Equal([]byte(s), []byte(want)) {
				return nil
			}
		}
		return errors.New("no matching v1 signature")
	}
	if !hmac.Equal([]byte(h.Get("X-Frame-Signature")), []byte("sha256="+sign(body))) {
		return errors.New("bad signature")
	}
	return nil
}

// END EXAMPLE

func TestWebhookReceiverExampleVerifiesARealDelivery(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rc := newReceiver(t, nil)
	ep := f.sk.CreateWebhookEndpoint(testenv.WebhookEndpoint(rc.URL, "account.created"))
	f.env.StartDelivery(testenv.FastDelivery())
	f.sk.CreateAccount(testenv.Individual())
	waitDelivered(t, f, id(ep), 1)
	req := rc.requests()[0]
	secret := *ep.Secret
	now := f.env.Clock.Now()

	require.NoError(t, verifyWebhook(secret, req.Header, req.Body, now), "V2")
	legacy := req.Header.Clone()
	legacy.Del("X-Frame-Signature-V2")
	require.NoError(t, verifyWebhook(secret, legacy, req.Body, now), "the legacy header alone")
	require.Error(t, verifyWebhook("whsec_wrong", req.Header, req.Body, now))
	require.Error(t, verifyWebhook("whsec_wrong", legacy, req.Body, now))
	require.Error(t, verifyWebhook(secret, req.Header, req.Body, now.Add(time.Hour)), "a replay an hour later")
	require.Error(t, verifyWebhook(secret, req.Header, append([]byte(" "), req.Body...), now), "a changed body")
}

func TestWebhookDocsShowTheTestedExample(t *testing.T) {
	src, err := os.ReadFile("webhook_receiver_example_test.go")
	require.NoError(t, err)
	doc, err := os.ReadFile("../docs/webhooks.md")
	require.NoError(t, err)
	example := strings.SplitN(strings.SplitN(string(src), "// BEGIN EXAMPLE\n", 2)[1], "\n// END EXAMPLE", 2)[0]
	require.Contains(t, string(doc), example, "docs/webhooks.md shows the example this test runs")
}
