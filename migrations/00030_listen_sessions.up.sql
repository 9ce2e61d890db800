-- Listen sessions of the real service's CLI (`frame listen`, API-DECISIONS
-- §10; docs/webhooks.md, "Local webhooks with the CLI").
--
-- A session is a transient webhook destination: a webhook_endpoints row of
-- kind 'listen_session' (its signing secret, its event filter), so the
-- events trigger queues its deliveries in the event's own transaction, as
-- for any endpoint, and its deliveries and their attempts (the CLI's acks)
-- read through the deliveries API. Its deliveries never reach the
-- dispatcher: the process holding the session's websocket sends them,
-- woken by a notification at commit. The session's own state (its resume
-- token, its holder, when it expires) is a listen_sessions row, so every
-- server process sees it.

ALTER TABLE webhook_endpoints ADD COLUMN kind text NOT NULL DEFAULT 'url';
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_kind_check
    CHECK (kind IN ('url', 'listen_session')) NOT VALID;
ALTER TABLE webhook_endpoints VALIDATE CONSTRAINT webhook_endpoints_kind_check;

-- 'skipped': a delivery to an endpoint held back while a listen session
-- with skip_endpoints lived; recorded, never attempted (resend it).
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_status_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check
    CHECK (status IN ('pending', 'succeeded', 'failed', 'skipped')) NOT VALID;
ALTER TABLE webhook_deliveries VALIDATE CONSTRAINT webhook_deliveries_status_check;

CREATE TABLE listen_sessions (
    merchant_id    uuid        NOT NULL,
    -- The session's webhook endpoint (kind 'listen_session').
    id             uuid        NOT NULL,
    -- Sessions are the sandbox's only.
    livemode       boolean     NOT NULL CHECK (NOT livemode),
    -- SHA-256 of the session token the CLI resumes with; the token itself
    -- is never stored.
    token_hash     bytea       NOT NULL,
    -- While the session lives, the merchant's sandbox endpoints are held
    -- back (their deliveries recorded as skipped).
    skip_endpoints boolean     NOT NULL,
    -- The websocket connection holding the session, NULL while none does.
    holder         uuid,
    -- The server's clock: renewed while held, set a resume window ahead
    -- when the connection closes. A sweep ends a session past it.
    expires        timestamptz NOT NULL,
    ended          timestamptz,
    created        timestamptz NOT NULL,
    updated        timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, id) REFERENCES webhook_endpoints (merchant_id, livemode, id),
    UNIQUE (merchant_id, token_hash)
);
-- The fan-out's question, at every event: does a session holding back the
-- merchant's endpoints live?
CREATE INDEX listen_sessions_skipping_idx ON listen_sessions (merchant_id) WHERE ended IS NULL AND skip_endpoints;
-- The sweep's question: which sessions are past their time?
CREATE INDEX listen_sessions_expiry_idx ON listen_sessions (expires) WHERE ended IS NULL;

-- listen_skips says whether a live listen session of the merchant holds
-- back its endpoints in that mode (only the sandbox has sessions).
CREATE FUNCTION listen_skips(merchant uuid, live boolean) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT NOT live AND EXISTS (SELECT 1 FROM listen_sessions s
                                WHERE s.merchant_id = merchant AND s.ended IS NULL AND s.skip_endpoints)
$$;

-- events_fan_out as 00006 made it, with listen sessions: a delivery to a
-- session is handed to no dispatcher (enqueued from the start), and one to
-- an endpoint while a session holds the endpoints back is recorded as
-- skipped, also never dispatched.
CREATE OR REPLACE FUNCTION events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    e record;
BEGIN
    INSERT INTO webhook_deliveries (merchant_id, id, livemode, endpoint_id, event_id, event_type, status,
                                    last_error, enqueued, created, updated)
    SELECT x.merchant_id, uuid_v7_at(x.created), x.livemode, x.endpoint_id, x.id, x.type,
           CASE WHEN x.skipped THEN 'skipped' ELSE 'pending' END,
           CASE WHEN x.skipped THEN 'held back: a listen session with skip_endpoints was live' END,
           x.skipped OR x.kind = 'listen_session', x.created, x.created
    FROM (SELECT n.merchant_id, n.livemode, n.id, n.type, n.created, w.id AS endpoint_id, w.kind,
                 w.kind = 'url' AND listen_skips(n.merchant_id, n.livemode) AS skipped
          FROM new_events n
          JOIN webhook_endpoints w
            ON w.merchant_id = n.merchant_id AND w.livemode = n.livemode
           AND w.status = 'active' AND w.deleted IS NULL
           AND (n.type = ANY (w.event_codes) OR '*' = ANY (w.event_codes))) x
    ORDER BY x.id, x.endpoint_id;
    FOR e IN SELECT merchant_id, livemode, id FROM new_events ORDER BY id LOOP
        PERFORM pg_notify('events_created', e.merchant_id::text || '|' || e.livemode::text || '|' || e.id::text);
    END LOOP;
    RETURN NULL;
END
$$;

-- Every delivery queued for a listen session (by the fan-out or a resend)
-- wakes the process holding the session at commit, in commit order:
-- "<endpoint>|d|<delivery>".
CREATE FUNCTION listen_deliveries_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    d record;
BEGIN
    FOR d IN SELECT n.endpoint_id, n.id FROM new_deliveries n
             JOIN webhook_endpoints w ON w.merchant_id = n.merchant_id AND w.livemode = n.livemode AND w.id = n.endpoint_id
             WHERE w.kind = 'listen_session' AND n.status = 'pending'
             ORDER BY n.seq LOOP
        PERFORM pg_notify('listen_deliveries', d.endpoint_id::text || '|d|' || d.id::text);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE TRIGGER listen_deliveries_notify AFTER INSERT ON webhook_deliveries
    REFERENCING NEW TABLE AS new_deliveries
    FOR EACH STATEMENT EXECUTE FUNCTION listen_deliveries_notify();
