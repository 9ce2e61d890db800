package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// listenerCloseTimeout bounds closing a listening connection: its
// context has usually ended, and a server that does not answer must not
// hold up a shutdown.
const listenerCloseTimeout = time.Second

// ListenOn opens a connection of its own (Listen) and LISTENs on channel;
// on failure the connection is closed again. The caller waits for
// notifications on it and closes it with CloseListener.
func (d *DB) ListenOn(ctx context.Context, channel string) (*pgx.Conn, error) {
	conn, err := d.Listen(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		CloseListener(conn)
		return nil, err
	}
	return conn, nil
}

// CloseListener closes a connection ListenOn opened, waiting at most
// listenerCloseTimeout.
func CloseListener(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), listenerCloseTimeout)
	defer cancel()
	_ = conn.Close(ctx)
}
