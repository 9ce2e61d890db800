package jsonbody_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/rest/jsonbody"
)

// Append writes marshalers' output as is; it must still render exactly
// what encoding/json renders.
func TestAppendJSONRendersAsEncodingJSON(t *testing.T) {
	t.Parallel()
	name := "<Ada & Co>"
	acct := &models.Account{ID: uuid.New(), Type: models.AccountTypeIndividual, Metadata: models.Metadata{"k": "<v>"},
		Profile: models.Profile{Individual: &models.IndividualProfile{Email: &name}}, Created: models.At(time.Unix(1700000000, 0))}
	var nilAcct *models.Account
	for name, v := range map[string]any{
		"account":         acct,
		"account value":   *acct,
		"nil account":     nilAcct,
		"plain value":     map[string]any{"a": 1, "b": "<x>"},
		"slice of values": []*models.Account{acct, nil},
	} {
		var buf bytes.Buffer
		if err := jsonbody.Append(&buf, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if buf.String() != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", name, buf.String(), want)
		}
	}

	page := jsonbody.Page[*models.Account]{Meta: models.ListMeta{}, Items: []*models.Account{acct, nil}}
	var buf bytes.Buffer
	if err := jsonbody.Append(&buf, page); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(struct {
		Meta models.ListMeta   `json:"meta"`
		Data []*models.Account `json:"data"`
	}{Data: page.Items})
	if buf.String() != string(want) {
		t.Errorf("page:\n got %s\nwant %s", buf.String(), want)
	}
	if !json.Valid(buf.Bytes()) {
		t.Error("page is not valid JSON")
	}
}
