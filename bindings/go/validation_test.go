package longstraw

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// validationTable is tests/validation/rules.json, shared by every language's tests.
type validationTable struct {
	Classes map[string]map[string]any `json:"classes"`
	Rules   []struct {
		Rule  string           `json:"rule"`
		Op    string           `json:"op"`
		Langs []string         `json:"langs"`
		Cases []validationCase `json:"cases"`
	} `json:"rules"`
}

type validationCase struct {
	OK       bool              `json:"ok"`
	Error    string            `json:"error"`
	Message  json.RawMessage   `json:"message"`
	Langs    []string          `json:"langs"`
	IDs      []json.RawMessage `json:"ids"`
	ID       json.RawMessage   `json:"id"`
	Weight   json.RawMessage   `json:"weight"`
	K        *int              `json:"k"`
	Result   []string          `json:"result"`
	Bits     *int              `json:"bits"`
	Replicas *int              `json:"replicas"`
	Shape    []int             `json:"shape"`
	Label    json.RawMessage   `json:"label"`
	Place    *int              `json:"placement"`
	Set      string            `json:"set"`
}

var goErrors = map[string]error{
	"ErrInvalidNodeID": ErrInvalidNodeID, "ErrDuplicateNode": ErrDuplicateNode, "ErrUnknownNode": ErrUnknownNode,
	"ErrInvalidWeight": ErrInvalidWeight, "ErrInvalidArgument": ErrInvalidArgument,
	"ErrInvalidParameter": ErrInvalidParameter, "ErrInvalidDomain": ErrInvalidDomain,
	"ErrUnknownPlacement": ErrUnknownPlacement,
}

// bytesOf reads a table byte string: a JSON string, or {"len": N} for N bytes of 'x'.
func bytesOf(t *testing.T, raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n struct{ Len int }
	if err := json.Unmarshal(raw, &n); err != nil {
		t.Fatalf("byte string %s: %v", raw, err)
	}
	return strings.Repeat("x", n.Len)
}

func weightOf(t *testing.T, raw json.RawMessage) float64 {
	var f float64
	if json.Unmarshal(raw, &f) == nil {
		return f
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	switch s {
	case "nan":
		return math.NaN()
	case "inf":
		return math.Inf(1)
	case "-inf":
		return math.Inf(-1)
	case "-0.0":
		return math.Copysign(0, -1)
	}
	f, err := strconv.ParseFloat(s, 64) // C99 hex floats
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func fragment(t *testing.T, raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if f, ok := m["go"]; ok {
		return f
	}
	return m["default"]
}

func runValidation(t *testing.T, op string, c validationCase) error {
	switch op {
	case "ids":
		ids := make([]string, len(c.IDs))
		for i, raw := range c.IDs {
			ids[i] = bytesOf(t, raw)
		}
		_, err := New(ids)
		return err
	case "remove":
		r, _ := New([]string{"a"})
		return r.Remove(bytesOf(t, c.ID))
	case "weight":
		_, err := New([]string{"a"}, WithWeights(map[string]float64{"a": weightOf(t, c.Weight)}))
		return err
	case "k":
		r, _ := New([]string{"a", "b"})
		got, err := r.TopK("key", *c.K)
		distinct, errDistinct := r.TopKDistinct("key", *c.K)
		if (err == nil) != (errDistinct == nil) || (err == nil && !slices.Equal(distinct[:len(got)], got)) {
			t.Errorf("TopK and TopKDistinct disagree for k=%d: %v %v / %v %v", *c.K, got, err, distinct, errDistinct)
		}
		if err == nil && c.Result != nil && !slices.Equal(got, c.Result) {
			t.Errorf("TopK k=%d: %v, want %v", *c.K, got, c.Result)
		}
		return err
	case "partition_bits":
		_, err := NewTable([]string{"a"}, WithPartitionBits(uint8(*c.Bits)))
		return err
	case "replicas":
		_, err := NewTable([]string{"a"}, WithReplicas(*c.Replicas))
		return err
	case "shape":
		_, err := NewSkeleton([]string{"a"}, WithShape(uint8(c.Shape[0]), uint8(c.Shape[1])))
		return err
	case "domain":
		_, err := New([]string{"a"}, WithDomains(map[string]string{"a": bytesOf(t, c.Label)}))
		return err
	case "placement":
		_, err := New([]string{"a"}, WithPlacement(uint32(*c.Place)))
		return err
	case "go_unusable":
		var err error
		switch c.Set {
		case "nil *Rendezvous":
			var r *Rendezvous
			_, err = r.Owner("k")
			if r.Len() != 0 || r.Nodes() != nil || r.Add("a", 1) == nil {
				t.Errorf("nil *Rendezvous: Len, Nodes and Add must fail quietly")
			}
		case "zero Rendezvous":
			_, err = (&Rendezvous{}).TopK("k", 1)
		case "nil *Snapshot":
			var s *Snapshot
			_, err = s.Owners([]string{"k"})
			if s.Len() != 0 || s.Nodes() != nil || s.Close() == nil {
				t.Errorf("nil *Snapshot: Len, Nodes and Close must fail quietly")
			}
			if bits, ok := s.PartitionBits(); bits != 0 || ok {
				t.Errorf("nil *Snapshot: PartitionBits must be (0, false)")
			}
		case "zero Snapshot":
			_, err = (&Snapshot{}).TopKDistinct("k", 1)
		}
		return err
	}
	t.Fatalf("unknown op %q", op)
	return nil
}

// TestValidationTable checks every rule of tests/validation/rules.json that
// applies to Go: the error sentinel and a message fragment.
func TestValidationTable(t *testing.T) {
	data, err := os.ReadFile(testsPath("validation", "rules.json"))
	if err != nil {
		t.Fatal(err)
	}
	var table validationTable
	if err := json.Unmarshal(data, &table); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, rule := range table.Rules {
		for i, c := range rule.Cases {
			langs := rule.Langs
			if c.Langs != nil {
				langs = c.Langs
			}
			if !slices.Contains(langs, "go") {
				continue
			}
			checked++
			err := runValidation(t, rule.Op, c)
			if c.OK {
				if err != nil {
					t.Errorf("%s #%d: unexpected error %v", rule.Rule, i, err)
				}
				continue
			}
			name, _ := table.Classes[c.Error]["go"].(string)
			want := goErrors[name]
			var e *Error
			if want == nil || !errors.Is(err, want) || !errors.As(err, &e) {
				t.Errorf("%s #%d: got %v, want %s", rule.Rule, i, err, name)
				continue
			}
			if f := fragment(t, c.Message); !strings.Contains(err.Error(), f) {
				t.Errorf("%s #%d: message %q lacks %q", rule.Rule, i, err.Error(), f)
			}
			if len(err.Error()) > 400 {
				t.Errorf("%s #%d: message of %d bytes", rule.Rule, i, len(err.Error()))
			}
		}
	}
	if checked < 40 {
		t.Errorf("only %d cases for go", checked)
	}
}
