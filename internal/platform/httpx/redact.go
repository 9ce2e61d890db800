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
func Redact(s string) string {
	s = MaskCardNumbers(s)
	if !credentialRE.MatchString(s) {
		return s
	}
	return credentialRE.ReplaceAllString(s, "${1}"+Redacted)
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
