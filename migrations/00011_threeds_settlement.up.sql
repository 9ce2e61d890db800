-- 3-D Secure intents (spec doc 2 §2.9, §4.10) and transfer settlement
-- (transfer.completed, docs/payments.md "Settlement").

-- A 3-D Secure verification of one card. status: issued (the challenge
-- waits for the cardholder), verified, failed. An issued intent's
-- challenge lapses at challenge_expires (read as failed; the next create
-- for its card records that).
CREATE TABLE three_ds_intents (
    merchant_id       uuid        NOT NULL REFERENCES merchants (id),
    id                uuid        NOT NULL,
    livemode          boolean     NOT NULL,
    payment_method_id uuid        NOT NULL,
    customer_id       uuid,
    status            text        NOT NULL CHECK (status IN ('issued', 'verified', 'failed')),
    -- The random part of challenge_url; a resend replaces it.
    challenge_token   text,
    challenge_expires timestamptz,
    completed         timestamptz,
    created           timestamptz NOT NULL,
    updated           timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, payment_method_id) REFERENCES payment_methods (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    CHECK ((status = 'issued') = (challenge_token IS NOT NULL AND challenge_expires IS NOT NULL)),
    CHECK ((status = 'issued') = (completed IS NULL))
);

-- One verification in progress per card: a second create while one is
-- issued cannot insert, whatever the timing.
CREATE UNIQUE INDEX three_ds_intents_one_issued_idx ON three_ds_intents (merchant_id, livemode, payment_method_id)
    WHERE status = 'issued';

CREATE INDEX three_ds_intents_list_idx ON three_ds_intents (merchant_id, livemode, created DESC, id DESC);

-- Settlement: a succeeded transfer settles at settles_at (set with its
-- capture or its sending) and is completed once it has.
ALTER TABLE transfers
    ADD COLUMN settles_at timestamptz,
    ADD COLUMN completed  timestamptz,
    ADD CONSTRAINT transfers_completed_settled CHECK (completed IS NULL OR settles_at IS NOT NULL);

-- Transfers waiting for a card's 3-D Secure challenge, found when the
-- challenge resolves.
CREATE INDEX transfers_waiting_3ds_idx ON transfers (merchant_id, livemode, source_payment_method_id)
    WHERE status = 'requires_3d_secure';
