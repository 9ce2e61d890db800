package verification

import (
	"strings"
	"time"
)

// Geo compliance statuses and reasons (spec doc 1 §2.9).
const (
	GeoClear   = "clear"
	GeoBlocked = "blocked"
	GeoUnknown = "unknown"

	GeoRestrictedTerritory = "restricted_territory"
	GeoNoLocationData      = "no_location_data"
)

// Territory is one rule of a geofence: a country, or a state of it.
type Territory struct {
	Country string `json:"country"`
	State   string `json:"state,omitempty"`
}

// Geofence is a restricted area: the platform's predefined ones apply to
// every account with geo_compliance.
type Geofence struct {
	ID, Name, Description string
	Rules                 []Territory
	// Defined is when the platform last defined the geofence: its created
	// and updated (they never change at run time).
	Defined time.Time
}

// platformGeofencesDefined is when the predefined geofences were written,
// the instant their UUIDv7 ids carry.
var platformGeofencesDefined = time.Date(2025, 3, 17, 1, 37, 49, 0, time.UTC)

// PlatformGeofences are the predefined geofences (docs/sandbox.md), fixed
// ids so that integrators can rely on them.
var PlatformGeofences = []Geofence{
	{ID: "0195a1c0-0000-7000-8000-000000000001", Name: "Sanctioned countries",
		Description: "Countries under comprehensive sanctions.",
		Rules:       []Territory{{Country: "CU"}, {Country: "IR"}, {Country: "KP"}, {Country: "SY"}},
		Defined:     platformGeofencesDefined},
	{ID: "0195a1c0-0000-7000-8000-000000000002", Name: "Restricted US states",
		Description: "US states where the platform's services are not offered.",
		Rules:       []Territory{{Country: "US", State: "WA"}, {Country: "US", State: "ID"}},
		Defined:     platformGeofencesDefined},
}

// GeoDecision is the outcome of evaluating a location.
type GeoDecision struct {
	Status, Reason string
	Geofence       *Geofence // the geofence that blocked, for restricted_territory
}

// EvaluateLocation decides the geo compliance of a holder located in
// country (ISO code) and state: blocked when an active geofence covers
// it, unknown without a country, clear otherwise. In the sandbox the
// location is the account's address (no location session is needed).
func EvaluateLocation(country, state string, fences []Geofence) GeoDecision {
	country, state = strings.ToUpper(strings.TrimSpace(country)), strings.ToUpper(strings.TrimSpace(state))
	if country == "" {
		return GeoDecision{Status: GeoUnknown, Reason: GeoNoLocationData}
	}
	for i := range fences {
		for _, r := range fences[i].Rules {
			if r.Country == country && (r.State == "" || r.State == state) {
				return GeoDecision{Status: GeoBlocked, Reason: GeoRestrictedTerritory, Geofence: &fences[i]}
			}
		}
	}
	return GeoDecision{Status: GeoClear}
}
