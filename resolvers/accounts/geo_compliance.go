package accounts

import (
	"context"
	"slices"

	"github.com/frame-oss/payments-server/internal/domain/capability"
	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Geo is the geo compliance family of the area: an account's location
// evaluated against the platform's geofences.
type Geo struct{ svc *Service }

// Evaluate answers the account's geo compliance (spec doc 1
// §4.8), evaluated now: the sandbox locates the holder at the profile's
// address (this server has no location sessions, so sonar_session_id is
// null) and checks it against the platform's geofences. The status is
// recorded on the account as the latest one, which the geo_compliance
// requirement reads, under the account's lock and with the activations it
// allows; an unchanged status writes nothing. Live mode locates holders
// through location sessions of a provider, and none ships: 503
// provider_not_configured there.
func (gs *Geo) Evaluate(ctx context.Context, accountID string) (*models.GeoComplianceStatus, error) {
	s := gs.svc
	spec := op.Spec{Name: "geo_compliance.evaluate", Allow: []auth.Kind{auth.SecretKey}, Params: ownerParams{AccountID: accountID}, Provider: "location"}
	var out *models.GeoComplianceStatus
	return writeAccount(ctx, s, spec, accountID, nil, func(ctx context.Context, aw *accountWrite) error {
		a := aw.Account
		d := verification.EvaluateLocation(a.ProfileCountry(), a.ProfileState(), verification.PlatformGeofences)
		if a.Status != models.AccountStatusDisabled {
			a.Verification.GeoStatus = d.Status
		}
		now := aw.Now()
		decision := ids.New(now)
		out = &models.GeoComplianceStatus{DecisionID: &decision, EvaluatedAt: &models.ISOTime{Time: now}, Status: models.GeoStatus(d.Status)}
		if d.Reason != "" {
			reason := models.GeoReason(d.Reason)
			out.Reason = &reason
		}
		if d.Geofence != nil {
			out.Geofence = &models.GeofenceRef{ID: d.Geofence.ID, Name: d.Geofence.Name}
		}
		return nil
	}, func(*accountWrite) *models.GeoComplianceStatus { return out })
}

// Geofences answers the geofences that apply to the merchant's
// accounts: the platform's predefined ones. 422 when the merchant does not
// hold the geo_compliance product.
func (gs *Geo) Geofences(ctx context.Context, lp op.ListParams) (op.Page[*models.Geofence], error) {
	var page op.Page[*models.Geofence]
	p, err := auth.Require(ctx, auth.SecretKey)
	if err != nil {
		return page, err
	}
	if !slices.Contains(merchantProducts(p.Merchant), capability.ProductGeoCompliance) {
		return page, apierr.FieldError("geo_compliance", "is not enabled for this platform (it needs the geo_compliance product)")
	}
	all := make([]*models.Geofence, len(verification.PlatformGeofences))
	for i, g := range verification.PlatformGeofences {
		all[i] = &models.Geofence{ID: g.ID, Name: g.Name, Description: g.Description, GeofenceType: "polygon", Active: true, Status: models.GeofenceActive,
			Metadata: models.Metadata{}, Locked: true, GeofenceRules: g.Rules, Livemode: p.Scope.Livemode,
			Created: models.At(g.Defined), Updated: models.At(g.Defined)}
	}
	pp := lp.PageParams.Normalized()
	page.Params = pp
	page.Items = []*models.Geofence{}
	start := (pp.Page - 1) * pp.PerPage
	if start < len(all) {
		end := min(start+pp.PerPage, len(all))
		page.Items, page.HasMore = all[start:end], end < len(all)
	}
	return page, nil
}

// RecordedGeoCompliance is the latest status recorded on a loaded account
// (GraphQL's Account.geoCompliance; no statement of its own): unknown,
// with no_location_data, before any evaluation.
func RecordedGeoCompliance(a *models.Account) *models.GeoComplianceStatus {
	if st := a.Verification.GeoStatus; st != "" {
		return &models.GeoComplianceStatus{Status: models.GeoStatus(st)}
	}
	reason := models.GeoReasonNoLocationData
	return &models.GeoComplianceStatus{Status: verification.GeoUnknown, Reason: &reason}
}
