package main

import (
	"strings"
	"testing"
	"time"
)

const sampleLog = "2026-11-22 21:14:51.120 UTC [900] LOG:  statement: SELECT 'loadbench-capture-1-begin'\n" +
	"2026-11-22 21:14:51.121 UTC [8971] LOG:  statement: SELECT \"k\".\"id\" FROM \"api_keys\" AS \"k\" WHERE (k.hash = '\\x17') LIMIT 1\n" +
	"2026-11-22 21:14:51.122 UTC [8972] LOG:  statement: -- name: JobGetAvailable :many\n" +
	"\tWITH locked_jobs AS (SELECT id FROM river_job)\n" +
	"\tUPDATE river_job SET state = 'running'\n" +
	"2026-11-22 21:14:51.123 UTC [8971] LOG:  statement: begin\n" +
	"2026-11-22 21:14:51.124 UTC [8972] LOG:  statement: begin\n" +
	"2026-11-22 21:14:51.125 UTC [8971] LOG:  statement: INSERT INTO \"accounts\" (\"id\") VALUES ('01a2051c-9d79-7e4e-9a87-373cd034cf6f')\n" +
	"2026-11-22 21:14:51.126 UTC [8972] LOG:  statement: UPDATE river_leader SET expires_at = now()\n" +
	"2026-11-22 21:14:51.127 UTC [8971] LOG:  statement: INSERT INTO \"events\" (\"id\", \"object_id\", \"data\") VALUES\n" +
	"\t('01a2051c-9d79-7e4e-9a87-373cd034cf72', '01a2051c-9d79-7e4e-9a87-373cd034cf6f', '{\"t\":\"12:30:45\"}')\n" +
	"2026-11-22 21:14:51.128 UTC [8972] LOG:  statement: commit\n" +
	"2026-11-22 21:14:51.129 UTC [8971] LOG:  statement: commit\n" +
	"2026-11-22 21:14:51.130 UTC [8973] LOG:  statement: -- ping\n" +
	"2026-11-22 21:14:51.131 UTC [8973] LOG:  execute <unnamed>: SELECT * FROM t WHERE a = $1 AND b = $10\n" +
	"2026-11-22 21:14:51.131 UTC [8973] DETAIL:  parameters: $1 = 'it''s', $10 = NULL\n" +
	"2026-11-22 21:14:51.132 UTC [17268] LOG:  checkpoint starting: time\n" +
	"2026-11-22 21:14:51.133 UTC [900] LOG:  statement: SELECT 'loadbench-capture-1-end'\n"

func TestCaptureFromLog(t *testing.T) {
	line, err := linePattern("%m [%p] ")
	if err != nil {
		t.Fatal(err)
	}
	entries := parseLog(sampleLog, line)
	window, err := between(entries, "900", "loadbench-capture-1-begin", "loadbench-capture-1-end")
	if err != nil {
		t.Fatal(err)
	}
	c := requestStatements(window, "900")
	var got []string
	for _, st := range c.statements {
		got = append(got, st.inlined())
	}
	want := []string{
		`SELECT "k"."id" FROM "api_keys" AS "k" WHERE (k.hash = '\x17') LIMIT 1`,
		"begin",
		`INSERT INTO "accounts" ("id") VALUES ('01a2051c-9d79-7e4e-9a87-373cd034cf6f')`,
		"INSERT INTO \"events\" (\"id\", \"object_id\", \"data\") VALUES\n('01a2051c-9d79-7e4e-9a87-373cd034cf72', '01a2051c-9d79-7e4e-9a87-373cd034cf6f', '{\"t\":\"12:30:45\"}')",
		"commit",
		"SELECT * FROM t WHERE a = 'it''s' AND b = NULL",
	}
	if strings.Join(got, "\n;\n") != strings.Join(want, "\n;\n") {
		t.Fatalf("statements:\n%s\nwant:\n%s", strings.Join(got, "\n;\n"), strings.Join(want, "\n;\n"))
	}
	if c.count != 4 || c.pings != 1 {
		t.Fatalf("count %d pings %d, want 4 and 1", c.count, c.pings)
	}
	for i, st := range c.statements[:5] {
		if st.extended {
			t.Errorf("statement %d logged as a simple statement is marked extended", i+1)
		}
	}
	last := c.statements[5]
	if !last.extended || last.named || last.text != "SELECT * FROM t WHERE a = $1 AND b = $10" ||
		len(last.params) != 2 || last.params[1] != "'it''s'" || last.params[10] != "NULL" {
		t.Fatalf("extended statement: %+v", last)
	}
}

func TestNamedExecuteFromLog(t *testing.T) {
	line, err := linePattern("%m [%p] ")
	if err != nil {
		t.Fatal(err)
	}
	log := "2026-11-22 23:07:51.120 UTC [8971] LOG:  execute stmtcache_0f3a: SELECT a.id FROM accounts AS a\n" +
		"\tWHERE (a.id = $3) AND (a.merchant_id = $1) AND (a.livemode = $2)\n" +
		"2026-11-22 23:07:51.120 UTC [8971] DETAIL:  parameters: $1 = '01a2051c-86dc-780f-84fa-b0753146431f', $2 = 'f', $3 = '01a2051c-9d79-7e4e-9a87-373cd034cf6f'\n"
	c := requestStatements(parseLog(log, line), "900")
	if len(c.statements) != 1 {
		t.Fatalf("%+v", c)
	}
	st := c.statements[0]
	if !st.extended || !st.named || len(st.params) != 3 || st.params[2] != "'f'" {
		t.Fatalf("%+v", st)
	}
	want := "SELECT a.id FROM accounts AS a\nWHERE (a.id = '01a2051c-9d79-7e4e-9a87-373cd034cf6f') " +
		"AND (a.merchant_id = '01a2051c-86dc-780f-84fa-b0753146431f') AND (a.livemode = 'f')"
	if got := st.inlined(); got != want {
		t.Fatalf("inlined:\n%s\nwant:\n%s", got, want)
	}
}

func TestLinePatternNeedsPID(t *testing.T) {
	if _, err := linePattern("%m "); err == nil {
		t.Fatal("a prefix without the PID escape must be refused")
	}
	line, err := linePattern("%t [%-6p] %q%u@%d ")
	if err != nil {
		t.Fatal(err)
	}
	m := line.FindStringSubmatch("2026-11-22 21:14:51 UTC [42    ] postgres@payments LOG:  statement: SELECT 1")
	if m == nil || m[1] != "42" || m[2] != "LOG:  statement: SELECT 1" {
		t.Fatalf("match %q", m)
	}
}

func TestPgbenchScriptReplacesMintedIDs(t *testing.T) {
	// 0x01a2051c9d79 ms is the request's time; the merchant's id is older.
	start := time.UnixMilli(0x01a2051c9d79)
	merchant := "01a2051c-86dc-780f-84fa-b0753146431f"
	stmts := []string{
		"begin",
		"INSERT INTO accounts VALUES ('" + merchant + "', '01a2051c-9d79-7e4e-9a87-373cd034cf6f')",
		"INSERT INTO events VALUES ('01A2051C-9D79-7E4E-9A87-373CD034CF72', '{\"id\":\"01a2051c-9d79-7e4e-9a87-373cd034cf6f\"}');",
		"commit",
	}
	got := pgbenchScript(stmts, start)
	want := `\set lbid1a random(1000, 9999)
\set lbid1b random(100000000000, 999999999999)
\set lbid2a random(1000, 9999)
\set lbid2b random(100000000000, 999999999999)
begin;
INSERT INTO accounts VALUES ('01a2051c-86dc-780f-84fa-b0753146431f', '01a2051c-9d79-7e4e-:lbid1a-:lbid1b');
INSERT INTO events VALUES ('01a2051c-9d79-7e4e-:lbid2a-:lbid2b', '{"id":"01a2051c-9d79-7e4e-:lbid1a-:lbid1b"}');
commit;
`
	if got != want {
		t.Fatalf("script:\n%s\nwant:\n%s", got, want)
	}
}

func TestParseWrk(t *testing.T) {
	out := `Running 1s test @ http://127.0.0.1:8080/v1/accounts
  2 threads and 8 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     4.20ms    1.10ms  20.00ms   90.00%
    Req/Sec     0.95k   100.00     1.10k    70.00%
  Latency Distribution
     50%    4.00ms
     75%    4.50ms
     90%    5.00ms
     99%  512.00us
  1900 requests in 1.00s, 1.20MB read
  Socket errors: connect 0, read 1, write 0, timeout 0
  Non-2xx or 3xx responses: 3
Requests/sec:   1899.50
Transfer/sec:      1.20MB
`
	r := parseWrk(out)
	if r.rps != 1899.5 || r.requests != 1900 || r.p99 != 512*time.Microsecond || r.non2xx != 3 || r.socketErrors != "connect 0, read 1, write 0, timeout 0" {
		t.Fatalf("%+v", r)
	}
}

func TestParsePgbench(t *testing.T) {
	out := "number of transactions actually processed: 5473/5473\nnumber of failed transactions: 0 (0.000%)\n" +
		"latency average = 5.8 ms\ninitial connection time = 20.1 ms\ntps = 5473.123456 (without initial connection time)\n"
	if r := parsePgbench(out); r.tps != 5473.123456 || r.processed != 5473 || r.failed != 0 {
		t.Fatalf("%+v", r)
	}
}

func TestReplaceBetweenMarkers(t *testing.T) {
	doc := "# P\n\nintro\n\n" + beginMarker + "\nold\n" + endMarker + "\n\nafter\n"
	got, err := replaceBetweenMarkers(doc, "new table\n")
	if err != nil || got != "# P\n\nintro\n\n"+beginMarker+"\nnew table\n"+endMarker+"\n\nafter\n" {
		t.Fatalf("%q %v", got, err)
	}
	got, err = replaceBetweenMarkers("# P\n", "t")
	if err != nil || !strings.HasSuffix(got, beginMarker+"\nt\n"+endMarker+"\n") {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := replaceBetweenMarkers(endMarker+beginMarker, "t"); err == nil {
		t.Fatal("markers out of order must be refused")
	}
}

func TestFormatting(t *testing.T) {
	for v, want := range map[float64]string{33491.2: "33,491", 176: "176", 1650.5: "1,651", 1234567: "1,234,567"} {
		if got := thousands(v); got != want {
			t.Errorf("thousands(%v) = %q, want %q", v, got, want)
		}
	}
	for d, want := range map[time.Duration]string{36 * time.Millisecond: "36", 9600 * time.Microsecond: "9.6", 450 * time.Microsecond: "0.45"} {
		if got := millis(d); got != want {
			t.Errorf("millis(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestLuaString(t *testing.T) {
	if got := luaString(`{"a":["]]"]}`); got != `[=[{"a":["]]"]}]=]` {
		t.Fatal(got)
	}
}
