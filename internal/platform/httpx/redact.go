package httpx

import "regexp"

// Redacted replaces the secret part of a credential in logged or echoed
// text.
const Redacted = "[REDACTED]"

// credentialRE matches every kind of credential the API issues, wherever
// it appears in a string (a path segment, a query value, a message): API
// keys (sk_/pk_ + mode), session secrets (onb_sess_, chk_sess_), charge
// intent client secrets (ci_<id>_secret_...) and webhook secrets (whsec_).
// Group 1 is the part kept: the kind and mode, or the intent id, which
// identify the credential without granting anything.
var credentialRE = regexp.MustCompile(
	`((?:sk|pk)_(?:sandbox|production)_|onb_sess_|chk_sess_|ci_[A-Za-z0-9-]+_secret_|whsec_)[A-Za-z0-9]+`)

// Redact returns s with the secret part of every credential in it
// replaced by Redacted: what the request log, error messages that echo
// input, and any other log of client-supplied text use.
func Redact(s string) string {
	if !credentialRE.MatchString(s) {
		return s
	}
	return credentialRE.ReplaceAllString(s, "${1}"+Redacted)
}
