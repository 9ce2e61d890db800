package main

import (
	"strings"
	"testing"
)

// A metering event's insert carries the reference the captured request
// sent: the bare script makes it new per run, in the simple protocol,
// whatever protocol the server used.
func TestBareRunFreshReference(t *testing.T) {
	ref := "lb-x-api-7"
	insert := statement{text: "INSERT INTO metering_events (reference, value) VALUES ('" + ref + "', 1) ON CONFLICT DO NOTHING"}
	s := bareRun([]statement{{text: "begin"}, insert, {text: "commit"}}, requestStart, ref)
	want := freshCounter + "begin;\nINSERT INTO metering_events (reference, value) VALUES ('lb-:lbrun-:client_id-:lbseq', 1) ON CONFLICT DO NOTHING;\ncommit;\n"
	if s.protocol != "simple" || !s.fresh || s.text != want {
		t.Fatalf("%+v\nwant text:\n%s", s, want)
	}

	extended := statement{text: "INSERT INTO metering_events (reference) VALUES ($1)", extended: true, named: true,
		params: map[int]string{1: "'" + ref + "'"}}
	s = bareRun([]statement{extended}, requestStart, ref)
	if s.protocol != "simple" || !s.fresh || s.note == "" || !strings.Contains(s.text, "'lb-:lbrun-:client_id-:lbseq'") {
		t.Fatalf("extended insert with a fresh reference: %+v", s)
	}

	// A statement that does not carry it is replayed as before.
	if s := bareRun([]statement{preparedRead}, requestStart, ref); s.fresh || s.protocol != "prepared" {
		t.Fatalf("read without the reference: %+v", s)
	}
}

func TestFreshWrkScript(t *testing.T) {
	body := `{"reference":"` + freshToken + `","value":1}`
	lua := freshWrkScript("POST", "sk_x", body, "ingest-c8")
	for _, want := range []string{
		`wrk.method = [[POST]]`,
		`wrk.headers["Authorization"] = [[Bearer sk_x]]`,
		`wrk.headers["Content-Type"] = "application/json"`,
		`local before = [[{"reference":"]]`,
		`local after = [[","value":1}]]`,
		`local prefix = [[lb-` + runTag + `-ingest-c8-]]`,
		`thread:set("tid", threads)`,
		`return wrk.format(nil, nil, nil, before .. prefix .. tid .. "-" .. n .. after)`,
	} {
		if !strings.Contains(lua, want) {
			t.Errorf("no %q in\n%s", want, lua)
		}
	}
	if strings.Contains(lua, "wrk.body") {
		t.Errorf("a fresh script sets a fixed body:\n%s", lua)
	}
}
