package models

import (
	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type beneficialOwnerKind struct{}

func (beneficialOwnerKind) objectName() string { return "beneficial_owner" }

// rank orders statuses so that an update never moves one back.
func (s OwnerStatus) rank() int {
	switch s {
	case OwnerInviteSent:
		return 1
	case OwnerCompleted:
		return 2
	}
	return 0
}

// BeneficialOwner is a person who owns or controls a business account
// (spec doc 1 §2.3). The identity details beyond the name and e-mail are
// kept for verification and never rendered; of the SSN only the last four
// digits are kept.
type BeneficialOwner struct {
	bun.BaseModel `bun:"table:beneficial_owners,alias:bo"`
	Tenant

	ID               uuid.UUID                   `bun:"id,pk,type:uuid" json:"id"`
	Object           Object[beneficialOwnerKind] `bun:"-" json:"object"`
	AccountID        uuid.UUID                   `bun:"account_id,type:uuid" json:"account_id"`
	Status           OwnerStatus                 `bun:"status" json:"status"`
	FirstName        string                      `bun:"first_name" json:"first_name"`
	MiddleName       *string                     `bun:"middle_name" json:"middle_name"`
	LastName         string                      `bun:"last_name" json:"last_name"`
	Suffix           *string                     `bun:"suffix" json:"suffix"`
	Email            string                      `bun:"email" json:"email"`
	Roles            []OwnerRole                 `bun:"roles,array" json:"roles"`
	PercentOwnership *float64                    `bun:"percent_ownership" json:"percent_ownership"`
	Created          wire.Timestamp              `bun:"created" json:"created"`
	Updated          wire.Timestamp              `bun:"updated" json:"updated"`

	Invited        bool           `bun:"invited" json:"-"`
	PhoneNumber    *string        `bun:"phone_number" json:"-"`
	Birthdate      *string        `bun:"birthdate" json:"-"`
	SSNLastFour    *string        `bun:"ssn_last_four" json:"-"`
	Address        *Address       `bun:"address,type:jsonb" json:"-"`
	InvitationHash []byte         `bun:"invitation_hash" json:"-"`
	InvitationSent wire.Timestamp `bun:"invitation_sent,nullzero" json:"-"`
}

// HasRole reports whether the owner holds role.
func (o *BeneficialOwner) HasRole(role OwnerRole) bool {
	for _, r := range o.Roles {
		if r == role {
			return true
		}
	}
	return false
}

// detailsComplete reports whether every identity detail a verification
// needs is on file.
func (o *BeneficialOwner) detailsComplete() bool {
	a := o.Address
	return o.FirstName != "" && o.LastName != "" && o.Email != "" && o.Birthdate != nil && o.SSNLastFour != nil &&
		a != nil && a.Line1 != nil && a.City != nil && a.State != nil && a.PostalCode != nil
}

// Advance moves the status forward to what the details now allow: an owner
// whose details are complete is completed. It never moves a status back.
// It reports whether the owner just completed.
func (o *BeneficialOwner) Advance() bool {
	if o.Status != OwnerCompleted && o.detailsComplete() && OwnerCompleted.rank() > o.Status.rank() {
		o.Status = OwnerCompleted
		return true
	}
	return false
}

// PendingInvitation reports whether the owner was invited and has not
// completed the details (the only state an invitation can be resent in).
func (o *BeneficialOwner) PendingInvitation() bool {
	return o.Invited && o.Status == OwnerInviteSent
}
