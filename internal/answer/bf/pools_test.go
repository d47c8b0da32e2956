package bf

import "testing"

// TestOperatorFees: the operator's part of a pool's rewards, exactly.
func TestOperatorFees(t *testing.T) {
	for _, tc := range []struct {
		rewards, fixed string
		margin         float64
		want           string
	}{
		{"0", "340000000", 0.05, "0"},
		{"100", "340000000", 0.05, "100"},
		{"340000000", "340000000", 0.05, "340000000"},
		{"1340000000", "340000000", 0.05, "390000000"},
		{"1340000001", "340000000", 0.5, "840000000"},
		{"123456789012345678", "340000000", 0, "340000000"},
		{"123456789012345678", "340000000", 1, "123456789012345678"},
	} {
		if got := operatorFees(tc.rewards, tc.fixed, tc.margin); got != tc.want {
			t.Errorf("operatorFees(%s, %s, %v) = %s, want %s", tc.rewards, tc.fixed, tc.margin, got, tc.want)
		}
	}
}

// TestPageOf: pages counted from either end.
func TestPageOf(t *testing.T) {
	list := []int{1, 2, 3, 4, 5}
	for _, tc := range []struct {
		p    Paging
		want string
	}{
		{Paging{Count: 2, Page: 1}, "[1 2]"},
		{Paging{Count: 2, Page: 3}, "[5]"},
		{Paging{Count: 2, Page: 4}, "[]"},
		{Paging{Count: 2, Page: 1, Desc: true}, "[5 4]"},
		{Paging{Count: 2, Page: 3, Desc: true}, "[1]"},
	} {
		if got := fmtInts(pageOf(list, tc.p)); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.p, got, tc.want)
		}
	}
}

func fmtInts(v []int) string {
	s := "["
	for i, n := range v {
		if i > 0 {
			s += " "
		}
		s += itoa(n)
	}
	return s + "]"
}
