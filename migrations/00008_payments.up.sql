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
