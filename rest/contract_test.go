package rest_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/go-chi/chi/v5"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/frame-oss/payments-server/internal/platform/httpx"
)

// The contract test: every response the package's tests receive through
// testenv's clients must validate against the OpenAPI document the server
// serves. Each response is matched to its operation by the document's own
// path templates, then to the response its status declares (or the
// default, the error envelope), and its body is validated against that
// schema. A query parameter a successful request sent must be one the
// operation declares. Violations are collected and listed once each when
// the package's tests are done (TestMain), failing the package.

// documentURL is where the served document is registered for $refs.
const documentURL = "https://openapi.test/openapi.json"

// restContract is the package's one contract.
var restContract = &contract{violations: map[string]*violation{}}

type contract struct {
	load sync.Once
	err  error
	doc  map[string]any
	mux  *chi.Mux

	compileMu sync.Mutex
	compiler  *jsonschema.Compiler
	schemas   sync.Map // JSON pointer -> *jsonschema.Schema

	mu         sync.Mutex
	violations map[string]*violation
	checked    int
}

// violation is one distinct way responses broke the document.
type violation struct {
	count   int
	example string
}

// observe checks one response (testenv.ObserveResponse).
func (c *contract) observe(req *http.Request, status int, body []byte) {
	path := httpx.CanonicalPath(req.URL.Path) // the router's rule
	if !strings.HasPrefix(path, "/v1/") && !strings.HasPrefix(path, "/v2/") {
		return
	}
	c.load.Do(func() { c.err = c.fetch(req) })
	if c.err != nil {
		c.record("the document could not be loaded: "+c.err.Error(), "")
		return
	}
	pattern := c.mux.Find(chi.NewRouteContext(), req.Method, path)
	where := req.Method + " " + pattern + " " + strconv.Itoa(status)
	pointer := "#/components/responses/Error"
	if pattern == "" {
		where = req.Method + " (no operation) " + strconv.Itoa(status)
	} else {
		opPointer := "#/paths/" + escape(pattern) + "/" + strings.ToLower(req.Method)
		op := c.at(opPointer).(map[string]any)
		responses := op["responses"].(map[string]any)
		code := strconv.Itoa(status)
		if _, ok := responses[code]; !ok {
			code = "default"
		}
		pointer = opPointer + "/responses/" + code
		if status < 300 {
			c.checkQuery(where, req, op)
		}
	}
	c.mu.Lock()
	c.checked++
	c.mu.Unlock()
	response := c.at(pointer).(map[string]any)
	if ref, ok := response["$ref"].(string); ok {
		pointer = ref
		response = c.at(ref).(map[string]any)
	}
	content, _ := response["content"].(map[string]any)
	if content == nil {
		if len(bytes.TrimSpace(body)) > 0 {
			c.record(where+": a body where the document declares none", string(body))
		}
		return
	}
	if _, ok := content["application/json"]; !ok {
		return
	}
	schema, err := c.schema(pointer + "/content/application~1json/schema")
	if err != nil {
		c.record(where+": schema does not compile: "+err.Error(), "")
		return
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		c.record(where+": the body is not JSON", string(body))
		return
	}
	if err := schema.Validate(inst); err != nil {
		for _, problem := range problems(err) {
			c.record(where+": "+problem, string(body))
		}
	}
}

// checkQuery records each query parameter the request sent that op does
// not declare.
func (c *contract) checkQuery(where string, req *http.Request, op map[string]any) {
	declared := map[string]bool{}
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		if m, ok := p.(map[string]any); ok && m["in"] == "query" {
			declared[m["name"].(string)] = true
		}
	}
	for name := range req.URL.Query() {
		if !declared[name] {
			c.record(where+": query parameter "+name+" is not declared", req.URL.RawQuery)
		}
	}
}

// printer renders validation messages.
var printer = message.NewPrinter(language.English)

// arrayIndex makes locations of different items of a list one violation.
var arrayIndex = regexp.MustCompile(`/\d+(/|$)`)

// problems lists the leaf failures of a validation, each as the location
// in the body and what is wrong there.
func problems(err error) []string {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []string{err.Error()}
	}
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := "/" + strings.Join(e.InstanceLocation, "/")
			loc = arrayIndex.ReplaceAllString(loc, "/*$1")
			out = append(out, "at "+loc+": "+e.ErrorKind.LocalizedString(printer))
			return
		}
		for _, cause := range e.Causes {
			walk(cause)
		}
	}
	walk(ve)
	return out
}

// record notes one violation; the first body seen is its example.
func (c *contract) record(what, example string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.violations[what]
	if v == nil {
		if len(example) > 400 {
			example = example[:400] + "…"
		}
		v = &violation{example: example}
		c.violations[what] = v
	}
	v.count++
}

// fetch loads the document the server under test serves.
func (c *contract) fetch(req *http.Request) error {
	resp, err := http.Get(req.URL.Scheme + "://" + req.URL.Host + "/openapi.json")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /openapi.json answered %d", resp.StatusCode)
	}
	doc, err := jsonschema.UnmarshalJSON(resp.Body)
	if err != nil {
		return err
	}
	c.doc = doc.(map[string]any)
	c.compiler = jsonschema.NewCompiler()
	c.compiler.DefaultDraft(jsonschema.Draft2020)
	if err := c.compiler.AddResource(documentURL, doc); err != nil {
		return err
	}
	c.mux = chi.NewRouter()
	noop := func(http.ResponseWriter, *http.Request) {}
	for path, item := range c.doc["paths"].(map[string]any) {
		for method := range item.(map[string]any) {
			c.mux.MethodFunc(strings.ToUpper(method), path, noop)
		}
	}
	return nil
}

// schema compiles the schema at pointer once.
func (c *contract) schema(pointer string) (*jsonschema.Schema, error) {
	if s, ok := c.schemas.Load(pointer); ok {
		return s.(*jsonschema.Schema), nil
	}
	c.compileMu.Lock()
	defer c.compileMu.Unlock()
	s, err := c.compiler.Compile(documentURL + pointer)
	if err != nil {
		return nil, err
	}
	c.schemas.Store(pointer, s)
	return s, nil
}

// at is the document's value at a JSON pointer (#/a/b).
func (c *contract) at(pointer string) any {
	var v any = c.doc
	for _, token := range strings.Split(strings.TrimPrefix(pointer, "#/"), "/") {
		token = strings.NewReplacer("~1", "/", "~0", "~").Replace(token)
		v = v.(map[string]any)[token]
	}
	return v
}

// escape is a path as a JSON pointer token.
func escape(path string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(path)
}

// report lists every distinct violation once and says whether there were
// none.
func (c *contract) report() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.violations) == 0 {
		return true
	}
	whats := make([]string, 0, len(c.violations))
	for what := range c.violations {
		whats = append(whats, what)
	}
	sort.Strings(whats)
	fmt.Fprintf(os.Stderr, "\nOpenAPI contract: %d distinct violations in %d responses checked:\n", len(whats), c.checked)
	for _, what := range whats {
		v := c.violations[what]
		fmt.Fprintf(os.Stderr, "- %s (%d responses)\n", what, v.count)
		if v.example != "" {
			fmt.Fprintf(os.Stderr, "    e.g. %s\n", v.example)
		}
	}
	return false
}
