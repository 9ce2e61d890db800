package op

import "github.com/frame-oss/payments-server/models"

// SetsMetadata reports whether a metadata update sets a key. Merged with
// the keys the object has stored, its metadata may then exceed the size
// an object may hold, which only the stored row tells: the update's check
// cannot be settled before the transaction. An update that only removes
// keys leaves at most the keys stored, which were within the size when
// they were written.
func SetsMetadata(in models.MetadataInput) bool {
	for _, v := range in {
		if v != nil && *v != "" {
			return true
		}
	}
	return false
}
