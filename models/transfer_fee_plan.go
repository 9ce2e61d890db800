package models

import (
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/frame-oss/payments-server/internal/domain/fees"
	"github.com/frame-oss/payments-server/internal/platform/apierr"
	"github.com/frame-oss/payments-server/internal/platform/wire"
)

type feePlanKind struct{}

func (feePlanKind) objectName() string { return "transfer_fee_plan" }

type feePlanItemKind struct{}

func (feePlanItemKind) objectName() string { return "transfer_fee_plan_item" }

// The bounds of a fee plan's items.
const (
	maxFeePlanItems        = 20
	maxFeeFixedCents int64 = 100_000_000_00 // $100M: far above any real fee, far below overflow
)

// TransferFeePlan prices transfers (spec doc 2 §2.7, API-DECISIONS §4).
// Its items are stored with it: a plan never changes after creation.
type TransferFeePlan struct {
	bun.BaseModel `bun:"table:transfer_fee_plans,alias:fp"`
	Tenant

	ID                 uuid.UUID           `bun:"id,pk,type:uuid" json:"id"`
	Object             Object[feePlanKind] `bun:"-" json:"object"`
	Name               string              `bun:"name" json:"name"`
	FeeApplicationMode FeeApplicationMode  `bun:"fee_application_mode" json:"fee_application_mode"`
	Items              []*FeePlanItem      `bun:"items,type:jsonb" json:"items"`
	Created            wire.Timestamp      `bun:"created,type:timestamptz" json:"created"`
	Updated            wire.Timestamp      `bun:"updated,type:timestamptz" json:"updated"`
}

// FeePlanItem prices one billable event. AmountPercentage is a decimal
// percentage string ("2.9"), held exactly as parts per million.
type FeePlanItem struct {
	ID                  uuid.UUID               `json:"id"`
	Object              Object[feePlanItemKind] `json:"object"`
	FeeType             FeeType                 `json:"fee_type"`
	AmountFixedCents    int64                   `json:"amount_fixed_cents"`
	AmountFixedCurrency string                  `json:"amount_fixed_currency"`
	AmountPercentage    string                  `json:"amount_percentage"`
	BillableEventType   BillableEventType       `json:"billable_event_type"`
	Created             wire.Timestamp          `json:"created"`
	Updated             wire.Timestamp          `json:"updated"`
}

// Fee is the item as the fee arithmetic takes it.
func (it *FeePlanItem) Fee() fees.Item {
	ppm, _ := fees.ParsePercentage(it.AmountPercentage) // validated on create
	return fees.Item{Type: fees.Type(it.FeeType), FixedCents: it.AmountFixedCents, PPM: ppm}
}

// ItemFor is the plan's item for a billable event, or nil.
func (p *TransferFeePlan) ItemFor(event string) *FeePlanItem {
	for _, it := range p.Items {
		if string(it.BillableEventType) == event {
			return it
		}
	}
	return nil
}

// CreateFeePlanInput is the body of POST /v1/transfer_fee_plans.
type CreateFeePlanInput struct {
	Name               *string             `json:"name"`
	FeeApplicationMode *FeeApplicationMode `json:"fee_application_mode"`
	Items              []*FeePlanItemInput `json:"items"`
}

// FeePlanItemInput is one item of a new plan.
type FeePlanItemInput struct {
	FeeType             *FeeType           `json:"fee_type"`
	AmountFixedCents    *int64             `json:"amount_fixed_cents" range:"amount"`
	AmountFixedCurrency *string            `json:"amount_fixed_currency"`
	AmountPercentage    *Decimal           `json:"amount_percentage"`
	BillableEventType   *BillableEventType `json:"billable_event_type"`
}

// Build validates the input, every problem at once, and returns the plan
// it describes (items without ids or times). The mode defaults to deduct.
// Each type requires the parts it uses (flat: amount_fixed_cents;
// percentage: amount_percentage; flat_plus_percentage: both) and refuses
// the other; a plan prices each billable event at most once.
func (in *CreateFeePlanInput) Build() (*TransferFeePlan, error) {
	var f apierr.Fields
	p := &TransferFeePlan{FeeApplicationMode: FeeModeDeduct, Items: []*FeePlanItem{}}
	if checkText(&f, "name", in.Name, 200, true) && in.Name != nil {
		p.Name = strings.TrimSpace(*in.Name)
	}
	if in.FeeApplicationMode != nil && checkOneOf(&f, "fee_application_mode", in.FeeApplicationMode, FeeApplicationModes...) {
		p.FeeApplicationMode = *in.FeeApplicationMode
	}
	if len(in.Items) > maxFeePlanItems {
		f.Add("items", "must have at most "+strconv.Itoa(maxFeePlanItems)+" items")
		return nil, f.Err()
	}
	seen := map[BillableEventType]bool{}
	for i, item := range in.Items {
		path := "items." + strconv.Itoa(i)
		if item == nil {
			f.Add(path, "must be an object")
			continue
		}
		it := item.build(&f, path)
		if it.BillableEventType != "" {
			if seen[it.BillableEventType] {
				f.Add(path+".billable_event_type", "is priced by another item of this plan")
			}
			seen[it.BillableEventType] = true
		}
		p.Items = append(p.Items, it)
	}
	return p, f.Err()
}

func (in *FeePlanItemInput) build(f *apierr.Fields, path string) *FeePlanItem {
	it := &FeePlanItem{AmountFixedCurrency: "USD", AmountPercentage: "0"}
	if in.FeeType == nil {
		f.Add(path+".fee_type", "is required")
	} else if checkOneOf(f, path+".fee_type", in.FeeType, FeeTypes...) {
		it.FeeType = *in.FeeType
	}
	if in.BillableEventType == nil {
		f.Add(path+".billable_event_type", "is required")
	} else if checkOneOf(f, path+".billable_event_type", in.BillableEventType, BillableEventTypes...) {
		it.BillableEventType = *in.BillableEventType
	}
	usesFixed := it.FeeType == FeeTypeFlat || it.FeeType == FeeTypeFlatPlusPercentage
	usesPct := it.FeeType == FeeTypePercentage || it.FeeType == FeeTypeFlatPlusPercentage
	switch {
	case in.AmountFixedCents == nil && usesFixed:
		f.Add(path+".amount_fixed_cents", "is required for fee_type "+string(it.FeeType))
	case in.AmountFixedCents != nil && it.FeeType == FeeTypePercentage && *in.AmountFixedCents != 0:
		f.Add(path+".amount_fixed_cents", "is only allowed for flat and flat_plus_percentage")
	case in.AmountFixedCents != nil && (*in.AmountFixedCents < 0 || *in.AmountFixedCents > maxFeeFixedCents):
		f.Add(path+".amount_fixed_cents", "must be from 0 to "+strconv.FormatInt(maxFeeFixedCents, 10))
	case in.AmountFixedCents != nil:
		it.AmountFixedCents = *in.AmountFixedCents
	}
	if in.AmountFixedCurrency != nil {
		if c := currencyOr(f, path+".amount_fixed_currency", in.AmountFixedCurrency, "USD"); c != nil {
			it.AmountFixedCurrency = strings.ToUpper(*c)
		}
	}
	switch {
	case in.AmountPercentage == nil && usesPct:
		f.Add(path+".amount_percentage", "is required for fee_type "+string(it.FeeType))
	case in.AmountPercentage != nil:
		ppm, err := fees.ParsePercentage(string(*in.AmountPercentage))
		switch {
		case err != nil:
			f.Add(path+".amount_percentage", "must be a percentage from 0 to 100 with at most four decimals")
		case it.FeeType == FeeTypeFlat && ppm != 0:
			f.Add(path+".amount_percentage", "is only allowed for percentage and flat_plus_percentage")
		default:
			it.AmountPercentage = fees.FormatPercentage(ppm)
		}
	}
	return it
}
