package models

// The account's jsonb columns are read by their own scanners rather than
// Bun's JSON scanner, which hands each to encoding/json: a page of 100
// accounts is 400 of those decodes. Each decodes with the models' JSON
// library (scanJSONColumn), from the same struct tags, so a member added
// to these types is read with nothing else to change.

// Scan reads the profile column.
func (p *Profile) Scan(src any) error { return scanJSONColumn(src, p) }

// Scan reads the terms_of_service column (Bun gives a NULL column a nil
// pointer without calling it).
func (t *TermsOfService) Scan(src any) error { return scanJSONColumn(src, t) }

// Scan reads the verification column.
func (v *Verification) Scan(src any) error { return scanJSONColumn(src, v) }

// Scan reads a metadata column.
func (m *Metadata) Scan(src any) error { return scanJSONColumn(src, m) }
