-- Account-holder verification, finished (spec doc 1 §2.7, §4.10;
-- API-DECISIONS §4b): legacy customer identity verifications, and the
-- payment_method.card requirement fed by the payment methods themselves.

-- Customer identity verifications (legacy, payer-side). A verification is
-- of a customer (customer_id) or of the person described by the fields
-- given at creation, which are kept but never returned (of an SSN only its
-- last four digits). subject is the phone (E.164, '' for none) the sandbox
-- identity provider judges, fixed at creation. documents holds a receipt
-- of each uploaded document by slot (content type, size, SHA-256 digest,
-- time): the files themselves go to the identity provider and are not
-- kept. pending, verified and failed are when each status was reached.
CREATE TABLE customer_identity_verifications (
    merchant_id      uuid        NOT NULL REFERENCES merchants (id),
    id               uuid        NOT NULL,
    livemode         boolean     NOT NULL,
    customer_id      uuid,
    status           text        NOT NULL CHECK (status IN ('incomplete', 'pending', 'verified', 'failed')),
    verification_url text        NOT NULL,
    first_name       text,
    last_name        text,
    date_of_birth    text,
    email            text,
    phone_number     text,
    ssn_last_four    text,
    subject          text        NOT NULL,
    documents        jsonb       NOT NULL DEFAULT '{}',
    pending          timestamptz,
    verified         timestamptz,
    failed           timestamptz,
    created          timestamptz NOT NULL,
    updated          timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id),
    CHECK (customer_id IS NULL OR (first_name IS NULL AND last_name IS NULL AND date_of_birth IS NULL
        AND email IS NULL AND phone_number IS NULL AND ssn_last_four IS NULL))
);
CREATE INDEX customer_identity_verifications_customer_idx ON customer_identity_verifications
    (merchant_id, livemode, customer_id, created DESC, id DESC) WHERE customer_id IS NOT NULL;

-- The payment_method.card requirement reads accounts.verification
-- ->'active_card', which the payment method writes keep up to date from
-- now on; accounts that already hold an active card get it here.
UPDATE accounts AS a SET verification = a.verification || '{"active_card": true}'
WHERE EXISTS (
    SELECT 1 FROM payment_methods AS pm
    WHERE pm.merchant_id = a.merchant_id AND pm.livemode = a.livemode AND pm.account_id = a.id
      AND pm.type = 'card' AND pm.status = 'active' AND NOT pm.single_use);
