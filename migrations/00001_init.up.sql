-- Platform tables (merchants and their credentials) are global: they are
-- looked up before a merchant is known. Every tenant table is keyed
-- (merchant_id, id) and refers to other tenant rows through composite foreign
-- keys that include merchant_id and livemode, so the database itself refuses
-- a row that points at another merchant's, or the other mode's, row.

CREATE TABLE merchants (
    id                    uuid PRIMARY KEY,
    name                  text        NOT NULL,
    products              text[]      NOT NULL,
    disabled_capabilities text[]      NOT NULL DEFAULT '{}',
    created               timestamptz NOT NULL,
    updated               timestamptz NOT NULL
);

CREATE TABLE api_keys (
    id          uuid PRIMARY KEY,
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    livemode    boolean     NOT NULL,
    kind        text        NOT NULL CHECK (kind IN ('secret', 'publishable')),
    hash        bytea       NOT NULL,
    prefix      text        NOT NULL,
    created     timestamptz NOT NULL,
    expires_at  timestamptz,
    revoked_at  timestamptz
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (hash);
CREATE INDEX api_keys_merchant_idx ON api_keys (merchant_id, livemode, kind);

CREATE TABLE accounts (
    merchant_id              uuid        NOT NULL REFERENCES merchants (id),
    id                       uuid        NOT NULL,
    livemode                 boolean     NOT NULL,
    type                     text        NOT NULL CHECK (type IN ('individual', 'business')),
    status                   text        NOT NULL CHECK (status IN ('pending', 'active', 'restricted', 'disabled')),
    restricted_by            text[]      NOT NULL DEFAULT '{}',
    service_blocked_reason   text,
    external_id              text,
    metadata                 jsonb       NOT NULL DEFAULT '{}',
    payout_payment_method_id uuid,
    profile                  jsonb       NOT NULL DEFAULT '{}',
    terms_of_service         jsonb,
    activated                timestamptz,
    disabled                 timestamptz,
    created                  timestamptz NOT NULL,
    updated                  timestamptz NOT NULL,
    -- Lower-cased search keys, kept by the database itself.
    search_email text GENERATED ALWAYS AS (lower(coalesce(profile #>> '{individual,email}', profile #>> '{business,email}'))) STORED,
    -- Name parts joined by single spaces (empty parts leave no gap), so
    -- "ada lovelace" is a substring of a person without a middle name.
    search_name  text GENERATED ALWAYS AS (btrim(regexp_replace(lower(
        coalesce(profile #>> '{individual,name,first_name}', '') || ' ' ||
        coalesce(profile #>> '{individual,name,middle_name}', '') || ' ' ||
        coalesce(profile #>> '{individual,name,last_name}', '') || ' ' ||
        coalesce(profile #>> '{business,legal_business_name}', '') || ' ' ||
        coalesce(profile #>> '{business,doing_business_as}', '')), '\s+', ' ', 'g'))) STORED,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id)
);
CREATE UNIQUE INDEX accounts_external_id_key ON accounts (merchant_id, livemode, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX accounts_list_idx ON accounts (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX accounts_status_idx ON accounts (merchant_id, livemode, status, created DESC, id DESC);
CREATE INDEX accounts_type_idx ON accounts (merchant_id, livemode, type, created DESC, id DESC);
CREATE INDEX accounts_email_idx ON accounts (merchant_id, livemode, search_email);

CREATE TABLE capabilities (
    merchant_id     uuid        NOT NULL,
    id              uuid        NOT NULL,
    livemode        boolean     NOT NULL,
    account_id      uuid        NOT NULL,
    name            text        NOT NULL,
    status          text        NOT NULL CHECK (status IN ('unrequested', 'pending', 'active', 'disabled')),
    disabled_reason text,
    disabled        timestamptz,
    created         timestamptz NOT NULL,
    updated         timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id),
    UNIQUE (merchant_id, account_id, name)
);

CREATE TABLE events (
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    id          uuid        NOT NULL,
    livemode    boolean     NOT NULL,
    type        text        NOT NULL,
    object_id   uuid,
    data        jsonb       NOT NULL,
    created     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id)
);
CREATE INDEX events_list_idx ON events (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX events_type_idx ON events (merchant_id, livemode, type, created DESC, id DESC);

CREATE TABLE idempotency_keys (
    merchant_id     uuid        NOT NULL REFERENCES merchants (id),
    livemode        boolean     NOT NULL,
    key             text        NOT NULL,
    request_hash    bytea       NOT NULL,
    status          text        NOT NULL CHECK (status IN ('in_flight', 'done')),
    response_status integer,
    response_body   bytea,
    created         timestamptz NOT NULL,
    expires         timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, livemode, key)
);
CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires);

-- Client secrets of onboarding (onb_sess_) and checkout (chk_sess_) sessions.
-- They are credentials scoped to one account; only their hash is stored.
CREATE TABLE session_secrets (
    merchant_id uuid        NOT NULL,
    id          uuid        NOT NULL,
    livemode    boolean     NOT NULL,
    kind        text        NOT NULL CHECK (kind IN ('onboarding_session', 'checkout_session')),
    session_id  uuid        NOT NULL,
    account_id  uuid        NOT NULL,
    hash        bytea       NOT NULL,
    expires_at  timestamptz NOT NULL,
    revoked_at  timestamptz,
    created     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);
CREATE UNIQUE INDEX session_secrets_hash_key ON session_secrets (hash);
CREATE INDEX session_secrets_account_idx ON session_secrets (merchant_id, account_id, kind);
