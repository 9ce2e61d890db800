package verification

import "testing"

func TestEvaluateLocation(t *testing.T) {
	cases := []struct{ country, state, status, reason, fence string }{
		{"US", "TX", GeoClear, "", ""},
		{"us", "wa", GeoBlocked, GeoRestrictedTerritory, "Restricted US states"},
		{"US", "ID", GeoBlocked, GeoRestrictedTerritory, "Restricted US states"},
		{"CU", "", GeoBlocked, GeoRestrictedTerritory, "Sanctioned countries"},
		{"CA", "WA", GeoClear, "", ""},
		{"", "WA", GeoUnknown, GeoNoLocationData, ""},
	}
	for _, c := range cases {
		d := EvaluateLocation(c.country, c.state, PlatformGeofences)
		name := ""
		if d.Geofence != nil {
			name = d.Geofence.Name
		}
		if d.Status != c.status || d.Reason != c.reason || name != c.fence {
			t.Errorf("%s/%s: %+v", c.country, c.state, d)
		}
	}
}
