package models

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

// TestMerchantBalanceWireDeclaresWhatIsWritten: the hand-written
// MarshalJSON writes exactly MerchantBalanceWire's members, in its order,
// so the REST contract that reflects the wire type describes the answer.
func TestMerchantBalanceWireDeclaresWhatIsWritten(t *testing.T) {
	b := &MerchantBalance{Status: MerchantBalanceAvailable, MerchantID: uuid.New(), Currency: "USD",
		InstantPayoutBalance: 12345, LastUpdatedAt: wire.ISOTime{Time: time.Unix(1_700_000_000, 0)}, Source: "ledger"}
	out, err := b.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var keys []string
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	wt := reflect.TypeFor[MerchantBalanceWire]()
	for i := range wt.NumField() {
		want = append(want, wt.Field(i).Tag.Get("json"))
	}
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("MarshalJSON writes %v, MerchantBalanceWire declares %v", keys, want)
	}
	var w MerchantBalanceWire
	if err := json.Unmarshal(out, &w); err != nil {
		t.Fatalf("the answer does not read as MerchantBalanceWire: %v", err)
	}
}
