package resolvers

// unixSeconds turns an optional GraphQL timestamp (a time.Time or a
// wire.Timestamp, as the argument's type binds) into the optional Unix
// seconds the REST filters take (created bounds).
func unixSeconds[T interface{ Unix() int64 }](t *T) *int64 {
	if t == nil {
		return nil
	}
	u := (*t).Unix()
	return &u
}
