-- Taking payments: the double-entry ledger under every movement of money,
-- transfer fee plans and billing agreements, and transfers (spec doc 2
-- §2.7, §4.8; API-DECISIONS §4).

-- The ledger. A ledger account is one party's balance in one currency
-- within a merchant and mode ("card_clearing", "merchant", "platform_fees",
-- "seller:<account id>"...). Amounts are integer minor units; an entry's
-- sign says its side (debit positive, credit negative), so a journal
-- balances when its entries sum to zero in every currency.
CREATE TABLE ledger_accounts (
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    livemode    boolean     NOT NULL,
    party       text        NOT NULL CHECK (length(party) BETWEEN 1 AND 100),
    currency    text        NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    -- The sum of the account's entries, kept by the trigger below under the
    -- row's lock: never written by the application.
    balance     bigint      NOT NULL DEFAULT 0,
    created     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, livemode, party, currency)
);

-- A journal is one movement (a charge, its fees, a capture, a release):
-- its entries are written with it, in one transaction, and never change.
CREATE TABLE ledger_journals (
    merchant_id uuid        NOT NULL REFERENCES merchants (id),
    livemode    boolean     NOT NULL,
    id          uuid        NOT NULL,
    kind        text        NOT NULL CHECK (length(kind) BETWEEN 1 AND 100),
    -- What the journal records ("transfer" and its id).
    ref_type    text        NOT NULL,
    ref_id      uuid        NOT NULL,
    description text,
    created     timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id)
);
CREATE INDEX ledger_journals_ref_idx ON ledger_journals (merchant_id, livemode, ref_type, ref_id, created, id);

CREATE TABLE ledger_entries (
    merchant_id uuid    NOT NULL,
    livemode    boolean NOT NULL,
    journal_id  uuid    NOT NULL,
    seq         integer NOT NULL CHECK (seq >= 0),
    party       text    NOT NULL,
    currency    text    NOT NULL,
    amount      bigint  NOT NULL CHECK (amount <> 0),
    PRIMARY KEY (merchant_id, journal_id, seq),
    FOREIGN KEY (merchant_id, livemode, journal_id) REFERENCES ledger_journals (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, party, currency) REFERENCES ledger_accounts (merchant_id, livemode, party, currency)
);
CREATE INDEX ledger_entries_account_idx ON ledger_entries (merchant_id, livemode, party, currency);

-- Balances follow entries: each inserted entry adds its amount to its
-- account under the account row's lock, so a balance is always the sum of
-- its entries whatever runs concurrently.
CREATE FUNCTION ledger_apply_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE ledger_accounts SET balance = balance + NEW.amount
     WHERE merchant_id = NEW.merchant_id AND livemode = NEW.livemode
       AND party = NEW.party AND currency = NEW.currency;
    RETURN NULL;
END $$;
CREATE TRIGGER ledger_entries_apply AFTER INSERT ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_apply_entry();

-- Every journal balances, checked when its transaction commits (entries of
-- one journal may arrive in several statements): per currency its entries
-- sum to zero, and it has at least two of them.
CREATE FUNCTION ledger_check_journal() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    jid uuid;
    bad text;
BEGIN
    IF TG_TABLE_NAME = 'ledger_entries' THEN
        jid := NEW.journal_id;
    ELSE
        jid := NEW.id;
    END IF;
    IF (SELECT count(*) FROM ledger_entries WHERE merchant_id = NEW.merchant_id AND journal_id = jid) < 2 THEN
        RAISE EXCEPTION 'ledger journal % has fewer than two entries', jid USING ERRCODE = 'check_violation';
    END IF;
    SELECT string_agg(currency || ' ' || total, ', ') INTO bad FROM (
        SELECT currency, sum(amount) AS total FROM ledger_entries
         WHERE merchant_id = NEW.merchant_id AND journal_id = jid
         GROUP BY currency HAVING sum(amount) <> 0) unbalanced;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'ledger journal % does not balance (%)', jid, bad USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER ledger_journals_balanced AFTER INSERT ON ledger_journals
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_journal();
CREATE CONSTRAINT TRIGGER ledger_entries_balanced AFTER INSERT ON ledger_entries
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_journal();

-- The ledger is append-only: a correction is a new journal.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the ledger is append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_journals_append_only BEFORE UPDATE OR DELETE ON ledger_journals
    FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- Transfer fee plans: a name, a fee application mode and the items that
-- price each billable event. A plan never changes once created (no update
-- endpoint), so its items travel with it as one document.
CREATE TABLE transfer_fee_plans (
    merchant_id          uuid        NOT NULL REFERENCES merchants (id),
    id                   uuid        NOT NULL,
    livemode             boolean     NOT NULL,
    name                 text        NOT NULL,
    fee_application_mode text        NOT NULL CHECK (fee_application_mode IN ('deduct', 'add_on', 'absorb')),
    items                jsonb       NOT NULL,
    created              timestamptz NOT NULL,
    updated              timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id)
);
CREATE INDEX transfer_fee_plans_list_idx ON transfer_fee_plans (merchant_id, livemode, created DESC, id DESC);

-- Billing agreements bind a plan to the merchant's charges or payouts, or
-- to one account's. Only the status changes after creation.
CREATE TABLE transfer_billing_agreements (
    merchant_id    uuid        NOT NULL REFERENCES merchants (id),
    id             uuid        NOT NULL,
    livemode       boolean     NOT NULL,
    fee_plan_id    uuid        NOT NULL,
    category       text        NOT NULL CHECK (category IN ('charge', 'payout')),
    status         text        NOT NULL CHECK (status IN ('pending', 'active', 'inactive')),
    effective_date timestamptz NOT NULL,
    account_id     uuid,
    created        timestamptz NOT NULL,
    updated        timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, fee_plan_id) REFERENCES transfer_fee_plans (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);
CREATE INDEX transfer_billing_agreements_list_idx ON transfer_billing_agreements (merchant_id, livemode, created DESC, id DESC);
-- The lookup a charge makes: the active agreements of a category.
CREATE INDEX transfer_billing_agreements_active_idx ON transfer_billing_agreements
    (merchant_id, livemode, category, account_id, effective_date DESC) WHERE status = 'active';

-- Checkout sessions (spec doc 2 §2.11, §4.8): the amount a browser may
-- charge to one account, locked; the chk_sess_ secret is a session secret
-- (session_secrets, 30 minutes).
CREATE TABLE checkout_sessions (
    merchant_id        uuid        NOT NULL REFERENCES merchants (id),
    id                 uuid        NOT NULL,
    livemode           boolean     NOT NULL,
    account_id         uuid        NOT NULL,
    amount             bigint      NOT NULL CHECK (amount > 0),
    currency           text        NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    authorization_mode text        NOT NULL CHECK (authorization_mode IN ('automatic', 'manual')),
    expires_at         timestamptz NOT NULL,
    created            timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id)
);

-- Transfers (spec doc 2 §2.7, §3; API-DECISIONS §4). The amounts are
-- what the fee arithmetic (internal/domain/fees) priced: platform_fee +
-- frame_fee = total_fees, and gross/net by the plan's mode.
CREATE TABLE transfers (
    merchant_id                   uuid        NOT NULL REFERENCES merchants (id),
    id                            uuid        NOT NULL,
    livemode                      boolean     NOT NULL,
    billable_event_type           text        NOT NULL CHECK (billable_event_type IN
        ('transfer.charge.card', 'transfer.charge.ach', 'transfer.payout.push_to_card', 'transfer.payout.ach')),
    status                        text        NOT NULL CHECK (status IN ('pending', 'incomplete',
        'requires_account_or_customer', 'requires_payment_method', 'requires_confirmation', 'requires_3d_secure',
        'requires_capture', 'processing', 'succeeded', 'failed', 'expired', 'canceled', 'reversed', 'refunded',
        'disputed', 'fraud_review', 'fraud_declined', 'delivery_returned', 'clawback_returned')),
    amount                        bigint      NOT NULL CHECK (amount > 0),
    -- The order amount before promotion codes; amount is what is charged.
    amount_before_discounts       bigint      NOT NULL CHECK (amount_before_discounts >= amount),
    amount_captured               bigint      NOT NULL DEFAULT 0 CHECK (amount_captured >= 0 AND amount_captured <= amount),
    currency                      text        NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    platform_fee                  bigint      NOT NULL DEFAULT 0 CHECK (platform_fee >= 0),
    frame_fee                     bigint      NOT NULL DEFAULT 0 CHECK (frame_fee >= 0),
    total_fees                    bigint      NOT NULL DEFAULT 0,
    gross_amount                  bigint      NOT NULL,
    net_amount                    bigint      NOT NULL CHECK (net_amount >= 0),
    fee_application_mode          text        NOT NULL CHECK (fee_application_mode IN ('deduct', 'add_on', 'absorb')),
    fee_source                    text        NOT NULL CHECK (fee_source IN ('billing_agreement', 'fee_plan_override')),
    billing_agreement_id          uuid,
    transfer_fee_plan_id          uuid        NOT NULL,
    authorization_mode            text        NOT NULL CHECK (authorization_mode IN ('automatic', 'manual')),
    description                   text,
    failure_code                  text,
    failure_message               text,
    failure_reason                text,
    account_id                    uuid        NOT NULL,
    seller_id                     uuid,
    source_payment_method_id      uuid,
    destination_payment_method_id uuid,
    reference                     text,
    sonar_session_id              text,
    -- The checkout session a browser created the transfer under.
    checkout_session_id           uuid,
    metadata                      jsonb       NOT NULL DEFAULT '{}',
    created                       timestamptz NOT NULL,
    updated                       timestamptz NOT NULL,
    PRIMARY KEY (merchant_id, id),
    UNIQUE (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, account_id) REFERENCES accounts (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, seller_id) REFERENCES accounts (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, source_payment_method_id) REFERENCES payment_methods (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, destination_payment_method_id) REFERENCES payment_methods (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, billing_agreement_id) REFERENCES transfer_billing_agreements (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, transfer_fee_plan_id) REFERENCES transfer_fee_plans (merchant_id, livemode, id),
    FOREIGN KEY (merchant_id, livemode, checkout_session_id) REFERENCES checkout_sessions (merchant_id, livemode, id),
    CHECK (total_fees = platform_fee + frame_fee),
    CHECK ((failure_code IS NULL) = (failure_message IS NULL)),
    CHECK ((fee_source = 'billing_agreement') = (billing_agreement_id IS NOT NULL)),
    CHECK (source_payment_method_id IS NOT NULL OR destination_payment_method_id IS NOT NULL)
);
CREATE INDEX transfers_list_idx ON transfers (merchant_id, livemode, created DESC, id DESC);
CREATE INDEX transfers_account_idx ON transfers (merchant_id, livemode, account_id, created DESC, id DESC);
CREATE INDEX transfers_status_idx ON transfers (merchant_id, livemode, status, created DESC, id DESC);
