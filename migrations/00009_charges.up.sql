-- Charges (spec doc 2 §2.9, §4.10): one row per processor answer to a
-- charge-backed flow (a transfer's charge; later a charge intent's). It is
-- what refunds and disputes act on, so the amounts that bound them live
-- here, guarded by CHECKs: nothing refunded beyond what was captured.
CREATE TABLE charges (
    merchant_id               uuid        NOT NULL REFERENCES merchants (id),
    id                        uuid        NOT NULL,
    livemode                  boolean     NOT NULL,
    status                    text        NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
    amount                    bigint      NOT NULL CHECK (amount > 0),
    currency                  text        NOT NULL CHECK (currency ~ '^[A-Za-z]{3}$'),
    amount_captured           bigint      NOT NULL DEFAULT 0 CHECK (amount_captured >= 0 AND amount_captured <= amount),
    amount_refunded           bigint      NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0 AND amount_refunded <= amount_captured),
    captured                  boolean     NOT NULL DEFAULT false,
    disputed                  boolean     NOT NULL DEFAULT false,
    -- What the payee receives of the captured amount, after fees.
    net_amount                bigint      NOT NULL DEFAULT 0,
    failure_code              text,
    failure_message           text,
    failure_category          text,
    description               text,
    acquirer_reference_number text,
    authorization_code        text,
    refund_reason             text,
    payment_method_id         uuid        NOT NULL,
    account_id                uuid,
    customer_id               uuid,
    -- What the charge was made for: a transfer, or (later) a charge intent.
    transfer_id               uuid,
    charge_intent_id          uuid,
    metadata                  jsonb       NOT NULL DEFAULT '{}',
    created                   timestamptz NOT NULL,
    updated                   timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, payment_method_id) REFERENCES payment_methods (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, transfer_id) REFERENCES transfers (merchant_id, livemode, id),
    CHECK ((transfer_id IS NULL) <> (charge_intent_id IS NULL)),
    CHECK ((status = 'failed') = (failure_code IS NOT NULL)),
    CHECK (captured = (amount_captured > 0)),
    CHECK (status = 'succeeded' OR amount_captured = 0)
);
-- A transfer is charged once: a confirm runs once, a decline is final.
CREATE UNIQUE INDEX charges_transfer_idx ON charges (merchant_id, livemode, transfer_id) WHERE transfer_id IS NOT NULL;
CREATE INDEX charges_charge_intent_idx ON charges (merchant_id, livemode, charge_intent_id, created DESC, id DESC)
    WHERE charge_intent_id IS NOT NULL;

-- A journal that moves a charge's money (its capture, and later its
-- refunds, disputes and settlement) names the charge, so the charge's
-- trace is one indexed read.
ALTER TABLE ledger_journals ADD COLUMN charge_id uuid;
CREATE INDEX ledger_journals_charge_idx ON ledger_journals (merchant_id, livemode, charge_id, created, id)
    WHERE charge_id IS NOT NULL;
ALTER TABLE ledger_journals ADD CONSTRAINT ledger_journals_charge_fk
    FOREIGN KEY (merchant_id, livemode, charge_id) REFERENCES charges (merchant_id, livemode, id);

-- A charge's trace lists the events of the objects its money story is
-- made of (its transfer or charge intent, its refunds and disputes).
CREATE INDEX events_object_idx ON events (merchant_id, livemode, object_id, created, id) WHERE object_id IS NOT NULL;

-- A transfer names its charge once the processor answered, so reads of a
-- transfer render `latest_charge` without a join.
ALTER TABLE transfers ADD COLUMN charge_id uuid;
ALTER TABLE transfers ADD CONSTRAINT transfers_charge_fk
    FOREIGN KEY (merchant_id, livemode, charge_id) REFERENCES charges (merchant_id, livemode, id);
