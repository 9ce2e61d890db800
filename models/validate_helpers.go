package models

import (
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"

	"github.com/frame-oss/payments-server/internal/domain/currency"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// Shared field checks. Each adds its problem to f under path and reports
// whether the value passed, so callers can collect every problem at once.

// maxTextLength bounds free-text fields.
const maxTextLength = 5000

var (
	reDigits     = regexp.MustCompile(`^[0-9]+$`)
	reSSN        = regexp.MustCompile(`^[0-9]{3}-?[0-9]{2}-?[0-9]{4}$`)
	reEIN        = regexp.MustCompile(`^[0-9]{2}-?[0-9]{7}$`)
	reCountry    = regexp.MustCompile(`^[A-Za-z]{2}$`)
	rePhoneChars = regexp.MustCompile(`^[0-9 ()+.\-]+$`)
)

func checkText(f *apierr.Fields, path string, s *string, max int, required bool) bool {
	if s == nil {
		if required {
			f.Add(path, "is required")
		}
		return !required
	}
	switch {
	case strings.ContainsRune(*s, 0):
		f.Add(path, "must not contain NUL characters")
	case !utf8.ValidString(*s):
		f.Add(path, "must be valid UTF-8")
	case required && strings.TrimSpace(*s) == "":
		f.Add(path, "must not be blank")
	case utf8.RuneCountInString(*s) > max:
		f.Addf(path, "must be at most %d characters", max)
	default:
		return true
	}
	return false
}

func checkEmail(f *apierr.Fields, path string, s *string) {
	if s == nil || !checkText(f, path, s, 254, true) {
		return
	}
	a, err := mail.ParseAddress(*s)
	if err != nil || a.Address != *s || !strings.Contains((*s)[strings.LastIndexByte(*s, '@'):], ".") {
		f.Add(path, "is invalid")
	}
}

func checkDate(f *apierr.Fields, path string, s *string, now time.Time) {
	if s == nil || !checkText(f, path, s, 10, true) {
		return
	}
	d, err := time.Parse(time.DateOnly, *s)
	switch {
	case err != nil:
		f.Add(path, "must be a date in the form YYYY-MM-DD")
	case d.After(now):
		f.Add(path, "must not be in the future")
	case d.Year() < 1900:
		f.Add(path, "must be after 1900-01-01")
	}
}

func checkPattern(f *apierr.Fields, path string, s *string, re *regexp.Regexp, problem string) {
	if s == nil || !checkText(f, path, s, 64, true) {
		return
	}
	if !re.MatchString(*s) {
		f.Add(path, problem)
	}
}

func checkURL(f *apierr.Fields, path string, s *string) {
	if s == nil || !checkText(f, path, s, 2048, true) {
		return
	}
	raw := *s
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.Contains(u.Host, ".") {
		f.Add(path, "is not a valid URL")
	}
}

func checkIP(f *apierr.Fields, path string, s *string) {
	if s == nil || !checkText(f, path, s, 64, true) {
		return
	}
	if net.ParseIP(*s) == nil {
		f.Add(path, "is not a valid IP address")
	}
}

// checkCurrency checks a currency code (any case) against the list the
// API accepts (internal/domain/currency), with the one message every
// currency parameter answers with. Absent passes.
func checkCurrency(f *apierr.Fields, path string, v *string) bool {
	if v == nil || currency.Supported(*v) {
		return true
	}
	f.Add(path, currency.Problem)
	return false
}

// checkOneOf checks a value against a closed set (any string type, so a
// typed input member is checked against its own constants), with the one
// message every such member answers with. Absent passes.
func checkOneOf[T ~string](f *apierr.Fields, path string, s *T, allowed ...T) bool {
	if s == nil {
		return true
	}
	if slices.Contains(allowed, *s) {
		return true
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	f.Add(path, "must be one of: "+strings.Join(names, ", "))
	return false
}

// required is a required member of a closed set: its value, or "" with
// the problem added when it is absent or outside allowed.
func required[T ~string](f *apierr.Fields, path string, v *T, allowed ...T) T {
	if v == nil {
		f.Add(path, "is required")
		return ""
	}
	if !checkOneOf(f, path, v, allowed...) {
		return ""
	}
	return *v
}

// NormalizePhone returns the E.164 form of a phone given as national number
// and country calling code (or ISO region), or ok=false when it cannot be a
// phone number. Possibility, not validity, is checked: sandbox persona
// numbers (+1 200 ...) are possible but not assigned.
func NormalizePhone(number, countryCode string) (string, bool) {
	cc := strings.TrimSpace(countryCode)
	digits := stripPhone(number)
	if digits == "" || !rePhoneChars.MatchString(number) {
		return "", false
	}
	var text, region string
	switch {
	case cc == "":
		if !strings.HasPrefix(strings.TrimSpace(number), "+") {
			return "", false
		}
		text = "+" + digits
	case reCountry.MatchString(cc):
		region, text = strings.ToUpper(cc), digits
	default:
		ccd := strings.TrimPrefix(cc, "+")
		if !reDigits.MatchString(ccd) || len(ccd) > 3 {
			return "", false
		}
		text = digits
		if !strings.HasPrefix(digits, ccd) || len(digits) <= 10 {
			text = ccd + digits
		}
		text = "+" + text
	}
	n, err := phonenumbers.Parse(text, region)
	if err != nil || !phonenumbers.IsPossibleNumber(n) {
		return "", false
	}
	return phonenumbers.Format(n, phonenumbers.E164), true
}

func stripPhone(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func checkPhone(f *apierr.Fields, path string, p *PhoneInput) {
	if p == nil {
		return
	}
	ok := checkText(f, path+".number", p.Number, 32, true)
	if p.CountryCode != nil && !checkText(f, path+".country_code", p.CountryCode, 8, false) {
		ok = false
	}
	if !ok {
		return
	}
	cc := ""
	if p.CountryCode != nil {
		cc = *p.CountryCode
	}
	if _, valid := NormalizePhone(*p.Number, cc); !valid {
		f.Add(path+".number", "is not a valid phone number")
	}
}

// checkMetadata enforces the real service's limits: at most 20 keys, keys
// up to 40 characters, values up to 100.
func checkMetadata(f *apierr.Fields, path string, m MetadataInput) {
	for k, v := range m {
		kp := path + "." + k
		switch {
		case k == "" || strings.TrimSpace(k) == "":
			f.Add(path, "keys must not be blank")
		case strings.ContainsRune(k, 0) || !utf8.ValidString(k):
			f.Add(path, "keys must be valid text")
		case utf8.RuneCountInString(k) > 40:
			f.Add(kp, "key must be at most 40 characters")
		}
		if v != nil {
			checkText(f, kp, v, 100, false)
		}
	}
}

// MergeMetadata applies in to current: a null or empty value removes its key.
func MergeMetadata(current Metadata, in MetadataInput) Metadata {
	out := Metadata{}
	for k, v := range current {
		out[k] = v
	}
	for k, v := range in {
		if v == nil || *v == "" {
			delete(out, k)
			continue
		}
		out[k] = *v
	}
	return out
}

// CheckMetadataSize reports a merged metadata object over 20 keys.
func CheckMetadataSize(f *apierr.Fields, path string, m Metadata) {
	if len(m) > 20 {
		f.Add(path, "must have at most 20 keys")
	}
}
