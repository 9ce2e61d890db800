-- Sessions of the real service's SDK beyond the spec (docs/sandbox.md,
-- "Resources from the SDK"): charge sessions, Sonar (device and location)
-- sessions and payment link sessions. New tables only.

-- A charge session: the SDK's session around collecting a payment, for a
-- charge intent or none. status: open, completed, canceled (a closed
-- session's status no longer changes).
CREATE TABLE charge_sessions (
    merchant_id      uuid        NOT NULL REFERENCES merchants (id),
    id               uuid        NOT NULL,
    livemode         boolean     NOT NULL,
    charge_intent_id uuid,
    status           text        NOT NULL CHECK (status IN ('open', 'completed', 'canceled')),
    metadata         jsonb       NOT NULL DEFAULT '{}',
    created          timestamptz NOT NULL,
    updated          timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, charge_intent_id) REFERENCES charge_intents (merchant_id, livemode, id)
);

CREATE INDEX charge_sessions_list_idx ON charge_sessions (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX charge_sessions_charge_intent_idx ON charge_sessions (merchant_id, livemode, charge_intent_id)
    WHERE charge_intent_id IS NOT NULL;

-- A Sonar session: the SDK's device and location session, named by a
-- transfer's or charge intent's sonar_session_id. Same states.
CREATE TABLE sonar_sessions (
    merchant_id      uuid        NOT NULL REFERENCES merchants (id),
    id               uuid        NOT NULL,
    livemode         boolean     NOT NULL,
    charge_intent_id uuid,
    status           text        NOT NULL CHECK (status IN ('open', 'completed', 'canceled')),
    metadata         jsonb       NOT NULL DEFAULT '{}',
    created          timestamptz NOT NULL,
    updated          timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, charge_intent_id) REFERENCES charge_intents (merchant_id, livemode, id)
);

CREATE INDEX sonar_sessions_list_idx ON sonar_sessions (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX sonar_sessions_charge_intent_idx ON sonar_sessions (merchant_id, livemode, charge_intent_id)
    WHERE charge_intent_id IS NOT NULL;

-- A payment link session: a hosted payment page at url, for an amount and
-- a customer when given. url_token is the random part of its url.
CREATE TABLE payment_link_sessions (
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    id          uuid        NOT NULL,
    livemode    boolean     NOT NULL,
    customer_id uuid,
    amount      bigint      CHECK (amount > 0),
    currency    text,
    status      text        NOT NULL CHECK (status IN ('open')),
    url_token   text        NOT NULL UNIQUE,
    metadata    jsonb       NOT NULL DEFAULT '{}',
    created     timestamptz NOT NULL,
    updated     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id)
);

CREATE INDEX payment_link_sessions_list_idx ON payment_link_sessions (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX payment_link_sessions_customer_idx ON payment_link_sessions (merchant_id, livemode, customer_id)
    WHERE customer_id IS NOT NULL;
