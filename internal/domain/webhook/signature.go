package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// Headers of a delivery (API-DECISIONS §5).
const (
	HeaderWebhookID   = "X-Frame-Webhook-Id"
	HeaderEvent       = "X-Frame-Event"
	HeaderSignature   = "X-Frame-Signature"
	HeaderTimestamp   = "X-Frame-Timestamp"
	HeaderSignatureV2 = "X-Frame-Signature-V2"
)

// Sign returns X-Frame-Signature's value: "sha256=" and the hex HMAC-SHA256
// of the raw body under secret, as the real service's CLI signs and checks
// it, so integrations verify our deliveries unchanged.
func Sign(secret string, body []byte) string {
	return "sha256=" + mac(secret, body)
}

// SignV2 returns X-Frame-Signature-V2's value, "t=<unix>,v1=<hex>", the HMAC
// of "<t>.<body>": a receiver that checks t against its own clock refuses a
// replayed delivery. Every secret given signs (the current one first, then
// one a rotation replaced and still honours), so a receiver holding either
// verifies.
func SignV2(unix int64, body []byte, secrets ...string) string {
	t := strconv.FormatInt(unix, 10)
	msg := make([]byte, 0, len(t)+1+len(body))
	msg = append(append(append(msg, t...), '.'), body...)
	var b strings.Builder
	b.WriteString("t=" + t)
	for _, s := range secrets {
		b.WriteString(",v1=" + mac(s, msg))
	}
	return b.String()
}

func mac(secret string, msg []byte) string {
	h := hmac.New(sha256.New, []byte(secret))
	h.Write(msg)
	return hex.EncodeToString(h.Sum(nil))
}

// Verify checks X-Frame-Signature against body and secret in constant time.
func Verify(secret string, body []byte, header string) bool {
	return hmac.Equal([]byte(header), []byte(Sign(secret, body)))
}

// VerifyV2 checks X-Frame-Signature-V2: one v1 entry must match, and its t
// must be within tolerance seconds of now (both Unix seconds).
func VerifyV2(secret string, body []byte, header string, now, tolerance int64) bool {
	var t string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			t = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	ts, err := strconv.ParseInt(t, 10, 64)
	if err != nil || now-ts > tolerance || ts-now > tolerance {
		return false
	}
	want := SignV2(ts, body, secret)
	_, want, _ = strings.Cut(want, ",v1=")
	for _, s := range sigs {
		if hmac.Equal([]byte(s), []byte(want)) {
			return true
		}
	}
	return false
}
