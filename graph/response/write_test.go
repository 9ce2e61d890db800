package response_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/stretchr/testify/require"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"github.com/frame-oss/payments-server/graph/response"
)

// A response of data alone is written around the data as rendered, and
// reads as the same JSON json.Marshal writes; any other response is
// json.Marshal's.
func TestWriteResponseReadsAsJSONMarshals(t *testing.T) {
	hasNext := false
	for name, resp := range map[string]*graphql.Response{
		"data alone":            {Data: json.RawMessage(`{"account":{"id":"a","name":"<Ada & Co>","n":1.5,"tags":[]}}`)},
		"null data":             {Data: json.RawMessage(`null`)},
		"data with errors":      {Data: json.RawMessage(`{"a":null}`), Errors: gqlerror.List{{Message: "no"}}},
		"errors alone":          {Errors: gqlerror.List{{Message: "bad <query>"}}},
		"data with extensions":  {Data: json.RawMessage(`{"a":1}`), Extensions: map[string]any{"cost": 3}},
		"an incremental member": {Data: json.RawMessage(`{"a":1}`), HasNext: &hasNext},
	} {
		rec := httptest.NewRecorder()
		response.Write(rec, http.StatusOK, resp)
		want, err := json.Marshal(resp)
		require.NoError(t, err)
		require.JSONEq(t, string(want), rec.Body.String(), name)
		if name == "data alone" || name == "null data" {
			require.Equal(t, `{"data":`+string(resp.Data)+`}`, rec.Body.String(), name)
		} else {
			require.Equal(t, string(want), rec.Body.String(), name)
		}
	}
	for resp, want := range map[*graphql.Response]string{
		{Data: json.RawMessage(`{"a":"<b>"}`)}: `{"data":{"a":"<b>"}}`, // as rendered: json.Marshal escapes <
		{}:                                     `{"data":null}`,        // no data at all: json.Marshal's
	} {
		rec := httptest.NewRecorder()
		response.Write(rec, http.StatusOK, resp)
		require.Equal(t, want, rec.Body.String())
	}
}
