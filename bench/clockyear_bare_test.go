package bench

import (
	"context"
	"database/sql"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// capturedUnit is what the server sent as one round of work: a
// transaction (BEGIN … COMMIT or ROLLBACK) or one statement outside any.
type capturedUnit struct {
	statements []store.RecordedStatement
	inTx       bool
	rollback   bool
	// renewal: the transaction bills a period (it inserts an invoice).
	renewal bool
}

// clockCapture is an advance's statements, split into units.
type clockCapture struct{ units []capturedUnit }

// splitCapture splits recorded statements into units at transaction
// control.
func splitCapture(recorded []store.RecordedStatement) clockCapture {
	var c clockCapture
	var cur *capturedUnit
	for _, s := range recorded {
		switch strings.ToUpper(strings.TrimSpace(s.SQL)) {
		case "BEGIN":
			cur = &capturedUnit{inTx: true}
		case "COMMIT", "ROLLBACK":
			if cur != nil {
				cur.rollback = strings.EqualFold(strings.TrimSpace(s.SQL), "ROLLBACK")
				c.units = append(c.units, *cur)
			}
			cur = nil
		default:
			if cur == nil {
				c.units = append(c.units, capturedUnit{statements: []store.RecordedStatement{s}})
				continue
			}
			cur.statements = append(cur.statements, s)
			if strings.HasPrefix(s.SQL, `INSERT INTO "invoices"`) {
				cur.renewal = true
			}
		}
	}
	return c
}

// renewalStatements is the statement count per renewal of the first
// write that renews (an advance renews in writes of several renewals,
// each write locking the clock and inserting its events once): its
// statements over the invoices it inserts.
func (c clockCapture) renewalStatements() int {
	for _, u := range c.units {
		if !u.renewal {
			continue
		}
		invoices := 0
		for _, s := range u.statements {
			if strings.HasPrefix(s.SQL, `INSERT INTO "invoices"`) {
				invoices++
			}
		}
		return len(u.statements) / invoices
	}
	return 0
}

// freshened answers the capture with each renewal step's fresh ids and
// invoice number replaced (freshen), so that its replay writes new rows
// as the API did; it is done before the replay is timed.
func (c clockCapture) freshened() clockCapture {
	out := clockCapture{units: make([]capturedUnit, len(c.units))}
	for i, u := range c.units {
		if u.renewal {
			u.statements = freshen(u.statements)
		}
		out.units[i] = u
	}
	return out
}

// replay runs the capture bare, once, every unit in capture order.
func (c clockCapture) replay(ctx context.Context, db *store.DB) error {
	for _, u := range c.units {
		if err := runUnit(ctx, db.Bun.DB, u); err != nil {
			return err
		}
	}
	return nil
}

// runUnit sends statements as the server did: Bun's text through
// database/sql, a prepared read with its arguments through pgx's
// statement cache, in one transaction when the unit was one.
func runUnit(ctx context.Context, db *sql.DB, u capturedUnit) error {
	type querier interface {
		QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	}
	var q querier = db
	var tx *sql.Tx
	if u.inTx {
		var err error
		if tx, err = db.BeginTx(ctx, nil); err != nil {
			return err
		}
		defer func() { _ = tx.Rollback() }()
		q = tx
	}
	for _, s := range u.statements {
		var args []any
		if s.Args != nil {
			args = append([]any{pgx.QueryExecModeCacheStatement}, s.Args...)
		}
		rows, err := q.QueryContext(ctx, s.SQL, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if err := rows.Err(); err != nil {
			return err
		}
	}
	if tx == nil {
		return nil
	}
	if u.rollback {
		return tx.Rollback()
	}
	return tx.Commit()
}

var (
	uuidPattern   = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	numberPattern = regexp.MustCompile(`"number" = \d+`)
	// replayNumber numbers replayed invoices beyond any the API issues.
	replayNumber atomic.Int64
)

// freshen gives a renewal step's statements new ids for the objects the
// step minted and a new invoice number, consistently across the step's
// statements, so a replay inserts new rows instead of colliding with the
// API's. Ids are time-ordered and strictly increasing in the process, and
// the step mints its invoice's id first: the ids minted by the step are
// those from the invoice's on; the ones before it (the merchant, the
// subscription, the customer, the product) are referred to as captured.
func freshen(statements []store.RecordedStatement) []store.RecordedStatement {
	first := ""
	for _, s := range statements {
		if strings.HasPrefix(s.SQL, `INSERT INTO "invoices"`) {
			if found := uuidPattern.FindAllString(s.SQL, 2); len(found) == 2 {
				first = found[1] // after the merchant's
			}
			break
		}
	}
	fresh := map[string]string{}
	number := `"number" = ` + strconv.FormatInt(1_000_000+replayNumber.Add(1), 10)
	out := make([]store.RecordedStatement, len(statements))
	for i, s := range statements {
		text := uuidPattern.ReplaceAllStringFunc(s.SQL, func(id string) string {
			if id < first {
				return id
			}
			if f, ok := fresh[id]; ok {
				return f
			}
			fresh[id] = uuid.Must(uuid.NewV7()).String()
			return fresh[id]
		})
		out[i] = store.RecordedStatement{SQL: numberPattern.ReplaceAllString(text, number), Args: s.Args}
	}
	return out
}
