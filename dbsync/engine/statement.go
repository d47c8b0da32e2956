package engine

import (
	"fmt"
	"maps"
	"slices"
	"text/template"

	"github.com/syncgate/syncgate/sql"
)

// Layout is what a statement's text may depend on: how db-sync was
// configured to store outputs. It is decided once per database at start
// (Capabilities.Layout) and selects one rendering of every statement.
type Layout struct {
	// Consumed: unspent = tx_out.consumed_by_tx_id IS NULL (db-sync's
	// tx_out.value consumed/prune/bootstrap); otherwise an anti-join on tx_in.
	Consumed bool
	// AddressTable: db-sync's address-table variant
	// (tx_out.use_address_table): tx_out.address_id -> address(address,
	// raw, has_script, payment_cred, stake_address_id) instead of the
	// address, address_has_script and payment_cred columns.
	AddressTable bool
	// SpentIndex (core only): the unspent-output statements read
	// syncgate's unspent-output index (internal/service/utxoindex, schema
	// syncgate_utxo) up to its high-water tx and tx_out after it. Not
	// detected at start: a core database switches to it at run time while the
	// index is current (Engine.UseSpentIndex), and back.
	SpentIndex bool
}

// Layouts is every layout a statement is rendered for at start, so a
// template that fails for one of them stops the process at boot.
var Layouts = []Layout{{}, {Consumed: true}, {AddressTable: true}, {Consumed: true, AddressTable: true},
	{SpentIndex: true}, {AddressTable: true, SpentIndex: true}}

// String names the layout as /v1/health and the logs do: core or
// consumed, with "+address" for the address-table variant and "+utxoindex"
// while the unspent-output index is read.
func (l Layout) String() string {
	s := "core"
	if l.Consumed {
		s = "consumed"
	}
	if l.AddressTable {
		s += "+address"
	}
	if l.SpentIndex {
		s += "+utxoindex"
	}
	return s
}

// Statement is one SQL file whose text may differ by layout. The file is a
// text/template over Layout; the differences between layouts live in the
// file itself ({{if .Consumed}}…{{end}}) or in the template functions below,
// so each statement has exactly one source. Each rendering is a
// sqlfiles.Statement named after the file and its parameters. `syncgate
// sql --layout L FILE` prints a rendering to paste into psql.
type Statement struct {
	rendered map[Layout]sqlfiles.Statement
}

// templateFuncs are the fragments several statements share. They are
// chosen here, in one place, for every statement that uses them. Each
// takes the alias of a tx_out (or collateral_tx_out) row.
func templateFuncs(l Layout) template.FuncMap {
	// pick returns core, or variant in the address-table variant.
	pick := func(core, variant string) string {
		if l.AddressTable {
			return variant
		}
		return core
	}
	return template.FuncMap{
		// unspent "o": the condition that output o has not been spent.
		"unspent": func(o string) string {
			if l.Consumed {
				return o + ".consumed_by_tx_id IS NULL"
			}
			return "NOT EXISTS (SELECT 1 FROM tx_in spend WHERE spend.tx_out_id = " + o + ".tx_id AND spend.tx_out_index = " + o + ".index)"
		},
		// addrKey "o": the column that says which address o pays, the one
		// syncgate's address indexes lead with.
		"addrKey": func(o string) string { return pick(o+".address", o+".address_id") },
		// addrParam "$1": the addrKey value of the address text $1. The
		// variant resolves it once (an InitPlan) through sg_address_address;
		// NULL for an address never seen, which matches no output.
		"addrParam": func(p string) string {
			return pick(p, "(SELECT a.id FROM address a WHERE a.address = "+p+" ORDER BY a.id LIMIT 1)")
		},
		// joinAddress "o": the join the columns below need (none in core).
		"joinAddress": func(o string) string {
			return pick("", "JOIN address "+o+"_addr ON "+o+"_addr.id = "+o+".address_id")
		},
		"address":     func(o string) string { return pick(o+".address", o+"_addr.address") },
		"hasScript":   func(o string) string { return pick(o+".address_has_script", o+"_addr.has_script") },
		"paymentCred": func(o string) string { return pick(o+".payment_cred", o+"_addr.payment_cred") },
		// args . "Key" value: the template data with one more key, for a
		// fragment that takes an argument beside the layout
		// ({{template "address_tx_ids" (args . "Guard" "")}}).
		"args": func(data map[string]any, key string, value any) map[string]any {
			out := maps.Clone(data)
			out[key] = value
			return out
		},
		// credentialIs "o" "$1": o pays an address whose payment credential
		// is $1 (variant: through idx_address_payment_cred).
		"credentialIs": func(o, p string) string {
			return pick(o+".payment_cred = "+p, o+".address_id = ANY(ARRAY(SELECT a.id FROM address a WHERE a.payment_cred = "+p+"))")
		},
	}
}

// Render returns the statement file (e.g. "dbsync/utxos_by_address.sql")
// as it runs in layout l with params: the template sees the Layout's
// fields (.Consumed) and params' keys, which pick among renderings of one
// file beyond the layout (.Order of a walk rendered both ways).
func Render(file string, l Layout, params map[string]any) (string, error) {
	data := map[string]any{"Consumed": l.Consumed, "AddressTable": l.AddressTable, "SpentIndex": l.SpentIndex}
	maps.Copy(data, params)
	return sqlfiles.Render(file, templateFuncs(l), data)
}

// Name is the name of file rendered with params: the file, then each
// parameter in key order ("dbsync/tx_history_page.sql Order=DESC").
func Name(file string, params map[string]any) string {
	name := file
	for _, k := range slices.Sorted(maps.Keys(params)) {
		name += fmt.Sprintf(" %s=%v", k, params[k])
	}
	return name
}

// render renders file for every layout. A defect in a template panics at
// start-up, like a missing file.
func render(file string, params map[string]any) *Statement {
	name := Name(file, params)
	s := &Statement{rendered: make(map[Layout]sqlfiles.Statement, len(Layouts))}
	for _, l := range Layouts {
		text, err := Render(file, l, params)
		if err != nil {
			panic(fmt.Sprintf("sql template %s (%s): %v", name, l, err))
		}
		s.rendered[l] = sqlfiles.Statement{Name: name, Text: text}
	}
	return s
}

// MustRender is one rendering of file, panicking on a defect (tests).
func MustRender(file string, l Layout, params map[string]any) sqlfiles.Statement {
	return render(file, params).For(l)
}

// Fixed renders file, a statement whose text no layout changes (it may
// use fragments.sql, but nothing that depends on the layout), and
// registers it like Prepared. It panics, like a missing file, when a
// layout would change the text: such a file wants Template.
func Fixed(file string) sqlfiles.Statement {
	s := render(file, nil)
	text := s.rendered[Layouts[0]]
	for _, l := range Layouts[1:] {
		if s.rendered[l].Text != text.Text {
			panic(fmt.Sprintf("sql template %s: the %s layout changes its text; register it with Template", file, l))
		}
	}
	return Prepared(text)
}

// Plan says how a statement runs in a layout.
type Plan int

const (
	GenericPlan Plan = iota // prepared, generic plan (see Prepared)
	CustomPlan              // prepared, planned for its values (see PreparedCustom)
	NotPrepared             // sent unprepared (rare statements planned for their values)
)

// Plan choices shared by several statements.
var (
	AlwaysGeneric = func(Layout) Plan { return GenericPlan }
	NeverPrepared = func(Layout) Plan { return NotPrepared }
	// CustomInCore: the core-mode history walk must be planned for the
	// address (its spent side depends on how often the address occurs); the
	// consumed walk is the same plain index walk for every address.
	CustomInCore = func(l Layout) Plan {
		if l.Consumed {
			return GenericPlan
		}
		return CustomPlan
	}
	// WithIndexOnly: a statement only the unspent-output index's layouts run.
	WithIndexOnly = func(l Layout) Plan {
		if l.SpentIndex {
			return GenericPlan
		}
		return NotPrepared
	}
)

// Template renders file for every layout and registers each rendering for
// preparation as planFor says.
func Template(file string, planFor func(Layout) Plan, params map[string]any) *Statement {
	s := render(file, params)
	for _, l := range Layouts {
		switch planFor(l) {
		case GenericPlan:
			register(&preparable, registered{stmt: s.rendered[l], layout: &l})
		case CustomPlan:
			register(&customOnly, registered{stmt: s.rendered[l], layout: &l})
		}
	}
	return s
}

// For returns the statement's rendering in layout l.
func (s *Statement) For(l Layout) sqlfiles.Statement { return s.rendered[l] }

// For returns s rendered for this database's layout now (see LayoutNow).
func (e *Engine) For(s *Statement) sqlfiles.Statement { return s.rendered[e.LayoutNow()] }
