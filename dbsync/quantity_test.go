package dbsync

import (
	"math/big"
	"testing"
)

// parseQuantity takes strconv's path below 19 digits and big.Int's above;
// both must read the same numbers and refuse the same text.
func TestParseQuantity(t *testing.T) {
	for _, s := range []string{"0", "7", "-1", "45000000000000000", "999999999999999999",
		"9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
		"340282366920938463463374607431768211455"} {
		want, _ := new(big.Int).SetString(s, 10)
		got, err := parseQuantity(s)
		if err != nil || got.Cmp(want) != 0 {
			t.Errorf("parseQuantity(%q) = %v, %v", s, got, err)
		}
	}
	for _, s := range []string{"", "abc", "1.5", "12e3", " 1", "0x10"} {
		if got, err := parseQuantity(s); err == nil {
			t.Errorf("parseQuantity(%q) = %v, want an error", s, got)
		}
	}
}
