package accounts

import (
	"context"

	"github.com/frame-oss/payments-server/internal/domain/verification"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/auth"
	"github.com/frame-oss/payments-server/internal/platform/ids"
	"github.com/frame-oss/payments-server/internal/platform/store"
	"github.com/frame-oss/payments-server/models"
	"github.com/frame-oss/payments-server/resolvers/op"
)

// Customer identity verifications (legacy, payer-side; spec doc 1 §2.7,
// §4.10) live in this area with the other identity checks: they use the
// same identity provider. They belong to no account and never emit the
// account.* events, only their own two.

// civActors may call every customer identity verification operation: the
// secret key (spec doc 1 §5.6; the publishable key and the session
// secrets are not listed for them).
var civActors = []auth.Kind{auth.SecretKey}

// verificationURLBase is where a verification_url points: the identity
// provider's hosted flow. No hosted flow ships with this server; the url
// carries a random token and is never dereferenced here.
const verificationURLBase = "https://identity.frame.test/v/"

// Create starts a verification (201, status
// incomplete, with its verification_url) of the customer named by
// customer_id, or of the person the profile fields describe. The identity
// provider judges the payer once the ID's two sides and a selfie are
// uploaded. Refusals: 422 for input (every problem at once); 404 on
// customer_id for a customer of another merchant or mode, or none; 422
// invalid_state for a deleted customer; 503 provider_not_configured in
// live mode, which has no identity provider.
func (cs *CustomerIdentity) Create(ctx context.Context, in *models.CreateCustomerIdentityVerificationInput) (*models.CustomerIdentityVerification, error) {
	s := cs.svc
	spec := op.Spec{Name: "customer_identity_verification.create", Allow: civActors, Params: in, Provider: "identity",
		Check: op.AtAnyTime(in.Validate)}
	return op.Write(ctx, s.Kit, spec, func(ctx context.Context, w *op.W) (*models.CustomerIdentityVerification, error) {
		// At the write's time: what the check before the transaction could
		// not settle (op.AtAnyTime), a date against the time, is checked here.
		if err := in.Validate(w.Now()); err != nil {
			return nil, err
		}
		v := &models.CustomerIdentityVerification{Status: models.CustomerVerificationIncomplete,
			Documents: models.IdentityDocuments{}}
		if in.CustomerID != nil {
			c, err := shareCustomer(ctx, w.Tx, *in.CustomerID)
			if err != nil {
				return nil, err
			}
			v.CustomerID = &c.ID
			if c.Phone != nil {
				v.Subject = *c.Phone
			}
		} else {
			v.FirstName, v.LastName, v.DateOfBirth, v.Email = in.FirstName, in.LastName, in.DateOfBirth, in.Email
			if in.PhoneNumber != nil {
				e164, _ := models.CustomerIdentityPhone(*in.PhoneNumber)
				v.PhoneNumber, v.Subject = &e164, e164
			}
			if in.SSN != nil {
				last := models.SSNLastFour(*in.SSN)
				v.SSNLastFour = &last
			}
		}
		now := w.Now()
		v.ID, v.Created, v.Updated = ids.New(now), models.At(now), models.At(now)
		v.VerificationURL = verificationURLBase + auth.RandomString(32)
		if _, err := w.Tx.Insert(v).Exec(ctx); err != nil {
			return nil, err
		}
		if err := w.EmitObject(EventCustomerIdentityVerificationCreated, v.ID, v); err != nil {
			return nil, err
		}
		return v, nil
	})
}

// shareCustomer reads the customer a verification is created for, share
// locked so that its deletion (which locks it for update) cannot commit in
// between: 404 on customer_id when the caller's merchant and mode have no
// such customer, 422 invalid_state when it is deleted.
func shareCustomer(ctx context.Context, t *store.Tenant, id string) (*models.Customer, error) {
	missing := apierr.NotFound("customer", id)
	missing.Param = "customer_id"
	uid, ok := ids.Parse(id)
	if !ok {
		return nil, missing
	}
	c := new(models.Customer)
	if err := t.Select(c).Column("id", "phone", "deleted").Where("cu.id = ?", uid).For("SHARE").Scan(ctx); err != nil {
		if store.IsNoRows(err) {
			return nil, missing
		}
		return nil, err
	}
	if c.IsDeleted() {
		return nil, apierr.InvalidState("The customer is deleted and cannot be verified")
	}
	return c, nil
}

// civSlots are the documents a verification needs.
var civSlots = verification.DocumentSlots
