package events

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	mainnetBase  = "addr1q9s5ws6xufe74h5vqyhxsd0n2hr4fdg895k9ztut2fjqz93z3znzpvegug3chp4dx556lp38h8ptu3smtj20q83rmdtqcjup2u"
	mainnetStake = "stake1uy3g3f3qkv5wyguts6kn22d0scnmns47gcd4e98src3ak4skkxyvj"
	mainnetByron = "DdzFFzCqrhstmqBkaU98vdHu6PdqjqotmgudToWYEeRmQKDrn4cAgGv9EZKtu1DevLrMA1pdVazufUCK4zhFkUcQZ5Gm88mVHnrwmXvT"
	testnetBase  = "addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae"
	policy       = "1e349c9bdea19fd6c147626a5260bc44b71635f398b67c59881df209"
)

func TestCanonicalItem(t *testing.T) {
	ok := []struct{ kind, in, want string }{
		{KindAddress, mainnetBase, mainnetBase},
		{KindAddress, strings.ToUpper(mainnetBase), mainnetBase},
		{KindAddress, mainnetByron, mainnetByron},
		{KindStakeAddress, mainnetStake, mainnetStake},
		{KindPaymentCredential, "addr_vkh1h7wl3l3w6heru0us8mdc3v3jlahq79w49cpypsuvgjhdwp5apep", "bf9df8fe2ed5f23e3f903edb88b232ff6e0f15d52e0240c38c44aed7"},
		{KindPaymentCredential, "BF9DF8FE2ED5F23E3F903EDB88B232FF6E0F15D52E0240C38C44AED7", "bf9df8fe2ed5f23e3f903edb88b232ff6e0f15d52e0240c38c44aed7"},
		{KindPolicy, strings.ToUpper(policy), policy},
		{KindAsset, policy + "4E4654", policy + "4e4654"},
		{KindAsset, policy + ".4e4654", policy + "4e4654"},
		{KindAsset, policy, policy},
		{KindTx, strings.Repeat("AB", 32), strings.Repeat("ab", 32)},
	}
	for _, c := range ok {
		got, err := CanonicalItem(c.kind, c.in, true)
		if err != nil || got.Value != c.want || got.Kind != c.kind {
			t.Errorf("%s %s: %+v %v", c.kind, c.in, got, err)
		}
	}
	bad := []struct {
		kind, in string
		want     error
	}{
		{"utxo", "x", ErrUnknownKind},
		{KindAddress, testnetBase, ErrItemAddress},
		{KindAddress, mainnetStake, ErrItemAddress},
		{KindAddress, mainnetBase[:len(mainnetBase)-1] + "x", ErrItemAddress},
		{KindStakeAddress, mainnetBase, ErrItemStake},
		{KindStakeAddress, strings.Repeat("ab", 28), ErrItemStake},
		{KindPaymentCredential, policy[:54], ErrItemCredential},
		{KindPolicy, policy + "00", ErrItemPolicy},
		{KindAsset, policy[:54], ErrItemAsset},
		{KindAsset, policy + strings.Repeat("00", 33), ErrItemAsset},
		{KindAsset, policy + "0", ErrItemAsset},
		{KindTx, strings.Repeat("ab", 31), ErrItemTx},
	}
	for _, c := range bad {
		if _, err := CanonicalItem(c.kind, c.in, true); !errors.Is(err, c.want) {
			t.Errorf("%s %s: %v, want %v", c.kind, c.in, err, c.want)
		}
	}
	if _, err := CanonicalItem(KindAddress, testnetBase, false); err != nil {
		t.Errorf("testnet address on a testnet: %v", err)
	}
}

func TestCheckURL(t *testing.T) {
	for raw, want := range map[string]error{
		"https://example.com/hook":                           nil,
		"https://93.184.216.34:8443/x":                       nil,
		"http://example.com/hook":                            ErrURLScheme,
		"ftp://example.com/":                                 ErrURLScheme,
		"/relative":                                          ErrURLInvalid,
		"https://":                                           ErrURLInvalid,
		"https://user:pw@example.com/":                       ErrURLUserinfo,
		"https://127.0.0.1/":                                 ErrURLPrivate,
		"https://[::1]/":                                     ErrURLPrivate,
		"https://10.1.2.3/":                                  ErrURLPrivate,
		"https://169.254.169.254/latest":                     ErrURLPrivate,
		"https://[fd00:ec2::254]/":                           ErrURLPrivate,
		"https://[::ffff:192.168.1.1]/":                      ErrURLPrivate,
		"https://0.0.0.0/":                                   ErrURLPrivate,
		"https://localhost:8080/":                            ErrURLPrivate,
		"https://[fe80::1%25eth0]/":                          ErrURLPrivate,
		"https://e.com/" + strings.Repeat("a", MaxURLLength): ErrURLTooLong,
	} {
		if err := CheckURL(raw, false); !errors.Is(err, want) {
			t.Errorf("%.60s: %v, want %v", raw, err, want)
		}
	}
	for _, raw := range []string{"http://127.0.0.1:9000/hook", "https://localhost/"} {
		if err := CheckURL(raw, true); err != nil {
			t.Errorf("%s with private allowed: %v", raw, err)
		}
	}
}

func testStore(t *testing.T) (*Store, Owner) {
	db, user := migratedAdmin(t)
	sealer, err := NewSealer(make([]byte, 32))
	if err != nil {
		t.Fatal(err)
	}
	return NewStore(db, Options{Sealer: sealer}), Owner{UserID: user, Network: "mainnet"}
}

// Concurrent adds and removes keep webhooks.items equal to the watch set,
// and the limit holds: a batch that would pass it adds nothing.
func TestItemsExact(t *testing.T) {
	s, o := testStore(t)
	ctx := context.Background()
	w, secret, err := s.CreateWebhook(ctx, NewWebhook{Owner: o, StartHeight: 100, Items: []Item{{KindTx, strings.Repeat("00", 32)}}})
	if err != nil || !strings.HasPrefix(secret, SecretPrefix) || w.Items != 1 || w.ScannedThrough != 100 || len(w.EventTypes) != 2 {
		t.Fatalf("create: %+v %v", w, err)
	}
	item := func(i int) Item { return Item{KindTx, fmt.Sprintf("%064x", i+1)} }
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var batch []Item
			for i := range 50 {
				batch = append(batch, item(i*8%200+g)) // overlapping batches
			}
			if _, _, err := s.AddItems(ctx, o, w.ID, batch); err != nil {
				t.Error(err)
			}
			if _, _, err := s.RemoveItems(ctx, o, w.ID, batch[:10]); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var counted int
	if err := s.DB().Get(&counted, `SELECT count(*) FROM syncgate.webhook_items WHERE webhook_id = $1`, w.ID); err != nil {
		t.Fatal(err)
	}
	got, err := s.Webhook(ctx, o, w.ID, nil)
	if err != nil || got.Items != counted {
		t.Fatalf("items %d, watch set %d (%v)", got.Items, counted, err)
	}
	// Fill to the limit in batches, then one more item is refused.
	if _, err := s.DB().Exec(`UPDATE syncgate.webhooks SET items = $2 WHERE id = $1`, w.ID, MaxItems-1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.AddItems(ctx, o, w.ID, []Item{item(5000), item(5001)}); !errors.Is(err, ErrTooManyItems) {
		t.Fatalf("over the limit: %v", err)
	}
	if _, total, err := s.AddItems(ctx, o, w.ID, []Item{item(5000)}); err != nil || total != MaxItems {
		t.Fatalf("to the limit: %d %v", total, err)
	}
	// Someone else's webhook is not found.
	other := Owner{UserID: o.UserID, Network: "preprod"}
	if _, _, err := s.AddItems(ctx, other, w.ID, []Item{item(1)}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("other network: %v", err)
	}
}

// A waiting feed request returns as soon as an event is decided, and an
// empty page when none is within the wait.
func TestFeedWaits(t *testing.T) {
	s, o := testStore(t)
	ctx := context.Background()
	w, _, err := s.CreateWebhook(ctx, NewWebhook{Owner: o})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Events(ctx, o, w.ID, 0, 10, 300*time.Millisecond)
	if err != nil || len(got) != 0 {
		t.Fatalf("empty wait: %d %v", len(got), err)
	}
	done := make(chan []string, 1)
	go func() {
		b, err := s.Events(ctx, o, w.ID, 0, 10, MaxWait)
		if err != nil {
			t.Error(err)
		}
		var out []string
		for _, r := range b {
			out = append(out, string(r))
		}
		done <- out
	}()
	time.Sleep(200 * time.Millisecond)
	if _, err := s.SendTest(ctx, o, w.ID, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case b := <-done:
		if len(b) != 1 || !strings.Contains(b[0], `"type":"webhook.test"`) {
			t.Fatalf("woke with %v", b)
		}
	case <-time.After(MaxWait):
		t.Fatal("the waiting request did not see the event")
	}
}
