package chaingen

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"
)

// Anchors and the off-chain documents db-sync fetches for them (its
// off-chain vote fetcher, on by default): the document's bytes and JSON in
// off_chain_vote_data (hash = the anchor's data_hash when they match),
// the fields of its kind (off_chain_vote_drep_data for CIP-119 DRep
// metadata, off_chain_vote_gov_action_data for CIP-108 proposals), its
// references and authors; a failed fetch or a hash mismatch leaves an
// off_chain_vote_fetch_error row instead.

// votingAnchor writes an anchor recorded in the current block.
func (g *gen) votingAnchor(url string, hash []byte, typ string) int64 {
	g.ids.votingAnchor++
	g.t.votingAnchor.int(g.ids.votingAnchor).text(url).bytea(hash).text(typ).int(g.blockID).end()
	return g.ids.votingAnchor
}

// fetchTime is when db-sync's fetcher got to an anchor of this block.
func (g *gen) fetchTime() time.Time { return g.slotTime(g.slot).Add(3 * time.Minute) }

func (g *gen) fetchError(anchor int64, msg string) {
	g.ids.offChainVoteFetchError++
	g.t.offChainVoteFetchError.int(g.ids.offChainVoteFetchError).int(anchor).text(msg).ts(g.fetchTime()).int(0).end()
}

// offChainVoteData writes a fetched document; comment is the body's
// comment (NULL when empty).
func (g *gen) offChainVoteData(anchor int64, doc []byte, comment string) int64 {
	g.ids.offChainVoteData++
	t := g.t.offChainVoteData.int(g.ids.offChainVoteData).int(anchor).bytea(hashOf(doc)).text(string(doc)).bytea(doc).
		null().text("en-us")
	if comment == "" {
		t.null()
	} else {
		t.text(comment)
	}
	t.bool(true).end()
	return g.ids.offChainVoteData
}

func (g *gen) voteReference(data int64, label, uri string) {
	g.ids.offChainVoteReference++
	g.t.offChainVoteReference.int(g.ids.offChainVoteReference).int(data).text(label).text(uri).null().null().end()
}

// cip100Context is the JSON-LD context the documents carry (shortened).
var cip100Context = map[string]any{
	"@language": "en-us",
	"CIP100":    "https://github.com/cardano-foundation/CIPs/blob/master/CIP-0100/README.md#",
	"CIP108":    "https://github.com/cardano-foundation/CIPs/blob/master/CIP-0108/README.md#",
	"CIP119":    "https://github.com/cardano-foundation/CIPs/blob/master/CIP-0119/README.md#",
}

type docRef struct {
	Type  string `json:"@type"`
	Label string `json:"label"`
	URI   string `json:"uri"`
}

type drepBody struct {
	GivenName      string `json:"givenName"`
	Objectives     string `json:"objectives"`
	Motivations    string `json:"motivations"`
	Qualifications string `json:"qualifications"`
	PaymentAddress string `json:"paymentAddress"`
	Image          struct {
		Type       string `json:"@type"`
		ContentURL string `json:"contentUrl"`
		SHA256     string `json:"sha256"`
	} `json:"image"`
	References []docRef `json:"references"`
}

func cip119Body(name string, rev int, payment string) drepBody {
	b := drepBody{GivenName: name,
		Objectives:     fmt.Sprintf("%s votes for a sustainable treasury and predictable protocol parameters (revision %d).", name, rev+1),
		Motivations:    "We have run stake pools and community tooling since the Shelley era.",
		Qualifications: "Former protocol engineers and community organisers.",
		PaymentAddress: payment,
		References: []docRef{{Type: "Link", Label: "Website", URI: "https://dreps.example.com/" + slug(name)},
			{Type: "Identity", Label: "X", URI: "https://x.example.com/" + slug(name)}},
	}
	b.Image.Type = "ImageObject"
	b.Image.ContentURL = "https://dreps.example.com/" + slug(name) + ".png"
	b.Image.SHA256 = hex.EncodeToString(hashOf([]byte(name)))
	return b
}

// cip119Doc is a DRep's CIP-119 document, as its anchor URL serves it.
func cip119Doc(name string, rev int, payment string) []byte {
	return mustJSON(map[string]any{"@context": cip100Context, "hashAlgorithm": "blake2b-256", "authors": []any{},
		"body": cip119Body(name, rev, payment)})
}

// govActionBody is a proposal's CIP-108 body.
type govActionBody struct {
	Title      string   `json:"title"`
	Abstract   string   `json:"abstract"`
	Motivation string   `json:"motivation"`
	Rationale  string   `json:"rationale"`
	References []docRef `json:"references"`
}

type docAuthor struct {
	Name    string `json:"name"`
	Witness struct {
		Algorithm string `json:"witnessAlgorithm"`
		PublicKey string `json:"publicKey"`
		Signature string `json:"signature"`
	} `json:"witness"`
}

// govActionAnchor writes a proposal's anchor (type gov_action) and its
// fetched CIP-108 document, or a fetch error when unreachable.
func (g *gen) govActionAnchor(p *proposal, unreachable bool) int64 {
	url := fmt.Sprintf("https://gov.example.com/proposals/%s.jsonld", slug(p.title))
	body := govActionBody{Title: p.title,
		Abstract:   fmt.Sprintf("This %s action proposes: %s.", p.kind, p.title),
		Motivation: "The community asked for it in the workshops of the previous epochs.",
		Rationale:  "It keeps the ledger sound and the treasury accountable.",
		References: []docRef{{Type: "Other", Label: "Discussion", URI: "https://forum.example.com/t/" + slug(p.title)}},
	}
	var a docAuthor
	a.Name = "SyncGate Governance Desk"
	a.Witness.Algorithm = "ed25519"
	a.Witness.PublicKey = hex.EncodeToString(g.gbytes(32))
	a.Witness.Signature = hex.EncodeToString(g.gbytes(64))
	doc := mustJSON(map[string]any{"@context": cip100Context, "hashAlgorithm": "blake2b-256",
		"authors": []docAuthor{a}, "body": body})
	id := g.votingAnchor(url, hashOf(doc), "gov_action")
	if unreachable {
		g.fetchError(id, fmt.Sprintf("Connection failure error when fetching metadata from %s: "+
			"HttpExceptionRequest (ConnectionFailure Network.Socket.connect: does not exist (No route to host))", url))
		return id
	}
	data := g.offChainVoteData(id, doc, "")
	g.ids.offChainVoteGovActionData++
	g.t.offChainVoteGovActionData.int(g.ids.offChainVoteGovActionData).int(data).text(body.Title).text(body.Abstract).
		text(body.Motivation).text(body.Rationale).end()
	g.ids.offChainVoteAuthor++
	g.t.offChainVoteAuthor.int(g.ids.offChainVoteAuthor).int(data).text(a.Name).text(a.Witness.Algorithm).
		text(a.Witness.PublicKey).text(a.Witness.Signature).null().end()
	for _, r := range body.References {
		g.voteReference(data, r.Label, r.URI)
	}
	return id
}

// voteAnchor writes a vote's rationale anchor (type vote) and its fetched
// document, whose comment db-sync keeps.
func (g *gen) voteAnchor(voter string, p *proposal, n int) int64 {
	url := fmt.Sprintf("https://votes.example.com/%s/%s-%d.jsonld", slug(voter), slug(p.title), n)
	comment := fmt.Sprintf("%s explains its vote on %q.", voter, p.title)
	doc := mustJSON(map[string]any{"@context": cip100Context, "hashAlgorithm": "blake2b-256", "authors": []any{},
		"body": map[string]any{"comment": comment}})
	id := g.votingAnchor(url, hashOf(doc), "vote")
	g.offChainVoteData(id, doc, comment)
	return id
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// slug is a lower-case, dash-separated form of s for URLs.
func slug(s string) string {
	b := make([]byte, 0, len(s))
	dash := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
			dash = false
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
			dash = false
		default:
			if !dash && len(b) > 0 {
				b = append(b, '-')
				dash = true
			}
		}
	}
	for len(b) > 0 && b[len(b)-1] == '-' {
		b = b[:len(b)-1]
	}
	return string(b)
}
