package phase

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		phases []Phase
		want   []int // ordinals with a problem
	}{
		{"empty", nil, nil},
		{"finite phases", []Phase{{1, false}, {2, false}}, nil},
		{"indefinite last", []Phase{{2, true}, {1, false}}, nil},
		{"after indefinite", []Phase{{1, true}, {2, false}}, []int{2}},
		{"two indefinite", []Phase{{1, true}, {5, true}}, []int{5}},
		{"repeated ordinal", []Phase{{1, false}, {1, false}}, []int{1}},
		{"gaps are fine", []Phase{{10, false}, {3, false}, {20, true}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []int
			for _, p := range Check(tc.phases) {
				got = append(got, p.Ordinal)
			}
			require.Equal(t, tc.want, got)
		})
	}
}
