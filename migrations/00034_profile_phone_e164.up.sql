-- A profile phone keeps its E.164 form beside the number (models.Phone's
-- "e164" member of the stored profile, never rendered), so that reading an
-- account derives its requirements and sandbox persona without parsing the
-- number again (docs/performance.md). The server writes it with every
-- phone it stores; this fills it in for the phones stored before, which
-- are in the canonical form the server writes (the national number's
-- digits and the calling code's, as the number parsed): their E.164 form
-- is '+', the code, the number. A stored phone in any other form, or one
-- whose number begins with its own code and is longer than ten digits
-- (which the parser reads differently), is left as it is and keeps being
-- parsed when read.
UPDATE accounts
   SET profile = jsonb_set(profile, '{individual,phone,e164}',
           to_jsonb('+' || (profile #>> '{individual,phone,country_code}') || (profile #>> '{individual,phone,number}')))
 WHERE jsonb_typeof(profile #> '{individual,phone}') = 'object'
   AND NOT (profile #> '{individual,phone}') ? 'e164'
   AND (profile #>> '{individual,phone,number}') ~ '^[0-9]{4,14}$'
   AND (profile #>> '{individual,phone,country_code}') ~ '^[1-9][0-9]{0,2}$'
   AND length((profile #>> '{individual,phone,country_code}') || (profile #>> '{individual,phone,number}')) <= 15
   AND NOT (starts_with(profile #>> '{individual,phone,number}', profile #>> '{individual,phone,country_code}')
            AND length(profile #>> '{individual,phone,number}') > 10);

UPDATE accounts
   SET profile = jsonb_set(profile, '{business,phone,e164}',
           to_jsonb('+' || (profile #>> '{business,phone,country_code}') || (profile #>> '{business,phone,number}')))
 WHERE jsonb_typeof(profile #> '{business,phone}') = 'object'
   AND NOT (profile #> '{business,phone}') ? 'e164'
   AND (profile #>> '{business,phone,number}') ~ '^[0-9]{4,14}$'
   AND (profile #>> '{business,phone,country_code}') ~ '^[1-9][0-9]{0,2}$'
   AND length((profile #>> '{business,phone,country_code}') || (profile #>> '{business,phone,number}')) <= 15
   AND NOT (starts_with(profile #>> '{business,phone,number}', profile #>> '{business,phone,country_code}')
            AND length(profile #>> '{business,phone,number}') > 10);
