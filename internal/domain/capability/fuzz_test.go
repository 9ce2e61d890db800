package capability

import (
	"strings"
	"testing"
)

// FuzzParseName: parsing never panics, and accepts exactly the catalogue.
func FuzzParseName(f *testing.F) {
	for _, n := range AllNames() {
		f.Add(string(n))
	}
	f.Add("")
	f.Add("KYC")
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := ParseName(s)
		if ok != Name(s).Valid() {
			t.Fatalf("ParseName(%q) ok=%v disagrees with Valid", s, ok)
		}
		if ok && string(n) != s {
			t.Fatalf("ParseName(%q) = %q", s, n)
		}
		if !ok && n != "" {
			t.Fatalf("ParseName(%q) = %q on failure", s, n)
		}
	})
}

// FuzzExpand: any comma-separated request expands without panicking to a
// deduplicated, catalogue-ordered closure, and planning it with every
// product and nothing switched off yields the same set.
func FuzzExpand(f *testing.F) {
	f.Add("kyc_prefill,card_receive")
	f.Add("bogus,,kyc,kyc")
	f.Add("")
	f.Fuzz(func(t *testing.T, csv string) {
		var req []Name
		for _, s := range strings.Split(csv, ",") {
			req = append(req, Name(s))
		}
		got := Expand(req)
		if got == nil {
			t.Fatal("nil result")
		}
		last := -1
		for _, n := range got {
			i, ok := catalogueIndex[n]
			if !ok || i <= last {
				t.Fatalf("Expand(%q) = %v: not deduplicated catalogue order", csv, got)
			}
			last = i
		}
		// Closed under dependencies.
		in := map[Name]bool{}
		for _, n := range got {
			in[n] = true
		}
		for _, n := range got {
			for _, d := range DirectDependencies(n) {
				if !in[d] {
					t.Fatalf("Expand(%q) = %v misses %s (dependency of %s)", csv, got, d, n)
				}
			}
		}
		// Plan agrees with Expand on valid input.
		var valid []Name
		for _, n := range req {
			if n.Valid() {
				valid = append(valid, n)
			}
		}
		planned, err := Plan(valid, AllProducts(), nil)
		if err != nil {
			t.Fatalf("Plan: %v", err)
		}
		equal(t, planned, got)
		// And neither Plan nor LiveDependents panic on the raw input.
		_, _ = Plan(req, nil, req)
		statuses := map[Name]Status{}
		for _, n := range req {
			statuses[n] = StatusPending
		}
		for _, n := range req {
			_ = LiveDependents(n, statuses)
		}
	})
}
