-- A product's phases keep metadata, as the official clients send it on
-- create and update (API-DECISIONS §9). A constant default adds the column
-- without rewriting the table; stored phases read as empty metadata.
ALTER TABLE product_phases ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}'::jsonb;
