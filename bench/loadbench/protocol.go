package main

import (
	"fmt"
	"strings"
	"time"
)

// bareScript is how pgbench runs a request's statements bare: in the
// protocol the server sent them in, since parsing and planning a statement
// anew is most of a short read's cost and the comparison must not charge
// the bare side for work the server no longer does.
type bareScript struct {
	protocol string   // pgbench -M: "prepared", "extended" or "simple"
	text     string   // the script
	defines  []string // -D name=value: the logged parameter values
	note     string   // why simple although the server used the extended protocol
	fresh    bool     // the request's reference is made new per run (fresh.go): run with freshRunArgs
}

// args are pgbench's options for the script at path.
func (s bareScript) args(path string) []string {
	args := []string{"-n", "-M", s.protocol, "-f", path}
	for _, d := range s.defines {
		args = append(args, "-D", d)
	}
	return args
}

// bareRun picks the protocol for a request's statements. When the server
// sent every one of them through the extended protocol, pgbench does too,
// with the statements' placeholders and the logged values as parameters:
// -M prepared when each was a named prepared statement (parsed and planned
// once per connection, like pgx's statement cache), -M extended when one
// was the unnamed statement (parsed every time). Otherwise, or when the
// parameters cannot be replayed that way, it is the simple protocol with
// the values inlined as literals, which is what the server sent for all
// statements of a request that used no prepared statement.
//
// ref, when not "", is the fresh reference the request sent (fresh.go):
// each run replaces it by a new one, which, like fresh ids, only the
// simple protocol's text substitution gives.
func bareRun(stmts []statement, requestStart time.Time, ref string) bareScript {
	extended, named := len(stmts) > 0, true
	for _, s := range stmts {
		extended = extended && s.extended
		named = named && s.named
	}
	inlined := make([]string, len(stmts))
	carriesRef := false
	for i, s := range stmts {
		inlined[i] = s.inlined()
		if ref != "" && strings.Contains(inlined[i], ref) {
			inlined[i] = freshPgbench(inlined[i], ref)
			carriesRef = true
		}
	}
	simple := bareScript{protocol: "simple", text: pgbenchScript(inlined, requestStart)}
	if carriesRef {
		simple.text, simple.fresh = freshCounter+simple.text, true
	}
	if !extended {
		return simple
	}
	if carriesRef {
		simple.note = "the request's reference must be new in every run"
		return simple
	}
	text, defines, err := paramScript(stmts, requestStart)
	if err != nil {
		simple.note = err.Error()
		return simple
	}
	protocol := "prepared"
	if !named {
		protocol = "extended"
	}
	return bareScript{protocol: protocol, text: text, defines: defines}
}

// paramScript writes extended-protocol statements as a pgbench script for
// -M prepared or -M extended: the placeholder $n of the i-th statement
// becomes the variable :p<i>_<n>, defined (-D) as the logged value without
// its SQL quotes, so that pgbench sends it as a text parameter whose type
// PostgreSQL infers as it did for the server. A NULL parameter is written
// into the text (pgbench variables cannot hold one).
//
// It fails when the script could not be replayed faithfully: a missing
// parameter value, an id the request minted (a write needs fresh ones each
// run, which only the simple protocol's text substitution gives), or a ':'
// before a name in the text, which pgbench would take for a variable.
func paramScript(stmts []statement, requestStart time.Time) (string, []string, error) {
	var b strings.Builder
	var defines []string
	vars := map[string]bool{}
	for i, s := range stmts {
		if id := mintedID(s, requestStart); id != "" {
			return "", nil, fmt.Errorf("statement %d carries the id %s the request minted", i+1, id)
		}
		var missing []int
		text := replacePlaceholders(s.text, func(n int) (string, bool) {
			lit, ok := s.params[n]
			switch {
			case !ok:
				missing = append(missing, n)
				return "", false
			case lit == "NULL":
				return "NULL", true
			}
			name := fmt.Sprintf("p%d_%d", i+1, n)
			if !vars[name] {
				vars[name] = true
				defines = append(defines, name+"="+unquote(lit))
			}
			return ":" + name, true
		})
		if len(missing) > 0 {
			return "", nil, fmt.Errorf("statement %d has no logged value for $%d", i+1, missing[0])
		}
		if v := strayVariable(text, vars); v != "" {
			return "", nil, fmt.Errorf("statement %d has %q, which pgbench would take for a variable", i+1, v)
		}
		b.WriteString(strings.TrimRight(strings.TrimSpace(text), ";"))
		b.WriteString(";\n")
	}
	return b.String(), defines, nil
}

// mintedID is the first id the request minted in a statement's text or
// parameters, or "".
func mintedID(s statement, requestStart time.Time) string {
	all := []string{s.text}
	for _, v := range s.params {
		all = append(all, v)
	}
	for _, id := range uuidPattern.FindAllString(strings.Join(all, "\n"), -1) {
		if mintedSince(strings.ToLower(id), requestStart) {
			return id
		}
	}
	return ""
}

// unquote is the value of a logged parameter literal without its quotes,
// doubled quotes inside undone (see parseParameters for the form).
func unquote(lit string) string {
	if len(lit) >= 2 && lit[0] == '\'' && lit[len(lit)-1] == '\'' {
		return strings.ReplaceAll(lit[1:len(lit)-1], "''", "'")
	}
	return lit
}

// strayVariable is the first ":name" in text that pgbench's prepared and
// extended modes would turn into a parameter (it looks for them everywhere,
// quoted literals included; "::" casts excepted) and that is not one of
// vars, or "".
func strayVariable(text string, vars map[string]bool) string {
	for i := 0; i < len(text); i++ {
		if text[i] != ':' {
			continue
		}
		j := i + 1
		for j < len(text) && isNameByte(text[j]) {
			j++
		}
		if j == i+1 {
			for i+1 < len(text) && text[i+1] == ':' {
				i++ // "::type": pgbench skips the run of colons
			}
			continue
		}
		if name := text[i+1 : j]; !vars[name] {
			return ":" + name
		}
		i = j - 1
	}
	return ""
}
