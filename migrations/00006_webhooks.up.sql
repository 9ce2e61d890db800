-- Webhook endpoints, their deliveries and every delivery attempt
-- (API-DECISIONS §5; docs/webhooks.md).
--
-- Delivery is a transactional outbox kept by the database itself: a trigger
-- on events turns every inserted event into one pending delivery per active
-- endpoint of its merchant and mode subscribed to its type, in the same
-- statement and so in the same transaction as the change the event records.
-- Any area that emits events through the write path is delivered with no
-- code of its own, and a rolled-back write leaves no delivery. A dispatcher
-- (resolvers/webhooks) moves pending deliveries into River jobs.

CREATE TABLE webhook_endpoints (
    merchant_id             uuid        NOT NULL REFERENCES merchants (id),
    id                      uuid        NOT NULL,
    livemode                boolean     NOT NULL,
    url                     text        NOT NULL,
    description             text,
    event_codes             text[]      NOT NULL,
    status                  text        NOT NULL CHECK (status IN ('active', 'disabled')),
    -- The signing secret, sealed under the server secret (an HMAC needs it
    -- whole, so it cannot be hashed); see docs/security.md.
    secret                  text        NOT NULL,
    -- The (sealed) secret a rotation replaced, still signing until it expires.
    previous_secret         text,
    previous_secret_expires timestamptz,
    deleted                 timestamptz,
    created                 timestamptz NOT NULL,
    updated                 timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id)
);
CREATE INDEX webhook_endpoints_list_idx ON webhook_endpoints (merchant_id, livemode, created DESC, id DESC)
    WHERE deleted IS NULL;

CREATE TABLE webhook_deliveries (
    merchant_id      uuid        NOT NULL,
    id               uuid        NOT NULL,
    livemode         boolean     NOT NULL,
    endpoint_id      uuid        NOT NULL,
    event_id         uuid        NOT NULL,
    event_type       text        NOT NULL,
    status           text        NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    attempt_count    integer     NOT NULL DEFAULT 0,
    last_status_code integer,
    last_error       text,
    next_attempt     timestamptz,
    -- false until the dispatcher has enqueued the delivery's job.
    enqueued         boolean     NOT NULL DEFAULT false,
    -- Insertion order: deliveries to one endpoint are first attempted in it.
    seq              bigserial   NOT NULL,
    created          timestamptz NOT NULL,
    updated          timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, endpoint_id) REFERENCES webhook_endpoints (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, event_id) REFERENCES events (merchant_id, id)
);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (merchant_id, livemode, endpoint_id, created DESC, id DESC);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (merchant_id, event_id);
CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (merchant_id, endpoint_id, seq)
    WHERE status = 'pending' AND attempt_count = 0;
CREATE INDEX webhook_deliveries_outbox_idx ON webhook_deliveries (seq) WHERE NOT enqueued;

CREATE TABLE webhook_delivery_attempts (
    merchant_id      uuid        NOT NULL,
    id               uuid        NOT NULL,
    livemode         boolean     NOT NULL,
    delivery_id      uuid        NOT NULL,
    attempt          integer     NOT NULL,
    url              text        NOT NULL,
    status_code      integer,
    error            text,
    latency_ms       integer     NOT NULL,
    response_excerpt text,
    created          timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, delivery_id) REFERENCES webhook_deliveries (merchant_id, id),
    -- One row per attempt number: a second worker can never record it again.
    UNIQUE (merchant_id, delivery_id, attempt)
);

-- uuid_v7_at makes a UUIDv7 whose timestamp part is ts (the event's time,
-- from the server's clock), so deliveries sort like every other object.
CREATE FUNCTION uuid_v7_at(ts timestamptz) RETURNS uuid LANGUAGE sql VOLATILE AS $$
    SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
        PLACING substring(int8send((extract(epoch FROM ts) * 1000)::bigint) FROM 3)
        FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$;

-- events_fan_out runs once per INSERT statement on events: it queues one
-- delivery per matching endpoint and notifies listeners of the new events
-- (the GraphQL event stream). Payloads carry ids only; a
-- listener reads the event through its tenant scope.
CREATE FUNCTION events_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    e record;
BEGIN
    INSERT INTO webhook_deliveries (merchant_id, id, livemode, endpoint_id, event_id, event_type, status,
                                    created, updated)
    SELECT n.merchant_id, uuid_v7_at(n.created), n.livemode, w.id, n.id, n.type, 'pending', n.created, n.created
    FROM new_events n
    JOIN webhook_endpoints w
      ON w.merchant_id = n.merchant_id AND w.livemode = n.livemode
     AND w.status = 'active' AND w.deleted IS NULL
     AND (n.type = ANY (w.event_codes) OR '*' = ANY (w.event_codes))
    ORDER BY n.id, w.id;
    FOR e IN SELECT merchant_id, livemode, id FROM new_events ORDER BY id LOOP
        PERFORM pg_notify('events_created', e.merchant_id::text || '|' || e.livemode::text || '|' || e.id::text);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE TRIGGER events_fan_out AFTER INSERT ON events
    REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION events_fan_out();

-- Any statement queuing deliveries (the fan-out above, a resend) wakes the
-- dispatchers at commit.
CREATE FUNCTION webhook_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('webhook_outbox', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER webhook_outbox_notify AFTER INSERT ON webhook_deliveries
    FOR EACH STATEMENT EXECUTE FUNCTION webhook_outbox_notify();
