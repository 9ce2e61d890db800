package main

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// logEntry is one logged statement (or a parameters detail line) of the
// PostgreSQL log.
type logEntry struct {
	pid  string
	kind string // "statement", "execute" or "parameters"
	text string
	// For an execute (a statement sent through the extended protocol):
	named  bool           // a named prepared statement, not the unnamed one
	params map[int]string // its parameters from the detail line, by position
}

// statement is one statement a request ran, as the server sent it.
type statement struct {
	text string // as logged: with $n placeholders when extended
	// extended: sent through the extended protocol (Parse/Bind/Execute)
	// rather than as one text with literals (the simple protocol).
	extended bool
	// named: extended, from a named prepared statement that the
	// connection parses and plans once and then only executes; the
	// unnamed statement is parsed anew every time.
	named  bool
	params map[int]string // extended: $n -> its value as a SQL literal ('…' or NULL)
}

// inlined is the statement as the simple protocol would send it: its
// parameters written into the text as literals.
func (s statement) inlined() string {
	if !s.extended {
		return s.text
	}
	return inlineParameters(s.text, s.params)
}

// linePattern turns a log_line_prefix into a pattern matching the log lines
// it starts, capturing the backend's PID (%p, which the prefix must have)
// and the message after the prefix. Other escapes match anything.
func linePattern(prefix string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString("^")
	pid := false
	for i := 0; i < len(prefix); i++ {
		if prefix[i] != '%' || i+1 == len(prefix) {
			b.WriteString(regexp.QuoteMeta(prefix[i : i+1]))
			continue
		}
		i++
		for i < len(prefix)-1 && (prefix[i] == '-' || (prefix[i] >= '0' && prefix[i] <= '9')) {
			i++ // padding, as in %-10a
		}
		switch prefix[i] {
		case '%':
			b.WriteString("%")
		case 'p':
			if !pid {
				b.WriteString(` *(\d+) *`)
				pid = true
				continue
			}
			b.WriteString(` *\d+ *`)
		default:
			b.WriteString(".*?")
		}
	}
	if !pid {
		return nil, fmt.Errorf("log_line_prefix %q has no %%p (the backend's PID)", prefix)
	}
	b.WriteString(`((?:LOG|DETAIL):  .*)$`)
	return regexp.Compile(b.String())
}

// parseLog reads the statements in a stretch of PostgreSQL's stderr log,
// whose lines start with the prefix line matches (see linePattern).
// Continuation lines of a multi-line statement start with a tab (PostgreSQL
// adds it); lines of any other form end the current entry.
func parseLog(data string, line *regexp.Regexp) []logEntry {
	var out []logEntry
	cur := -1 // index in out of the entry continuation lines extend
	for _, l := range strings.Split(data, "\n") {
		if cont, ok := strings.CutPrefix(l, "\t"); ok && cur >= 0 {
			out[cur].text += "\n" + cont
			continue
		}
		cur = -1
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		e := logEntry{pid: m[1]}
		switch msg := m[2]; {
		case strings.HasPrefix(msg, "LOG:  statement: "):
			e.kind, e.text = "statement", strings.TrimPrefix(msg, "LOG:  statement: ")
		case strings.HasPrefix(msg, "LOG:  execute "):
			// "execute <unnamed>: SELECT ..." or "execute S_1: ..."
			name, text, ok := strings.Cut(strings.TrimPrefix(msg, "LOG:  execute "), ": ")
			if !ok {
				continue
			}
			e.kind, e.text, e.named = "execute", text, name != "<unnamed>"
		case strings.HasPrefix(msg, "DETAIL:  parameters: "):
			e.kind, e.text = "parameters", strings.TrimPrefix(msg, "DETAIL:  parameters: ")
		default:
			continue
		}
		out = append(out, e)
		cur = len(out) - 1
	}
	return bindParameters(out)
}

// bindParameters folds each "parameters" detail into the extended-protocol
// statement it belongs to (the previous execute of the same backend).
func bindParameters(entries []logEntry) []logEntry {
	var out []logEntry
	lastExec := map[string]int{} // pid -> index in out of its last execute
	for _, e := range entries {
		switch e.kind {
		case "parameters":
			if i, ok := lastExec[e.pid]; ok {
				out[i].params = parseParameters(e.text)
				delete(lastExec, e.pid)
			}
			continue
		case "execute":
			lastExec[e.pid] = len(out)
		default:
			delete(lastExec, e.pid)
		}
		out = append(out, e)
	}
	return out
}

// parseParameters reads the parameters detail of an extended-protocol
// statement into literals by position:
//
//	$1 = 'a', $2 = NULL, $3 = 'it''s'  ->  {1: 'a', 2: NULL, 3: 'it''s'}
func parseParameters(s string) map[int]string {
	params := map[int]string{}
	for s != "" {
		var n int
		if _, err := fmt.Sscanf(s, "$%d = ", &n); err != nil {
			break
		}
		_, s, _ = strings.Cut(s, " = ")
		var lit string
		if strings.HasPrefix(s, "NULL") {
			lit, s = "NULL", s[len("NULL"):]
		} else if strings.HasPrefix(s, "'") {
			i := 1
			for i < len(s) {
				if s[i] == '\'' {
					if i+1 < len(s) && s[i+1] == '\'' {
						i += 2
						continue
					}
					break
				}
				i++
			}
			if i >= len(s) {
				break
			}
			lit, s = s[:i+1], s[i+1:]
		} else {
			break
		}
		params[n] = lit
		s = strings.TrimPrefix(s, ", ")
	}
	return params
}

// inlineParameters replaces $n placeholders by their literals.
func inlineParameters(sql string, params map[int]string) string {
	return replacePlaceholders(sql, func(n int) (string, bool) {
		lit, ok := params[n]
		return lit, ok
	})
}

// replacePlaceholders replaces each $n placeholder of sql (whole numbers:
// $1 is not the front of $10) outside quoted literals and identifiers by
// what with(n) returns, leaving it alone when with reports false.
func replacePlaceholders(sql string, with func(n int) (string, bool)) string {
	var b strings.Builder
	var quote byte // the quote we are inside of, or 0
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0 // a doubled quote closes and reopens: same result
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '$':
			j := i + 1
			for j < len(sql) && sql[j] >= '0' && sql[j] <= '9' {
				j++
			}
			if j > i+1 && (i == 0 || !isNameByte(sql[i-1])) {
				n, err := strconv.Atoi(sql[i+1 : j])
				if r, ok := with(n); err == nil && ok {
					b.WriteString(r)
					i = j - 1
					continue
				}
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isNameByte reports whether c can be part of an SQL identifier (so "a$1"
// is a name, not a placeholder) or of a pgbench variable name.
func isNameByte(c byte) bool {
	return c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// between returns the entries strictly between the statements of our
// session (PID self) that carry the begin and end tokens.
func between(entries []logEntry, self, begin, end string) ([]logEntry, error) {
	from, to := -1, -1
	for i, e := range entries {
		if e.pid != self {
			continue
		}
		if from < 0 && strings.Contains(e.text, begin) {
			from = i
		} else if from >= 0 && strings.Contains(e.text, end) {
			to = i
			break
		}
	}
	if from < 0 || to < 0 {
		return nil, fmt.Errorf("capture markers not found in the PostgreSQL log")
	}
	return entries[from+1 : to], nil
}

// captured is what one request ran.
type captured struct {
	statements []statement // in order, transaction control included
	count      int         // statements without transaction control
	pings      int         // pool health checks ("-- ping"), left out
	ref        string      // the fresh reference the request sent (fresh.go), or ""
}

// requestStatements picks, from what was logged during a request, the
// statements the request ran. Our own session (PID self) is left out; the
// others logging are the server's (only its role logs in its database). They
// are grouped per backend into units, a transaction
// (BEGIN to COMMIT) or a single statement; units made only of the job
// engine's statements (River's tables, LISTEN/NOTIFY) or pool pings are the
// server's background work, not the request's, and are dropped. A
// transaction that mixes both (a job enqueued with a write) is kept whole.
func requestStatements(entries []logEntry, self string) captured {
	type unit struct {
		first int
		stmts []statement
	}
	var units []unit
	open := map[string]*unit{} // pid -> open transaction
	for i, e := range entries {
		if e.pid == self {
			continue
		}
		st := statement{text: e.text, extended: e.kind == "execute", named: e.named, params: e.params}
		if u := open[e.pid]; u != nil {
			u.stmts = append(u.stmts, st)
			if isTxEnd(e.text) {
				units = append(units, *u)
				delete(open, e.pid)
			}
			continue
		}
		u := &unit{first: i, stmts: []statement{st}}
		if isTxBegin(e.text) {
			open[e.pid] = u
			continue
		}
		units = append(units, *u)
	}
	for _, u := range open {
		units = append(units, *u)
	}
	sort.Slice(units, func(a, b int) bool { return units[a].first < units[b].first })

	var c captured
	for _, u := range units {
		if len(u.stmts) == 1 && isPing(u.stmts[0].text) {
			c.pings++
			continue
		}
		if background(u.stmts) {
			continue
		}
		for _, s := range u.stmts {
			c.statements = append(c.statements, s)
			if !isTxControl(s.text) {
				c.count++
			}
		}
	}
	return c
}

// background reports whether a unit is only the job engine's work.
func background(stmts []statement) bool {
	for _, s := range stmts {
		if !isTxControl(s.text) && !isJobEngine(s.text) && !isPing(s.text) {
			return false
		}
	}
	return true
}

func firstWord(s string) string {
	f := strings.Fields(strings.ToLower(strings.TrimSpace(s)))
	if len(f) == 0 {
		return ""
	}
	return strings.TrimSuffix(f[0], ";")
}

func isTxBegin(s string) bool {
	w := firstWord(s)
	return w == "begin" || (w == "start" && strings.Contains(strings.ToLower(s), "transaction"))
}

func isTxEnd(s string) bool {
	switch firstWord(s) {
	case "commit", "end", "rollback", "abort":
		// ROLLBACK TO SAVEPOINT keeps the transaction open.
		return !strings.Contains(strings.ToLower(s), "savepoint")
	}
	return false
}

func isTxControl(s string) bool {
	if isTxBegin(s) || isTxEnd(s) {
		return true
	}
	switch firstWord(s) {
	case "savepoint", "release", "rollback":
		return true
	}
	return false
}

// isPing is pgx's connection health check.
func isPing(s string) bool { return strings.TrimSpace(s) == "-- ping" }

// isJobEngine recognises River's statements (its tables and functions are
// all river_*) and the LISTEN/NOTIFY traffic of its notifier.
func isJobEngine(s string) bool {
	l := strings.ToLower(s)
	switch firstWord(s) {
	case "listen", "unlisten", "notify":
		return true
	}
	return strings.Contains(l, "river_") || strings.Contains(l, "pg_notify(") || isDeliveryDispatch(l)
}

// isDeliveryDispatch matches the webhook dispatcher's statements (its poll
// for deliveries not yet handed to the job engine, and their marking;
// resolvers/webhooks), which run on its own timer in every server process,
// not for any request. Requests reach webhook_deliveries only through the
// events trigger, which logs no statement.
func isDeliveryDispatch(lower string) bool {
	return strings.Contains(lower, "webhook_deliveries") && strings.Contains(lower, "enqueued")
}
