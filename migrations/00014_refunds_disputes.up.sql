-- Refunds, disputes and the merchant's block lists (spec doc 2 §2.9, §4.10,
-- §7.4; API-DECISIONS §4, §6). Both act on a charge (migration 00009): the
-- charge row is what a refund or a dispute locks, so two of them racing on
-- one charge run one after the other and the charge's CHECK
-- (amount_refunded <= amount_captured) holds whatever they do.

-- A refund returns captured money of one charge to the buyer. It names the
-- charge and the object the charge was made for (a transfer or a charge
-- intent), as the charge does.
CREATE TABLE refunds (
    merchant_id      uuid        NOT NULL REFERENCES merchants (id),
    id               uuid        NOT NULL,
    livemode         boolean     NOT NULL,
    charge_id        uuid        NOT NULL,
    transfer_id      uuid,
    charge_intent_id uuid,
    -- The sandbox writes succeeded or failed; pending and canceled belong
    -- to a processor that answers later; refunded is the spec's older name
    -- of succeeded, accepted on read.
    status           text        NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled', 'refunded')),
    amount           bigint      NOT NULL CHECK (amount > 0),
    currency         text        NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    reason           text        CHECK (reason IN ('duplicate', 'fraudulent', 'requested_by_customer')),
    failure_reason   text,
    created          timestamptz NOT NULL,
    updated          timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, charge_id) REFERENCES charges (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, transfer_id) REFERENCES transfers (merchant_id, livemode, id),
    CHECK ((transfer_id IS NULL) <> (charge_intent_id IS NULL)),
    CHECK ((status = 'failed') = (failure_reason IS NOT NULL))
);
CREATE INDEX refunds_list_idx ON refunds (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX refunds_charge_idx ON refunds (merchant_id, livemode, charge_id, created DESC, id DESC);
CREATE INDEX refunds_transfer_idx ON refunds (merchant_id, livemode, transfer_id, created DESC, id DESC)
    WHERE transfer_id IS NOT NULL;
CREATE INDEX refunds_charge_intent_idx ON refunds (merchant_id, livemode, charge_intent_id, created DESC, id DESC)
    WHERE charge_intent_id IS NOT NULL;

-- A dispute is the cardholder's bank contesting a charge. One per charge
-- (the unique index): a second one for the same charge is refused by the
-- database whatever races. amount is what was withdrawn from the merchant
-- when it opened (captured less refunded); fee is the dispute fee withdrawn
-- with it. Both come back when the dispute is won.
CREATE TABLE disputes (
    merchant_id               uuid        NOT NULL REFERENCES merchants (id),
    id                        uuid        NOT NULL,
    livemode                  boolean     NOT NULL,
    charge_id                 uuid        NOT NULL,
    transfer_id               uuid,
    charge_intent_id          uuid,
    status                    text        NOT NULL CHECK (status IN ('received', 'warning_needs_response',
        'warning_under_review', 'warning_closed', 'needs_response', 'under_review', 'won', 'lost')),
    amount                    bigint      NOT NULL CHECK (amount > 0),
    currency                  text        NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    fee                       bigint      NOT NULL DEFAULT 0 CHECK (fee >= 0),
    reason_code               text,
    reason_description        text,
    reason_category           text,
    acquirer_reference_number text,
    authorization_code        text,
    evidence                  jsonb       NOT NULL DEFAULT '{}',
    evidence_submitted        timestamptz,
    closed                    timestamptz,
    created                   timestamptz NOT NULL,
    updated                   timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, charge_id) REFERENCES charges (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, transfer_id) REFERENCES transfers (merchant_id, livemode, id),
    CHECK ((transfer_id IS NULL) <> (charge_intent_id IS NULL)),
    CHECK ((status IN ('won', 'lost', 'warning_closed')) = (closed IS NOT NULL))
);
CREATE UNIQUE INDEX disputes_charge_idx ON disputes (merchant_id, livemode, charge_id);
CREATE INDEX disputes_list_idx ON disputes (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX disputes_transfer_idx ON disputes (merchant_id, livemode, transfer_id) WHERE transfer_id IS NOT NULL;
CREATE INDEX disputes_charge_intent_idx ON disputes (merchant_id, livemode, charge_intent_id, created DESC, id DESC)
    WHERE charge_intent_id IS NOT NULL;

-- The merchant's block lists, per mode: payment method fingerprints and
-- buyers' e-mail addresses (lowercase) that a fraudulent refund reported.
-- A charge of a blocked payment method or by a blocked e-mail is declined
-- with merchant_blacklist. An entry is kept once (the primary key); the
-- refund that first reported it is remembered.
CREATE TABLE block_list_entries (
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    livemode    boolean     NOT NULL,
    kind        text        NOT NULL CHECK (kind IN ('payment_method_fingerprint', 'email')),
    value       text        NOT NULL CHECK (length(value) BETWEEN 1 AND 320),
    refund_id   uuid        NOT NULL,
    created     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, livemode, kind, value),
    FOREIGN KEY (merchant_id, livemode, refund_id) REFERENCES refunds (merchant_id, livemode, id)
);
