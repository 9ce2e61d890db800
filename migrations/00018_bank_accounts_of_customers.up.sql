-- Bank accounts linked for a customer (spec doc 1 §4.9: customer_id or
-- account_id, mutually exclusive). A bank account belongs to exactly one
-- owner; linking the same bank account to the same customer again finds
-- it, as for an account (the unique index settles concurrent links).
ALTER TABLE bank_accounts ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE bank_accounts ADD COLUMN customer_id uuid;
ALTER TABLE bank_accounts ADD CONSTRAINT bank_accounts_customer_fkey
    FOREIGN KEY (merchant_id, livemode, customer_id) REFERENCES customers (merchant_id, livemode, id);
ALTER TABLE bank_accounts ADD CONSTRAINT bank_accounts_one_owner
    CHECK ((account_id IS NULL) <> (customer_id IS NULL));
CREATE UNIQUE INDEX bank_accounts_customer_key ON bank_accounts (merchant_id, livemode, customer_id, fingerprint)
    WHERE customer_id IS NOT NULL;
