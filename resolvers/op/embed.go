package op

import (
	"bytes"
	"database/sql"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/buger/jsonparser"
	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/frame-oss/payments-server/internal/platform/store"
)

// Embed declares the children of a parent resource that are read in the
// parent's own statement, so that an object with its children (an account
// with its capabilities, for one account or a page) is one statement:
//
//	var capabilitiesOfAccount = &op.Embed[models.Account, models.Capability]{
//		Column: "account_id", As: "capabilities_json",
//		Into: func(a *models.Account) *[]*models.Capability { return &a.Capabilities }}
//
// The parent's select carries one more column, a JSON array of the
// children, each an array of the child's columns in the order its Bun
// model declares them, built from that model's metadata; Load turns each
// into the child's model with Bun's own column scanners. The child's
// members are declared once, on its model (bun and json tags): a column
// added to it is read, and rendered, with nothing else to change. The
// columns the parent determines (its tenant's, and Column, which names
// the parent) are not carried: Load takes them from the parent.
//
// A positional array costs PostgreSQL less than an object per child (no
// keys to write), and the second statement it saves cost more than the
// aggregate when the capabilities column was measured (docs/performance.md,
// "Children in their parent's statement").
// Writes do not read children this way: a writer locks the parent and
// then reads its children in a statement of their own, which sees what a
// writer before it committed.
type Embed[P, C any] struct {
	// Column is the child's column naming its parent's id ("account_id").
	Column string
	// As names the column in the parent's select and the parent model's
	// scanonly field that receives it, a json.RawMessage
	// ("capabilities_json").
	As string
	// Into is where the parent keeps its children.
	Into func(parent *P) *[]*C
	// Where narrows the children, as SQL over the child's table alias
	// ("pm.status <> 'detached'"); empty: all of the parent's.
	Where string
	// Order orders the children, as SQL over the child's table alias
	// ("at.attempt"); empty: in no particular order.
	Order string

	once sync.Once
	plan embedPlan
}

// embedPlan is what an Embed learns once from the two models' metadata.
type embedPlan struct {
	sql          string          // the column, for the parent's select
	alias, table string          // the child's
	columns      []string        // the carried columns, as SQL over the child's alias
	carried      []carriedColumn // the child's columns in the aggregate, in order
	// The child's columns the parent determines, and the parent's fields
	// they are taken from (parentID: none for a reference, EmbedOne).
	merchant, livemode, parentID   *schema.Field // the child's
	pMerchant, pLivemode, pID, raw *schema.Field // the parent's
	inherited                      []inheritedColumn
}

// inheritedColumn is a column of the child the parent determines, and the
// parent's field it is taken from.
type inheritedColumn struct {
	child, parent *schema.Field
	// copied: the two fields have the same type, so the child's is set
	// to the parent's value as it is; otherwise the child's scanner is
	// given the value as a driver gives it (a uuid's 16 bytes, a bool).
	copied bool
}

// carriedColumn is one column of the child in the aggregate.
type carriedColumn struct {
	field *schema.Field
	// json marks a json or jsonb column: its scanner is given the
	// value's JSON text, as the driver gives such a column.
	json bool
	// scanner marks a type that reads the column itself (sql.Scanner),
	// which may take a JSON object's or array's text.
	scanner bool
	// text marks a string, or a pointer to one, that takes a JSON string
	// as it is: set in place, without handing the value to Bun's scanner
	// as an interface (an allocation per member).
	text bool
	// uuid marks a uuid.UUID (not a pointer to one), parsed in place from
	// its JSON string for the same reason.
	uuid bool
	// textScanner marks a scanner that also reads a JSON string's content
	// as a string (a timestamp), handed to it without boxing it.
	textScanner bool
}

// textScanner is a sql.Scanner that reads a column's JSON string as Scan
// reads that string (wire.Timestamp, wire.ISOTime): the aggregate's
// timestamps are handed over without an interface holding each, two
// allocations of every capability of a page.
type textScanner interface {
	ScanText(s string) error
}

// init learns the plan from the models, once; a declaration that does not
// fit them panics, at start-up.
func (e *Embed[P, C]) init() *embedPlan {
	e.once.Do(func() {
		e.plan = newEmbedPlan(reflect.TypeFor[P](), reflect.TypeFor[C](), e.Column, e.As, nil)
		var b strings.Builder
		b.WriteString("(SELECT coalesce(json_agg(json_build_array(" + strings.Join(e.plan.columns, ", ") + ")")
		if e.Order != "" {
			b.WriteString(" ORDER BY " + e.Order)
		}
		b.WriteString("), '[]')")
		e.plan.from(&b, fmt.Sprintf("%s.%s = ?TableAlias.id", e.plan.alias, e.plan.parentID.SQLName), e.Where)
		b.WriteString(") AS " + string(e.plan.raw.SQLName))
		e.plan.sql = b.String()
	})
	return &e.plan
}

// newEmbedPlan learns from the models of the parent and the child what
// the child's columns are and which the parent determines: its tenant's,
// and parentColumn (the child's column naming the parent) when there is
// one. only, when not empty, names the child's columns carried (with its
// id and its tenant's): a reference needs a few of a large row's.
func newEmbedPlan(parentType, childType reflect.Type, parentColumn, as string, only []string) embedPlan {
	child := store.ModelTable(childType)
	parent := store.ModelTable(parentType)
	if child.Alias == parent.Alias {
		panic(fmt.Sprintf("op: %s and %s share the alias %s", child.Name, parent.Name, child.Alias))
	}
	p := embedPlan{merchant: mustField(child, "merchant_id"), livemode: mustField(child, "livemode"),
		pMerchant: mustField(parent, "merchant_id"), pLivemode: mustField(parent, "livemode"), pID: mustField(parent, "id"),
		raw: mustField(parent, as), alias: string(child.SQLAlias), table: string(child.SQLName)}
	if parentColumn != "" {
		p.parentID = mustField(child, parentColumn)
	}
	inherit := func(c, pf *schema.Field) {
		p.inherited = append(p.inherited, inheritedColumn{child: c, parent: pf, copied: c.StructField.Type == pf.StructField.Type})
	}
	inherit(p.merchant, p.pMerchant)
	inherit(p.livemode, p.pLivemode)
	if p.parentID != nil {
		inherit(p.parentID, p.pID)
	}
	if p.raw.IndirectType != reflect.TypeFor[json.RawMessage]() || !p.raw.Tag.HasOption("scanonly") {
		panic(fmt.Sprintf("op: %s.%s must be a scanonly json.RawMessage", parent.TypeName, p.raw.GoName))
	}
	fields := child.Fields
	if len(only) > 0 {
		fields = []*schema.Field{mustField(child, "id")}
		for _, name := range only {
			if f := mustField(child, name); f != fields[0] {
				fields = append(fields, f)
			}
		}
	}
	for _, f := range fields {
		if f == p.merchant || f == p.livemode || f == p.parentID {
			continue
		}
		if f.Tag.HasOption("array") {
			panic(fmt.Sprintf("op: %s.%s is an array column, which an aggregate does not carry", child.TypeName, f.GoName))
		}
		p.columns = append(p.columns, string(child.SQLAlias)+"."+string(f.SQLName))
		p.carried = append(p.carried, carriedColumn{field: f, json: isJSONColumn(f), scanner: isScanner(f), text: isText(f),
			uuid:        f.StructField.Type == reflect.TypeFor[uuid.UUID](),
			textScanner: !isJSONColumn(f) && reflect.PointerTo(f.StructField.Type).Implements(reflect.TypeFor[textScanner]())})
	}
	return p
}

// from writes the aggregate's FROM and WHERE: the child's rows of the
// parent's tenant that match (SQL over the child's alias and the parent's
// ?TableAlias), narrowed by where when set.
func (p *embedPlan) from(b *strings.Builder, match, where string) {
	fmt.Fprintf(b, " FROM %[1]s AS %[2]s WHERE %[2]s.merchant_id = ?TableAlias.merchant_id AND %[2]s.livemode = ?TableAlias.livemode AND %[3]s",
		p.table, p.alias, match)
	if where != "" {
		b.WriteString(" AND (" + where + ")")
	}
}

func mustField(t *schema.Table, column string) *schema.Field {
	f, err := t.Field(column)
	if err != nil {
		panic(fmt.Sprintf("op: %v", err))
	}
	return f
}

// isJSONColumn tells a json or jsonb column: one its tag types so, or one
// Bun stores as JSON by itself (a struct, map or slice that is not a
// sql.Scanner: a Scanner reads the column as the driver gives it).
func isJSONColumn(f *schema.Field) bool {
	isJSON := func(t string) bool { t = strings.ToLower(t); return t == "json" || t == "jsonb" }
	if typ, ok := f.Tag.Option("type"); ok {
		return isJSON(typ)
	}
	return !isScanner(f) && isJSON(f.DiscoveredSQLType)
}

// isText tells a plain string column: a string kind (or a pointer to one)
// that reads no column itself.
func isText(f *schema.Field) bool {
	t := reflect.PointerTo(f.IndirectType)
	return f.IndirectType.Kind() == reflect.String && !isJSONColumn(f) && !isScanner(f) &&
		!t.Implements(reflect.TypeFor[encoding.TextUnmarshaler]())
}

func isScanner(f *schema.Field) bool {
	return reflect.PointerTo(f.IndirectType).Implements(reflect.TypeFor[sql.Scanner]())
}

// Select adds the children's column to a select of parents that already
// reads the parent's own columns (Table.Select, a prepared read).
func (e *Embed[P, C]) Select(q *bun.SelectQuery) *bun.SelectQuery {
	return q.ColumnExpr(e.init().sql)
}

// Load fills each parent's children (Into) from its column, and empties
// the column. A parent read without the column is an error, never a
// parent without children.
func (e *Embed[P, C]) Load(parents ...*P) error {
	p := e.init()
	return eachColumn(p, e.As, parents, func(parent *P, pv reflect.Value, column []byte) error {
		children, err := decode[C](p, column, pv)
		if err == nil {
			*e.Into(parent) = children
		}
		return err
	})
}

// eachColumn hands fill each parent's embedded column (named as), then
// empties the column. A parent read without the column is an error, never
// a parent without what it embeds; fill's error names the parent.
func eachColumn[P any](p *embedPlan, as string, parents []*P, fill func(parent *P, pv reflect.Value, column []byte) error) error {
	for _, parent := range parents {
		pv := reflect.ValueOf(parent).Elem()
		raw := p.raw.Value(pv)
		if raw.IsNil() {
			return fmt.Errorf("op: %s read without its column %s", pv.Type().Name(), as)
		}
		if err := fill(parent, pv, raw.Bytes()); err != nil {
			return fmt.Errorf("op: %s of %s %v: %w", as, pv.Type().Name(), p.pID.Value(pv).Interface(), err)
		}
		raw.SetZero()
	}
	return nil
}

// decode reads the column of the parent pv into new children.
func decode[C any](p *embedPlan, column []byte, pv reflect.Value) ([]*C, error) {
	// The children of a parent are allocated together (a page of 50
	// accounts has 150 capabilities); the count is an estimate (a string
	// may hold "],"), so any child beyond it is allocated alone.
	estimate := bytes.Count(column, []byte("],")) + 1
	children := make([]*C, 0, estimate)
	block := make([]C, estimate)
	col := embedColumn{raw: column, text: string(column)}
	var child reflect.Value
	n := 0
	member := func(v []byte, t jsonparser.ValueType, _ int, err error) error {
		if err != nil {
			return err
		}
		if n == len(p.carried) {
			return fmt.Errorf("a child of more than %d columns", len(p.carried))
		}
		carried := p.carried[n]
		n++
		switch {
		case carried.text && (t == jsonparser.String || t == jsonparser.Null):
			err = col.setText(child, carried.field, v, t)
		case carried.uuid && (t == jsonparser.String || t == jsonparser.Null):
			err = setUUID(child, carried.field, v, t)
		case carried.textScanner && t == jsonparser.String:
			err = col.scanText(child, carried.field, v)
		default:
			var src any
			if src, err = col.value(v, t, carried); err == nil {
				err = carried.field.ScanValue(child, src)
			}
		}
		if err != nil {
			return fmt.Errorf("column %s: %w", carried.field.Name, err)
		}
		return nil
	}
	_, err := jsonparser.ArrayEachErr(column, func(row []byte, t jsonparser.ValueType, _ int, err error) error {
		if err != nil {
			return err
		}
		if t != jsonparser.Array {
			return fmt.Errorf("a child is a JSON %s, not an array", t)
		}
		var c *C
		if len(block) > 0 {
			c, block = &block[0], block[1:]
		} else {
			c = new(C)
		}
		child, n = reflect.ValueOf(c).Elem(), 0
		if _, err := jsonparser.ArrayEachErr(row, member); err != nil {
			return err
		}
		if n != len(p.carried) {
			return fmt.Errorf("a child of %d columns, want %d", n, len(p.carried))
		}
		if err := inherit(p, child, pv); err != nil {
			return err
		}
		children = append(children, c)
		return nil
	})
	return children, err
}

// inherit sets the child's columns that its parent pv determines.
func inherit(p *embedPlan, child, pv reflect.Value) error {
	for _, col := range p.inherited {
		value := col.parent.Value(pv)
		if col.copied {
			col.child.Value(child).Set(value)
			continue
		}
		var src any
		if value.Kind() == reflect.Bool {
			src = value.Bool()
		} else {
			src = uuidBytes(value)
		}
		if err := col.child.ScanValue(child, src); err != nil {
			return err
		}
	}
	return nil
}

// uuidBytes is a uuid field's 16 bytes, which a uuid's scanner takes as
// they are.
func uuidBytes(v reflect.Value) []byte {
	if v.Kind() != reflect.Array || v.Len() != 16 || v.Type().Elem().Kind() != reflect.Uint8 {
		panic(fmt.Sprintf("op: %s is not a uuid", v.Type()))
	}
	b := make([]byte, 16)
	reflect.Copy(reflect.ValueOf(b), v)
	return b
}

// Embedding is a resource's children read in its own statement, as a
// Table declares them (an *Embed with the resource as its parent).
type Embedding[M any] interface {
	Select(q *bun.SelectQuery) *bun.SelectQuery
	Load(parents ...*M) error
}

// EmbedOne declares an object a resource refers to that is read in the
// resource's own statement, as Embed does for its children: the one row
// of another table that a column of the parent names (an invoice's
// customer, a subscription's product).
//
//	var customerOfInvoice = &op.EmbedOne[models.Invoice, models.Customer]{
//		Column: "customer_id", As: "customer_json", Only: []string{"name"},
//		Into: func(inv *models.Invoice) **models.Customer { return &inv.PayerCustomer }}
//
// The referred object is read into its own model, from its columns as the
// model declares them (those of Only, when set, with its id: a reference
// rendered in a short form needs a few of a large row's), so its members
// are declared once, on its model; what the parent shows of it is derived
// from that model. The parent's column naming no row (NULL, or a row of
// another tenant) leaves Into nil.
type EmbedOne[P, C any] struct {
	// Column is the parent's column naming the object's id
	// ("customer_id").
	Column string
	// As names the column in the parent's select and the parent model's
	// scanonly json.RawMessage field that receives it ("customer_json").
	As string
	// Into is where the parent keeps the object.
	Into func(parent *P) **C
	// Only narrows the object's columns read to these (and its id);
	// empty: all of them.
	Only []string

	once sync.Once
	plan embedPlan
}

func (e *EmbedOne[P, C]) init() *embedPlan {
	e.once.Do(func() {
		e.plan = newEmbedPlan(reflect.TypeFor[P](), reflect.TypeFor[C](), "", e.As, e.Only)
		mustField(store.ModelTable(reflect.TypeFor[P]()), e.Column)
		var b strings.Builder
		// One row's array, or JSON null for none: a column that is not
		// JSON at all (SQL NULL) is a read without it.
		b.WriteString("coalesce((SELECT json_build_array(" + strings.Join(e.plan.columns, ", ") + ")")
		e.plan.from(&b, fmt.Sprintf("%s.id = ?TableAlias.%s", e.plan.alias, e.Column), "")
		b.WriteString("), 'null') AS " + string(e.plan.raw.SQLName))
		e.plan.sql = b.String()
	})
	return &e.plan
}

// Select adds the object's column to a select of parents that already
// reads the parent's own columns.
func (e *EmbedOne[P, C]) Select(q *bun.SelectQuery) *bun.SelectQuery {
	return q.ColumnExpr(e.init().sql)
}

// Load fills each parent's object (Into; nil when its column names none)
// from its column, and empties the column. A parent read without the
// column is an error.
func (e *EmbedOne[P, C]) Load(parents ...*P) error {
	p := e.init()
	return eachColumn(p, e.As, parents, func(parent *P, pv reflect.Value, column []byte) error {
		*e.Into(parent) = nil
		one := bytes.TrimSpace(column)
		if bytes.Equal(one, []byte("null")) {
			return nil
		}
		rows, err := decode[C](p, append(append([]byte{'['}, one...), ']'), pv)
		if err != nil {
			return err
		}
		if len(rows) != 1 {
			return fmt.Errorf("%d objects", len(rows))
		}
		*e.Into(parent) = rows[0]
		return nil
	})
}
