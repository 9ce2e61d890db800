package httpx

import (
	"regexp"
	"strings"
)

// Redacted replaces the secret part of a credential in logged or echoed
// text.
const Redacted = "[REDACTED]"

// credentialRE matches every kind of credential the API issues, wherever
// it appears in a string (a path segment, a query value, a message): API
// keys (sk_/pk_ + mode), session secrets (onb_sess_, chk_sess_), charge
// intent client secrets (ci_<id>_secret_...), webhook secrets (whsec_, and
// a listen session's whsec_cli_) and listen session tokens (lst_). Group 1
// is the part kept: the kind and mode, or the intent id, which identify the
// credential without granting anything.
var credentialRE = regexp.MustCompile(
	`((?:sk|pk)_(?:sandbox|production)_|onb_sess_|chk_sess_|ci_[A-Za-z0-9-]+_secret_|whsec_(?:cli_)?|lst_)[A-Za-z0-9]+`)

// Redact returns s with the secret part of every credential in it
// replaced by Redacted, and every card-number-shaped run of digits masked
// (MaskCardNumbers): what the request log, error messages that echo
// input, and any other log of client-supplied text use.
//
// Credentials go first, so that masking can never cut one apart and hide
// it from the credential pattern.
func Redact(s string) string {
	if credentialRE.MatchString(s) {
		s = credentialRE.ReplaceAllString(s, "${1}"+Redacted)
	}
	return MaskCardNumbers(s)
}

// minCardDigits is the length of the shortest card number (13 digits).
// Card numbers are 13 to 19 digits; a longer run is masked too, since it
// may hold one followed by other digits.
const minCardDigits = 13

// maxCardGroup is the longest group of digits a written card number
// separates (4242 4242 4242 4242, 3782 822463 10005): groups are joined
// across a single space or dash only when both are at most this long, so
// that a UUID (groups of 8-4-4-4-12) never reads as a card number.
const maxCardGroup = 6

// MaskCardNumbers replaces every run of at least 13 digits in s, written
// as one number or in groups of at most six digits separated by single
// spaces or dashes ("4242 4242 4242 4242"), with "****" and its last four
// digits, the masking card networks allow to show. No Luhn check decides:
// a mistyped card number is still one, and nothing the API echoes
// legitimately is that long a number (ids are UUIDs). Text without such a
// run is returned as it is, unallocated.
func MaskCardNumbers(s string) string {
	var b *strings.Builder
	copied := 0
	for i := 0; i < len(s); {
		if n := uuidAt(s, i); n > 0 {
			i += n
			continue
		}
		if !isDigit(s[i]) {
			i++
			continue
		}
		end, digits := cardRun(s, i)
		if digits >= minCardDigits {
			if b == nil {
				b = &strings.Builder{}
				b.Grow(len(s))
			}
			b.WriteString(s[copied:i])
			b.WriteString("****")
			b.WriteString(lastDigits(s[i:end], 4))
			copied = end
		}
		i = end
	}
	if b == nil {
		return s
	}
	b.WriteString(s[copied:])
	return b.String()
}

// cardRun reads the run of digit groups starting at s[i] (a digit): where
// it ends and how many digits it holds. Digits glued to a letter before
// them are the tail of a word (a UUID's "0190c1d2"): they count alone,
// joined to no group after them.
func cardRun(s string, i int) (end, digits int) {
	group := digitsFrom(s, i)
	end, digits = i+group, group
	if i > 0 && isLetter(s[i-1]) {
		return end, digits
	}
	for group <= maxCardGroup && end+1 < len(s) && (s[end] == ' ' || s[end] == '-') && isDigit(s[end+1]) {
		next := digitsFrom(s, end+1)
		if next > maxCardGroup {
			break
		}
		end, digits, group = end+1+next, digits+next, next
	}
	return end, digits
}

// uuidShape is a UUID's groups of hex digits (8-4-4-4-12).
var uuidShape = [...]int{8, 4, 4, 4, 12}

// uuidLen is the length of a written UUID.
const uuidLen = 36

// uuidAt is uuidLen when a UUID starts at s[i] as a word of its own (not
// glued to a letter or digit before it), 0 otherwise. The masking skips
// UUIDs whole: their groups can be all digits ("019bc6ae-1234-7567-8901-
// 1929b313a534" holds 4-4-4-4 digits in a row), and an id is never a card
// number.
func uuidAt(s string, i int) int {
	if len(s)-i < uuidLen || (i > 0 && isHex(s[i-1])) || !isHex(s[i]) {
		return 0
	}
	at := i
	for g, width := range uuidShape {
		if g > 0 {
			if s[at] != '-' {
				return 0
			}
			at++
		}
		for end := at + width; at < end; at++ {
			if !isHex(s[at]) {
				return 0
			}
		}
	}
	if at < len(s) && isHex(s[at]) {
		return 0
	}
	return uuidLen
}

func isHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// digitsFrom counts the digits from s[i] on.
func digitsFrom(s string, i int) int {
	n := 0
	for i+n < len(s) && isDigit(s[i+n]) {
		n++
	}
	return n
}

// lastDigits is the last n digits of run (which holds at least n).
func lastDigits(run string, n int) string {
	out := make([]byte, n)
	for i := len(run) - 1; i >= 0 && n > 0; i-- {
		if isDigit(run[i]) {
			n--
			out[n] = run[i]
		}
	}
	return string(out)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
