-- Idempotent results are now recorded by the operation itself, in the same
-- transaction as the change they describe (API-DECISIONS §3): a row exists
-- only for a committed change, so no key can be left "in flight" by a crash.
-- Keys are scoped to merchant, mode and credential (the credential kind, or
-- the session for session secrets); the fingerprint is the operation name
-- and its parameters as parsed, and result is the operation's committed
-- result rendered as JSON, replayed to a retry. Concurrent duplicates are
-- told apart with a transaction-scoped advisory lock, not a row state.
DROP TABLE idempotency_keys;

CREATE TABLE idempotency_keys (
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    livemode    boolean     NOT NULL,
    credential  text        NOT NULL,
    key         text        NOT NULL,
    operation   text        NOT NULL,
    fingerprint bytea       NOT NULL,
    result      bytea       NOT NULL,
    created     timestamptz NOT NULL,
    expires     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, livemode, credential, key)
);
CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires);

-- Server-wide secrets (the key of stored fingerprints), generated once and
-- shared by every server process on the database, unless the operator
-- provides SERVER_SECRET to keep it outside the database.
CREATE TABLE server_secrets (
    name    text        PRIMARY KEY,
    value   bytea       NOT NULL,
    created timestamptz NOT NULL
);
