package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// A model plan is what reading rows straight from pgx needs to know of a
// model type, learned once from Bun's own metadata of it (ModelTable), so
// that a column is read into the field Bun would read it into and nothing
// is restated per model: for every column name Bun's scan accepts, where
// its field lies in the row's memory and which type pgx decodes it as.
//
// Fields of embedded structs (the tenant columns) lie at a fixed offset
// in the row. A field behind a pointer (a belongs-to relation joined into
// the statement, "source_payment_method__brand", or a struct embedded by
// pointer) lies in a struct allocated when the first non-NULL column of it
// is read, as Bun allocates it; while all its columns are NULL the pointer
// stays nil, as with Bun.

// modelPlan is a model type's columns.
type modelPlan struct {
	// fallback says why rows of the type are read by Bun instead ("" when
	// they are not): a has-many or many-to-many relation, which Bun reads
	// with a statement of its own after the rows.
	fallback string
	table    *schema.Table

	mu      sync.RWMutex
	columns map[string]*columnPlan // by column name, as statements name them
}

// columnPlan is where one column goes.
type columnPlan struct {
	name string
	// hops are the pointers to follow (and allocate when nil) from the
	// row to the struct holding the field: none for a field of the row
	// itself or of a struct embedded by value.
	hops []pointerHop
	// offset is the field's offset in the struct the hops end at.
	offset uintptr
	// dest is the type pgx decodes the column into through a pointer to
	// the field (T for a field of type T, unless a cheaper one has the same
	// memory: [16]byte for a uuid.UUID).
	dest reflect.Type
	// scansNull: the field's type reads NULL itself (sql.Scanner): it is
	// given NULL as Bun gives it. Every other field keeps its zero value
	// for NULL, as Bun leaves it: a row starts zeroed.
	scansNull bool
	// uuid marks a uuid.UUID or *uuid.UUID field, whose text is parsed by
	// the uuid package in place.
	uuid uuidField
	// rawMessage marks a json.RawMessage field, which takes a JSON
	// column's text as it is.
	rawMessage bool
	// boolean marks a bool field, set from PostgreSQL's text of a boolean
	// (t or f) in place: pgx's text decoding of a bool lower-cases a copy
	// of it first, an allocation for every row's livemode.
	boolean bool
}

// uuidField tells a uuid.UUID field from a *uuid.UUID one.
type uuidField uint8

const (
	notUUID uuidField = iota
	uuidValue
	uuidPointer
)

// pointerHop is one pointer between the row and a field.
type pointerHop struct {
	offset uintptr
	alloc  reflect.Type // the struct the pointer points to
}

var modelPlans sync.Map // reflect.Type → *modelPlan

// The hooks Bun calls around each row it scans.
var (
	beforeScanRowHook = reflect.TypeFor[bun.BeforeScanRowHook]()
	afterScanRowHook  = reflect.TypeFor[bun.AfterScanRowHook]()
)

// planOf returns typ's plan, learned on first use.
func planOf(typ reflect.Type) *modelPlan {
	if p, ok := modelPlans.Load(typ); ok {
		return p.(*modelPlan)
	}
	tbl := ModelTable(typ)
	p := &modelPlan{table: tbl, columns: map[string]*columnPlan{}}
	for _, rel := range tbl.Relations {
		if rel.Type == schema.HasManyRelation || rel.Type == schema.ManyToManyRelation {
			p.fallback = fmt.Sprintf("%s.%s is a has-many or many-to-many relation", tbl.TypeName, rel.Field.GoName)
		}
	}
	if ptr := reflect.PointerTo(typ); ptr.Implements(beforeScanRowHook) || ptr.Implements(afterScanRowHook) {
		// Bun calls these around each row it scans; the direct read does
		// not, so such a model is read by Bun.
		p.fallback = fmt.Sprintf("%s has a Bun scan hook", tbl.TypeName)
	}
	got, _ := modelPlans.LoadOrStore(typ, p)
	return got.(*modelPlan)
}

// column returns where the column name goes; an error when Bun's scan has
// no field for it (a query with such a column fails, as Bun's does).
func (p *modelPlan) column(name string) (*columnPlan, error) {
	p.mu.RLock()
	c, ok := p.columns[name]
	p.mu.RUnlock()
	if ok {
		return c, nil
	}
	c, err := newColumnPlan(p.table, name)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	p.columns[name] = c
	p.mu.Unlock()
	return c, nil
}

// newColumnPlan finds the column's field as Bun's scan does: a field of
// the model (embedded structs included), else a column of a belongs-to
// relation joined into the statement ("relation__column").
func newColumnPlan(tbl *schema.Table, name string) (*columnPlan, error) {
	if f := tbl.LookupField(name); f != nil {
		return leafPlan(tbl.Type, f, name)
	}
	relName, rest, ok := strings.Cut(name, "__")
	if !ok {
		return nil, fmt.Errorf("store: %s does not have column %q", tbl.TypeName, name)
	}
	for _, rel := range tbl.Relations {
		if rel.Field.Name != relName || (rel.Type != schema.BelongsToRelation && rel.Type != schema.HasOneRelation) {
			continue
		}
		hops, offset, typ, err := walk(tbl.Type, rel.Field.Index)
		if err != nil {
			return nil, err
		}
		if typ.Kind() != reflect.Pointer || typ.Elem().Kind() != reflect.Struct {
			return nil, fmt.Errorf("store: relation %s.%s is not a pointer to a struct", tbl.TypeName, rel.Field.GoName)
		}
		hops = append(hops, pointerHop{offset: offset, alloc: typ.Elem()})
		inner, err := newColumnPlan(rel.JoinTable, rest)
		if err != nil {
			return nil, err
		}
		inner.name = name
		inner.hops = append(hops, inner.hops...)
		return inner, nil
	}
	return nil, fmt.Errorf("store: %s does not have column %q", tbl.TypeName, name)
}

// leafPlan places the field f of the struct type root.
func leafPlan(root reflect.Type, f *schema.Field, name string) (*columnPlan, error) {
	hops, offset, typ, err := walk(root, f.Index)
	if err != nil {
		return nil, err
	}
	c := &columnPlan{name: name, hops: hops, offset: offset, dest: destType(typ), scansNull: readsNull(typ)}
	switch typ {
	case uuidType:
		c.uuid = uuidValue
	case uuidPtrType:
		c.uuid = uuidPointer
	case rawMessageType:
		c.rawMessage = true
	case boolType:
		c.boolean = true
	}
	return c, nil
}

// walk follows a field's index path from root: the pointers crossed on
// the way, the field's offset in the struct it ends in, and its type.
func walk(root reflect.Type, index []int) (hops []pointerHop, offset uintptr, typ reflect.Type, err error) {
	typ = root
	for i, x := range index {
		if typ.Kind() != reflect.Struct {
			return nil, 0, nil, fmt.Errorf("store: %s has no field %v", root, index)
		}
		sf := typ.Field(x)
		offset += sf.Offset
		typ = sf.Type
		if i < len(index)-1 && typ.Kind() == reflect.Pointer {
			hops = append(hops, pointerHop{offset: offset, alloc: typ.Elem()})
			offset, typ = 0, typ.Elem()
		}
	}
	return hops, offset, typ, nil
}

var (
	uuidType       = reflect.TypeFor[uuid.UUID]()
	uuidPtrType    = reflect.TypeFor[*uuid.UUID]()
	scannerType    = reflect.TypeFor[sql.Scanner]()
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	boolType       = reflect.TypeFor[bool]()
)

// destType is the type pgx decodes a field of type typ as, through a
// pointer to the field. A uuid.UUID is a sql.Scanner, which pgx would
// hand the uuid's text (a string a row); as the [16]byte it is, pgx
// decodes it in place.
func destType(typ reflect.Type) reflect.Type {
	switch typ {
	case uuidType:
		return reflect.TypeFor[[16]byte]()
	case uuidPtrType:
		return reflect.TypeFor[*[16]byte]()
	}
	return typ
}

// readsNull tells a type that reads NULL itself: Bun hands NULL to a
// sql.Scanner (by value or by address); a pointer to one is set to nil.
func readsNull(typ reflect.Type) bool {
	if typ.Kind() == reflect.Pointer || typ == uuidType {
		return false
	}
	return typ.Implements(scannerType) || reflect.PointerTo(typ).Implements(scannerType)
}

// pointerAt is the interface holding a pointer of type *typ to the field
// at p, as pgx takes its destinations. reflect.NewAt makes it without an
// allocation: an interface holds a pointer directly.
func pointerAt(typ reflect.Type, p unsafe.Pointer) any {
	return reflect.NewAt(typ, p).Interface()
}
