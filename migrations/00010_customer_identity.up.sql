-- Account-holder verification, finished (spec doc 1 §2.7, §4.10;
-- API-DECISIONS §4b): legacy customer identity verifications, and the
-- payment_method.card requirement fed by the payment methods themselves.

-- The payment_method.card requirement reads accounts.verification
-- ->'active_card', which the payment method writes keep up to date from
-- now on; accounts that already hold an active card get it here.
UPDATE accounts AS a SET verification = a.verification || '{"active_card": true}'
WHERE EXISTS (
    SELECT 1 FROM payment_methods AS pm
    WHERE pm.merchant_id = a.merchant_id AND pm.livemode = a.livemode AND pm.account_id = a.id
      AND pm.type = 'card' AND pm.status = 'active' AND NOT pm.single_use);
