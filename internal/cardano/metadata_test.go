package cardano

import (
	"encoding/hex"
	"encoding/json"

	"reflect"
	"strings"
	"testing"
)

func strp(s string) *string { return &s }
func i64p(i int64) *int64   { return &i }

type cip68Vectors struct {
	SpecExamples []struct {
		Name string          `json:"name"`
		JSON json.RawMessage `json:"json"`
	} `json:"spec_examples"`
	RealDatums []struct {
		Name  string          `json:"name"`
		Value json.RawMessage `json:"db_sync_datum_value_json"`
		Ref   string          `json:"reference_nft_unit"`
	} `json:"real_datums"`
	Pairs struct {
		Pairs []struct {
			JSON json.RawMessage `json:"our_detailed_json"`
		} `json:"pairs"`
	} `json:"detailed_schema_reference_pairs"`
}

// cip68Expected is the metadata each real datum of cip68.json decodes to,
// by vector name (also what the seeded chain's CIP-68 tokens must show).
var cip68Expected = map[string]*AssetMetadata{
	"Blockfrost NFT v2 testing token #018 (preprod) - reference NFT (100) inline datum": {
		Name: "Blockfrost NFT v2 testing token", Description: strp("Blockfrost NFT v2 testing token"),
		Image: strp("ipfs://QmUCXMTcvuJpwHF3gABRr69ceQR2uEG2Fsik9CyWh8MUoQ"), Decimals: i64p(0)},
	"FLDT (FluidTokens) CIP-68 FT reference datum (mainnet)": {
		Name: "FLDT", Ticker: strp("FLDT"), Decimals: i64p(6), URL: strp("https://fluidtokens.com/"),
		Description: strp("The official token of FluidTokens, a leading DeFi ecosystem fueled by innovation and community backing.")},
	"USDM CIP-68 FT reference datum (mainnet)": {
		Name: "USDM", Ticker: strp("USDM"), Decimals: i64p(6), URL: strp("https://mehen.io/"),
		Description: strp("Fiat-backed stablecoin native to the Cardano blockchain")},
	"PBG Token Voucher 89 (mainnet) - metadata map contains a Plutus constructor value (owner)": {
		Name: "PBG Token Voucher 89", Description: strp("Success fee reimbursement voucher"), Decimals: i64p(0),
		URL: strp("https://pbg.io/vouchers"), Image: strp("https://token.pbg.io/voucher-logo.png")},
	"Greenland Reserve Coin GNRC (mainnet) - version 0 datum": {
		Name: "Greenland Reserve Coin", Ticker: strp("GNRC"), Decimals: i64p(6), URL: strp("https://www.the-mint.com/compliance"),
		Description: strp("Asset backed token secured by Greenland rubies and sapphires")},
	"HOSKY 10K NFT 0002 (mainnet) - first datum with version 100": {
		Name: "HOSKY 10K NFT 0002", Description: strp("This is a reference token for CIP-68."), Decimals: i64p(0),
		Image: strp("ipfs://QmfRvX7ZA3FsCjoXWYfBXGSHFW6ARYaaux6GT3WtqLEX6g")},
	"Preprod NFT #1 with constructor property (from bloxbean/yaci-store#1159)": {Name: "NFT #1", Decimals: i64p(0)},
}

// TestDecodeCIP68Vectors decodes every datum of cip68.json: the four CIP
// examples and the seven real datums (db-sync datum.value JSON), with the
// expected result under our rules (name required; url falls back to
// website; logo is registry-only; decimals default 0; odd property
// values skipped).
func TestDecodeCIP68Vectors(t *testing.T) {
	var v cip68Vectors
	readVectors(t, "cip68.json", &v)
	if len(v.SpecExamples) != 4 || len(v.RealDatums) != 7 {
		t.Fatalf("vectors not loaded: %d examples, %d datums", len(v.SpecExamples), len(v.RealDatums))
	}
	asset := AssetID{Name: []byte("\x00\x0d\xe1\x40SpaceBud A1")}
	want := map[string]*AssetMetadata{
		"222 NFT, direct metadata (version 1)":           {Name: "SpaceBud", Image: strp("ipfs://test"), Decimals: i64p(0)},
		"222 NFT, nested \"721\" map format (version 4)": {Name: "SpaceBud", Image: strp("ipfs://test"), Decimals: i64p(0)},
		"333 FT example": {Name: "SpaceBud", Description: strp("This is my test token"), Decimals: i64p(0)},
		"444 RFT example with decimals": {Name: "SpaceBud", Description: strp("This is my test token"),
			Image: strp("ipfs://test"), Decimals: i64p(2)},
	}
	for _, ex := range v.SpecExamples {
		got, ok := DecodeCIP68(ex.JSON, asset)
		if !ok || !reflect.DeepEqual(got, want[ex.Name]) {
			t.Errorf("%s: got %s (%v), want %s", ex.Name, js(got), ok, js(want[ex.Name]))
		}
	}
	for _, d := range v.RealDatums {
		want, known := cip68Expected[d.Name]
		if !known {
			t.Fatalf("no expectation for %q", d.Name)
		}
		got, ok := DecodeCIP68(d.Value, asset)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got  %s (%v)\n want %s", d.Name, js(got), ok, js(want))
		}
	}
	// The converter pairs are datums of other contracts: not CIP-68 metadata.
	for i, p := range v.Pairs.Pairs {
		if got, ok := DecodeCIP68(p.JSON, asset); ok {
			t.Errorf("pair %d decoded as CIP-68: %s", i, js(got))
		}
	}
}

func TestDecodeCIP68OddShapes(t *testing.T) {
	name := `{"k":{"bytes":"6e616d65"},"v":{"bytes":"41"}}`
	cases := map[string]struct {
		datum string
		ok    bool
		want  *AssetMetadata
	}{
		"not json":             {`{`, false, nil},
		"not an object":        {`[1,2]`, false, nil},
		"constructor 1":        {`{"constructor":1,"fields":[{"map":[` + name + `]},{"int":1}]}`, false, nil},
		"huge constructor":     {`{"constructor":2501590059,"fields":[{"map":[` + name + `]},{"int":1}]}`, false, nil},
		"one field":            {`{"constructor":0,"fields":[{"map":[` + name + `]}]}`, false, nil},
		"fields not a list":    {`{"constructor":0,"fields":{"map":[]}}`, false, nil},
		"version not int":      {`{"constructor":0,"fields":[{"map":[` + name + `]},{"bytes":"01"}]}`, false, nil},
		"version not object":   {`{"constructor":0,"fields":[{"map":[` + name + `]},7]}`, false, nil},
		"first not map":        {`{"constructor":0,"fields":[{"list":[]},{"int":1}]}`, false, nil},
		"no name":              {`{"constructor":0,"fields":[{"map":[]},{"int":1}]}`, false, nil},
		"name not utf8":        {`{"constructor":0,"fields":[{"map":[{"k":{"bytes":"6e616d65"},"v":{"bytes":"ff"}}]},{"int":1}]}`, false, nil},
		"name is int":          {`{"constructor":0,"fields":[{"map":[{"k":{"bytes":"6e616d65"},"v":{"int":5}}]},{"int":1}]}`, false, nil},
		"name odd hex":         {`{"constructor":0,"fields":[{"map":[{"k":{"bytes":"6e616d65"},"v":{"bytes":"414"}}]},{"int":1}]}`, false, nil},
		"map entries garbage":  {`{"constructor":0,"fields":[{"map":[1,"x",null,` + name + `]},{"int":1}]}`, true, &AssetMetadata{Name: "A", Decimals: i64p(0)}},
		"big version":          {`{"constructor":0,"fields":[{"map":[` + name + `]},{"int":123456789012345678901234567890}]}`, true, &AssetMetadata{Name: "A", Decimals: i64p(0)}},
		"big decimals ignored": {`{"constructor":0,"fields":[{"map":[` + name + `,{"k":{"bytes":"646563696d616c73"},"v":{"int":123456789012345678901234567890}}]},{"int":1}]}`, true, &AssetMetadata{Name: "A", Decimals: i64p(0)}},
		"negative decimals":    {`{"constructor":0,"fields":[{"map":[` + name + `,{"k":{"bytes":"646563696d616c73"},"v":{"int":-3}}]},{"int":1}]}`, true, &AssetMetadata{Name: "A", Decimals: i64p(0)}},
		"chunked image": {`{"constructor":0,"fields":[{"map":[` + name + `,{"k":{"bytes":"696d616765"},"v":{"list":[{"bytes":"697066733a2f2f"},{"bytes":"6162"}]}}]},{"int":3},{"constructor":0,"fields":[]}]}`,
			true, &AssetMetadata{Name: "A", Image: strp("ipfs://ab"), Decimals: i64p(0)}},
		"image list of ints": {`{"constructor":0,"fields":[{"map":[` + name + `,{"k":{"bytes":"696d616765"},"v":{"list":[{"int":1}]}}]},{"int":1}]}`,
			true, &AssetMetadata{Name: "A", Decimals: i64p(0)}},
		"nested 721 without match": {`{"constructor":0,"fields":[{"map":[` + name + `,{"k":{"bytes":"373231"},"v":{"int":1}}]},{"int":4}]}`,
			true, &AssetMetadata{Name: "A", Decimals: i64p(0)}},
		"non-utf8 key skipped": {`{"constructor":0,"fields":[{"map":[{"k":{"bytes":"ff"},"v":{"bytes":"41"}},` + name + `]},{"int":1}]}`,
			true, &AssetMetadata{Name: "A", Decimals: i64p(0)}},
	}
	for label, c := range cases {
		got, ok := DecodeCIP68([]byte(c.datum), AssetID{})
		if ok != c.ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %s (%v), want %s (%v)", label, js(got), ok, js(c.want), c.ok)
		}
	}
}

// TestDecodeCIP25Vectors builds the label-721 JSON db-sync would store for
// each Blockfrost-decoded example of cip25.json (v1 with text keys, v2 with
// "0x" byte keys) and checks the decoded metadata.
func TestDecodeCIP25Vectors(t *testing.T) {
	var v struct {
		Real struct {
			Metadata []struct {
				JSON json.RawMessage `json:"json_metadata"`
			} `json:"blockfrost_response_txs_metadata"`
			Derived struct {
				PolicyID string `json:"policy_id"`
				NameHex  string `json:"asset_name_hex"`
			} `json:"derived"`
		} `json:"real_label_721_example"`
		Examples []struct {
			Test     string         `json:"test"`
			PolicyID string         `json:"policy_id"`
			NameHex  *string        `json:"asset_name_hex"`
			Metadata map[string]any `json:"onchain_metadata"`
			Standard *string        `json:"onchain_metadata_standard"`
		} `json:"blockfrost_decoded_onchain_metadata_examples"`
	}
	readVectors(t, "cip25.json", &v)
	if len(v.Examples) != 6 || len(v.Real.Metadata) != 1 {
		t.Fatalf("vectors not loaded")
	}
	id, _ := ParseAssetID(v.Real.Derived.PolicyID + "." + v.Real.Derived.NameHex)
	got, ok := DecodeCIP25(v.Real.Metadata[0].JSON, id)
	want := &AssetMetadata{Name: "TESTBUDZPREVIEW No 22", Image: strp("ipfs://QmRhTTbUrPYEw3mJGGhQqQST9k86v1DPBiTTWJGKDJsVFw")}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("preview example: got %s", js(got))
	}

	wants := map[string]*AssetMetadata{
		"assets/:asset - space bud with metadata update which is not the latest tx_mint": {Name: "SpaceBud #3412",
			Image: strp("ipfs://QmPQWCUh9abUP2NQ2svMsRgcehez1VN6QGAcBCpuVQNdKp")},
		"assets/:asset - metadata coin example with onchain metadata": {Name: "Berry Sand",
			Image: strp("ipfs://ipfs/QmXhvddYsApbgyKjKwHzfuUwxxJBe5d76hGJSUaxBaK4hh")},
		"assets/:asset - NFT asset with on-chain CIP25v1 with non-utf8 asset name": {Name: "MNTX airdrop claim",
			Image: strp("ipfs://QmTCmbEj82q9WxH4zjniMnVuX2pzzkpvZFMV2imkeo8dTX")},
		"assets/:asset - non-valid according to https://cips.cardano.org/cips/cip25/": nil, // no name
		"assets/:asset - asset with on-chain CIP25v2": {Name: "Optim EQT",
			Image: strp("ipfs://bafkreif5iapksurpzoegyxl7jybdlxbqsz2upsagu2dmbygj4qbf6cfcdi")},
		"assets/:asset - asset with on-chain CIP25v2 (no assetName)": {Name: "",
			Image: strp("ipfs://todo"), Description: strp("Change the world with FinanceBinaries!")},
	}
	for _, ex := range v.Examples {
		nameHex := ""
		if ex.NameHex != nil {
			nameHex = *ex.NameHex
		}
		id, err := ParseAssetID(ex.PolicyID + "." + nameHex)
		if err != nil {
			t.Fatalf("%s: %v", ex.Test, err)
		}
		w, known := wants[ex.Test]
		if !known {
			t.Fatalf("no expectation for %q", ex.Test)
		}
		var label map[string]any
		if ex.Standard != nil && *ex.Standard == "CIP25v2" {
			label = map[string]any{"0x" + ex.PolicyID: map[string]any{"0x" + nameHex: ex.Metadata}, "version": 2}
		} else {
			// v1: the asset name as UTF-8 text when it is; Blockfrost matched
			// the non-UTF-8 9a56 by its hex spelling.
			key := nameHex
			if text, ok := id.NameText(); ok {
				key = text
			}
			label = map[string]any{ex.PolicyID: map[string]any{key: ex.Metadata}}
		}
		raw, _ := json.Marshal(label)
		got, ok := DecodeCIP25(raw, id)
		if (w == nil) == ok || !reflect.DeepEqual(got, w) {
			t.Errorf("%s:\n got  %s (%v)\n want %s", ex.Test, js(got), ok, js(w))
		}
	}
}

func TestDecodeCIP25Shapes(t *testing.T) {
	policy := "d5e6bf0500378d4f0da4e8dde6becec7621cd8cbf5cbb9b87013d4cc"
	id, _ := ParseAssetID(policy + "." + hex.EncodeToString([]byte("Bud")))
	cases := map[string]struct {
		json string
		want *AssetMetadata
	}{
		"v1":                 {`{"` + policy + `":{"Bud":{"name":"B","ticker":"BUD","url":"https://b.io"}}}`, &AssetMetadata{Name: "B", Ticker: strp("BUD"), URL: strp("https://b.io")}},
		"v1 upper policy":    {`{"` + strings.ToUpper(policy) + `":{"Bud":{"name":"B"}}}`, &AssetMetadata{Name: "B"}},
		"v1 hex name key":    {`{"` + policy + `":{"427564":{"name":"B"}}}`, &AssetMetadata{Name: "B"}},
		"v2 string version":  {`{"0x` + policy + `":{"0x427564":{"name":"B"}},"version":"2"}`, &AssetMetadata{Name: "B"}},
		"v2 without version": {`{"0x` + policy + `":{"0x427564":{"name":"B"}}}`, &AssetMetadata{Name: "B"}},
		"chunked description": {`{"` + policy + `":{"Bud":{"name":["B","u","d"],"description":["a","b"],"image":["ipfs://","x"]}}}`,
			&AssetMetadata{Name: "Bud", Description: strp("ab"), Image: strp("ipfs://x")}},
		"website as url":     {`{"` + policy + `":{"Bud":{"name":"B","website":"https://w"}}}`, &AssetMetadata{Name: "B", URL: strp("https://w")}},
		"mixed chunk types":  {`{"` + policy + `":{"Bud":{"name":"B","image":["a",1]}}}`, &AssetMetadata{Name: "B"}},
		"other asset only":   {`{"` + policy + `":{"Other":{"name":"B"}}}`, nil},
		"name is a number":   {`{"` + policy + `":{"Bud":{"name":5}}}`, nil},
		"entry not object":   {`{"` + policy + `":{"Bud":"x"}}`, nil},
		"policy not object":  {`{"` + policy + `":[1]}`, nil},
		"label is an array":  {`[1,2,3]`, nil},
		"label is a string":  {`"x"`, nil},
		"broken json":        {`{"a":`, nil},
		"empty chunks array": {`{"` + policy + `":{"Bud":{"name":[]}}}`, nil},
	}
	for label, c := range cases {
		got, ok := DecodeCIP25([]byte(c.json), id)
		if (c.want == nil) == ok || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %s (%v), want %s", label, js(got), ok, js(c.want))
		}
	}
}

// FuzzDecodeMetadata: no input makes either decoder panic.
func FuzzDecodeMetadata(f *testing.F) {
	f.Add([]byte(`{"constructor":0,"fields":[{"map":[{"k":{"bytes":"6e616d65"},"v":{"list":[{"bytes":"41"}]}}]},{"int":1}]}`))
	f.Add([]byte(`{"constructor":0,"fields":[{"map":[{"k":{"bytes":"373231"},"v":{"map":[{"k":{"bytes":""},"v":{"map":[]}}]}}]},{"int":4}]}`))
	f.Add([]byte(`{"0x00":{"0x":{"name":["a"]}},"version":2}`))
	f.Add([]byte(`{"constructor":0,"fields":[null,null]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		DecodeCIP68(b, AssetID{Name: []byte{0, 0x0d, 0xe1, 0x40}})
		DecodeCIP25(b, AssetID{})
	})
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
