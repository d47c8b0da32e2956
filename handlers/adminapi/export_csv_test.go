package adminapi

import "testing"

func TestSpreadsheetSafe(t *testing.T) {
	for in, want := range map[string]string{"": "", "acme-1": "acme-1", "=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")", "+1": "'+1", "-2": "'-2", "@SUM(A1)": "'@SUM(A1)", "\tx": "'\tx"} {
		if got := spreadsheetSafe(in); got != want {
			t.Errorf("spreadsheetSafe(%q) = %q, want %q", in, got, want)
		}
	}
}
