-- Account-holder verification (spec doc 1 §2.3-§2.9, §4.2-§4.10).
--
-- What the capability requirements need to know about an account's
-- verifications (a verified phone, the latest identity run outcome, the
-- confirmed owner roster, ...) is kept on the account row itself, written in
-- the same transaction as the verification that changed it, so an account
-- and its capabilities' requirements still read in one statement.
ALTER TABLE accounts ADD COLUMN verification jsonb NOT NULL DEFAULT '{}';

CREATE TABLE beneficial_owners (
    merchant_id       uuid        NOT NULL,
    id                uuid        NOT NULL,
    livemode          boolean     NOT NULL,
    account_id        uuid        NOT NULL,
    status            text        NOT NULL CHECK (status IN ('pending', 'invite_sent', 'completed')),
    invited           boolean     NOT NULL,
    first_name        text        NOT NULL,
    middle_name       text,
    last_name         text        NOT NULL,
    suffix            text,
    email             text        NOT NULL,
    phone_number      text,
    roles             text[]      NOT NULL,
    percent_ownership numeric(6, 3),
    birthdate         text,
    ssn_last_four     text,
    address           jsonb,
    -- The invitation e-mailed to an invited owner: its token's hash, cleared
    -- when the owner completes the details or is deleted.
    invitation_hash   bytea,
    invitation_sent   timestamptz,
    created           timestamptz NOT NULL,
    updated           timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);
CREATE INDEX beneficial_owners_account_idx ON beneficial_owners (merchant_id, livemode, account_id, created DESC, id DESC);

-- Identity verification runs. At most one run per account is open
-- (pending): the partial unique index refuses a second one even if two
-- creates raced past the account lock.
CREATE TABLE identity_verifications (
    merchant_id     uuid        NOT NULL,
    id              uuid        NOT NULL,
    livemode        boolean     NOT NULL,
    account_id      uuid        NOT NULL,
    provider        text        NOT NULL,
    status          text        NOT NULL CHECK (status IN ('pending', 'approved', 'failed', 'errored', 'incomplete')),
    failure_type    text,
    retriable       boolean,
    category        text,
    -- The identity data the run checks (the sandbox persona's phone), fixed
    -- when the run starts: a run judges the data it was started on.
    subject         text        NOT NULL,
    creator_shield_findings boolean NOT NULL DEFAULT false,
    completed       timestamptz,
    review_opened   timestamptz,
    review_resolved timestamptz,
    created         timestamptz NOT NULL,
    updated         timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);
CREATE UNIQUE INDEX identity_verifications_open_key ON identity_verifications (merchant_id, livemode, account_id)
    WHERE status = 'pending';
CREATE INDEX identity_verifications_account_idx ON identity_verifications (merchant_id, livemode, account_id, created DESC, id DESC);

-- Onboarding sessions. One active session per account: creating one
-- expires the previous (API-DECISIONS §9), and the partial unique index
-- makes a second active one impossible. The url's token is kept as given
-- out (it is single-use and short-lived, and get-by-account answers the
-- url again); the client secret is kept only as a hash (session_secrets).
CREATE TABLE onboarding_sessions (
    merchant_id uuid        NOT NULL,
    id          uuid        NOT NULL,
    livemode    boolean     NOT NULL,
    account_id  uuid        NOT NULL,
    status      text        NOT NULL CHECK (status IN ('active', 'expired')),
    steps       text[]      NOT NULL,
    return_url  text,
    url_token   text        NOT NULL,
    expires_at  timestamptz NOT NULL,
    created     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);
CREATE UNIQUE INDEX onboarding_sessions_active_key ON onboarding_sessions (merchant_id, livemode, account_id)
    WHERE status = 'active';
