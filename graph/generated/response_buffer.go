package generated

import (
	"bytes"
	"sync"

	"github.com/99designs/gqlgen/graphql"
)

// responseBuffers are the buffers queries' responses are written into
// (marshalResponse), kept between requests.
var responseBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledResponse is the largest buffer put back for another request:
// an unusually large answer does not keep its memory in the pool.
const maxPooledResponse = 1 << 20

// marshalResponse writes a query's data as gqlgen's executor did, into a
// bytes.Buffer, and answers a copy of exactly its size: the executor's
// own buffer started empty and doubled its way to the answer's size, and
// a reused buffer has already grown. Empty data is nil, as before.
func marshalResponse(data graphql.Marshaler) []byte {
	buf := responseBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	data.MarshalGQL(buf)
	var out []byte
	if buf.Len() > 0 {
		out = bytes.Clone(buf.Bytes())
	}
	if buf.Cap() <= maxPooledResponse {
		responseBuffers.Put(buf)
	}
	return out
}
