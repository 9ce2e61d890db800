package jobs_test

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/frame-oss/payments-server/internal/platform/jobs"
	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Args that embed Tenant encode as the args did when they declared the
// two members themselves, so a job waiting in river_job from before still
// decodes, and unique args still compare the same.
func TestTenantArgsKeepTheirJSON(t *testing.T) {
	t.Parallel()
	type args struct {
		jobs.Tenant
		RowID uuid.UUID `json:"row_id"`
	}
	scope := store.Scope{MerchantID: uuid.MustParse("11111111-1111-1111-1111-111111111111"), Livemode: true}
	row := uuid.MustParse("22222222-2222-2222-2222-222222222222")

	got, err := json.Marshal(args{Tenant: jobs.TenantOf(scope), RowID: row})
	require.NoError(t, err)
	const before = `{"merchant_id":"11111111-1111-1111-1111-111111111111","livemode":true,` +
		`"row_id":"22222222-2222-2222-2222-222222222222"}`
	require.JSONEq(t, before, string(got))
	require.Equal(t, before, string(got), "the members keep their order")

	var back args
	require.NoError(t, json.Unmarshal([]byte(before), &back))
	require.Equal(t, scope, back.Scope())
	require.Equal(t, row, back.RowID)
}
