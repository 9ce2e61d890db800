-- Account-holder verification, continued (spec doc 1 §2.6-§2.9, §4.6-§4.10):
-- phone verifications, terms of service tokens, document checks, bank
-- accounts, geofences and legacy customer identity verifications.

-- Phone verifications: one-time-passcode attempts. At most one attempt per
-- account is open (pending): creating one supersedes the previous, and the
-- partial unique index refuses a second even if two creates raced.
CREATE TABLE phone_verifications (
    merchant_id  uuid        NOT NULL,
    id           uuid        NOT NULL,
    livemode     boolean     NOT NULL,
    account_id   uuid        NOT NULL,
    phone_number text        NOT NULL,
    type         text        NOT NULL,
    provider     text        NOT NULL,
    status       text        NOT NULL CHECK (status IN ('pending', 'verified', 'failed', 'expired')),
    failure_type text,
    retriable    boolean,
    category     text,
    -- Wrong codes entered so far; the attempt fails at the allowance.
    attempts     integer     NOT NULL DEFAULT 0,
    -- When the passcode stops being accepted; null when none was sent (a
    -- line-level refusal).
    expires      timestamptz,
    created      timestamptz NOT NULL,
    updated      timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);
CREATE UNIQUE INDEX phone_verifications_open_key ON phone_verifications (merchant_id, livemode, account_id)
    WHERE status = 'pending';
CREATE INDEX phone_verifications_account_idx ON phone_verifications (merchant_id, livemode, account_id, created DESC, id DESC);

-- Terms of service tokens (the real service's POST/PATCH
-- /v1/terms_of_service): minted, then accepted with consent evidence. A
-- token is bound to at most one account (the onboarding secret's, the one
-- named at minting, or the first whose terms_of_service names it);
-- accepting a bound token accepts that account's terms.
CREATE TABLE terms_of_service_tokens (
    merchant_id uuid        NOT NULL,
    livemode    boolean     NOT NULL,
    token       text        NOT NULL,
    account_id  uuid,
    accepted_at timestamptz,
    ip_address  text,
    user_agent  text,
    created     timestamptz NOT NULL,
    updated     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, token),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);

-- Document checks (/v1/idv): one inquiry at the identity provider per
-- attempt. At most one per account is open (created, not yet completed):
-- a new session reuses it, and the partial unique index keeps it so.
CREATE TABLE idv_inquiries (
    merchant_id uuid        NOT NULL,
    id          uuid        NOT NULL,
    livemode    boolean     NOT NULL,
    account_id  uuid        NOT NULL,
    provider    text        NOT NULL,
    status      text        NOT NULL CHECK (status IN ('created', 'approved', 'declined', 'failed', 'needs_review')),
    -- The holder data the sandbox provider judges (the profile phone),
    -- fixed when the inquiry is created.
    subject     text        NOT NULL,
    completed   timestamptz,
    created     timestamptz NOT NULL,
    updated     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);
CREATE UNIQUE INDEX idv_inquiries_open_key ON idv_inquiries (merchant_id, livemode, account_id)
    WHERE status = 'created';

-- Bank accounts linked through a bank-linking processor. Only the last
-- four digits of the account number are kept, with a keyed fingerprint of
-- routing and number, so linking the same bank account to the same owner
-- again finds it (the unique index settles concurrent links).
CREATE TABLE bank_accounts (
    merchant_id           uuid        NOT NULL,
    id                    uuid        NOT NULL,
    livemode              boolean     NOT NULL,
    account_id            uuid        NOT NULL,
    routing_number        text        NOT NULL,
    account_number_last_4 text        NOT NULL,
    account_type          text        NOT NULL CHECK (account_type IN ('checking', 'savings')),
    bank_name             text,
    processor_name        text        NOT NULL,
    status                text        NOT NULL,
    fingerprint           bytea       NOT NULL,
    created               timestamptz NOT NULL,
    updated               timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);
CREATE UNIQUE INDEX bank_accounts_owner_key ON bank_accounts (merchant_id, livemode, account_id, fingerprint);
CREATE INDEX bank_accounts_account_idx ON bank_accounts (merchant_id, livemode, account_id, created DESC, id DESC);
