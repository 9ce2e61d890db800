package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// explain runs a read's captured statement under EXPLAIN (ANALYZE,
// BUFFERS) in our session, so the run says which plan the figures are of
// (a report over many events is fast only when its covering index serves
// it alone). The statement must be a single read: a write would be
// applied once more.
func explain(ctx context.Context, db *database, stmts []statement) (string, error) {
	var reads []string
	for _, s := range stmts {
		text := strings.TrimSpace(s.inlined())
		switch strings.ToLower(text) {
		case "begin", "commit", "rollback":
			continue
		}
		reads = append(reads, text)
	}
	if len(reads) != 1 || !strings.HasPrefix(strings.ToUpper(reads[0]), "SELECT") {
		return "", errors.New("explain: the request ran more than one statement, or not a SELECT")
	}
	rows, err := db.conn.Query(ctx, "EXPLAIN (ANALYZE, BUFFERS) "+strings.TrimRight(reads[0], ";"))
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return "", err
		}
		b.WriteString(line + "\n")
	}
	return b.String(), rows.Err()
}

var (
	planScan        = regexp.MustCompile(`(?m)(Index Only Scan|Bitmap Index Scan|Index Scan|Bitmap Heap Scan|Seq Scan)(?: Backward)?(?: using (\S+))? on (\S+)`)
	planHeapFetches = regexp.MustCompile(`(?m)Heap Fetches: (\d+)`)
)

// planSummary names the scans of a plan: "Index Only Scan using idx on
// table (heap fetches 0)", one per scan, in the plan's order.
func planSummary(plan string) string {
	fetches := planHeapFetches.FindAllStringSubmatch(plan, -1)
	var parts []string
	for _, m := range planScan.FindAllStringSubmatch(plan, -1) {
		s := m[1]
		if m[2] != "" {
			s += " using `" + m[2] + "`"
		}
		s += " on `" + m[3] + "`"
		if m[1] == "Index Only Scan" && len(fetches) > 0 {
			s += fmt.Sprintf(" (heap fetches %s)", fetches[0][1])
			fetches = fetches[1:]
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no table scan"
	}
	return strings.Join(parts, ", ")
}
