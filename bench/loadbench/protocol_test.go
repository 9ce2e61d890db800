package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestReplacePlaceholders(t *testing.T) {
	vals := map[int]string{1: "<one>", 10: "<ten>", 2: "<two>"}
	with := func(n int) (string, bool) { v, ok := vals[n]; return v, ok }
	for in, want := range map[string]string{
		"a = $1 AND b = $10 AND c = $2": "a = <one> AND b = <ten> AND c = <two>",
		"$10,$1":                        "<ten>,<one>",
		"x = $11":                       "x = $11", // no value: left alone
		"'$1' || \"$1\" || $1":          "'$1' || \"$1\" || <one>",
		"'it''s $1' || $2":              "'it''s $1' || <two>",
		"a$1 + $":                       "a$1 + $",
	} {
		if got := replacePlaceholders(in, with); got != want {
			t.Errorf("replacePlaceholders(%q) = %q, want %q", in, got, want)
		}
	}
}

// A read by id through pgx's statement cache, as the log shows it.
var preparedRead = statement{
	text:     "SELECT a.* FROM accounts AS a WHERE (a.id = $3) AND (a.merchant_id = $1) AND (a.livemode = $2)",
	extended: true, named: true,
	params: map[int]string{1: "'01a2051c-86dc-780f-84fa-b0753146431f'", 2: "'f'", 3: "'01a2051c-9d79-7e4e-9a87-373cd034cf6f'"},
}

// requestStart is after the ids above were minted: none is fresh.
var requestStart = time.UnixMilli(0x01a2051c9d79 + 1)

func TestBareRunPrepared(t *testing.T) {
	s := bareRun([]statement{preparedRead}, requestStart, "")
	if s.protocol != "prepared" || s.note != "" {
		t.Fatalf("%+v", s)
	}
	if want := "SELECT a.* FROM accounts AS a WHERE (a.id = :p1_3) AND (a.merchant_id = :p1_1) AND (a.livemode = :p1_2);\n"; s.text != want {
		t.Fatalf("script:\n%s\nwant:\n%s", s.text, want)
	}
	want := []string{"p1_3=01a2051c-9d79-7e4e-9a87-373cd034cf6f", "p1_1=01a2051c-86dc-780f-84fa-b0753146431f", "p1_2=f"}
	if !slices.Equal(s.defines, want) {
		t.Fatalf("defines %q, want %q", s.defines, want)
	}
	args := strings.Join(s.args("get.sql"), " ")
	if !strings.HasPrefix(args, "-n -M prepared -f get.sql -D p1_3=01a2051c-") {
		t.Fatal(args)
	}
}

func TestBareRunTenParameters(t *testing.T) {
	st := statement{text: "SELECT $1, $10, $2 WHERE $10 = $1 AND x IS NOT DISTINCT FROM $3", extended: true, named: true,
		params: map[int]string{1: "'a'", 2: "'it''s'", 3: "NULL", 10: "'ten'"}}
	s := bareRun([]statement{{text: "begin", extended: true, named: true}, st}, requestStart, "")
	if s.protocol != "prepared" {
		t.Fatalf("%+v", s)
	}
	if want := "begin;\nSELECT :p2_1, :p2_10, :p2_2 WHERE :p2_10 = :p2_1 AND x IS NOT DISTINCT FROM NULL;\n"; s.text != want {
		t.Fatalf("script:\n%s\nwant:\n%s", s.text, want)
	}
	if want := []string{"p2_1=a", "p2_10=ten", "p2_2=it's"}; !slices.Equal(s.defines, want) {
		t.Fatalf("defines %q, want %q", s.defines, want)
	}
}

func TestBareRunUnnamedIsExtended(t *testing.T) {
	st := preparedRead
	st.named = false
	if s := bareRun([]statement{st}, requestStart, ""); s.protocol != "extended" {
		t.Fatalf("%+v", s)
	}
}

func TestBareRunFallsBackToSimple(t *testing.T) {
	simpleAuth := statement{text: "SELECT k.id FROM api_keys AS k WHERE (k.hash = '\\x17') LIMIT 1"}
	withColon := preparedRead
	withColon.text += " AND a.data->>'t' = '12:30'"
	minted := preparedRead
	minted.params = map[int]string{1: "'a'", 2: "'f'", 3: "'01a2051c-9d7a-7e4e-9a87-373cd034cf6f'"}
	missing := preparedRead
	missing.params = map[int]string{1: "'a'", 2: "'f'"}
	for name, c := range map[string]struct {
		stmts []statement
		note  string
	}{
		"mixed":   {[]statement{simpleAuth, preparedRead}, ""},
		"colon":   {[]statement{withColon}, `":30"`},
		"minted":  {[]statement{minted}, "minted"},
		"missing": {[]statement{missing}, "$3"},
	} {
		s := bareRun(c.stmts, requestStart, "")
		if s.protocol != "simple" || len(s.defines) != 0 || !strings.Contains(s.note, c.note) || (c.note == "") != (s.note == "") {
			t.Errorf("%s: %+v", name, s)
		}
		if name != "missing" && strings.Contains(s.text, "$") {
			t.Errorf("%s: placeholders left in a simple script:\n%s", name, s.text)
		}
	}
	s := bareRun([]statement{simpleAuth, preparedRead}, requestStart, "")
	want := "SELECT k.id FROM api_keys AS k WHERE (k.hash = '\\x17') LIMIT 1;\n" +
		"SELECT a.* FROM accounts AS a WHERE (a.id = '01a2051c-9d79-7e4e-9a87-373cd034cf6f') " +
		"AND (a.merchant_id = '01a2051c-86dc-780f-84fa-b0753146431f') AND (a.livemode = 'f');\n"
	if s.text != want {
		t.Fatalf("script:\n%s\nwant:\n%s", s.text, want)
	}
}

func TestStrayVariable(t *testing.T) {
	vars := map[string]bool{"p1_1": true}
	for text, want := range map[string]string{
		"SELECT :p1_1::uuid, x::text":   "",
		"SELECT '{\"t\":\"12:30\"}'":    ":30",
		"SELECT :p1_1, :other":          ":other",
		"SELECT now() AT TIME ZONE ':'": "",
	} {
		if got := strayVariable(text, vars); got != want {
			t.Errorf("strayVariable(%q) = %q, want %q", text, got, want)
		}
	}
}

// The webhook dispatcher polls on its own timer; its statements are never
// a request's.
func TestDeliveryDispatchIsBackground(t *testing.T) {
	for _, stmts := range [][]statement{
		{{text: "begin"}, {text: "SELECT merchant_id, livemode, id, endpoint_id FROM webhook_deliveries\nWHERE NOT enqueued ORDER BY seq LIMIT  '500'  FOR UPDATE SKIP LOCKED"}},
		{{text: "begin"}, {text: "UPDATE webhook_deliveries SET enqueued = true WHERE (merchant_id, id) IN (SELECT 1)"}, {text: "commit"}},
	} {
		if !background(stmts) {
			t.Errorf("not background: %+v", stmts)
		}
	}
	if background([]statement{{text: "SELECT * FROM webhook_deliveries AS d WHERE d.endpoint_id = '1'"}}) {
		t.Error("a request's read of deliveries taken for background")
	}
}
