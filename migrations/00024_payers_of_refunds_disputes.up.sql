-- An account's or a customer's charges, refunds and disputes as pages per
-- payer (Account.refunds, Customer.disputes... under a page of payers, one
-- statement for all of them: docs/graphql.md).
--
-- A refund or a dispute belongs to a charge, and the charge names its payer
-- (account_id or customer_id) and never changes it. The payer is copied
-- onto the refund and the dispute so that each payer's rows are one range
-- of an index in the list's order, as a charge's are by the indexes below.
-- The database copies it on insert from the charge, whatever process (of
-- whatever version) writes the row; the rows already stored are backfilled.
-- No foreign key: the values are the charge's, which its own keys check.
ALTER TABLE refunds ADD COLUMN account_id uuid, ADD COLUMN customer_id uuid;
ALTER TABLE disputes ADD COLUMN account_id uuid, ADD COLUMN customer_id uuid;

CREATE FUNCTION payer_of_charge() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT ch.account_id, ch.customer_id INTO NEW.account_id, NEW.customer_id
      FROM charges AS ch
     WHERE ch.merchant_id = NEW.merchant_id AND ch.livemode = NEW.livemode AND ch.id = NEW.charge_id;
    RETURN NEW;
END $$;
-- Creating a trigger waits for the transactions writing the table, so every
-- row the backfill below cannot see was inserted through the trigger.
CREATE TRIGGER refunds_payer_of_charge BEFORE INSERT ON refunds
    FOR EACH ROW EXECUTE FUNCTION payer_of_charge();
CREATE TRIGGER disputes_payer_of_charge BEFORE INSERT ON disputes
    FOR EACH ROW EXECUTE FUNCTION payer_of_charge();

UPDATE refunds AS rf SET account_id = ch.account_id, customer_id = ch.customer_id
  FROM charges AS ch
 WHERE ch.merchant_id = rf.merchant_id AND ch.livemode = rf.livemode AND ch.id = rf.charge_id
   AND rf.account_id IS NULL AND rf.customer_id IS NULL;
UPDATE disputes AS dp SET account_id = ch.account_id, customer_id = ch.customer_id
  FROM charges AS ch
 WHERE ch.merchant_id = dp.merchant_id AND ch.livemode = dp.livemode AND ch.id = dp.charge_id
   AND dp.account_id IS NULL AND dp.customer_id IS NULL;

CREATE INDEX refunds_account_idx ON refunds (merchant_id, livemode, account_id, created DESC, id DESC)
    WHERE account_id IS NOT NULL;
CREATE INDEX refunds_customer_idx ON refunds (merchant_id, livemode, customer_id, created DESC, id DESC)
    WHERE customer_id IS NOT NULL;
CREATE INDEX disputes_account_idx ON disputes (merchant_id, livemode, account_id, created DESC, id DESC)
    WHERE account_id IS NOT NULL;
CREATE INDEX disputes_customer_idx ON disputes (merchant_id, livemode, customer_id, created DESC, id DESC)
    WHERE customer_id IS NOT NULL;
CREATE INDEX charges_account_idx ON charges (merchant_id, livemode, account_id, created DESC, id DESC)
    WHERE account_id IS NOT NULL;
CREATE INDEX charges_customer_idx ON charges (merchant_id, livemode, customer_id, created DESC, id DESC)
    WHERE customer_id IS NOT NULL;
