package store

import (
	"context"
	"sync"
)

// The statement recorder lets the benchmark harness capture the SQL
// statements an operation runs, in order, to replay them bare beside the
// API (docs/performance.md). Nothing in the server attaches one: without
// a recorder in the context the hook only looks one up.

type recorderKey struct{}

// RecordedStatement is one statement as it was sent: Bun's text with its
// arguments inlined (Args nil), or a prepared read's text with the
// arguments it was sent with. Transaction control is recorded too
// ("BEGIN", "COMMIT", "ROLLBACK"), so a capture splits into transactions.
type RecordedStatement struct {
	SQL  string
	Args []any
}

// StatementRecorder collects the statements run with a context it is
// attached to (WithStatementRecorder). Safe for concurrent use.
type StatementRecorder struct {
	// Keep, when positive, bounds what is kept to the first Keep
	// statements: a long operation's capture is a sample of it.
	Keep int

	mu         sync.Mutex
	statements []RecordedStatement
}

// WithStatementRecorder returns a context whose statements r records.
func WithStatementRecorder(ctx context.Context, r *StatementRecorder) context.Context {
	return context.WithValue(ctx, recorderKey{}, r)
}

// Take answers the statements recorded so far and forgets them.
func (r *StatementRecorder) Take() []RecordedStatement {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.statements
	r.statements = nil
	return out
}

func (r *StatementRecorder) record(sql string, args []any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Keep > 0 && len(r.statements) >= r.Keep {
		return
	}
	r.statements = append(r.statements, RecordedStatement{SQL: sql, Args: args})
}

// recordStatement records sql on ctx's recorder, if it has one.
func recordStatement(ctx context.Context, sql string, args []any) {
	if r, ok := ctx.Value(recorderKey{}).(*StatementRecorder); ok {
		r.record(sql, args)
	}
}
