package models

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/apierr"
)

// Every member out of range is reported at its JSON path, the operation's
// "input" wrapper adding nothing; values that fit pass.
func TestCheckRangesReportsEveryMemberAtItsPath(t *testing.T) {
	big, small := 1<<31, -1<<31-1
	farFuture, ok := int64(MaxUnixSeconds+1), int64(MaxUnixSeconds)
	month := FlexInt(1 << 40)
	params := map[string]any{"id": "x", "input": &CreateCouponInput{
		MaxRedemptions: &big, DurationInMonths: &small, ValidUntil: &farFuture, ValidFrom: &ok,
	}}
	e := apierr.As(CheckRanges(params))
	require.NotNil(t, e)
	require.Equal(t, apierr.CodeValidation, e.Code)
	require.Equal(t, []string{"duration_in_months", "max_redemptions", "valid_until"}, sortedKeys(e.Fields))

	nested := &CreateChargeIntentInput{PaymentMethodData: &PaymentMethodDataInput{ExpMonth: &month}}
	e = apierr.As(CheckRanges(nested))
	require.NotNil(t, e)
	require.Equal(t, "payment_method_data.exp_month", e.Param)

	fits := 1<<31 - 1
	require.NoError(t, CheckRanges(&CreateCouponInput{MaxRedemptions: &fits, ValidFrom: &ok}))
	require.NoError(t, CheckRanges(nil))
	require.NoError(t, CheckRanges(struct{ At time.Time }{time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)}))
	require.Error(t, CheckRanges(struct{ At time.Time }{time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}))
}

func sortedKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Amounts beyond the one bound on money are refused at their path, at
// either sign; the bound itself passes.
func TestCheckRangesBoundsAmounts(t *testing.T) {
	over, at, under := MaxAmount+1, MaxAmount, -MaxAmount-1
	e := apierr.As(CheckRanges(map[string]any{"input": &CreateTransferInput{Amount: &over}}))
	require.NotNil(t, e)
	require.Equal(t, map[string][]string{"amount": {ProblemAmount}}, e.Fields)
	require.NoError(t, CheckRanges(&CreateTransferInput{Amount: &at}))
	require.Error(t, CheckRanges(&CreateTransferInput{Amount: &under}))

	plan := &CreateFeePlanInput{Items: []*FeePlanItemInput{{AmountFixedCents: &at}, {AmountFixedCents: &over}}}
	e = apierr.As(CheckRanges(plan))
	require.NotNil(t, e)
	require.Equal(t, "items.1.amount_fixed_cents", e.Param)
}

// amountMember names the input members that hold money or a count priced
// as money: each must carry range:"amount".
var amountMember = regexp.MustCompile(`(^|_)(amount|amounts|price|cents|value|quantity|credits|fee)($|_)`)

// boundInTheWrite are the amounts an input bounds itself, with checkAmount
// in the check its operation runs inside the write, beside the problems
// only the write can find: a range refusal before the transaction would
// report the amount alone (the charge intents' create and update).
var boundInTheWrite = map[string]bool{"CreateChargeIntentInput.amount": true, "UpdateChargeIntentInput.amount": true}

// Every integer member of an input whose JSON name says it is money (an
// amount, a price, cents, a quantity, credits) carries range:"amount", so
// CheckRanges bounds it, or is bounded in its write (boundInTheWrite): a
// member added without either fails here.
func TestEveryAmountInputIsBounded(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	checked := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !isInputType(ts.Name.Name) {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if field.Tag == nil || !isInteger(field.Type) {
					continue
				}
				tag := reflect.StructTag(strings.Trim(field.Tag.Value, "`"))
				name, _, _ := strings.Cut(tag.Get("json"), ",")
				if !amountMember.MatchString(name) {
					continue
				}
				checked++
				if boundInTheWrite[ts.Name.Name+"."+name] {
					continue
				}
				require.Equalf(t, "amount", tag.Get("range"), "%s: %s.%s needs range:\"amount\"", path, ts.Name.Name, name)
			}
			return true
		})
	}
	require.Greater(t, checked, 20, "the inputs' amounts were found")
}

// isInputType names the request bodies: inputs, and the SDK's members
// they embed.
func isInputType(name string) bool {
	return strings.HasSuffix(name, "Input") || strings.HasSuffix(name, "Members") || strings.HasSuffix(name, "Request")
}

func isInteger(e ast.Expr) bool {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	id, ok := e.(*ast.Ident)
	return ok && (id.Name == "int64" || id.Name == "int" || id.Name == "FlexInt")
}
