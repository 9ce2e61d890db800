package auth

import (
	"context"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/clock"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Reconnection backoff of the listener: from the first to the last delay,
// doubling.
const (
	listenRetryFirst = 50 * time.Millisecond
	listenRetryMax   = 5 * time.Second
)

// listen keeps one connection listening on RevocationChannel until ctx
// ends, reconnecting with backoff. The cache is used only while it listens.
func (c *CredentialCache) listen(ctx context.Context) {
	defer close(c.done)
	retry := listenRetryFirst
	for {
		conn, err := c.connect(ctx)
		if err == nil {
			c.setListening(conn)
			if c.connects.Add(1) > 1 {
				c.logger.Info("credential cache: listener reconnected", "pid", conn.PgConn().PID())
			}
			retry = listenRetryFirst
			err = c.receive(ctx, conn)
			c.setListening(nil)
			store.CloseListener(conn)
		}
		if ctx.Err() != nil {
			return
		}
		c.logger.Warn("credential cache: listener down; credentials are checked in the database until it is back",
			"error", err, "retry_in", retry.String())
		if clock.Sleep(ctx, retry) != nil {
			return
		}
		retry = min(2*retry, listenRetryMax)
	}
}

// connect takes a connection from the pool (so it is made like every other:
// same target, credentials, hooks), takes it out of the pool for good and
// listens on it. It does not count against the pool's size.
func (c *CredentialCache) connect(ctx context.Context) (*pgx.Conn, error) {
	if c.beforeConnect != nil {
		if err := c.beforeConnect(ctx); err != nil {
			return nil, err
		}
	}
	return c.db.ListenOn(ctx, RevocationChannel)
}

// receive applies notifications until the connection fails or ctx ends.
func (c *CredentialCache) receive(ctx context.Context, conn *pgx.Conn) error {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		c.apply(n.Payload)
		c.notifications.Add(1)
	}
}

// apply drops what a notification names.
func (c *CredentialCache) apply(payload string) {
	switch {
	case strings.HasPrefix(payload, keyPayload):
		if b, err := hex.DecodeString(payload[len(keyPayload):]); err == nil && len(b) == 32 {
			c.invalidate([32]byte(b))
			return
		}
	case strings.HasPrefix(payload, merchantPayload):
		if id, err := uuid.Parse(payload[len(merchantPayload):]); err == nil {
			c.invalidateMerchant(id)
			return
		}
	}
	c.purge()
}

// revokedRow is a credential an UPDATE changed, as RETURNING gives it.
type revokedRow struct {
	Hash   []byte `bun:"hash"`
	Notice string `bun:"notice"`
}

// execAnnounced runs q, an UPDATE that ends or shortens credentials (of
// api_keys or session_secrets), so that it announces every row it changes
// on RevocationChannel in the same statement (pg_notify in RETURNING is
// evaluated once per changed row). The announcement is part of the
// transaction q runs in: delivered at commit, never on rollback. The
// caller's own cache (the principal in ctx, when a request makes the
// change) drops the credentials at once. It returns how many rows changed.
func execAnnounced(ctx context.Context, q *bun.UpdateQuery) (int, error) {
	var rows []revokedRow
	_, err := q.Returning("?TableAlias.hash, pg_notify(?, ? || encode(?TableAlias.hash, 'hex'))::text AS notice",
		RevocationChannel, keyPayload).Exec(ctx, &rows)
	if err != nil {
		return 0, err
	}
	if p := FromContext(ctx); p != nil && p.cache != nil && len(rows) > 0 {
		hashes := make([][32]byte, 0, len(rows))
		for _, r := range rows {
			if len(r.Hash) == 32 {
				hashes = append(hashes, [32]byte(r.Hash))
			}
		}
		p.cache.invalidate(hashes...)
	}
	return len(rows), nil
}

// NotifyMerchantChanged announces that a merchant changed (its products,
// disabled capabilities or name), so that every process drops the
// credentials it cached with the merchant's old state. Call it with the
// transaction that changes the merchant: the announcement is delivered at
// its commit.
func NotifyMerchantChanged(ctx context.Context, idb bun.IDB, merchantID uuid.UUID) error {
	if merchantID == uuid.Nil {
		return errors.New("auth: notify merchant changed: no merchant id")
	}
	_, err := idb.NewRaw("SELECT pg_notify(?, ?)", RevocationChannel, merchantPayload+merchantID.String()).Exec(ctx)
	return err
}
