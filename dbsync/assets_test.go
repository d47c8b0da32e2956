package dbsync

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"testing"
)

// The assets column comes from PostgreSQL in no order; flatAssets must put
// it by policy then name as bytes, as ORDER BY policy, name on the bytea
// columns did: names that are prefixes of others, empty names and names
// with high bytes included.
func TestFlatAssetsOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	randBytes := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return b
	}
	for round := 0; round < 200; round++ {
		policies := [][]byte{randBytes(28), randBytes(28)}
		seen := map[string]bool{}
		var held []string
		for len(held) < 1+r.IntN(12) {
			policy := policies[r.IntN(len(policies))]
			name := randBytes(r.IntN(6))
			if r.IntN(3) == 0 && len(held) > 0 { // a prefix or an extension of a name already held
				_, rest, _ := bytes.Cut([]byte(held[r.IntN(len(held))]), []byte("."))
				prev, _, _ := bytes.Cut(rest, []byte("."))
				decoded, _ := hex.DecodeString(string(prev))
				name = append(bytes.Clone(decoded[:r.IntN(len(decoded)+1)]), randBytes(r.IntN(3))...)
			}
			key := hex.EncodeToString(policy) + "." + hex.EncodeToString(name)
			if seen[key] {
				continue
			}
			seen[key] = true
			held = append(held, fmt.Sprintf("%s.%d", key, 1+r.IntN(1000)))
		}
		got, err := flatAssets(held)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(got); i++ {
			p0, _ := hex.DecodeString(got[i-1].Policy)
			p1, _ := hex.DecodeString(got[i].Policy)
			n0, _ := hex.DecodeString(got[i-1].Name)
			n1, _ := hex.DecodeString(got[i].Name)
			if c := bytes.Compare(p0, p1); c > 0 || c == 0 && bytes.Compare(n0, n1) >= 0 {
				t.Fatalf("round %d: %s.%s before %s.%s", round, got[i-1].Policy, got[i-1].Name, got[i].Policy, got[i].Name)
			}
		}
	}
}
