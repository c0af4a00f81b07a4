package tlccfg

import (
	"reflect"
	"testing"
)

func TestParseModelConstants(t *testing.T) {
	cfg := `\* expect: pass
CONSTANTS
    Clients = {c1, c2,c3}
    MaxRequests = 1 MaxSeq=4
    Neg = -1
    Pair = <<c1, "x">>
    Empty = {}
    Op <- MyOp
    Def <- [Inner] Other
CONSTANT WithExpiry = TRUE \* comment
INIT Init
NEXT Next
INVARIANT TypeOK
`
	m, err := Parse([]byte(cfg))
	if err != nil {
		t.Fatal(err)
	}
	want := []Constant{
		{Name: "Clients", Value: "{c1, c2, c3}"},
		{Name: "MaxRequests", Value: "1"},
		{Name: "MaxSeq", Value: "4"},
		{Name: "Neg", Value: "-1"},
		{Name: "Pair", Value: `<<c1, "x">>`},
		{Name: "Empty", Value: "{}"},
		{Name: "Op", Value: "MyOp", Subst: true},
		{Name: "Def", Value: "Other", Subst: true, Module: "Inner"},
		{Name: "WithExpiry", Value: "TRUE"},
	}
	if !reflect.DeepEqual(m.Constants, want) {
		t.Errorf("constants\n got %+v\nwant %+v", m.Constants, want)
	}
	if m.Init != "Init" || m.Next != "Next" || !m.CheckDeadlock {
		t.Errorf("init %q next %q deadlock %v", m.Init, m.Next, m.CheckDeadlock)
	}
	if v, ok := m.Constant("MaxSeq"); !ok || v != "4" {
		t.Errorf("Constant(MaxSeq) = %q, %v", v, ok)
	}
	if _, ok := m.Constant("Op"); ok {
		t.Error("a substitution is not a value")
	}

	m, err = Parse([]byte("\\* expect: pass\nSPECIFICATION Spec\nCHECK_DEADLOCK FALSE\nSYMMETRY Perms\n"))
	if err != nil || m.CheckDeadlock || len(m.Unsupported) != 1 {
		t.Errorf("%+v, %v", m, err)
	}
}

func TestParseModelBadConstants(t *testing.T) {
	for _, body := range []string{
		"CONSTANTS X",
		"CONSTANTS X = ",
		"CONSTANTS X = {a, b",
		"CONSTANTS X = {a b}",
		"CONSTANTS X == 1",
		"CONSTANTS X = 1 = 2",
		"CONSTANTS X <- ",
		"CONSTANTS X <- [M]",
		"CONSTANTS X <- [M Op",
		"CONSTANTS X <- [] Op",
		"CONSTANTS X = [a]",
		"CONSTANTS X = \"open",
		"CHECK_DEADLOCK MAYBE",
	} {
		if _, err := Parse([]byte("\\* expect: pass\n" + body + "\n")); err == nil {
			t.Errorf("ParseModel accepted %q", body)
		}
	}
}
