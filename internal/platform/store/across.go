package store

import (
	"context"
	"database/sql"

	"github.com/uptrace/bun"
)

// TxAcross runs fn in one transaction that is not bound to a scope: fn
// writes the platform's own tables (merchants, API keys) with tx and
// reaches tenant tables through tenant, bound to the scope it names, on
// that same transaction. It exists for the operator's writes that span a
// merchant's modes, such as creating a merchant together with its first
// rows in both modes: they commit together or not at all. The operation
// layer acts for one tenant and uses Tx.
func (d *DB) TxAcross(ctx context.Context, fn func(ctx context.Context, tx bun.Tx, tenant func(Scope) *Tenant) error) error {
	conn, err := d.Bun.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var scopes []Scope
	err = conn.RunInTx(ctx, &sql.TxOptions{}, func(ctx context.Context, btx bun.Tx) error {
		return fn(ctx, btx, func(s Scope) *Tenant {
			scopes = append(scopes, s)
			return &Tenant{idb: btx, bun: d.Bun, scope: s, conn: conn.Conn, prepared: d.prepared}
		})
	})
	if err == nil && d.replicas != nil {
		for _, s := range scopes {
			d.replicas.noteCommit(ctx, conn.Conn, s)
		}
	}
	return err
}
